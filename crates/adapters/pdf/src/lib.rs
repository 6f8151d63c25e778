//! PDF receipts and the printable HTML invoice of a purchase.
//!
//! Both show the same things, worded once in `view` in the buyer's language (Spanish by
//! default, or English): the company (from branding), the raffle, the buyer (name, ID, e-mail,
//! phone, country), the reference, status, date and payment method, the total in USD and, when
//! the purchase's payment snapshot carries a rate, the converted amount (`Bs` with 2 decimals,
//! `COP` with none, others with 2) and `Tasa: 1 USD = rate` with 4 decimals, and every ticket
//! number, zero-padded as the domain pads them (`display_number`). Amounts and counts use the
//! language's separators (`US$ 1.234,56` / `US$ 1,234.56`). Dates are shown in UTC and say so:
//! the buyer's time zone is not known.
//!
//! # PDF: [`GenPdfReceipts`]
//!
//! - **Built-in fonts.** The receipt uses Helvetica, one of the fonts every PDF viewer has, so
//!   nothing is embedded: a one-page receipt weighs a few kilobytes (the tests hold it under
//!   100 KB) where embedding Liberation Sans would cost 1.3 MB and DejaVu 3.8 MB, too much for an
//!   e-mail attachment. genpdf still needs glyph metrics to wrap text; they come from Liberation
//!   Sans 2 (metrically identical to Helvetica, SIL OFL 1.1, `fonts/` with its licence), compiled
//!   into the binary with `include_bytes!`, so nothing is read from disk at run time.
//! - **Character coverage.** Built-in fonts speak Windows-1252: all of Spanish (á é í ó ú ü ñ
//!   ¡ ¿), Western European letters, `€` and typographic quotes and dashes. Anything else a buyer
//!   types is narrowed before rendering instead of failing: text is composed (NFC), a letter
//!   outside the set becomes its base letter when that is inside (`ő` → `o`), and otherwise `?`
//!   (CJK, emoji, `Ł`). The HTML invoice has no such limit and shows names as typed.
//! - **Size.** printpdf 0.3 writes page contents uncompressed, so the finished file is read back
//!   with lopdf and its streams deflated: a one-page receipt is about 3 KB, one with 5,000
//!   numbers about 35 KB (7 pages).
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

mod html;
mod pdf;
mod text;
mod view;

pub use html::{invoice_content_security_policy, render_invoice_html};
pub use pdf::GenPdfReceipts;
