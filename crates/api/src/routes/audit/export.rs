use actix_web::HttpResponse;
use actix_web::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION};
use actix_web::web::{self, Bytes};
use futures_util::{StreamExt, stream};

use crate::AppState;
use crate::dto::{AuditExportParams, ErrorBody, csv};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

/// The whole trail matching the filters as CSV, newest first, streamed in batches (the server
/// holds one at a time). Columns: `seq, at,
/// actor, actorId, ip, action, target, changes, hash, prevHash`; `changes` reads `field: before
/// → after`, apart by ` | `. Comma separated, CRLF, a UTF-8 byte-order mark, and no cell runs
/// as a spreadsheet formula. Needs the audit permission (owners).
#[tracing::instrument(name = "api.audit.export.export", skip_all)]
#[utoipa::path(get, path = "/api/admin/audit/export", tag = "admin", security(("bearer" = [])), params(AuditExportParams), responses(
    (status = 200, content_type = "text/csv", body = String, description = "The entries, one line each after the header"),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn export(
    _: Allowed<need::Audit>,
    state: web::Data<AppState>,
    params: web::Query<AuditExportParams>,
) -> Result<HttpResponse, ApiError> {
    let query = params.parse().map_err(|e| ApiError::validation(&e))?;
    let lines = state.audit.export(query)?.map(|batch| match batch {
        Ok(batch) => {
            let mut text = String::with_capacity(batch.len() * 256);
            for entry in &batch {
                csv::push_audit_entry(&mut text, entry);
            }
            Ok(Bytes::from(text))
        }
        Err(error) => {
            tracing::error!(error = %format!("{error:#}"), "the trail's export stopped midway");
            Err(std::io::Error::other("the export stopped midway"))
        }
    });
    let head = stream::once(async { Ok(Bytes::from(csv::audit_head())) });
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((CONTENT_DISPOSITION, "attachment; filename=\"registro.csv\""))
        .insert_header((CACHE_CONTROL, "private, no-store"))
        .streaming(head.chain(lines)))
}
