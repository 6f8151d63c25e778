use actix_web::HttpResponse;
use actix_web::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION};
use actix_web::web::{self, Bytes};

use futures_util::{StreamExt, stream};

use super::parse_query;
use crate::AppState;
use crate::dto::{ErrorBody, PurchaseExportParams, csv};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

/// Every purchase matching the filters as CSV, newest first, written as it is read (a year of
/// purchases streams in batches; the server holds one at a time). Columns: `id, reference,
/// createdAt, status, raffleId, raffleTitle, ticketCount, ticketNumbers, totalAmount,
/// discountApplied, paymentMethod, customerName, customerId, customerEmail, customerPhone,
/// customerCountry, decidedAt, adminNotes`; comma separated, CRLF, a UTF-8 byte-order mark.
/// No cell runs as a spreadsheet formula, whether read with `,` or `;`. A failure midway ends
/// the download early (the file then lacks its last line break).
#[tracing::instrument(name = "api.purchases.export.export", skip_all)]
#[utoipa::path(get, path = "/api/admin/purchases/export", tag = "admin", security(("bearer" = [])), params(PurchaseExportParams), responses(
    (status = 200, content_type = "text/csv", body = String, description = "The purchases, one line each after the header"),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn export(
    _: Allowed<need::Purchases>,
    state: web::Data<AppState>,
    params: web::Query<PurchaseExportParams>,
) -> Result<HttpResponse, ApiError> {
    let query = parse_query(&params.as_search()).map_err(|e| ApiError::validation(&e))?;
    let lines = state.export.purchases(query).map(|batch| match batch {
        Ok(batch) => {
            let mut text = String::with_capacity(batch.len() * 256);
            for row in &batch {
                csv::push_purchase(&mut text, row);
            }
            Ok(Bytes::from(text))
        }
        Err(error) => {
            tracing::error!(error = %format!("{error:#}"), "the export stopped midway");
            Err(std::io::Error::other("the export stopped midway"))
        }
    });
    let head = stream::once(async { Ok(Bytes::from(csv::head())) });
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((CONTENT_DISPOSITION, "attachment; filename=\"compras.csv\""))
        .insert_header((CACHE_CONTROL, "private, no-store"))
        .streaming(head.chain(lines)))
}
