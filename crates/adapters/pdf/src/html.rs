//! The printable HTML invoice the buyer's browser opens and prints.

use std::sync::LazyLock;

use askama::Template;
use base64::Engine as _;
use rifa_domain::purchase::Purchase;
use rifa_ports::outbound::ReceiptContext;
use sha2::{Digest as _, Sha256};

use crate::view::{Labels, NoticeKind, ReceiptView};

/// The page's only style sheet and script, inlined verbatim (they are constants, so their hashes
/// are known and [`invoice_content_security_policy`] can allow exactly them).
const STYLE: &str = include_str!("../templates/invoice.css");
const SCRIPT: &str = include_str!("../templates/invoice.js");

#[derive(Template)]
#[template(path = "invoice.html")]
struct InvoicePage<'a> {
    lang: &'static str,
    labels: &'static Labels,
    view: &'a ReceiptView,
    warning: Option<&'static str>,
    info: Option<&'static str>,
    style: &'static str,
    script: &'static str,
}

/// The printable invoice of `purchase`: one self-contained HTML page (inline CSS, no external
/// asset) with the receipt's fields in the buyer's language, laid out for A4.
///
/// Every interpolated value is escaped by askama's HTML auto-escaping. The page prints itself
/// 0.5 s after loading when its URL carries `?print=1` (the spec's invoice window); otherwise a
/// Print button (hidden on paper) does it. Serve it with
/// [`invoice_content_security_policy`].
#[must_use]
pub fn render_invoice_html(purchase: &Purchase, context: &ReceiptContext) -> String {
    let view = ReceiptView::new(purchase, context);
    let notice = |kind| view.notice.filter(|n| n.kind == kind).map(|n| n.text);
    let page = InvoicePage {
        lang: view.lang.code(),
        labels: view.labels,
        view: &view,
        warning: notice(NoticeKind::Warning),
        info: notice(NoticeKind::Info),
        style: STYLE,
        script: SCRIPT,
    };
    // Rendering into a String fails only when a value's `Display` does, and every value here is
    // a `&str` or a `String`: the fallback is unreachable, but never a panic.
    page.render().unwrap_or_else(|_| FALLBACK.to_owned())
}

const FALLBACK: &str = "<!DOCTYPE html><html lang=\"es\"><meta charset=\"utf-8\">\
<title>Factura</title><p>No se pudo generar la factura.</p></html>";

/// The `Content-Security-Policy` to serve the invoice with: nothing may load, and only the page's
/// own style sheet and script (allowed by their SHA-256) may run.
#[must_use]
pub fn invoice_content_security_policy() -> &'static str {
    static POLICY: LazyLock<String> = LazyLock::new(|| {
        format!(
            "default-src 'none'; style-src '{}'; script-src '{}'; base-uri 'none'; \
             form-action 'none'; frame-ancestors 'none'",
            csp_hash(STYLE),
            csp_hash(SCRIPT)
        )
    });
    &POLICY
}

fn csp_hash(source: &str) -> String {
    let digest = Sha256::digest(source.as_bytes());
    format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}
