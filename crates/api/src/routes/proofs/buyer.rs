use actix_web::http::header::CACHE_CONTROL;
use actix_web::{HttpRequest, HttpResponse, web};

use crate::AppState;
use crate::dto::{BuyerPurchaseViewDto, ErrorBody};
use crate::error::ApiError;
use rifa_domain::purchase::PurchaseId;

/// The header carrying the buyer's key (the `purchaseToken`), kept out of URLs and their logs.
const TOKEN_HEADER: &str = "X-Purchase-Token";

/// The buyer's own view of a purchase, opened with its `purchaseToken` in `X-Purchase-Token`:
/// the raffle, the numbers, the total (and the amount at the rate locked at purchase), the
/// status with its history, the hold's deadline, and whether a proof can be sent now. A wrong
/// token and an unknown purchase answer the same 404.
#[tracing::instrument(name = "api.proofs.buyer.view", skip_all)]
#[utoipa::path(get, path = "/api/purchases/{id}/buyer", tag = "purchases",
    params(("id" = i64, Path), ("X-Purchase-Token" = String, Header, description = "The purchase's `purchaseToken`")),
    responses(
        (status = 200, body = BuyerPurchaseViewDto),
        (status = 404, body = ErrorBody),
    ))]
pub async fn view(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<PurchaseId>,
) -> Result<HttpResponse, ApiError> {
    let token = req
        .headers()
        .get(TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .unwrap_or_default();
    let view = state.buyer.buyer_view(*id, token).await?;
    Ok(HttpResponse::Ok()
        .insert_header((CACHE_CONTROL, "private, no-store"))
        .json(BuyerPurchaseViewDto::from(view)))
}
