use actix_web::web;

use super::parse_query;
use crate::AppState;
use crate::dto::{ErrorBody, PurchasePageDto, PurchaseSearchParams};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

/// One page of the purchases matching the filters, newest first, with the total count and the
/// figures of everything that matched (tickets sold, revenue, pending).
#[tracing::instrument(name = "api.purchases.search.search", skip_all)]
#[utoipa::path(get, path = "/api/admin/purchases/search", tag = "admin", security(("bearer" = [])), params(PurchaseSearchParams), responses(
    (status = 200, body = PurchasePageDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn search(
    _: Allowed<need::Purchases>,
    state: web::Data<AppState>,
    params: web::Query<PurchaseSearchParams>,
) -> Result<web::Json<PurchasePageDto>, ApiError> {
    let query = parse_query(&params).map_err(|e| ApiError::validation(&e))?;
    let mut page = state.review.search_purchases(query).await?;
    super::with_proof_links(&state, &mut page.result.items).await?;
    let (number, size) = (page.page, page.page_size);
    Ok(web::Json(PurchasePageDto::new(page.result, number, size)))
}
