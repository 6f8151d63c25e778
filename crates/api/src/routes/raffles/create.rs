use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::{ErrorBody, RaffleDto, RaffleRequest};
use crate::error::ApiError;
use crate::extract::{Acting, need};

/// Creates a raffle (defaults: 9,999 numbers, status available, the default image).
#[tracing::instrument(name = "api.raffles.create.create", skip_all)]
#[utoipa::path(post, path = "/api/admin/raffles", tag = "admin", security(("bearer" = [])), request_body = RaffleRequest, responses(
    (status = 201, body = RaffleDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn create(
    Acting { actor, .. }: Acting<need::Catalogue>,
    state: web::Data<AppState>,
    body: web::Json<RaffleRequest>,
) -> Result<HttpResponse, ApiError> {
    let raffle = state
        .catalog
        .create_raffle(body.into_inner().into(), &actor)
        .await?;
    Ok(HttpResponse::Created().json(RaffleDto::from(raffle)))
}
