use actix_web::{HttpRequest, HttpResponse, web};

use crate::AppState;
use crate::dto::{ErrorBody, ReleaseAlertRequest, ReleaseAlertResponse};
use crate::error::{ApiError, request_lang};
use crate::extract::ClientIp;
use rifa_domain::raffle::RaffleId;

/// Leaves an e-mail to be told, once, the next time numbers of this raffle come back on sale
/// (when holds expire). Asking again changes nothing. The
/// notice is written in the request's language. Limited per client address (429).
#[tracing::instrument(name = "api.raffles.release_alert.subscribe", skip_all)]
#[utoipa::path(post, path = "/api/raffles/{id}/release-alerts", tag = "raffles", params(("id" = i64, Path)),
    request_body = ReleaseAlertRequest,
    responses(
        (status = 201, body = ReleaseAlertResponse),
        (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody),
    ))]
pub async fn subscribe(
    req: HttpRequest,
    state: web::Data<AppState>,
    ip: ClientIp,
    id: web::Path<RaffleId>,
    body: web::Json<ReleaseAlertRequest>,
) -> Result<HttpResponse, ApiError> {
    state.limits.lookup(ip.0)?;
    let email = body.parse()?;
    state
        .holds
        .ask_for_release_alert(*id, &email, request_lang(&req))
        .await?;
    Ok(HttpResponse::Created().json(ReleaseAlertResponse { subscribed: true }))
}
