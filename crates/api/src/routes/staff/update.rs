use actix_web::web;
use rifa_app::staff::StaffUpdate;
use rifa_domain::admin::AdminId;

use crate::AppState;
use crate::dto::{ErrorBody, StaffMemberDto, StaffUpdateRequest};
use crate::error::ApiError;
use crate::extract::{Acting, need};

/// Changes an account's role or disables (or enables) it. Disabling ends every session of the
/// account at once; its live connections close within a second. Owners cannot demote or
/// disable themselves (409 `own_account`), so the team always keeps an owner.
#[tracing::instrument(name = "api.staff.update.update", skip_all)]
#[utoipa::path(patch, path = "/api/admin/staff/{id}", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), request_body = StaffUpdateRequest, responses(
    (status = 200, body = StaffMemberDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 404, description = "`staff_not_found`", body = ErrorBody),
    (status = 409, description = "`own_account`", body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn update(
    Acting { actor, .. }: Acting<need::Staff>,
    state: web::Data<AppState>,
    id: web::Path<AdminId>,
    body: web::Json<StaffUpdateRequest>,
) -> Result<web::Json<StaffMemberDto>, ApiError> {
    let body = body.into_inner();
    let update = StaffUpdate {
        role: body.role,
        disabled: body.disabled,
    };
    let member = state.staff.update(&actor, *id, update).await?;
    crate::routes::live::access_changed(&state, *id).await;
    Ok(web::Json(member.into()))
}
