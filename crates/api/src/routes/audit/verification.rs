use actix_web::web;

use crate::AppState;
use crate::dto::{AuditVerificationDto, ErrorBody};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

/// Checks the whole trail: every entry's hash and its link to the one before, and that the
/// trail ends where the stored head says. A broken chain is an answer (`intact: false`, where
/// it breaks), not an error. Needs the audit permission (owners).
#[tracing::instrument(name = "api.audit.verification.verify", skip_all)]
#[utoipa::path(get, path = "/api/admin/audit/verification", tag = "admin", security(("bearer" = [])), responses(
    (status = 200, body = AuditVerificationDto),
    (status = 401, body = ErrorBody),
    (status = 403, body = ErrorBody),
))]
pub async fn verify(
    _: Allowed<need::Audit>,
    state: web::Data<AppState>,
) -> Result<web::Json<AuditVerificationDto>, ApiError> {
    Ok(web::Json(state.audit.verify().await?.into()))
}
