use actix_web::web;
use rifa_app::catalog::Viewer;
use rifa_domain::{FieldError, FieldErrors};

use crate::AppState;
use crate::dto::{ErrorBody, PriceQuoteDto, QuoteParams};
use crate::error::ApiError;
use crate::extract::{Allowed, need};
use rifa_domain::raffle::RaffleId;

async fn priced(
    state: &AppState,
    id: RaffleId,
    params: &QuoteParams,
    viewer: Viewer,
) -> Result<web::Json<PriceQuoteDto>, ApiError> {
    let max = rifa_domain::ticket::MAX_TICKETS_PER_RAFFLE;
    if params.count > max {
        let range = FieldError::OutOfRange {
            min: "0".into(),
            max: max.to_string(),
        };
        return Err(ApiError::validation(&FieldErrors::single("count", range)));
    }
    Ok(web::Json(
        state.catalog.quote(id, params.count, viewer).await?.into(),
    ))
}

/// What `count` tickets of the raffle cost now, with any volume discount (SPEC §3).
#[tracing::instrument(name = "api.raffles.quote.quote", skip_all)]
#[utoipa::path(get, path = "/api/raffles/{id}/quote", tag = "raffles", params(("id" = i64, Path), QuoteParams), responses(
    (status = 200, body = PriceQuoteDto),
    (status = 400, body = ErrorBody),
    (status = 404, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn quote(
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
    params: web::Query<QuoteParams>,
) -> Result<web::Json<PriceQuoteDto>, ApiError> {
    priced(&state, *id, &params, Viewer::Public).await
}

/// The quote of any raffle, whatever its status, for an admin's test purchase.
#[tracing::instrument(name = "api.raffles.quote.admin", skip_all)]
#[utoipa::path(get, path = "/api/admin/raffles/{id}/quote", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path), QuoteParams), responses(
    (status = 200, body = PriceQuoteDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn admin(
    _: Allowed<need::AnyRole>,
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
    params: web::Query<QuoteParams>,
) -> Result<web::Json<PriceQuoteDto>, ApiError> {
    priced(&state, *id, &params, Viewer::Admin).await
}
