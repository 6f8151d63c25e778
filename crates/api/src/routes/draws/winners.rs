use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::{ErrorBody, WinnerDto, WinnersDto};
use crate::error::ApiError;

/// The latest winners of visible raffles, newest first (the home page's "Ganadores"): the
/// prize, the number, the winner's first name and initial, and their country.
#[tracing::instrument(name = "api.draws.winners", skip_all)]
#[utoipa::path(get, path = "/api/winners", tag = "raffles", responses(
    (status = 200, body = WinnersDto),
    (status = 503, body = ErrorBody),
))]
pub async fn list(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let winners = state.draws.recent_winners().await?;
    Ok(HttpResponse::Ok().json(WinnersDto {
        winners: winners.iter().map(WinnerDto::from).collect(),
    }))
}
