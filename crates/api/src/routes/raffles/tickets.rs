use actix_web::web;
use rifa_app::catalog::Viewer;

use crate::AppState;
use crate::dto::{ErrorBody, TicketDto};
use crate::error::ApiError;
use crate::extract::{Allowed, need};
use rifa_domain::raffle::RaffleId;

async fn tickets(
    state: &AppState,
    id: RaffleId,
    viewer: Viewer,
) -> Result<web::Json<Vec<TicketDto>>, ApiError> {
    let numbers = state.catalog.available_numbers(id, viewer).await?;
    Ok(web::Json(
        numbers
            .into_iter()
            .map(|n| TicketDto {
                id: n,
                ticket_number: n,
                status: "available",
            })
            .collect(),
    ))
}

/// The raffle's available numbers as ticket objects (the spec's list). Large raffles should use
/// `/availability`, which is a hundred times smaller.
#[tracing::instrument(name = "api.raffles.tickets.public", skip_all)]
#[utoipa::path(get, path = "/api/raffles/{id}/tickets", tag = "raffles", params(("id" = i64, Path)), responses(
    (status = 200, body = Vec<TicketDto>),
    (status = 404, body = ErrorBody),
))]
pub async fn public(
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
) -> Result<web::Json<Vec<TicketDto>>, ApiError> {
    tickets(&state, *id, Viewer::Public).await
}

/// The available numbers of a raffle in any status.
#[tracing::instrument(name = "api.raffles.tickets.admin", skip_all)]
#[utoipa::path(get, path = "/api/admin/raffles/{id}/tickets", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = Vec<TicketDto>),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn admin(
    _: Allowed<need::AnyRole>,
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
) -> Result<web::Json<Vec<TicketDto>>, ApiError> {
    tickets(&state, *id, Viewer::Admin).await
}
