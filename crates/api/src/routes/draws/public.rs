use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::{ErrorBody, PublicDrawDto};
use crate::error::ApiError;
use rifa_domain::raffle::RaffleId;

/// A raffle's prizes and the published rule's parameters, shown from the moment it is on
/// sale; the commitment once the ledger is frozen; each prize's result, steps and winner (first
/// name and initial, country) once drawn.
#[tracing::instrument(name = "api.draws.public.view", skip_all)]
#[utoipa::path(get, path = "/api/raffles/{id}/draw", tag = "raffles", params(("id" = i64, Path)), responses(
    (status = 200, body = PublicDrawDto),
    (status = 404, body = ErrorBody),
))]
pub async fn view(
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
) -> Result<HttpResponse, ApiError> {
    let draw = state.draws.public_draw(*id).await?;
    Ok(HttpResponse::Ok().json(PublicDrawDto::from(draw)))
}
