//! PDF receipts and the printable HTML invoice of a purchase, and the draw's certificate
//! ("Acta de sorteo", `certificate`).
//!
//! Both show the same things, worded once in `view` in the buyer's language (Spanish by
//! default, or English) from the `rifa-text` catalogue: the company (from branding), the raffle, the buyer (name, ID, e-mail,
//! phone, country), the reference, status, date and payment method, the total in USD and, when
//! the purchase's payment snapshot carries a rate, the converted amount (`Bs` with 2 decimals,
//! `COP` with none, others with 2) and `Tasa: 1 USD = rate` with 4 decimals, and every ticket
//! number, zero-padded as the domain pads them (`display_number`). Amounts and counts use the
//! language's separators (`US$ 1.234,56` / `US$ 1,234.56`). Dates are shown in UTC and say so:
//! the buyer's time zone is not known.
//!
//! # PDF: [`GenPdfReceipts`]
//!
//! - **Wording follows the status.** The converted amount is the amount *to pay* on a pending
//!   receipt, the amount *paid* on an approved one, and only the *purchase amount* on a rejected
//!   or test one, which also says in red that nothing is owed (rejected) or nothing was sold
//!   (test).
//! - **Unicode fonts, subset per receipt.** Names come from many countries (`Łukasz Żółć`,
//!   `Nguyễn Thị Minh Khai`, `王芳`, `محمد`), so the receipt embeds DejaVu Sans (regular and
//!   bold: Latin, Vietnamese, Greek, Cyrillic, Arabic, Hebrew…) with Droid Sans Fallback for CJK
//!   (`fonts/`, with their licences; compiled in with `include_bytes!`, nothing is read from disk
//!   or downloaded). Each character is drawn in the first face that has it, run by run, so one
//!   name may mix scripts; a character no face has (emoji) shows as `?`. genpdf embeds whole
//!   fonts (DejaVu alone is 3.8 MB a receipt), so each receipt is laid out twice: once on the
//!   whole fonts only to learn which characters it draws, then on fonts cut down to those glyphs
//!   (allsorts, keeping a Unicode cmap so genpdf can measure and printpdf can write the
//!   `ToUnicode` table that makes the text copy and extract as typed). Measured in
//!   `BENCHMARKS.md`: a one-page receipt went from about 3 KB (built-in Helvetica, Windows-1252
//!   only) to about 25 KB.
//! - **Right to left.** genpdf draws characters left to right, one glyph each. Arabic is shaped
//!   into its joined presentation forms (`ar-reshaper`) and every right-to-left run put in
//!   visual order (`unicode-bidi`) before layout: letters join and read correctly for names and
//!   short texts; ligatures beyond lam-alef and vowel marks' placement are not handled.
//! - **Thousands of numbers.** Ticket numbers flow left to right in a grid of equal columns as
//!   wide as the page allows (16 four-digit or 14 five-digit numbers a row), continued over as
//!   many pages as needed; each number sits in its own cell, so columns stay exact, and each
//!   page carries a footer with the company, the reference and the page number.
//! - Long unbroken values (an e-mail address wider than its column) are cut so they wrap
//!   instead of being clipped.
//!
//! # HTML: [`render_invoice_html`]
//!
//! A self-contained page (inline CSS, no external asset, A4 `@page` rules, `<html lang>`) for the
//! 800×1000 invoice window. It is an askama template: every interpolated value goes through
//! askama's HTML auto-escaping, so a name like `<script>` is shown, never run. The page prints
//! itself 0.5 s after loading only when opened with `?print=1` (the spec's invoice window), so
//! the same page can be viewed or linked without a print dialog popping up; a Print button does
//! it by hand. Its only script and style sheet are constants, so instead of a nonce the server
//! can allow exactly them by hash: serve the page with [`invoice_content_security_policy`].

mod certificate;
mod fonts;
mod html;
mod pdf;
mod text;
mod view;

pub use html::{invoice_content_security_policy, render_invoice_html};
pub use pdf::GenPdfReceipts;

/// The [`rifa_ports::outbound::InvoicePages`] port: [`render_invoice_html`], served with
/// [`invoice_content_security_policy`].
#[derive(Debug, Clone, Copy, Default)]
pub struct HtmlInvoices;

impl rifa_ports::outbound::InvoicePages for HtmlInvoices {
    #[tracing::instrument(name = "pdf.invoice_html", skip_all, fields(purchase.id = purchase.id.get()))]
    fn render(
        &self,
        purchase: &rifa_domain::purchase::Purchase,
        context: &rifa_ports::outbound::ReceiptContext,
    ) -> String {
        render_invoice_html(purchase, context)
    }

    fn content_security_policy(&self) -> &'static str {
        invoice_content_security_policy()
    }
}
