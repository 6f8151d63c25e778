use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::{AdminDrawDto, ErrorBody};
use crate::error::ApiError;
use crate::extract::{Allowed, need};
use rifa_domain::raffle::RaffleId;

/// A raffle's draw as the panel runs it: the prizes with their sources, results, winners and
/// claim windows; whether the rules are locked; the purchases the freeze waits for; the
/// commitment once frozen.
#[tracing::instrument(name = "api.draws.admin.view", skip_all)]
#[utoipa::path(get, path = "/api/admin/raffles/{id}/draw", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = AdminDrawDto),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn view(
    _: Allowed<need::Draws>,
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
) -> Result<HttpResponse, ApiError> {
    let draw = state.draws.admin_draw(*id).await?;
    Ok(HttpResponse::Ok().json(AdminDrawDto::from(draw)))
}
