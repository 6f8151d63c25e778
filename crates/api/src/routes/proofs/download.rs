use actix_web::http::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue};
use actix_web::{HttpResponse, web};
use rifa_storage::DownloadError;

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
    let Some(local) = state.proofs.local() else {
        return Err(ApiError::not_found());
    };
    let file = local
        .open_download(&token)
        .await
        .map_err(|error| match error {
            DownloadError::Io(e) => ApiError::internal(&e),
            _ => ApiError::not_found(),
        })?;
    let stream = tokio_util::io::ReaderStream::new(file.file);
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, HeaderValue::from_static(file.content_type)))
        .insert_header((CACHE_CONTROL, "private, no-store"))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header(("Content-Security-Policy", "sandbox"))
        .no_chunking(file.size)
        .streaming(stream))
}
