use actix_web::web;
use rifa_domain::admin::AdminId;

use crate::AppState;
use crate::dto::{ErrorBody, HandedOverDto};
use crate::error::ApiError;
use crate::extract::{Acting, need};

/// Gives an account a new generated password, shown once in the answer, to be replaced at its
/// next sign-in; every session of the account ends at once.
#[tracing::instrument(name = "api.staff.reset_password.reset", skip_all)]
#[utoipa::path(post, path = "/api/admin/staff/{id}/password-reset", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = HandedOverDto),
    (status = 401, body = ErrorBody),
    (status = 404, description = "`staff_not_found`", body = ErrorBody),
    (status = 409, description = "`own_account`: change your own password with the current one", body = ErrorBody),
))]
pub async fn reset(
    Acting { actor, .. }: Acting<need::Staff>,
    state: web::Data<AppState>,
    id: web::Path<AdminId>,
) -> Result<web::Json<HandedOverDto>, ApiError> {
    let handed = state.staff.reset_password(&actor, *id).await?;
    crate::routes::live::access_changed(&state, *id).await;
    Ok(web::Json(handed.into()))
}
