use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::ErrorBody;
use crate::error::ApiError;
use crate::extract::{Acting, need};
use rifa_domain::raffle::RaffleId;

/// Deletes a raffle with its promotions and test purchases. A raffle with real purchases cannot
/// be deleted (409 `raffle_has_purchases`): set it to finished instead.
#[tracing::instrument(name = "api.raffles.delete.delete", skip_all)]
#[utoipa::path(delete, path = "/api/admin/raffles/{id}", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 204),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
    (status = 409, body = ErrorBody),
))]
pub async fn delete(
    Acting { actor, .. }: Acting<need::Catalogue>,
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
) -> Result<HttpResponse, ApiError> {
    state.catalog.delete_raffle(*id, &actor).await?;
    Ok(HttpResponse::NoContent().finish())
}
