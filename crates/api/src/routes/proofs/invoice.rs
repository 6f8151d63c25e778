use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};

use actix_web::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use actix_web::{HttpRequest, HttpResponse, web};
use rifa_domain::purchase::PurchaseId;
use rifa_pdf::{invoice_content_security_policy, render_invoice_html};

use crate::AppState;
use crate::dto::{ErrorBody, InvoiceQuery};
use crate::error::{ApiError, request_lang};
use crate::extract::MaybeAdmin;

/// What a client asked to wait when its purchase's PDF is already being rendered: about the time
/// the largest receipt takes.
const RENDER_RETRY_AFTER_SECS: u64 = 2;

/// The purchases whose PDF receipt is being rendered. One render per purchase at a time: a
/// client repeating the request (or many clients with the buyer's link) cannot occupy every
/// core with copies of the same work.
#[derive(Default)]
pub struct RendersInFlight(Mutex<HashSet<PurchaseId>>);

impl RendersInFlight {
    /// Marks `purchase` as being rendered until the guard drops; `None` when it already is.
    fn start(&self, purchase: PurchaseId) -> Option<RenderGuard<'_>> {
        // The lock is released before a guard exists: a guard dropped under it (as `then_some`
        // did, building one even for a purchase already rendering) locked it again, forever.
        let newly_rendering = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(purchase);
        newly_rendering.then(|| RenderGuard {
            renders: self,
            purchase,
        })
    }
}

struct RenderGuard<'a> {
    renders: &'a RendersInFlight,
    purchase: PurchaseId,
}

impl Drop for RenderGuard<'_> {
    fn drop(&mut self) {
        self.renders
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.purchase);
    }
}

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
    id: web::Path<i64>,
    query: web::Query<InvoiceQuery>,
) -> Result<HttpResponse, ApiError> {
    let format = query.format.as_deref().map_or("html", str::trim);
    // Claimed before the purchase is read: loading a large purchase's numbers is work too, and
    // copies of a request that would be refused must not do it.
    let _rendering = match format {
        "pdf" => Some(
            state
                .receipts_rendering
                .start(*id)
                .ok_or_else(|| ApiError::receipt_being_rendered(RENDER_RETRY_AFTER_SECS))?,
        ),
        _ => None,
    };
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
    match format {
        "pdf" => {
            let (purchase, _, pdf) = state
                .app
                .render_receipt(&state.receipts, purchase, context)
                .await?;
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

#[cfg(test)]
mod tests {
    use super::RendersInFlight;

    #[test]
    fn a_purchase_renders_once_at_a_time_and_a_refused_second_render_leaves_the_first_marked() {
        let renders = RendersInFlight::default();
        let first = renders.start(7);
        assert!(first.is_some());
        assert!(renders.start(7).is_none());
        assert!(
            renders.start(7).is_none(),
            "the refused render unmarked the first"
        );
        assert!(renders.start(8).is_some());
        drop(first);
        assert!(renders.start(7).is_some());
    }
}
