use actix_web::web;

use crate::AppState;
use crate::dto::HealthDto;
use crate::error::ApiError;

/// The process is up (for liveness probes; touches nothing).
#[tracing::instrument(name = "api.system.health.live", skip_all)]
#[utoipa::path(method(get, head), path = "/healthz", tag = "system", responses((status = 200, body = HealthDto)))]
pub async fn live() -> web::Json<HealthDto> {
    web::Json(HealthDto { status: "ok" })
}

/// The database answers (for readiness probes and load balancers).
#[tracing::instrument(name = "api.system.health.ready", skip_all)]
#[utoipa::path(method(get, head), path = "/readyz", tag = "system", responses(
    (status = 200, body = HealthDto),
    (status = 500, body = crate::dto::ErrorBody, description = "The database does not answer"),
))]
pub async fn ready(state: web::Data<AppState>) -> Result<web::Json<HealthDto>, ApiError> {
    state.db.ping().await?;
    Ok(web::Json(HealthDto { status: "ready" }))
}
