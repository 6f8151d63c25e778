//! Structured logs with a request id on every line, and nothing personal in them.

use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use tracing::Span;
use tracing_actix_web::{RequestId, RootSpanBuilder, TracingLogger};
use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::EnvFilter;

/// Logs to stdout: pretty by default, JSON lines with `RIFA_LOG_FORMAT=json`; levels from
/// `RUST_LOG` (default `info`). Lines are written by a background thread, so a slow log sink
/// never holds up a request; keep the returned guard alive until exit, it flushes on drop.
#[must_use = "dropping the guard stops the log writer"]
pub fn init() -> WorkerGuard {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let json = std::env::var("RIFA_LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json"));
    let (writer, guard) = tracing_appender::non_blocking(std::io::stdout());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_target(false);
    // A second init (tests) keeps the first subscriber.
    let _ = if json {
        // The current span is enough: the list would repeat it on every line.
        builder.json().with_span_list(false).try_init()
    } else {
        builder.try_init()
    };
    guard
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
        // Server errors were logged once, with their cause, where they happened (ApiError::internal).
        let status = match outcome {
            Ok(response) => response.status(),
            Err(error) => error.as_response_error().status_code(),
        };
        span.record("http.status", status.as_u16());
        if status.is_client_error() {
            tracing::debug!(parent: &span, http.status = status.as_u16(), "request refused");
        }
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
