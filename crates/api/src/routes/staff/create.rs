use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::{ErrorBody, HandedOverDto, NewStaffRequest};
use crate::error::ApiError;
use crate::extract::{Acting, need};

/// Creates a staff account with a role and a generated password, shown once in the answer: the
/// owner hands it over, and the account must choose its own at its first sign-in.
#[tracing::instrument(name = "api.staff.create.create", skip_all)]
#[utoipa::path(post, path = "/api/admin/staff", tag = "admin", security(("bearer" = [])), request_body = NewStaffRequest, responses(
    (status = 201, body = HandedOverDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 409, description = "`username_taken`", body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn create(
    Acting { actor, .. }: Acting<need::Staff>,
    state: web::Data<AppState>,
    body: web::Json<NewStaffRequest>,
) -> Result<HttpResponse, ApiError> {
    let handed = state
        .staff
        .create(&actor, &body.username, &body.role)
        .await?;
    Ok(HttpResponse::Created().json(HandedOverDto::from(handed)))
}
