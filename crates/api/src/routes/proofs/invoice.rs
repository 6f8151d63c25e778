use actix_web::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use actix_web::{HttpRequest, HttpResponse, web};
use rifa_pdf::{invoice_content_security_policy, render_invoice_html};
use rifa_ports::outbound::ReceiptRenderer;

use crate::AppState;
use crate::dto::{ErrorBody, InvoiceQuery};
use crate::error::{ApiError, request_lang};
use crate::extract::MaybeAdmin;

/// The purchase's invoice: a printable HTML page (`format=html`, the default; `print=1` makes
/// it print itself after half a second, for the invoice window) or the PDF receipt
/// (`format=pdf`). Readable by the buyer with the purchase's `token`, or by an admin. Buyers
/// read it in the language they bought in; admins in their request's language.
#[utoipa::path(get, path = "/api/purchases/{id}/invoice", tag = "purchases", params(("id" = i64, Path), InvoiceQuery),
    responses(
        (status = 200, description = "text/html or application/pdf"),
        (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
    ))]
pub async fn invoice(
    req: HttpRequest,
    admin: MaybeAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    query: web::Query<InvoiceQuery>,
) -> Result<HttpResponse, ApiError> {
    let (purchase, lang) = match (admin.0, query.token.as_deref()) {
        (Some(_), _) => (
            state
                .app
                .purchase_by_id(*id)
                .await?
                .ok_or_else(ApiError::purchase_not_found)?,
            request_lang(&req),
        ),
        (None, Some(token)) => state.app.purchase_for_buyer(*id, token).await?,
        (None, None) => return Err(ApiError::purchase_not_found()),
    };
    let context = state.app.receipt_context(&purchase, lang).await?;
    let private = (CACHE_CONTROL, "private, no-store");
    match query.format.as_deref().map(str::trim).unwrap_or("html") {
        "pdf" => {
            let pdf = state.receipts.render(&purchase, &context)?;
            Ok(HttpResponse::Ok()
                .insert_header((CONTENT_TYPE, "application/pdf"))
                .insert_header((
                    CONTENT_DISPOSITION,
                    format!("inline; filename=\"{}.pdf\"", purchase.reference),
                ))
                .insert_header(private)
                .body(pdf))
        }
        "html" => Ok(HttpResponse::Ok()
            .insert_header((CONTENT_TYPE, "text/html; charset=utf-8"))
            .insert_header(("Content-Security-Policy", invoice_content_security_policy()))
            .insert_header(("Referrer-Policy", "no-referrer"))
            .insert_header(private)
            .body(render_invoice_html(&purchase, &context))),
        _ => Err(ApiError::bad_request("format must be html or pdf")),
    }
}
