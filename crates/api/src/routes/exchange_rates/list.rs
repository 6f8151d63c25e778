use actix_web::web;

use crate::AppState;
use crate::dto::{ErrorBody, ExchangeRateDto};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

/// Every exchange rate.
#[tracing::instrument(name = "api.exchange_rates.list.list", skip_all)]
#[utoipa::path(get, path = "/api/admin/exchange-rates", tag = "admin", security(("bearer" = [])), responses(
    (status = 200, body = Vec<ExchangeRateDto>),
    (status = 401, body = ErrorBody),
))]
pub async fn list(
    _: Allowed<need::AnyRole>,
    state: web::Data<AppState>,
) -> Result<web::Json<Vec<ExchangeRateDto>>, ApiError> {
    Ok(web::Json(
        state
            .payments
            .exchange_rates()
            .await?
            .into_iter()
            .map(ExchangeRateDto::from)
            .collect(),
    ))
}
