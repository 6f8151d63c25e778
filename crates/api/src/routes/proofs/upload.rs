use actix_web::error::PayloadError;
use actix_web::http::StatusCode;
use actix_web::http::header::CONTENT_TYPE;
use actix_web::{HttpRequest, HttpResponse, web};
use rifa_domain::proof::{MAX_PROOF_BYTES, ProofError};
use rifa_storage::UploadError;

use crate::AppState;
use crate::error::{ApiError, Text};

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
    let Some(local) = state.proofs.local() else {
        return Err(ApiError::not_found());
    };
    let declared = req
        .headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if let Some(size) = declared.filter(|size| *size > MAX_PROOF_BYTES) {
        return Err(too_large(size));
    }
    let content_type = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    match local.accept_upload(&token, content_type, body).await {
        Ok(_) => Ok(HttpResponse::Ok().finish()),
        Err(error) => Err(match error {
            UploadError::BadSignature | UploadError::Expired => ApiError::new(
                StatusCode::FORBIDDEN,
                "upload_url_invalid",
                Text::new(
                    "El enlace de carga no es válido o expiró; vuelve a intentarlo",
                    "The upload link is invalid or has expired; please try again",
                ),
            ),
            UploadError::Malformed => ApiError::not_found(),
            UploadError::ContentTypeMismatch { expected } => {
                ApiError::unsupported_media_type(&expected)
            }
            UploadError::TooLarge { limit } => too_large(limit + 1),
            UploadError::SizeMismatch { .. } => ApiError::new(
                StatusCode::BAD_REQUEST,
                "upload_size_mismatch",
                Text::new(
                    "El archivo no tiene el tamaño indicado al pedir el enlace; vuelve a intentarlo",
                    "The file is not the size given when the link was requested; please try again",
                ),
            ),
            UploadError::AlreadyUsed => ApiError::new(
                StatusCode::CONFLICT,
                "upload_url_used",
                Text::new(
                    "Este enlace de carga ya se usó",
                    "This upload link was already used",
                ),
            ),
            UploadError::Body(e)
                if e.downcast_ref::<PayloadError>()
                    .is_some_and(crate::body_timeout::timed_out) =>
            {
                ApiError::request_timeout()
            }
            UploadError::Body(e) => ApiError::bad_request(e),
            UploadError::Io(e) => ApiError::internal(&e),
        }),
    }
}

/// The spec's message for a file over 5 MB, as the attach step words it, with 413: the body was
/// cut off here.
fn too_large(size: u64) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "proof_too_large",
        Text::of(&ProofError::TooLarge { size }),
    )
}
