use actix_web::web;

use crate::AppState;
use crate::dto::{DiscountsDto, ErrorBody};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

/// The volume discount table (empty unless configured).
#[tracing::instrument(name = "api.settings.discounts_get.get", skip_all)]
#[utoipa::path(get, path = "/api/admin/discounts", tag = "admin", security(("bearer" = [])), responses(
    (status = 200, body = DiscountsDto),
    (status = 401, body = ErrorBody),
))]
pub async fn get(
    _: Allowed<need::AnyRole>,
    state: web::Data<AppState>,
) -> Result<web::Json<DiscountsDto>, ApiError> {
    Ok(web::Json(state.settings.discounts().await?.into()))
}
