use actix_web::http::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue};
use actix_web::{HttpResponse, web};
use rifa_ports::DownloadRefusal;

use crate::AppState;
use crate::error::ApiError;

/// `GET /api/proofs/{token}` (and the spec's `/uploads/{token}` fallback): a proof on the local
/// store, through the short-lived link an admin's purchase view carries. Served as the type its
/// bytes say, never sniffed by the browser, never cached by proxies, and sandboxed: a file that
/// is also HTML or carries script runs nothing in the admin's origin.
#[tracing::instrument(name = "api.proofs.download.download", skip_all)]
pub async fn download(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let file = state
        .proofs
        .download_proof(&token)
        .await
        .map_err(|refusal| match refusal {
            DownloadRefusal::NotFound => ApiError::not_found(),
            DownloadRefusal::Unknown(e) => ApiError::internal(&e),
        })?;
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, HeaderValue::from_static(file.content_type)))
        .insert_header((CACHE_CONTROL, "private, no-store"))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header(("Content-Security-Policy", "sandbox"))
        .no_chunking(file.size)
        .streaming(file.body))
}
