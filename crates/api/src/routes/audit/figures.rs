use actix_web::web;

use crate::AppState;
use crate::dto::{DailyStatsParams, ErrorBody, PersonFiguresDto};
use crate::error::ApiError;
use crate::extract::{Allowed, need};
use crate::routes::purchases::stats_daily::parse_period;

/// Each person's purchase decisions from `from` to `to` (days in the admin's time zone, at most
/// a year): how many, per day, and the median time from a proof's arrival to the decision.
/// Busiest first. Needs the audit permission (owners).
#[tracing::instrument(name = "api.audit.figures.figures", skip_all)]
#[utoipa::path(get, path = "/api/admin/audit/figures", tag = "admin", security(("bearer" = [])), params(DailyStatsParams), responses(
    (status = 200, body = [PersonFiguresDto]),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn figures(
    _: Allowed<need::Audit>,
    state: web::Data<AppState>,
    params: web::Query<DailyStatsParams>,
) -> Result<web::Json<Vec<PersonFiguresDto>>, ApiError> {
    let period = parse_period(&params).map_err(|e| ApiError::validation(&e))?;
    let people = state.audit.figures(&period).await?;
    Ok(web::Json(people.into_iter().map(Into::into).collect()))
}
