use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::{AdminDrawDto, ErrorBody};
use crate::error::ApiError;
use crate::extract::{Acting, need};
use rifa_domain::raffle::RaffleId;

/// Freezes the raffle's ledger: the sorted sold numbers, each with its buyer's salted tag, and
/// their Merkle root, published before any result is known. Refused while sales are open (409
/// `draw_sales_still_open`), without prizes (`draw_no_prizes`), while a purchase is pending
/// (`draw_purchases_pending`, listing them in `pendingPurchases`), with nothing sold
/// (`draw_nothing_sold`) and once frozen (`draw_already_frozen`). From then on the raffle's purchases cannot be made or change.
#[tracing::instrument(name = "api.draws.freeze", skip_all)]
#[utoipa::path(post, path = "/api/admin/raffles/{id}/draw/freeze", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = AdminDrawDto),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
    (status = 409, body = ErrorBody),
))]
pub async fn freeze(
    Acting { actor, .. }: Acting<need::Draws>,
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
) -> Result<HttpResponse, ApiError> {
    let draw = state.draws.freeze(*id, &actor).await?;
    Ok(HttpResponse::Ok().json(AdminDrawDto::from(draw)))
}
