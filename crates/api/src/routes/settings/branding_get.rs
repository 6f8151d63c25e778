use actix_web::web;

use crate::AppState;
use crate::dto::BrandingDto;
use crate::error::ApiError;

/// The operator's colours (HSL) and texts; the spec's defaults until changed.
#[tracing::instrument(name = "api.settings.branding_get.branding", skip_all)]
#[utoipa::path(get, path = "/api/branding", tag = "settings", responses((status = 200, body = BrandingDto)))]
pub async fn branding(state: web::Data<AppState>) -> Result<web::Json<BrandingDto>, ApiError> {
    Ok(web::Json(state.settings.branding().await?.into()))
}
