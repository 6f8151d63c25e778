use actix_web::web;

use crate::AppState;
use crate::dto::{AuditPageDto, AuditParams, ErrorBody};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

/// The audit trail, newest first: who did what, when and from where, with what changed.
/// Filtered by `actor`, `action`, `target` and time, and paged by `before` (`nextBefore` of the
/// answer). Needs the audit permission (owners).
#[tracing::instrument(name = "api.audit.list.list", skip_all)]
#[utoipa::path(get, path = "/api/admin/audit", tag = "admin", security(("bearer" = [])), params(AuditParams), responses(
    (status = 200, body = AuditPageDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 403, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn list(
    _: Allowed<need::Audit>,
    state: web::Data<AppState>,
    params: web::Query<AuditParams>,
) -> Result<web::Json<AuditPageDto>, ApiError> {
    let query = params.parse().map_err(|e| ApiError::validation(&e))?;
    let limit = query.limit;
    let entries = state.audit.entries(query).await?;
    let names = state.audit.target_names(&entries).await?;
    Ok(web::Json(AuditPageDto::new(entries, limit, &names)))
}
