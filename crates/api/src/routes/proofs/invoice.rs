use actix_web::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use actix_web::{HttpRequest, HttpResponse, web};
use rifa_app::receipts::{Invoice, InvoiceError, InvoiceFormat, InvoiceReader};

use crate::AppState;
use crate::dto::{ErrorBody, InvoiceQuery};
use crate::error::{ApiError, request_lang};
use crate::extract::MaybeAdmin;
use rifa_domain::admin::Permission;
use rifa_domain::purchase::PurchaseId;

/// What a client asked to wait when its purchase's PDF is already being rendered: about the time
/// the largest receipt takes.
const RENDER_RETRY_AFTER_SECS: u64 = 2;

/// The purchase's invoice: a printable HTML page (`format=html`, the default; `print=1` makes
/// it print itself after half a second, for the invoice window) or the PDF receipt
/// (`format=pdf`). Readable by the buyer with the purchase's `token`, or by an admin. Buyers
/// read it in the language they bought in; admins in their request's language. The PDF is
/// rendered once at a time per purchase: a second request meanwhile gets 429
/// `receipt_being_rendered` with `Retry-After`.
#[tracing::instrument(name = "api.proofs.invoice.invoice", skip_all)]
#[utoipa::path(get, path = "/api/purchases/{id}/invoice", tag = "purchases", params(("id" = i64, Path), InvoiceQuery),
    responses(
        (status = 200, description = "text/html or application/pdf"),
        (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody),
    ))]
pub async fn invoice(
    req: HttpRequest,
    admin: MaybeAdmin,
    state: web::Data<AppState>,
    id: web::Path<PurchaseId>,
    query: web::Query<InvoiceQuery>,
) -> Result<HttpResponse, ApiError> {
    let format = match query.format.as_deref().map_or("html", str::trim) {
        "html" => InvoiceFormat::Html,
        "pdf" => InvoiceFormat::Pdf,
        _ => return Err(ApiError::bad_request("format must be html or pdf")),
    };
    if query.print.as_deref().is_some_and(|print| print != "1") {
        return Err(ApiError::bad_request("print must be 1"));
    }
    // Any purchase's invoice is for roles that see purchases; others read it as anyone would.
    let staff = admin.0.filter(|session| session.can(Permission::Purchases));
    let reader = match (staff, query.token.as_deref()) {
        (Some(_), _) => Some(InvoiceReader::Admin {
            lang: request_lang(&req),
        }),
        (None, Some(token)) => Some(InvoiceReader::Buyer {
            access_key: token.to_owned(),
        }),
        (None, None) => None,
    };
    let private = (CACHE_CONTROL, "private, no-store");
    match state.receipts.invoice(*id, reader, format).await {
        Ok(Invoice::Pdf { reference, bytes }) => Ok(HttpResponse::Ok()
            .insert_header((CONTENT_TYPE, "application/pdf"))
            .insert_header((
                CONTENT_DISPOSITION,
                format!("inline; filename=\"{reference}.pdf\""),
            ))
            .insert_header(private)
            .body(bytes)),
        Ok(Invoice::Html {
            page,
            content_security_policy,
        }) => Ok(HttpResponse::Ok()
            .insert_header((CONTENT_TYPE, "text/html; charset=utf-8"))
            .insert_header(("Content-Security-Policy", content_security_policy))
            .insert_header(("Referrer-Policy", "no-referrer"))
            .insert_header(private)
            .body(page)),
        Err(InvoiceError::BeingRendered) => {
            Err(ApiError::receipt_being_rendered(RENDER_RETRY_AFTER_SECS))
        }
        Err(InvoiceError::NotFound) => Err(ApiError::purchase_not_found()),
        Err(InvoiceError::Unknown(e)) => Err(ApiError::internal(&e)),
    }
}
