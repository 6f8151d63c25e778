use actix_web::{HttpRequest, HttpResponse, web};
use rifa_domain::admin::Permission;
use rifa_domain::draw::prize::PrizeInput;

use crate::AppState;
use crate::dto::{CreateRaffleRequest, ErrorBody, SavedRaffleDto};
use crate::error::ApiError;
use crate::extract::{Acting, need};
use crate::lang::request_lang;

/// Creates a raffle (defaults: 9,999 numbers, status available, the default image) with its
/// prizes in the order they are drawn. A raffle goes on sale only with what its draw needs:
/// asked to be available without a prize, it is saved inactive and `keptUnpublished` says
/// why. Sending prizes needs the draws permission too (403 otherwise); their field errors are
/// named `prizes[i].field`.
#[tracing::instrument(name = "api.raffles.create.create", skip_all)]
#[utoipa::path(post, path = "/api/admin/raffles", tag = "admin", security(("bearer" = [])), request_body = CreateRaffleRequest, responses(
    (status = 201, body = SavedRaffleDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 403, body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn create(
    Acting { actor, session, .. }: Acting<need::Catalogue>,
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<CreateRaffleRequest>,
) -> Result<HttpResponse, ApiError> {
    let CreateRaffleRequest { raffle, prizes } = body.into_inner();
    let prizes: Vec<PrizeInput> = prizes
        .unwrap_or_default()
        .into_iter()
        .map(PrizeInput::from)
        .collect();
    if !prizes.is_empty() && !session.can(Permission::Draws) {
        return Err(ApiError::forbidden(session.role, Permission::Draws));
    }
    let saved = state
        .catalog
        .create_raffle(raffle.into(), &prizes, &actor)
        .await?;
    Ok(HttpResponse::Created().json(SavedRaffleDto::new(saved, request_lang(&req))))
}
