use actix_web::web;

use crate::AppState;
use crate::dto::{BrandingDto, BrandingRequest, ErrorBody};
use crate::error::ApiError;
use crate::extract::{ClientIp, Privileged, actor_of};

/// Changes the branding (privileged admin only); fields left out keep their value.
#[tracing::instrument(name = "api.settings.branding_update.update", skip_all)]
#[utoipa::path(post, path = "/api/admin/branding", tag = "admin", security(("bearer" = [])), request_body = BrandingRequest, responses(
    (status = 200, body = BrandingDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 403, body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn update(
    Privileged(admin): Privileged,
    ip: ClientIp,
    state: web::Data<AppState>,
    body: web::Json<BrandingRequest>,
) -> Result<web::Json<BrandingDto>, ApiError> {
    let saved = state
        .settings
        .update_branding(body.into_inner().into(), &actor_of(&admin, Some(ip)))
        .await?;
    tracing::info!(admin.id = admin.admin_id.get(), "branding updated");
    Ok(web::Json(saved.into()))
}
