use actix_web::{HttpRequest, web};
use rifa_ports::outbound::MailRoute;

use crate::AppState;
use crate::dto::{ErrorBody, TestEmailRequest, TestEmailResponse};
use crate::error::{ApiError, request_lang};
use crate::extract::{Acting, need};

/// Sends a test message with the current e-mail settings (needs the settings permission: owners), to `to` or
/// to the saved sender address. A failure answers 422 `email_test_failed` with the mail
/// server's own words, so the admin can fix the settings.
#[tracing::instrument(name = "api.mail.test.send", skip_all)]
#[utoipa::path(post, path = "/api/admin/email-settings/test", tag = "admin", security(("bearer" = [])),
    request_body = TestEmailRequest,
    responses(
        (status = 200, body = TestEmailResponse),
        (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
pub async fn send(
    Acting { actor, .. }: Acting<need::Settings>,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<TestEmailRequest>,
) -> Result<web::Json<TestEmailResponse>, ApiError> {
    let sent = state
        .mail
        .send_test_email(body.to.as_deref(), request_lang(&req), &actor)
        .await?;
    let delivered_via = match sent.route {
        MailRoute::Server => "smtp",
        MailRoute::FileOutbox => "outbox",
    };
    Ok(web::Json(TestEmailResponse {
        delivered_via,
        to: sent.to,
    }))
}
