use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::{AdminDrawDto, DeliveredRequest, ErrorBody};
use crate::error::ApiError;
use crate::extract::{Acting, need};
use rifa_domain::id::PrizeId;
use rifa_domain::raffle::RaffleId;

/// Marks a drawn prize as handed over, with an optional photo (an uploaded image's address).
/// Once only (409 `prize_already_delivered`); a prize not drawn yet is a 409 `prize_not_drawn`.
#[tracing::instrument(name = "api.draws.delivered", skip_all)]
#[utoipa::path(post, path = "/api/admin/raffles/{id}/prizes/{prizeId}/delivered", tag = "admin", security(("bearer" = [])),
    params(("id" = i64, Path), ("prizeId" = i64, Path)),
    request_body = DeliveredRequest,
    responses(
        (status = 200, body = AdminDrawDto),
        (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
pub async fn delivered(
    Acting { actor, .. }: Acting<need::Draws>,
    state: web::Data<AppState>,
    path: web::Path<(RaffleId, PrizeId)>,
    body: web::Json<DeliveredRequest>,
) -> Result<HttpResponse, ApiError> {
    let (raffle, prize) = path.into_inner();
    let draw = state
        .draws
        .mark_delivered(raffle, prize, body.photo.as_deref(), &actor)
        .await?;
    Ok(HttpResponse::Ok().json(AdminDrawDto::from(draw)))
}
