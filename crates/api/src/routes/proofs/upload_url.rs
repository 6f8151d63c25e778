use actix_web::web;
use rifa_app::proofs::UploadRequest;
use rifa_domain::purchase::PurchaseId;

use crate::AppState;
use crate::dto::{ErrorBody, UploadUrlRequest, UploadUrlResponse};
use crate::error::ApiError;

/// A one-time URL to upload the payment proof of a pending purchase to, for the buyer holding
/// its `purchaseToken`, bound to the declared type and size. A type other than JPG, PNG, GIF,
/// WEBP or PDF, an empty file or a size over 5 MB is refused now (422 with the spec's message;
/// an iPhone's HEIC photo with `proof_heif`, which tells the buyer to send a screenshot); the
/// file itself is judged again on attach. A purchase gets at most 10 upload URLs (429); the upload a
/// new URL replaces is deleted.
#[tracing::instrument(name = "api.proofs.upload_url.upload_url", skip_all)]
#[utoipa::path(post, path = "/api/objects/upload", tag = "purchases", request_body = UploadUrlRequest,
    responses(
        (status = 200, body = UploadUrlResponse),
        (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody),
    ))]
pub async fn upload_url(
    state: web::Data<AppState>,
    body: web::Json<UploadUrlRequest>,
) -> Result<web::Json<UploadUrlResponse>, ApiError> {
    let body = body.into_inner();
    let request = UploadRequest {
        purchase_id: PurchaseId::new(body.purchase_id),
        access_key: body.purchase_token,
        filename: body.filename,
        content_type: body.content_type,
        size: body.size,
    };
    let upload = state.proofs.grant_proof_upload(&request).await?;
    Ok(web::Json(UploadUrlResponse {
        upload_url: upload.url,
        upload_headers: upload.headers.into_iter().collect(),
    }))
}
