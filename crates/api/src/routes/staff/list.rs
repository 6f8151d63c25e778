use actix_web::web;

use crate::AppState;
use crate::dto::{ErrorBody, StaffMemberDto};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

/// Every staff account, oldest first, with its role, state and last sign-in.
#[tracing::instrument(name = "api.staff.list.list", skip_all)]
#[utoipa::path(get, path = "/api/admin/staff", tag = "admin", security(("bearer" = [])), responses(
    (status = 200, body = Vec<StaffMemberDto>),
    (status = 401, body = ErrorBody),
))]
pub async fn list(
    _: Allowed<need::Staff>,
    state: web::Data<AppState>,
) -> Result<web::Json<Vec<StaffMemberDto>>, ApiError> {
    let staff = state.staff.list().await?;
    Ok(web::Json(staff.into_iter().map(Into::into).collect()))
}
