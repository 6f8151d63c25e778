use actix_web::web;
use rifa_app::catalog::Viewer;

use crate::AppState;
use crate::dto::{ErrorBody, RaffleDto};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

async fn list(state: &AppState, viewer: Viewer) -> Result<web::Json<Vec<RaffleDto>>, ApiError> {
    Ok(web::Json(
        state
            .catalog
            .list_raffles(viewer)
            .await?
            .into_iter()
            .map(RaffleDto::from)
            .collect(),
    ))
}

/// Raffles on sale (status available), newest first.
#[tracing::instrument(name = "api.raffles.list.public", skip_all)]
#[utoipa::path(get, path = "/api/raffles", tag = "raffles", responses((status = 200, body = Vec<RaffleDto>)))]
pub async fn public(state: web::Data<AppState>) -> Result<web::Json<Vec<RaffleDto>>, ApiError> {
    list(&state, Viewer::Public).await
}

/// Every raffle, whatever its status, newest first.
#[tracing::instrument(name = "api.raffles.list.admin", skip_all)]
#[utoipa::path(get, path = "/api/admin/raffles", tag = "admin", security(("bearer" = [])), responses(
    (status = 200, body = Vec<RaffleDto>),
    (status = 401, body = ErrorBody),
))]
pub async fn admin(
    _: Allowed<need::AnyRole>,
    state: web::Data<AppState>,
) -> Result<web::Json<Vec<RaffleDto>>, ApiError> {
    list(&state, Viewer::Admin).await
}
