use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::{ErrorBody, ExchangeRateDto, ExchangeRateRequest};
use crate::error::ApiError;
use crate::extract::{Acting, need};

/// Adds an exchange rate (defaults: USD to VES); one rate per currency pair.
#[tracing::instrument(name = "api.exchange_rates.create.create", skip_all)]
#[utoipa::path(post, path = "/api/admin/exchange-rates", tag = "admin", security(("bearer" = [])), request_body = ExchangeRateRequest, responses(
    (status = 201, body = ExchangeRateDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 409, description = "The pair already has a rate (`exchange_rate_pair_taken`; the message names its id and value)", body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn create(
    Acting { actor, .. }: Acting<need::Catalogue>,
    state: web::Data<AppState>,
    body: web::Json<ExchangeRateRequest>,
) -> Result<HttpResponse, ApiError> {
    let draft = body.parse()?;
    let rate = state.payments.create_exchange_rate(draft, &actor).await?;
    Ok(HttpResponse::Created().json(ExchangeRateDto::from(rate)))
}
