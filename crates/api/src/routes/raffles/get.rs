use actix_web::web;
use rifa_app::catalog::Viewer;

use crate::AppState;
use crate::dto::{ErrorBody, RaffleDto};
use crate::error::ApiError;
use crate::extract::{Allowed, need};
use rifa_domain::raffle::RaffleId;

/// A raffle. Finished or postponed raffles are shown (the page explains they cannot be bought);
/// inactive ones are drafts and answer 404.
#[tracing::instrument(name = "api.raffles.get.public", skip_all)]
#[utoipa::path(get, path = "/api/raffles/{id}", tag = "raffles", params(("id" = i64, Path)), responses(
    (status = 200, body = RaffleDto),
    (status = 404, body = ErrorBody),
))]
pub async fn public(
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
) -> Result<web::Json<RaffleDto>, ApiError> {
    Ok(web::Json(
        state.catalog.raffle(*id, Viewer::Public).await?.into(),
    ))
}

/// A raffle in any status.
#[tracing::instrument(name = "api.raffles.get.admin", skip_all)]
#[utoipa::path(get, path = "/api/admin/raffles/{id}", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = RaffleDto),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn admin(
    _: Allowed<need::AnyRole>,
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
) -> Result<web::Json<RaffleDto>, ApiError> {
    Ok(web::Json(
        state.catalog.raffle(*id, Viewer::Admin).await?.into(),
    ))
}
