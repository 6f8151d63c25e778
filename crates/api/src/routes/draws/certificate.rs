use actix_web::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use actix_web::{HttpRequest, HttpResponse, web};

use crate::AppState;
use crate::dto::ErrorBody;
use crate::error::{ApiError, request_lang};
use rifa_domain::id::PrizeId;
use rifa_domain::raffle::RaffleId;

/// The "Acta de sorteo" of a drawn prize as a PDF, in the request's language: the raffle, the
/// frozen ledger's root, the public result, each step of the published rule and the winning
/// number (the winner as the public sees them). 409 `prize_not_drawn` before the draw.
#[tracing::instrument(name = "api.draws.certificate", skip_all)]
#[utoipa::path(get, path = "/api/raffles/{id}/prizes/{prizeId}/certificate", tag = "raffles",
    params(("id" = i64, Path), ("prizeId" = i64, Path)),
    responses(
        (status = 200, description = "application/pdf"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody),
    ))]
pub async fn certificate(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(RaffleId, PrizeId)>,
) -> Result<HttpResponse, ApiError> {
    let (raffle, prize) = path.into_inner();
    let pdf = state
        .draws
        .certificate(raffle, prize, request_lang(&req))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, "application/pdf"))
        .insert_header((
            CONTENT_DISPOSITION,
            format!("inline; filename=\"acta-{raffle}-{prize}.pdf\""),
        ))
        .insert_header((CACHE_CONTROL, "no-cache"))
        .body(pdf))
}
