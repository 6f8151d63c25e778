//! Structured logs with a request id on every line, and nothing personal in them.

use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use tracing::Span;
use tracing_actix_web::{RequestId, RootSpanBuilder, TracingLogger};
use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::SubscriberBuilder;
use tracing_subscriber::fmt::format::{Format, Json, JsonFields};

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
        json_lines(builder.json()).try_init()
    } else {
        builder.try_init()
    };
    guard
}

/// A JSON line carries every span it happened in, outermost first: the request's `http` span
/// (with its request id), then the handler's and the adapter's. The current span alone would
/// drop the request id from every line written inside a handler or an adapter call.
fn json_lines<T, F, W>(
    builder: SubscriberBuilder<JsonFields, Format<Json, T>, F, W>,
) -> SubscriberBuilder<JsonFields, Format<Json, T>, F, W> {
    builder.with_current_span(false).with_span_list(true)
}

/// The root span of a request: method, route pattern and path, never the query string (which
/// can hold a customer's name) nor any header. The path of a route that carries a signed token
/// (a proof's upload or download URL) is logged as its pattern: the token is a key.
pub(crate) struct PrivacyRootSpan;

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

pub(crate) fn request_logger() -> TracingLogger<PrivacyRootSpan> {
    TracingLogger::<PrivacyRootSpan>::new()
}

/// Returns the request id as `X-Request-Id`, so a user's report can be matched to the logs.
pub(crate) async fn request_id_header(
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
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use super::{json_lines, logged_path};

    /// Log lines written to memory.
    #[derive(Clone, Default)]
    struct Lines(Arc<Mutex<Vec<u8>>>);

    impl Write for Lines {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_line_written_inside_an_adapter_call_carries_the_request_id() {
        let lines = Lines::default();
        let writer = lines.clone();
        let subscriber = json_lines(
            tracing_subscriber::fmt()
                .with_writer(move || writer.clone())
                .json(),
        )
        .finish();

        tracing::subscriber::with_default(subscriber, || {
            let _request = tracing::info_span!("http", request_id = "req-7").entered();
            let _handler = tracing::info_span!("api.raffles.get.public").entered();
            let _adapter = tracing::info_span!("db.get_raffle", raffle.id = 42).entered();
            tracing::warn!("slow query");
        });

        let line: serde_json::Value = serde_json::from_slice(&lines.0.lock().unwrap()).unwrap();
        let names: Vec<&str> = line["spans"]
            .as_array()
            .unwrap()
            .iter()
            .map(|span| span["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["http", "api.raffles.get.public", "db.get_raffle"]);
        assert_eq!(line["spans"][0]["request_id"], "req-7");
        assert_eq!(line["spans"][2]["raffle.id"], 42);
    }

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
