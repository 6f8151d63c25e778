//! Deadlines on request bodies, for every route: a body must keep arriving (no pause longer than
//! the read timeout) and be complete within the total timeout. Otherwise reading it fails with
//! a timed-out I/O error, which the extractors' error handlers and the upload route answer with
//! 408 `request_timeout`; the connection is then closed (its body was not read), so a client
//! trickling bytes holds neither a connection nor a temporary file for long.

use std::future::Future as _;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::header::{CONTENT_LENGTH, HeaderMap, TRANSFER_ENCODING, UPGRADE};
use actix_web::middleware::Next;
use actix_web::web::{self, Bytes};
use futures_util::Stream;
use tokio::time::{Instant, Sleep, sleep_until};

use crate::AppState;
use crate::config::BodyTimeouts;

/// Replaces the request's body with one that fails once a timeout passes.
pub async fn enforce(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let timeouts = req
        .app_data::<web::Data<AppState>>()
        .map(|state| state.body_timeouts);
    if let Some(timeouts) = timeouts.filter(|_| has_body(req.headers())) {
        let body = req.parts_mut().1.take();
        let timed: Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>> =
            Box::pin(TimedBody::new(body, timeouts));
        req.set_payload(Payload::from(timed));
    }
    next.call(req).await
}

/// Whether the request announces a body. A WebSocket upgrade has none: its stream of frames
/// (the live connection) lives as long as the connection, with its own heartbeat.
fn has_body(headers: &HeaderMap) -> bool {
    if headers.contains_key(UPGRADE) {
        return false;
    }
    headers.contains_key(TRANSFER_ENCODING)
        || headers
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .is_some_and(|length| length > 0)
}

/// Whether a body failed because it took too long.
pub fn timed_out(error: &PayloadError) -> bool {
    matches!(error, PayloadError::Io(io) if io.kind() == std::io::ErrorKind::TimedOut)
}

struct TimedBody {
    inner: Payload,
    read_timeout: Duration,
    /// When the next chunk is due.
    read_deadline: Pin<Box<Sleep>>,
    /// When the whole body is due.
    total_deadline: Pin<Box<Sleep>>,
    finished: bool,
}

impl TimedBody {
    fn new(inner: Payload, timeouts: BodyTimeouts) -> Self {
        let now = Instant::now();
        Self {
            inner,
            read_timeout: timeouts.read,
            read_deadline: Box::pin(sleep_until(now + timeouts.read)),
            total_deadline: Box::pin(sleep_until(now + timeouts.total)),
            finished: false,
        }
    }

    fn expired(&mut self, what: &str) -> Poll<Option<Result<Bytes, PayloadError>>> {
        self.finished = true;
        Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("the request body {what}"),
        )))))
    }
}

impl Stream for TimedBody {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.finished {
            return Poll::Ready(None);
        }
        // Checked first, so a steady trickle cannot outlast it.
        if self.total_deadline.as_mut().poll(cx).is_ready() {
            return self.expired("was not complete in time");
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                let next_due = Instant::now() + self.read_timeout;
                self.read_deadline.as_mut().reset(next_due);
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Ready(None) => {
                self.finished = true;
                Poll::Ready(None)
            }
            Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(error))),
            Poll::Pending => {
                if self.read_deadline.as_mut().poll(cx).is_ready() {
                    return self.expired("stopped arriving");
                }
                Poll::Pending
            }
        }
    }
}
