use actix_web::{HttpResponse, web};

use super::parse_query;
use crate::AppState;
use crate::dto::{ErrorBody, PurchaseDto, PurchaseSearchParams};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

/// The newest purchases matching the filters, as a plain list (the spec's call). Capped at
/// 1,000; `X-Total-Count` says how many matched — only a floor when `X-Total-Capped: true`
/// (more than 10,000 match a name, numbers or a day; see `/search`). The panel pages with
/// `/search`.
#[tracing::instrument(name = "api.purchases.list.list", skip_all)]
#[utoipa::path(get, path = "/api/admin/purchases", tag = "admin", security(("bearer" = [])), params(PurchaseSearchParams), responses(
    (status = 200, body = Vec<PurchaseDto>, headers(("X-Total-Count" = u64), ("X-Total-Capped" = bool, description = "Present, true, when the count stopped at 10,000"))),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn list(
    _: Allowed<need::Purchases>,
    state: web::Data<AppState>,
    params: web::Query<PurchaseSearchParams>,
) -> Result<HttpResponse, ApiError> {
    let query = parse_query(&params).map_err(|e| ApiError::validation(&e))?;
    let mut page = state.review.all_purchases(query).await?;
    super::with_proof_links(&state, &mut page.items).await?;
    let items: Vec<PurchaseDto> = page.items.into_iter().map(PurchaseDto::from).collect();
    let mut response = HttpResponse::Ok();
    response.insert_header(("X-Total-Count", page.total.to_string()));
    if page.summary.is_none() {
        response.insert_header(("X-Total-Capped", "true"));
    }
    Ok(response.json(items))
}
