use actix_web::{HttpResponse, web};

use crate::AppState;

/// Whether the site runs in development mode (`RIFA_DEV_MODE`). A bare boolean; clients may
/// cache it for five minutes.
#[tracing::instrument(name = "api.system.dev_mode.dev_mode", skip_all)]
#[utoipa::path(get, path = "/api/dev-mode", tag = "system", responses((status = 200, body = bool, content_type = "application/json")))]
pub async fn dev_mode(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Cache-Control", "public, max-age=300"))
        .json(state.dev_mode)
}
