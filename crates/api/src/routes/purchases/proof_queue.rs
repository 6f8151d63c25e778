use actix_web::web;

use crate::AppState;
use crate::dto::{
    BulkDecisionDto, BulkDecisionRequest, ErrorBody, ProofQueueDto, ProofQueueParams,
};
use crate::error::ApiError;
use crate::extract::{Acting, Allowed, need};
use rifa_domain::purchase::PurchaseId;

/// The reviewer's queue (issue 16): pending purchases whose proof is attached, oldest first by
/// default, each with what its proof's check found (`light`, `signals`); filtered by `light`
/// and paged by `after` (the last id of the page the panel has; `nextAfter` of the answer).
#[tracing::instrument(name = "api.purchases.proof_queue.queue", skip_all)]
#[utoipa::path(get, path = "/api/admin/proof-queue", tag = "admin", security(("bearer" = [])), params(ProofQueueParams), responses(
    (status = 200, body = ProofQueueDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn queue(
    _: Allowed<need::Purchases>,
    state: web::Data<AppState>,
    params: web::Query<ProofQueueParams>,
) -> Result<web::Json<ProofQueueDto>, ApiError> {
    let request = params.parse().map_err(|e| ApiError::validation(&e))?;
    let mut items = state.proof_queue.queue(request).await?;
    let mut purchases: Vec<_> = items.iter().map(|q| q.purchase.clone()).collect();
    super::with_proof_links(&state, &mut purchases).await?;
    for (item, linked) in items.iter_mut().zip(purchases) {
        item.purchase = linked;
    }
    Ok(web::Json(ProofQueueDto::new(items, request.limit)))
}

/// Approves the green purchases among `ids`, or rejects the red ones with one note (`status`,
/// `adminNotes` as for one decision). A purchase whose proof's light is not the decision's is
/// left as it is (`notEligible`), as is one decided meanwhile (`notPending`); every buyer
/// decided gets their e-mail.
#[tracing::instrument(name = "api.purchases.proof_queue.decide", skip_all)]
#[utoipa::path(post, path = "/api/admin/purchases/bulk-decision", tag = "admin", security(("bearer" = [])), request_body = BulkDecisionRequest, responses(
    (status = 200, body = BulkDecisionDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn decide(
    Acting { session, actor, .. }: Acting<need::Purchases>,
    state: web::Data<AppState>,
    body: web::Json<BulkDecisionRequest>,
) -> Result<web::Json<BulkDecisionDto>, ApiError> {
    let ids: Vec<PurchaseId> = body.ids.iter().copied().map(PurchaseId::new).collect();
    let outcomes = state
        .proof_queue
        .decide_in_bulk(&ids, &body.status, body.admin_notes.as_deref(), &actor)
        .await?;
    let answer = BulkDecisionDto::from(outcomes);
    tracing::info!(
        admin.id = session.admin_id.get(),
        decided = answer.decided,
        "bulk decision recorded"
    );
    Ok(web::Json(answer))
}
