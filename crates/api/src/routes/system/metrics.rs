use actix_web::http::StatusCode;
use actix_web::http::header::{AUTHORIZATION, CONTENT_TYPE};
use actix_web::{HttpRequest, HttpResponse, web};
use secrecy::ExposeSecret;
use subtle::ConstantTimeEq;

use crate::AppState;
use crate::error::ApiError;

/// Prometheus's text exposition format, for a scraper holding `RIFA_METRICS_TOKEN` as its
/// bearer token; 404 when no token is configured (metrics off), 401 for any other caller.
#[tracing::instrument(name = "api.system.metrics.scrape", skip_all)]
pub async fn scrape(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let Some(endpoint) = &state.metrics else {
        return Err(ApiError::new(StatusCode::NOT_FOUND, "route_not_found"));
    };
    let given = req
        .headers()
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .unwrap_or_default();
    let expected = endpoint.token.expose_secret();
    if !bool::from(given.as_bytes().ct_eq(expected.as_bytes())) {
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized"));
    }
    // A database that does not answer leaves its gauges at their last value; the scrape
    // itself still answers, with the request counters that show the trouble.
    let pending = state.mail.pending_mail().await.ok();
    crate::metrics::sampled(pending, state.db.pool_usage());
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8"))
        .body(endpoint.handle.render()))
}
