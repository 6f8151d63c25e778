use actix_web::web;
use rifa_domain::FieldErrors;

use super::day_range;
use crate::AppState;
use crate::dto::{ErrorBody, StatsDto, StatsParams};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

/// The dashboard's four figures; with `date`, only that day's purchases count.
#[tracing::instrument(name = "api.purchases.stats.stats", skip_all)]
#[utoipa::path(get, path = "/api/admin/stats", tag = "admin", security(("bearer" = [])), params(StatsParams), responses(
    (status = 200, body = StatsDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn stats(
    _: Allowed<need::Reports>,
    state: web::Data<AppState>,
    params: web::Query<StatsParams>,
) -> Result<web::Json<StatsDto>, ApiError> {
    let mut errors = FieldErrors::new();
    let created = params
        .date
        .as_deref()
        .filter(|d| !d.trim().is_empty())
        .and_then(|d| day_range(d, params.utc_offset_minutes, &mut errors));
    errors.into_result().map_err(|e| ApiError::validation(&e))?;
    Ok(web::Json(
        state.review.dashboard_stats(created).await?.into(),
    ))
}
