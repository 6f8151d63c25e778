use actix_web::web;

use crate::AppState;
use crate::dto::{BrandingDto, BrandingRequest, ErrorBody};
use crate::error::ApiError;
use crate::extract::{Acting, need};

/// Changes the branding (needs the settings permission: owners); fields left out keep their value.
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
    Acting {
        session: admin,
        actor,
        ..
    }: Acting<need::Settings>,
    state: web::Data<AppState>,
    body: web::Json<BrandingRequest>,
) -> Result<web::Json<BrandingDto>, ApiError> {
    let saved = state
        .settings
        .update_branding(body.into_inner().into(), &actor)
        .await?;
    tracing::info!(admin.id = admin.admin_id.get(), "branding updated");
    Ok(web::Json(saved.into()))
}
