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
/// can hold a customer's name) nor any header. The path of a route that carries a signed token
/// (a proof's upload or download URL) is logged as its pattern: the token is a key.
pub struct PrivacyRootSpan;

impl RootSpanBuilder for PrivacyRootSpan {
    fn on_request_start(request: &ServiceRequest) -> Span {
        let request_id = request.extensions().get::<RequestId>().copied();
        let route = request.match_pattern().unwrap_or_default();
        tracing::info_span!(
            "http",
            http.method = %request.method(),
            http.route = route.as_str(),
            http.path = logged_path(&route, request.path()),
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

/// The path as logged: a route whose path carries a signed token is logged as its pattern.
fn logged_path<'a>(route: &'a str, path: &'a str) -> &'a str {
    if route.contains("{token}") {
        route
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use super::logged_path;

    #[test]
    fn signed_tokens_in_paths_never_reach_the_logs() {
        assert_eq!(
            logged_path("/api/uploads/{token}", "/api/uploads/eyJhbGciOi.secret"),
            "/api/uploads/{token}"
        );
        assert_eq!(
            logged_path("/api/proofs/{token}", "/api/proofs/eyJ.x.y"),
            "/api/proofs/{token}"
        );
        assert_eq!(
            logged_path("/api/raffles/{id}/purchase", "/api/raffles/7/purchase"),
            "/api/raffles/7/purchase"
        );
    }
}
