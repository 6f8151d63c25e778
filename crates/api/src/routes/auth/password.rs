use actix_web::web;
use rifa_app::auth::PasswordChangeError;

use crate::AppState;
use crate::dto::{ErrorBody, LoginResponse, PasswordChangeRequest, SessionUserDto, instant};
use crate::error::ApiError;
use crate::extract::{Acting, ClientIp, need};

/// Changes the caller's own password, given the current one. Every session of the account
/// ends (other devices are signed out, their live connections close within a second); the
/// answer carries a new token for this one. Wrong current passwords count as failed sign-ins
/// (429 `rate_limited` after too many).
#[tracing::instrument(name = "api.auth.password.change", skip_all)]
#[utoipa::path(post, path = "/api/admin/password", tag = "auth", security(("bearer" = [])), request_body = PasswordChangeRequest, responses(
    (status = 200, body = LoginResponse),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, description = "`currentPassword` wrong, or `newPassword` too short, guessable or unchanged", body = ErrorBody),
    (status = 429, body = ErrorBody),
))]
pub async fn change(
    Acting { session, actor, .. }: Acting<need::SignedIn>,
    ip: ClientIp,
    state: web::Data<AppState>,
    body: web::Json<PasswordChangeRequest>,
) -> Result<web::Json<LoginResponse>, ApiError> {
    // A signed-in session is a known browser: only its address's failures hold it back.
    let attempt = state.limits.login_attempt(ip.0, &session.username, true)?;
    let token = state
        .auth
        .change_password(&session, &actor, &body.current_password, &body.new_password)
        .await
        .inspect_err(|error| {
            if !matches!(error, PasswordChangeError::WrongCurrent) {
                state.limits.login_succeeded(&attempt);
            }
        })?;
    state.limits.login_succeeded(&attempt);
    crate::routes::live::access_changed(&state, session.admin_id).await;
    Ok(web::Json(LoginResponse {
        token: token.token,
        expires_at: instant(token.expires_at),
        user: SessionUserDto::new(session.admin_id, session.username, session.role, false),
    }))
}
