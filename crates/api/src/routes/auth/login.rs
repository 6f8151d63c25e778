use actix_web::cookie::{Cookie, SameSite, time};
use actix_web::{HttpRequest, HttpResponse, web};
use rifa_app::auth::LoginError;

use crate::AppState;
use crate::dto::{ErrorBody, LoginRequest, LoginResponse, SessionUserDto, instant};
use crate::error::ApiError;
use crate::extract::ClientIp;

/// Signs an admin in. Failed attempts are limited per username and per client address (429
/// `rate_limited`, checked before the password); an unknown user and a wrong password answer
/// alike. A successful sign-in sets the `rifa_device` cookie: with it, that browser is not
/// held back by other people's failed guesses at the account (decision 0026).
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
    request: HttpRequest,
    state: web::Data<AppState>,
    ip: ClientIp,
    body: web::Json<LoginRequest>,
) -> Result<HttpResponse, ApiError> {
    let username = body.username.as_deref().unwrap_or("");
    let known = request
        .cookie(DEVICE_COOKIE)
        .is_some_and(|cookie| state.known_devices.knows(cookie.value(), username));
    let attempt = state.limits.login_attempt(ip.0, username, known)?;
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
            // Only a wrong username or password counts; the server's own failures do not.
            if !matches!(error, LoginError::InvalidCredentials) {
                state.limits.login_succeeded(&attempt);
            }
            return Err(error.into());
        }
    };
    state.limits.login_succeeded(&attempt);
    state.first_admin_password.signed_in(&admin.username).await;
    let mut response = HttpResponse::Ok();
    match state.known_devices.token_for(&admin.username) {
        Ok(device) => {
            response.cookie(
                Cookie::build(DEVICE_COOKIE, device)
                    .path("/api/admin")
                    .http_only(true)
                    .same_site(SameSite::Strict)
                    .secure(state.secure_cookies)
                    .max_age(time::Duration::days(180))
                    .finish(),
            );
        }
        Err(error) => tracing::warn!(error = format!("{error:#}"), "no device cookie given"),
    }
    Ok(response.json(LoginResponse {
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

/// The cookie that tells a browser which signed in before (HttpOnly: no script reads it).
pub const DEVICE_COOKIE: &str = "rifa_device";
