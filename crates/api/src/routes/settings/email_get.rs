use actix_web::web;

use crate::AppState;
use crate::dto::{EmailSettingsDto, ErrorBody};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

/// The SMTP settings (needs the settings permission: owners), without the password.
#[tracing::instrument(name = "api.settings.email_get.get", skip_all)]
#[utoipa::path(get, path = "/api/admin/email-settings", tag = "admin", security(("bearer" = [])), responses(
    (status = 200, body = EmailSettingsDto),
    (status = 401, body = ErrorBody),
    (status = 403, body = ErrorBody),
))]
pub async fn get(
    _: Allowed<need::Settings>,
    state: web::Data<AppState>,
) -> Result<web::Json<EmailSettingsDto>, ApiError> {
    Ok(web::Json(state.settings.email_settings().await?.into()))
}
