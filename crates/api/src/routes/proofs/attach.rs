use actix_web::web;

use crate::AppState;
use crate::dto::{AttachProofRequest, AttachProofResponse, ErrorBody};
use crate::error::ApiError;
use rifa_domain::purchase::PurchaseId;

/// Attaches the file uploaded through this purchase's upload URL, after judging it by its
/// bytes: at most 5 MB, a JPG, PNG, GIF, WEBP or PDF whatever its name says (a HEIC photo is
/// `proof_heif`), that decodes as one
/// (an image of at most 40 megapixels, a PDF that parses and has a page). A refused file is
/// deleted, the purchase records why, and the answer is 422 with the spec's message.
#[tracing::instrument(name = "api.proofs.attach.attach", skip_all)]
#[utoipa::path(put, path = "/api/purchases/{id}/payment-proof", tag = "purchases", params(("id" = i64, Path)),
    request_body = AttachProofRequest,
    responses(
        (status = 200, body = AttachProofResponse),
        (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
pub async fn attach(
    state: web::Data<AppState>,
    id: web::Path<PurchaseId>,
    body: web::Json<AttachProofRequest>,
) -> Result<web::Json<AttachProofResponse>, ApiError> {
    state.proofs.attach_proof(*id, &body.purchase_token).await?;
    Ok(web::Json(AttachProofResponse { attached: true }))
}
