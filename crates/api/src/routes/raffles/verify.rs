use actix_web::web;

use crate::AppState;
use crate::dto::{ErrorBody, VerificationDto, VerifyRequest};
use crate::error::ApiError;
use crate::extract::ClientIp;

/// A buyer's tickets in active raffles, by e-mail (trimmed, lower-cased) or phone (digits).
/// Only what was typed is shown in full; the name and the other contact are masked. Limited per
/// client address (429 `rate_limited`).
#[tracing::instrument(name = "api.raffles.verify.verify_tickets", skip_all)]
#[utoipa::path(post, path = "/api/verify-tickets", tag = "raffles", request_body = VerifyRequest, responses(
    (status = 200, body = VerificationDto),
    (status = 400, body = ErrorBody),
    (status = 404, body = ErrorBody, description = "`no_tickets_found` or `no_active_tickets`"),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
    (status = 429, body = ErrorBody),
))]
pub async fn verify_tickets(
    state: web::Data<AppState>,
    ip: ClientIp,
    body: web::Json<VerifyRequest>,
) -> Result<web::Json<VerificationDto>, ApiError> {
    state.limits.lookup(ip.0)?;
    let found = state
        .lookup
        .verify_tickets(body.email.as_deref(), body.phone.as_deref())
        .await?;
    Ok(web::Json(found.into()))
}
