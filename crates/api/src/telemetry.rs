//! Structured logs with a request id on every line, and nothing personal in them.

use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use tracing::Span;
use tracing_actix_web::{DefaultRootSpanBuilder, RequestId, RootSpanBuilder, TracingLogger};
use tracing_subscriber::EnvFilter;

/// Logs to stdout: pretty by default, JSON lines with `RIFA_LOG_FORMAT=json`; levels from
/// `RUST_LOG` (default `info`).
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let json = std::env::var("RIFA_LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false);
    // A second init (tests) keeps the first subscriber.
    let _ = if json {
        // The current span is enough: the list would repeat it on every line.
        builder.json().with_span_list(false).try_init()
    } else {
        builder.try_init()
    };
}

/// The root span of a request: method, route pattern and path, never the query string (which
/// can hold a customer's name) nor any header.
pub struct PrivacyRootSpan;

impl RootSpanBuilder for PrivacyRootSpan {
    fn on_request_start(request: &ServiceRequest) -> Span {
        let request_id = request.extensions().get::<RequestId>().copied();
        tracing::info_span!(
            "http",
            http.method = %request.method(),
            http.route = request.match_pattern().unwrap_or_default(),
            http.path = request.path(),
            http.status = tracing::field::Empty,
            request_id = request_id.map(|id| id.to_string()).unwrap_or_default(),
        )
    }

    fn on_request_end<B: MessageBody>(
        span: Span,
        outcome: &Result<ServiceResponse<B>, actix_web::Error>,
    ) {
        if let Ok(response) = outcome {
            span.record("http.status", response.status().as_u16());
        }
        DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}

pub fn request_logger() -> TracingLogger<PrivacyRootSpan> {
    TracingLogger::<PrivacyRootSpan>::new()
}

/// Returns the request id as `X-Request-Id`, so a user's report can be matched to the logs.
pub async fn request_id_header(
    req: ServiceRequest,
    next: actix_web::middleware::Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let mut res = next.call(req).await?;
    let id: Option<String> = res
        .request()
        .extensions()
        .get::<RequestId>()
        .map(ToString::to_string);
    if let Some(value) = id.and_then(|id| HeaderValue::from_str(&id).ok()) {
        res.headers_mut()
            .insert(HeaderName::from_static("x-request-id"), value);
    }
    Ok(res)
}
