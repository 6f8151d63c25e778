use actix_web::web;

use crate::dto::{ErrorBody, SessionUserDto};
use crate::extract::Admin;

/// The admin the token belongs to, as the database knows them now.
#[tracing::instrument(name = "api.auth.me.me", skip_all)]
#[utoipa::path(get, path = "/api/admin/me", tag = "auth", security(("bearer" = [])), responses(
    (status = 200, body = SessionUserDto),
    (status = 401, body = ErrorBody),
))]
pub async fn me(Admin(session): Admin) -> web::Json<SessionUserDto> {
    web::Json(SessionUserDto::new(
        session.admin_id,
        session.username,
        session.role,
        session.must_change_password,
    ))
}
