use actix_web::web;
use chrono::Duration;
use rifa_app::review::{DayPeriod, DayPeriodError, MAX_SERIES_DAYS};
use rifa_domain::calendar;
use rifa_domain::{FieldError, FieldErrors};

use crate::AppState;
use crate::dto::{DailyStatsParams, DaySalesDto, ErrorBody};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

/// Revenue, tickets and purchases of every day from `from` to `to` (both included) in one
/// call, for the dashboard's chart; revenue and tickets count approved purchases only.
#[tracing::instrument(name = "api.purchases.stats_daily.daily", skip_all)]
#[utoipa::path(get, path = "/api/admin/stats/daily", tag = "admin", security(("bearer" = [])), params(DailyStatsParams), responses(
    (status = 200, body = [DaySalesDto]),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn daily(
    _: Allowed<need::Reports>,
    state: web::Data<AppState>,
    params: web::Query<DailyStatsParams>,
) -> Result<web::Json<Vec<DaySalesDto>>, ApiError> {
    let period = parse_period(&params).map_err(|e| ApiError::validation(&e))?;
    let days = state.review.daily_sales(&period).await?;
    Ok(web::Json(days.into_iter().map(DaySalesDto::from).collect()))
}

pub(crate) fn parse_period(params: &DailyStatsParams) -> Result<DayPeriod, FieldErrors> {
    let mut errors = FieldErrors::new();
    let mut day = |field: &'static str, raw: Option<&str>| {
        let raw = raw.map(str::trim).filter(|d| !d.is_empty());
        let parsed = raw
            .ok_or(FieldError::Required)
            .and_then(calendar::parse_day);
        errors.check(field, parsed)
    };
    let first = day("from", params.from.as_deref());
    let last = day("to", params.to.as_deref());
    let offset = params.utc_offset_minutes.unwrap_or(0);
    if !(-840..=840).contains(&offset) {
        errors.add(
            "utcOffsetMinutes",
            FieldError::OutOfRange {
                min: "-840".into(),
                max: "840".into(),
            },
        );
    }
    let (Some(first), Some(last)) = (first, last) else {
        errors.into_result()?;
        return Err(FieldErrors::single("from", FieldError::Required));
    };
    errors.into_result()?;
    match DayPeriod::new(first, last, offset) {
        Ok(period) => Ok(period),
        Err(DayPeriodError::Offset) => Err(FieldErrors::single(
            "utcOffsetMinutes",
            FieldError::OutOfRange {
                min: "-840".into(),
                max: "840".into(),
            },
        )),
        Err(DayPeriodError::Reversed | DayPeriodError::TooLong) => Err(FieldErrors::single(
            "to",
            FieldError::OutOfRange {
                min: first.format("%Y-%m-%d").to_string(),
                max: first
                    .checked_add_signed(Duration::days(MAX_SERIES_DAYS - 1))
                    .unwrap_or(calendar::LAST_DAY)
                    .format("%Y-%m-%d")
                    .to_string(),
            },
        )),
    }
}
