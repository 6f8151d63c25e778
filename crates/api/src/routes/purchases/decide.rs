use actix_web::web;

use crate::AppState;
use crate::dto::{DecisionRequest, ErrorBody, PurchaseDto};
use crate::error::ApiError;
use crate::extract::{Acting, need};
use rifa_domain::purchase::PurchaseId;

/// Approves or rejects a pending purchase (`adminNotes` required to reject). A rejection frees
/// its numbers at once. A purchase already decided answers 409 `purchase_not_pending`.
#[tracing::instrument(name = "api.purchases.decide.decide", skip_all)]
#[utoipa::path(put, path = "/api/admin/purchases/{id}/status", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), request_body = DecisionRequest, responses(
    (status = 200, body = PurchaseDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
    (status = 409, body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn decide(
    Acting { session, actor, .. }: Acting<need::Purchases>,
    state: web::Data<AppState>,
    id: web::Path<PurchaseId>,
    body: web::Json<DecisionRequest>,
) -> Result<web::Json<PurchaseDto>, ApiError> {
    let purchase = state
        .review
        .decide_purchase(*id, &body.status, body.admin_notes.as_deref(), &actor)
        .await?;
    tracing::info!(
        admin.id = session.admin_id.get(),
        purchase.id = purchase.id.get(),
        "decision recorded"
    );
    let mut purchases = [purchase];
    super::with_proof_links(&state, &mut purchases).await?;
    let [purchase] = purchases;
    Ok(web::Json(purchase.into()))
}
