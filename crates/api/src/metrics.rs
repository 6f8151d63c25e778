//! Prometheus metrics (issue 17). Counters and histograms are recorded where the work happens
//! (the request middleware below, the purchase route, the background loops, the live
//! connection); gauges that are a question to the database (the outbox's depth, the pool) are
//! asked when `/metrics` is scraped, so an idle server does no work for them.
//!
//! Without `RIFA_METRICS_TOKEN` no recorder is installed: every recording is a no-op and
//! `/metrics` answers 404.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use secrecy::SecretString;

/// Request durations, in seconds: the API's answers take milliseconds; a slow PDF a second.
const LATENCY_BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

/// One recorder per process (a global, as the `metrics` facade is); several servers in one
/// process (the tests) share it.
static RECORDER: OnceLock<Result<PrometheusHandle, String>> = OnceLock::new();

/// Where `/metrics` reads from, and the token that may read it.
#[derive(Clone)]
pub struct MetricsEndpoint {
    pub handle: PrometheusHandle,
    pub token: SecretString,
}

/// Installs the recorder when a token is configured.
///
/// # Errors
/// When the exporter cannot be built.
pub fn install(token: Option<&SecretString>) -> anyhow::Result<Option<MetricsEndpoint>> {
    let Some(token) = token else {
        return Ok(None);
    };
    let handle = RECORDER
        .get_or_init(|| {
            let handle = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full("rifa_http_request_duration_seconds".to_owned()),
                    &LATENCY_BUCKETS,
                )
                .and_then(PrometheusBuilder::install_recorder)
                .map_err(|e| e.to_string())?;
            spawn_upkeep(handle.clone());
            Ok(handle)
        })
        .clone()
        .map_err(|e| anyhow::anyhow!("failed to install the metrics recorder: {e}"))?;
    Ok(Some(MetricsEndpoint {
        handle,
        token: token.clone(),
    }))
}

/// Histograms keep their samples until upkeep folds them into buckets.
fn spawn_upkeep(handle: PrometheusHandle) {
    std::thread::Builder::new()
        .name("metrics-upkeep".to_owned())
        .spawn(move || {
            loop {
                std::thread::sleep(Duration::from_secs(5));
                handle.run_upkeep();
            }
        })
        .map(drop)
        .unwrap_or_else(|e| tracing::warn!(error = %e, "metrics upkeep not started"));
}

/// Counts every request by method, route pattern (never the path: ids would make a series per
/// purchase) and status, and times it.
///
/// # Errors
/// Only the handler's own.
pub async fn record(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if RECORDER.get().is_none() {
        return next.call(req).await;
    }
    let started = Instant::now();
    let method = req.method().as_str().to_owned();
    let route = req
        .match_pattern()
        .unwrap_or_else(|| "unmatched".to_owned());
    let response = next.call(req).await?;
    let status = response.status().as_u16().to_string();
    metrics::histogram!(
        "rifa_http_request_duration_seconds",
        "method" => method.clone(),
        "route" => route.clone()
    )
    .record(started.elapsed().as_secs_f64());
    metrics::counter!(
        "rifa_http_requests_total",
        "method" => method,
        "route" => route,
        "status" => status
    )
    .increment(1);
    Ok(response)
}

/// A purchase's outcome: `created`, `conflict` (numbers taken or too few left: the buyer picks
/// again), `refused` (any other 4xx) or `failed` (5xx).
pub fn purchase(status: actix_web::http::StatusCode, test: bool) {
    let outcome = if status.is_success() {
        "created"
    } else if status == actix_web::http::StatusCode::CONFLICT {
        "conflict"
    } else if status.is_client_error() {
        "refused"
    } else {
        "failed"
    };
    let kind = if test { "test" } else { "buyer" };
    metrics::counter!("rifa_purchases_total", "outcome" => outcome, "kind" => kind).increment(1);
}

pub fn holds_expired(count: u32) {
    metrics::counter!("rifa_holds_expired_total").increment(u64::from(count));
}

pub fn proofs_checked(count: u32) {
    metrics::counter!("rifa_proof_checks_total").increment(u64::from(count));
}

pub fn mail_delivered(sent: u32, failed: u32) {
    metrics::counter!("rifa_mail_deliveries_total", "result" => "sent").increment(u64::from(sent));
    metrics::counter!("rifa_mail_deliveries_total", "result" => "failed")
        .increment(u64::from(failed));
}

/// Counts a live connection while it is held.
pub struct LiveConnection(());

impl LiveConnection {
    pub fn open() -> Self {
        metrics::gauge!("rifa_live_connections").increment(1);
        Self(())
    }
}

impl Drop for LiveConnection {
    fn drop(&mut self) {
        metrics::gauge!("rifa_live_connections").decrement(1);
    }
}

/// The gauges asked at scrape time.
pub fn sampled(pending_mail: Option<u64>, pool: rifa_db::PoolUsage) {
    if let Some(pending) = pending_mail {
        let pending = u32::try_from(pending).map_or(f64::from(u32::MAX), f64::from);
        metrics::gauge!("rifa_mail_outbox_pending").set(pending);
    }
    let in_use = pool.open - pool.idle;
    metrics::gauge!("rifa_db_pool_connections", "state" => "in_use").set(f64::from(in_use));
    metrics::gauge!("rifa_db_pool_connections", "state" => "idle").set(f64::from(pool.idle));
    metrics::gauge!("rifa_db_pool_max_connections").set(f64::from(pool.max));
}
