use actix_web::{HttpResponse, web};
use rifa_app::catalog::Viewer;

use crate::AppState;
use crate::dto::ErrorBody;
use crate::error::ApiError;
use crate::extract::{Allowed, need};
use rifa_domain::raffle::RaffleId;

async fn availability(
    state: &AppState,
    id: RaffleId,
    viewer: Viewer,
) -> Result<HttpResponse, ApiError> {
    let availability = state.catalog.availability(id, viewer).await?;
    let mut response = HttpResponse::Ok();
    response
        .content_type("application/octet-stream")
        .insert_header(("X-Max-Tickets", availability.max_tickets.to_string()))
        .insert_header(("X-Available-Count", availability.available.to_string()))
        .insert_header(("X-Pending-Count", availability.pending.to_string()))
        .insert_header(("Cache-Control", "no-store"));
    if let Some(next) = availability.next_release_at {
        response.insert_header(("X-Next-Release-At", crate::dto::instant(next)));
    }
    Ok(response.body(availability.bitmap.clone()))
}

/// The raffle's numbers as a bitmap: byte `(n-1)/8`, bit `7-((n-1)%8)` (most significant first)
/// is 1 when number `n` is available. `X-Max-Tickets` and `X-Available-Count` carry the totals;
/// `X-Pending-Count` the numbers held by pending purchases (taken, but they may come back) and
/// `X-Next-Release-At` when the next hold can expire, if one can. A 99,999-number raffle is
/// 12.5 KB.
#[tracing::instrument(name = "api.raffles.availability.public", skip_all)]
#[utoipa::path(get, path = "/api/raffles/{id}/availability", tag = "raffles", params(("id" = i64, Path)), responses(
    (status = 200, content_type = "application/octet-stream", body = Vec<u8>,
        headers(("X-Max-Tickets" = u32), ("X-Available-Count" = u32), ("X-Pending-Count" = u32),
            ("X-Next-Release-At" = String, description = "RFC 3339; absent when no hold can expire"))),
    (status = 404, body = ErrorBody),
))]
pub async fn public(
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
) -> Result<HttpResponse, ApiError> {
    availability(&state, *id, Viewer::Public).await
}

/// The availability bitmap of a raffle in any status.
#[tracing::instrument(name = "api.raffles.availability.admin", skip_all)]
#[utoipa::path(get, path = "/api/admin/raffles/{id}/availability", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, content_type = "application/octet-stream", body = Vec<u8>,
        headers(("X-Max-Tickets" = u32), ("X-Available-Count" = u32), ("X-Pending-Count" = u32),
            ("X-Next-Release-At" = String, description = "RFC 3339; absent when no hold can expire"))),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn admin(
    _: Allowed<need::AnyRole>,
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
) -> Result<HttpResponse, ApiError> {
    availability(&state, *id, Viewer::Admin).await
}
