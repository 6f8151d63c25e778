use actix_web::web;
use rifa_app::catalog::Viewer;

use crate::AppState;
use crate::dto::{ErrorBody, PromotionDto};
use crate::error::ApiError;
use crate::extract::{Allowed, need};
use rifa_domain::raffle::RaffleId;

async fn promotions(
    state: &AppState,
    id: RaffleId,
    viewer: Viewer,
) -> Result<web::Json<Vec<PromotionDto>>, ApiError> {
    Ok(web::Json(
        state
            .catalog
            .promotions(id, viewer)
            .await?
            .into_iter()
            .map(PromotionDto::from)
            .collect(),
    ))
}

/// The raffle's special promotions, in order.
#[tracing::instrument(name = "api.raffles.promotions.public", skip_all)]
#[utoipa::path(get, path = "/api/raffles/{id}/promotions", tag = "raffles", params(("id" = i64, Path)), responses(
    (status = 200, body = Vec<PromotionDto>),
    (status = 404, body = ErrorBody),
))]
pub async fn public(
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
) -> Result<web::Json<Vec<PromotionDto>>, ApiError> {
    promotions(&state, *id, Viewer::Public).await
}

/// The promotions of a raffle in any status.
#[tracing::instrument(name = "api.raffles.promotions.admin", skip_all)]
#[utoipa::path(get, path = "/api/admin/raffles/{id}/promotions", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = Vec<PromotionDto>),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn admin(
    _: Allowed<need::AnyRole>,
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
) -> Result<web::Json<Vec<PromotionDto>>, ApiError> {
    promotions(&state, *id, Viewer::Admin).await
}
