use actix_web::web;
use rifa_app::auth::LoginError;

use crate::AppState;
use crate::dto::{ErrorBody, LoginRequest, LoginResponse, SessionUserDto, instant};
use crate::error::ApiError;
use crate::extract::ClientIp;

/// Signs an admin in. Failed attempts are limited per username and per client address (429
/// `rate_limited`, checked before the password); an unknown user and a wrong password answer
/// alike.
#[tracing::instrument(name = "api.auth.login.login", skip_all)]
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
    let username = body.username.as_deref().unwrap_or("");
    state.limits.login_allowed(ip.0, username)?;
    let (token, admin) = match state
        .auth
        .login(
            username,
            body.password.as_deref().unwrap_or(""),
            Some(ip.0.to_string()),
        )
        .await
    {
        Ok(signed_in) => signed_in,
        Err(error) => {
            if matches!(error, LoginError::InvalidCredentials) {
                state.limits.login_failed(ip.0, username);
            }
            return Err(error.into());
        }
    };
    state.first_admin_password.signed_in(&admin.username).await;
    Ok(web::Json(LoginResponse {
        token: token.token,
        expires_at: instant(token.expires_at),
        user: SessionUserDto::new(
            admin.id,
            admin.username,
            admin.role,
            admin.must_change_password,
        ),
    }))
}
