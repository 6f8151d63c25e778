use actix_web::web;

use crate::AppState;
use crate::dto::{ErrorBody, PurchaseDto};
use crate::error::ApiError;
use crate::extract::{Allowed, need};
use rifa_domain::purchase::PurchaseId;

/// One purchase with every detail, including why the buyer's last proof was refused.
#[tracing::instrument(name = "api.purchases.get.get", skip_all)]
#[utoipa::path(get, path = "/api/admin/purchases/{id}", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = PurchaseDto),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn get(
    _: Allowed<need::Purchases>,
    state: web::Data<AppState>,
    id: web::Path<PurchaseId>,
) -> Result<web::Json<PurchaseDto>, ApiError> {
    let purchase = state
        .review
        .purchase_by_id(*id)
        .await?
        .ok_or_else(ApiError::purchase_not_found)?;
    let mut purchases = [purchase];
    super::with_proof_links(&state, &mut purchases).await?;
    let [purchase] = purchases;
    let mut dto = PurchaseDto::from(purchase);
    dto.proof_problem = state.proofs.proof_problem(*id).await?.map(|p| p.as_str());
    Ok(web::Json(dto))
}
