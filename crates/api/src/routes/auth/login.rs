use actix_web::web;

use crate::AppState;
use crate::dto::{ErrorBody, LoginRequest, LoginResponse, SessionUserDto, instant};
use crate::error::ApiError;
use crate::extract::ClientIp;

/// Signs an admin in. Limited per client address (429 `rate_limited`); an unknown user and a
/// wrong password answer alike.
#[utoipa::path(post, path = "/api/admin/login", tag = "auth", request_body = LoginRequest, responses(
    (status = 200, body = LoginResponse),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
    (status = 429, body = ErrorBody),
))]
pub async fn login(
    state: web::Data<AppState>,
    ip: ClientIp,
    body: web::Json<LoginRequest>,
) -> Result<web::Json<LoginResponse>, ApiError> {
    state.limits.login(ip.0)?;
    let (token, admin) = state
        .app
        .login(
            body.username.as_deref().unwrap_or(""),
            body.password.as_deref().unwrap_or(""),
        )
        .await?;
    state.first_admin_password.signed_in(&admin.username).await;
    Ok(web::Json(LoginResponse {
        token: token.token,
        expires_at: instant(token.expires_at),
        user: SessionUserDto {
            id: admin.id,
            username: admin.username,
            role: "admin",
            authenticated: true,
            privileged: admin.privileged,
        },
    }))
}
