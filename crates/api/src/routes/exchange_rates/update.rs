use actix_web::web;

use crate::AppState;
use crate::dto::{ErrorBody, ExchangeRateDto, ExchangeRateRequest};
use crate::error::ApiError;
use crate::extract::{Acting, need};
use rifa_domain::exchange::ExchangeRateId;

/// Replaces an exchange rate; methods using it convert with the new rate from now on.
#[tracing::instrument(name = "api.exchange_rates.update.update", skip_all)]
#[utoipa::path(put, path = "/api/admin/exchange-rates/{id}", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), request_body = ExchangeRateRequest, responses(
    (status = 200, body = ExchangeRateDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
    (status = 409, description = "Another rate has the new pair (`exchange_rate_pair_taken`)", body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn update(
    Acting { actor, .. }: Acting<need::Catalogue>,
    state: web::Data<AppState>,
    id: web::Path<ExchangeRateId>,
    body: web::Json<ExchangeRateRequest>,
) -> Result<web::Json<ExchangeRateDto>, ApiError> {
    let draft = body.parse()?;
    let rate = state
        .payments
        .update_exchange_rate(*id, draft, &actor)
        .await?;
    Ok(web::Json(rate.into()))
}
