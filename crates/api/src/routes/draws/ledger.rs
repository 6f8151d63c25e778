use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::{ErrorBody, PublishedDrawDto};
use crate::error::ApiError;
use rifa_domain::raffle::RaffleId;

/// The published draw file (`rifa-draw-v2`): the frozen ledger, its root, and every prize's
/// source, result and winner. The verification page and `rifa-api verify-draw FILE` check it
/// with nothing else. 409 `draw_not_frozen` before the freeze.
#[tracing::instrument(name = "api.draws.ledger", skip_all)]
#[utoipa::path(get, path = "/api/raffles/{id}/draw/ledger", tag = "raffles", params(("id" = i64, Path)), responses(
    (status = 200, body = PublishedDrawDto),
    (status = 404, body = ErrorBody),
    (status = 409, body = ErrorBody),
))]
pub async fn ledger(
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
) -> Result<HttpResponse, ApiError> {
    let ledger = state.draws.published_ledger(*id).await?;
    Ok(HttpResponse::Ok().json(PublishedDrawDto::from(ledger)))
}
