use actix_web::web;

use crate::AppState;
use crate::dto::{DiscountsDto, ErrorBody};
use crate::error::ApiError;
use crate::extract::{Acting, need};

/// Replaces the volume discount table (needs the settings permission: owners); the highest tier a purchase
/// reaches applies.
#[tracing::instrument(name = "api.settings.discounts_update.update", skip_all)]
#[utoipa::path(put, path = "/api/admin/discounts", tag = "admin", security(("bearer" = [])), request_body = DiscountsDto, responses(
    (status = 200, body = DiscountsDto),
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
    body: web::Json<DiscountsDto>,
) -> Result<web::Json<DiscountsDto>, ApiError> {
    let saved = state
        .settings
        .update_discounts(body.into_inner().into(), &actor)
        .await?;
    tracing::info!(admin.id = admin.admin_id.get(), "discounts updated");
    Ok(web::Json(saved.into()))
}
