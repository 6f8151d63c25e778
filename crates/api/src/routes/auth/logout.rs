use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::ErrorBody;
use crate::error::ApiError;
use crate::extract::{Acting, need};

/// Signs this session out: its token stops working at once, and a live connection opened with
/// it closes at once, before any later notice.
#[tracing::instrument(name = "api.auth.logout.logout", skip_all)]
#[utoipa::path(post, path = "/api/admin/logout", tag = "auth", security(("bearer" = [])), responses(
    (status = 204, description = "Signed out"),
    (status = 401, body = ErrorBody),
))]
pub async fn logout(
    Acting { session, actor, .. }: Acting<need::SignedIn>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    state.auth.sign_out(&session, &actor, false).await?;
    crate::routes::live::access_changed(&state, session.admin_id).await;
    Ok(HttpResponse::NoContent().finish())
}

/// Signs the caller's account out everywhere: every token of this admin stops working, on every
/// device, and their live connections close at once.
#[tracing::instrument(name = "api.auth.logout.everywhere", skip_all)]
#[utoipa::path(post, path = "/api/admin/logout-everywhere", tag = "auth", security(("bearer" = [])), responses(
    (status = 204, description = "Every session of this admin ended"),
    (status = 401, body = ErrorBody),
))]
pub async fn everywhere(
    Acting { session, actor, .. }: Acting<need::SignedIn>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    state.auth.sign_out(&session, &actor, true).await?;
    crate::routes::live::access_changed(&state, session.admin_id).await;
    Ok(HttpResponse::NoContent().finish())
}
