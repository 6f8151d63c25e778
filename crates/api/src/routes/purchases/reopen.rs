use actix_web::web;

use crate::AppState;
use crate::dto::{ErrorBody, PurchaseDto};
use crate::error::ApiError;
use crate::extract::{Acting, need};
use rifa_domain::purchase::PurchaseId;

/// Reopens an expired purchase (the proof came late, by other means): pending again, its
/// numbers held with a fresh deadline. Numbers sold meanwhile answer 409
/// `numbers_no_longer_free` naming them; a purchase that is not expired 409
/// `purchase_not_expired`; a buyer who bought again past their allowance 422.
#[tracing::instrument(name = "api.purchases.reopen.reopen", skip_all)]
#[utoipa::path(post, path = "/api/admin/purchases/{id}/reopen", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = PurchaseDto),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
    (status = 409, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn reopen(
    Acting { session, actor, .. }: Acting<need::Purchases>,
    state: web::Data<AppState>,
    id: web::Path<PurchaseId>,
) -> Result<web::Json<PurchaseDto>, ApiError> {
    let purchase = state.review.reopen_purchase(*id, &actor).await?;
    tracing::info!(
        admin.id = session.admin_id.get(),
        purchase.id = purchase.id.get(),
        "purchase reopened"
    );
    Ok(web::Json(purchase.into()))
}
