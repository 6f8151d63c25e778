use actix_web::web;

use crate::AppState;
use crate::dto::{EmailSettingsDto, EmailSettingsRequest, ErrorBody};
use crate::error::ApiError;
use crate::extract::{Acting, need};

/// Saves the SMTP settings (needs the settings permission: owners). The password is write-only: leave it out to
/// keep the stored one, or send `clearPassword: true` to delete it.
#[tracing::instrument(name = "api.settings.email_update.update", skip_all)]
#[utoipa::path(put, path = "/api/admin/email-settings", tag = "admin", security(("bearer" = [])), request_body = EmailSettingsRequest, responses(
    (status = 200, body = EmailSettingsDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 403, body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn update(
    Acting {
        session: admin,
        actor,
        ..
    }: Acting<need::Settings>,
    state: web::Data<AppState>,
    body: web::Json<EmailSettingsRequest>,
) -> Result<web::Json<EmailSettingsDto>, ApiError> {
    let saved = state
        .settings
        .update_email_settings(body.into_inner().into(), &actor)
        .await?;
    tracing::info!(admin.id = admin.admin_id.get(), "e-mail settings updated");
    Ok(web::Json(saved.into()))
}
