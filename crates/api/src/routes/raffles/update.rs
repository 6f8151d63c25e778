use actix_web::{HttpRequest, web};

use crate::AppState;
use crate::dto::{ErrorBody, RaffleRequest, SavedRaffleDto};
use crate::error::ApiError;
use crate::extract::{Acting, need};
use crate::lang::request_lang;
use rifa_domain::raffle::RaffleId;

/// Replaces a raffle's fields (the status may change freely, but a raffle without a prize is
/// kept inactive and `keptUnpublished` says why). The maximum cannot drop below a number
/// already held (409 `max_below_held_number`).
#[tracing::instrument(name = "api.raffles.update.update", skip_all)]
#[utoipa::path(put, path = "/api/admin/raffles/{id}", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), request_body = RaffleRequest, responses(
    (status = 200, body = SavedRaffleDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
    (status = 409, body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn update(
    Acting { actor, .. }: Acting<need::Catalogue>,
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<RaffleId>,
    body: web::Json<RaffleRequest>,
) -> Result<web::Json<SavedRaffleDto>, ApiError> {
    let saved = state
        .catalog
        .update_raffle(*id, body.into_inner().into(), &actor)
        .await?;
    Ok(web::Json(SavedRaffleDto::new(saved, request_lang(&req))))
}
