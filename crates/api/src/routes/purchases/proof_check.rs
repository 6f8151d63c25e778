use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::{ErrorBody, ProofCheckDto};
use crate::error::ApiError;
use crate::extract::{Allowed, need};
use rifa_domain::purchase::PurchaseId;

/// What the check of a purchase's proof found (issue 16), computed off the request path after
/// the proof is attached: `status` `none` (no proof), `pending`, `done` (with `light` green,
/// amber or red and its `signals`, each tagged by `kind`: `exactReuse` names the `other`
/// purchase the same file is attached to; `unreadable` says no text was read) or `failed`. An
/// id that is no purchase id is a 404.
#[tracing::instrument(name = "api.purchases.proof_check", skip_all)]
#[utoipa::path(get, path = "/api/admin/purchases/{id}/proof-check", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = ProofCheckDto),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn proof_check(
    _: Allowed<need::Purchases>,
    state: web::Data<AppState>,
    id: web::Path<PurchaseId>,
) -> Result<HttpResponse, ApiError> {
    let check = state.proof_checks.proof_check(*id).await?;
    Ok(HttpResponse::Ok().json(ProofCheckDto::from(check)))
}
