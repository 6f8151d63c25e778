use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::{AdminDrawDto, ErrorBody, PrizesRequest};
use crate::error::ApiError;
use crate::extract::{Acting, need};
use rifa_domain::raffle::RaffleId;

/// Replaces the raffle's prizes, in the order they are drawn, each with the public source of
/// its result. Once the raffle has a real purchase the rules are locked (409
/// `draw_rules_locked`): a new rule means a new raffle. Field errors are named
/// `prizes[i].field`.
#[tracing::instrument(name = "api.draws.prizes.replace", skip_all)]
#[utoipa::path(put, path = "/api/admin/raffles/{id}/prizes", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)),
    request_body = PrizesRequest,
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
pub async fn replace(
    Acting { actor, .. }: Acting<need::Draws>,
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
    body: web::Json<PrizesRequest>,
) -> Result<HttpResponse, ApiError> {
    let (rule, prizes) = body.into_inner().inputs();
    let draw = state
        .draws
        .set_prizes(*id, rule.as_deref(), &prizes, &actor)
        .await?;
    Ok(HttpResponse::Ok().json(AdminDrawDto::from(draw)))
}
