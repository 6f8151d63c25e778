use actix_web::http::StatusCode;
use actix_web::http::header::CONTENT_TYPE;
use actix_web::{HttpRequest, HttpResponse, web};
use futures_util::{StreamExt as _, TryStreamExt as _};
use rifa_app::proofs::UploadFailure;
use rifa_domain::proof::ProofError;
use rifa_text::Message;

use crate::AppState;
use crate::error::ApiError;

/// `PUT /api/uploads/{token}`: the local store's end of a presigned upload (S3 takes the file
/// itself). The body streams to disk and stops at the size the URL was granted for (at most
/// 5 MB); a URL works once.
#[tracing::instrument(name = "api.proofs.upload.upload", skip_all)]
pub async fn upload(
    req: HttpRequest,
    state: web::Data<AppState>,
    token: web::Path<String>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let declared = req
        .headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let content_type = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    // A body that stopped arriving in time is a timeout, whatever reads it.
    let body = body
        .map_err(|e| {
            let kind = if crate::body_timeout::timed_out(&e) {
                std::io::ErrorKind::TimedOut
            } else {
                std::io::ErrorKind::Other
            };
            std::io::Error::new(kind, e.to_string())
        })
        .boxed_local();
    state
        .proof_uploads
        .receive_upload(&token, content_type, declared, body)
        .await
        .map_err(refused)?;
    Ok(HttpResponse::Ok().finish())
}

fn refused(failure: UploadFailure) -> ApiError {
    match failure {
        UploadFailure::NotFound => ApiError::not_found(),
        UploadFailure::LinkInvalid => ApiError::new(StatusCode::FORBIDDEN, "upload_url_invalid"),
        UploadFailure::ContentTypeMismatch { expected } => {
            ApiError::unsupported_media_type(&expected)
        }
        UploadFailure::TooLarge { size } => too_large(size),
        UploadFailure::SizeMismatch => {
            ApiError::new(StatusCode::BAD_REQUEST, "upload_size_mismatch")
        }
        UploadFailure::AlreadyUsed => ApiError::new(StatusCode::CONFLICT, "upload_url_used"),
        UploadFailure::TimedOut => ApiError::request_timeout(),
        UploadFailure::Body(e) => ApiError::bad_request(e),
        UploadFailure::Unknown(e) => ApiError::internal(&e),
    }
}

/// The spec's message for a file over 5 MB, as the attach step words it, with 413: the body was
/// cut off here.
fn too_large(size: u64) -> ApiError {
    let refusal = ProofError::TooLarge { size };
    ApiError::worded(
        StatusCode::PAYLOAD_TOO_LARGE,
        refusal.code(),
        Message::from(&refusal),
    )
}
