//! Receipts rendered for real and read back: PDFs through poppler's `pdftotext`/`pdfinfo`, the
//! HTML invoice as text.

use rifa_domain::payment::PaymentMethodId;
use rifa_domain::purchase::PurchaseId;
use rifa_domain::raffle::RaffleId;
use rifa_domain::ticket::TicketNumber;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use chrono::{TimeZone as _, Utc};
use rifa_domain::Lang;
use rifa_domain::exchange::Currency;
use rifa_domain::money::{Money, Rate};
use rifa_domain::purchase::{Purchase, PurchaseStatus};
use rifa_pdf::{GenPdfReceipts, invoice_content_security_policy, render_invoice_html};
use rifa_ports::outbound::{ReceiptContext, ReceiptRenderer as _};
use sha2::{Digest as _, Sha256};

const SPANISH: &str = "á é í ó ú ñ ¡ ¿";

fn money(raw: &str) -> Money {
    raw.parse().unwrap_or_else(|e| panic!("{raw}: {e:?}"))
}

fn purchase(numbers: Vec<u32>) -> Purchase {
    let price = money("13.00");
    Purchase {
        id: PurchaseId::new(7),
        reference: "RIFA-7Q2K9X".into(),
        raffle_id: RaffleId::new(3),
        raffle_title: "Gran Rifa Navideña: ¡camión 0 km! ¿Listo? (á é í ó ú ñ ¡ ¿)".into(),
        total_amount: price.times(u32::try_from(numbers.len()).unwrap_or(u32::MAX)),
        ticket_numbers: numbers.into_iter().map(TicketNumber::from_stored).collect(),
        customer_name: "José Ñúñez Pérez".into(),
        customer_id_document: "V-12.345.678".into(),
        customer_email: "jose.nunez@example.com".into(),
        customer_phone: "+58 412 555 1234".into(),
        customer_country: "venezuela".into(),
        payment_method: "Pago Móvil Banesco".into(),
        payment_method_id: Some(PaymentMethodId::new(2)),
        conversion: Some((
            Currency::Ves,
            "36.5012"
                .parse::<Rate>()
                .unwrap_or_else(|e| panic!("{e:?}")),
        )),
        discount_applied: Money::ZERO,
        status: PurchaseStatus::Pending,
        created_at: Utc
            .with_ymd_and_hms(2026, 11, 23, 14, 5, 0)
            .single()
            .unwrap_or_else(|| panic!("valid date")),
        decided_at: None,
        payment_proof: None,
        admin_notes: None,
        hold_expires_at: None,
        payment_reference: None,
    }
}

fn context(lang: Lang, max_tickets: u32) -> ReceiptContext {
    ReceiptContext {
        company_name: "Rifas El Caribeño".into(),
        max_tickets,
        lang,
        generated_at: Utc
            .with_ymd_and_hms(2026, 11, 23, 15, 0, 0)
            .single()
            .unwrap_or_else(|| panic!("valid date")),
    }
}

fn render(purchase: &Purchase, context: &ReceiptContext) -> Vec<u8> {
    GenPdfReceipts::new()
        .and_then(|r| r.render(purchase, context))
        .unwrap_or_else(|e| panic!("rendering failed: {e:#}"))
}

/// Writes `pdf` where it can be looked at after the run (`target/tmp/…`).
fn save(name: &str, pdf: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("rifa-pdf-{name}.pdf"));
    std::fs::write(&path, pdf).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
    path
}

fn poppler(tool: &str, args: &[&str]) -> String {
    let output = Command::new(tool).args(args).output().unwrap_or_else(|e| {
        panic!(
            "could not run `{tool}` ({e}); these tests read PDFs back with poppler: \
             install it with `apt-get install -y poppler-utils`"
        )
    });
    assert!(
        output.status.success(),
        "{tool} {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap_or_else(|e| panic!("{tool} wrote non-UTF-8: {e}"))
}

/// The text of a PDF, laid out as on the page.
fn pdf_text(name: &str, pdf: &[u8]) -> String {
    let path = save(name, pdf);
    let path = path.to_string_lossy();
    poppler("pdftotext", &["-layout", "-enc", "UTF-8", &path, "-"])
}

/// The text of a PDF in the order it was drawn (columns not interleaved).
fn pdf_text_raw(name: &str, pdf: &[u8]) -> String {
    let path = save(name, pdf);
    let path = path.to_string_lossy();
    poppler("pdftotext", &["-raw", "-enc", "UTF-8", &path, "-"])
}

fn page_count(name: &str, pdf: &[u8]) -> usize {
    let path = save(name, pdf);
    let info = poppler("pdfinfo", &[&path.to_string_lossy()]);
    info.lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no page count in {info}"))
}

#[test]
fn a_receipt_of_five_thousand_numbers_flows_over_several_pages_and_reads_back_whole() {
    // 5,000 numbers spread over a 99,999-number raffle, so they pad to five digits.
    let numbers: Vec<u32> = (1..=5_000).map(|i| i * 19).collect();
    let purchase = purchase(numbers.clone());

    let pdf = render(&purchase, &context(Lang::Es, 99_999));

    let text = pdf_text("5000-numbers", &pdf);
    for expected in [
        "RIFA-7Q2K9X",
        "00019",
        "47500",
        "95000",
        "US$ 65.000,00",
        "Bs 2.372.578,00",
        "Tasa: 1 USD = 36,5012 VES",
        "Boletos (5.000)",
        "José Ñúñez Pérez",
        SPANISH,
        "Procesando pago",
        "Cédula o pasaporte",
    ] {
        assert!(text.contains(expected), "{expected:?} missing from the PDF");
    }
    let read_back: BTreeSet<u32> = text
        .split_whitespace()
        .filter(|w| w.len() == 5 && w.bytes().all(|b| b.is_ascii_digit()))
        .filter_map(|w| w.parse().ok())
        .collect();
    let sold: BTreeSet<u32> = numbers.into_iter().collect();
    assert_eq!(read_back, sold, "every number, and nothing else, read back");
    let pages = page_count("5000-numbers", &pdf);
    assert!(pages >= 3, "5,000 numbers fit on {pages} pages?");
    assert!(
        text.contains(&format!("Página {pages}")),
        "each page is numbered"
    );
    eprintln!("5,000-number receipt: {} bytes, {pages} pages", pdf.len());
}

#[test]
fn a_one_page_receipt_stays_far_under_100_kb() {
    let pdf = render(&purchase(vec![7, 8, 42]), &context(Lang::Es, 9_999));

    assert_eq!(page_count("one-page", &pdf), 1);
    assert!(pdf.len() < 100 * 1024, "{} bytes", pdf.len());
    eprintln!("one-page receipt: {} bytes", pdf.len());
    let text = pdf_text("one-page", &pdf);
    assert!(text.contains("0007") && text.contains("0008") && text.contains("0042"));
    assert!(text.contains("Rifas El Caribeño"), "the company is named");
}

#[test]
fn an_english_receipt_reads_english() {
    let mut purchase = purchase(vec![1, 2, 3]);
    purchase.status = PurchaseStatus::Approved;
    purchase.customer_country = "estados-unidos".into();
    purchase.conversion = Some((
        Currency::Cop,
        "4012.5".parse::<Rate>().unwrap_or_else(|e| panic!("{e:?}")),
    ));

    let text = pdf_text("english", &render(&purchase, &context(Lang::En, 9_999)));

    for expected in [
        "Purchase receipt",
        "RAFFLE",
        "BUYER",
        "PAYMENT",
        "ID or passport",
        "Payment method",
        "Reference",
        "Approved",
        "United States",
        "Tickets (3)",
        "US$ 39.00",
        "COP 156,488",
        "Rate: 1 USD = 4,012.5000 COP",
        "Page 1",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    for spanish in ["COMPRADOR", "Boletos", "Referencia", "Página", "Tasa"] {
        assert!(!text.contains(spanish), "{spanish:?} in an English receipt");
    }
}

#[test]
fn names_in_any_script_read_back_from_the_receipt_as_typed() {
    let mut purchase = purchase(vec![5]);
    // Latin Extended and CJK in one name (per-run fallback), an emoji no font has.
    purchase.customer_name = "Łukasz Żółć 王芳 🎉".into();
    purchase.raffle_title = "Nguyễn Thị Minh Khai: Gran Rifa".into();
    purchase.status = PurchaseStatus::Test;
    purchase.conversion = None;
    let mut context = context(Lang::Es, 100);
    context.company_name = "Rifas 王氏".into();

    let pdf = render(&purchase, &context);

    let text = pdf_text("unicode-names", &pdf);
    for expected in [
        "Łukasz Żółć 王芳 ?",
        "Nguyễn Thị Minh Khai: Gran Rifa",
        "Rifas 王氏",
        "Modo Prueba",
        "Compra de prueba",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    assert!(!text.contains("Tasa"), "no rate without a conversion");
    assert!(pdf.len() < 100 * 1024, "{} bytes", pdf.len());
    eprintln!(
        "receipt with Latin, Vietnamese and CJK names: {} bytes",
        pdf.len()
    );
}

#[test]
fn an_arabic_name_is_drawn_with_its_letters_joined() {
    use unicode_normalization::UnicodeNormalization as _;

    let mut purchase = purchase(vec![5]);
    purchase.customer_name = "محمد".into();

    let text = pdf_text("arabic-name", &render(&purchase, &context(Lang::En, 100)));

    // The page holds the letters' joined (presentation) forms in drawing order; compatibility
    // normalisation turns them back into the letters.
    let letters: String = text.nfkc().collect();
    let reversed: String = "محمد".chars().rev().collect();
    assert!(
        letters.contains("محمد") || letters.contains(&reversed),
        "{text}"
    );
    assert!(
        text.contains('\u{FEE3}'),
        "an initial meem, joined to what follows: {text}"
    );
}

#[test]
fn a_long_unbroken_value_wraps_instead_of_disappearing() {
    let mut purchase = purchase(vec![5]);
    let email = format!("{}@ejemplo-de-dominio-largo.com.ve", "x".repeat(70));
    purchase.customer_email.clone_from(&email);
    purchase.raffle_title = "Palabra".repeat(30);

    let text = pdf_text_raw("long-values", &render(&purchase, &context(Lang::Es, 100)));

    let squeezed: String = text.split_whitespace().collect();
    assert!(squeezed.contains(&email), "{text}");
    assert!(squeezed.contains(&"Palabra".repeat(30)), "{text}");
}

fn attack() -> Purchase {
    let mut purchase = purchase(vec![7, 1500, 9999]);
    purchase.customer_name = "<script>alert('x')</script> & \"Ana\"".into();
    purchase.raffle_title = "Rifa <b>de</b> fin de año".into();
    purchase
}

#[test]
fn the_html_invoice_escapes_what_buyers_typed() {
    let html = render_invoice_html(&attack(), &context(Lang::Es, 9_999));

    assert!(
        html.contains("&#60;script&#62;alert(&#39;x&#39;)&#60;/script&#62; &#38; &#34;Ana&#34;"),
        "escaped name missing:\n{html}"
    );
    assert!(!html.contains("<script>alert"));
    assert!(html.contains("Rifa &#60;b&#62;de&#60;/b&#62; fin de año"));
    assert_eq!(
        html.matches("<script").count(),
        1,
        "only the page's own script"
    );
}

#[test]
fn the_html_invoice_has_every_field_in_the_buyer_s_language() {
    let es = render_invoice_html(&attack(), &context(Lang::Es, 9_999));
    let en = render_invoice_html(&attack(), &context(Lang::En, 9_999));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    for (name, html) in [("es", &es), ("en", &en)] {
        let path = dir.join(format!("rifa-invoice-{name}.html"));
        std::fs::write(&path, html).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    assert!(es.starts_with("<!DOCTYPE html>\n<html lang=\"es\">"));
    assert!(en.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    for expected in [
        "<span>0007</span>",
        "<span>1500</span>",
        "<span>9999</span>",
        "Boletos (3)",
        "RIFA-7Q2K9X",
        "US$ 39,00",
        "Bs 1.423,55",
        "Tasa: 1 USD = 36,5012 VES",
        "V-12.345.678",
        "jose.nunez@example.com",
        "+58 412 555 1234",
        "Venezuela",
        "Procesando pago",
        "23/11/2026 14:05 UTC",
        "Rifas El Caribeño",
        "@page",
    ] {
        assert!(es.contains(expected), "{expected:?} missing:\n{es}");
    }
    for expected in [
        "Tickets (3)",
        "Processing payment",
        "Rate: 1 USD = 36.5012 VES",
        "Nov 23, 2026 14:05 UTC",
    ] {
        assert!(en.contains(expected), "{expected:?} missing:\n{en}");
    }
    for external in ["<link", "src=", "href=", "url("] {
        assert!(!es.contains(external), "external asset {external:?}");
    }
}

#[test]
fn the_invoice_policy_allows_exactly_the_page_s_own_style_and_script() {
    let html = render_invoice_html(&attack(), &context(Lang::Es, 9_999));
    let inline = |open: &str, close: &str| {
        let start = html.find(open).map(|i| i + open.len());
        let end = html.find(close);
        match (start, end) {
            (Some(start), Some(end)) => html[start..end].to_owned(),
            _ => panic!("no {open} in the page"),
        }
    };
    let hash = |source: String| {
        use base64::Engine as _;
        let digest = Sha256::digest(source.as_bytes());
        format!(
            "'sha256-{}'",
            base64::engine::general_purpose::STANDARD.encode(digest)
        )
    };

    let policy = invoice_content_security_policy();

    assert!(policy.contains(&format!(
        "style-src {}",
        hash(inline("<style>", "</style>"))
    )));
    assert!(policy.contains(&format!(
        "script-src {}",
        hash(inline("<script>", "</script>"))
    )));
    assert!(policy.starts_with("default-src 'none'"));
    let script = inline("<script>", "</script>");
    assert!(script.contains("\"print\") === \"1\"") && script.contains("500"));
}

/// What each status's receipt must say about its converted amount, in each language, and what it
/// must never say: a rejected or test purchase owes nothing.
#[test]
fn the_receipt_s_amount_wording_follows_the_purchase_status() {
    let cases = [
        (
            PurchaseStatus::Pending,
            Lang::Es,
            "Monto a pagar",
            &["Monto pagado", "rechazada"][..],
        ),
        (
            PurchaseStatus::Approved,
            Lang::Es,
            "Monto pagado",
            &["Monto a pagar", "rechazada"][..],
        ),
        (
            PurchaseStatus::Rejected,
            Lang::Es,
            "no hay ningún monto que pagar",
            &["Monto a pagar", "Monto pagado"][..],
        ),
        (
            PurchaseStatus::Test,
            Lang::Es,
            "Monto de la compra",
            &["Monto a pagar", "Monto pagado"][..],
        ),
        (
            PurchaseStatus::Pending,
            Lang::En,
            "Amount to pay",
            &["Amount paid", "rejected"][..],
        ),
        (
            PurchaseStatus::Approved,
            Lang::En,
            "Amount paid",
            &["Amount to pay", "rejected"][..],
        ),
        (
            PurchaseStatus::Rejected,
            Lang::En,
            "nothing is owed for it",
            &["Amount to pay", "Amount paid"][..],
        ),
        (
            PurchaseStatus::Test,
            Lang::En,
            "Purchase amount",
            &["Amount to pay", "Amount paid"][..],
        ),
    ];
    for (status, lang, says, never) in cases {
        let mut purchase = purchase(vec![7, 8]);
        purchase.status = status;
        let context = context(lang, 9_999);
        let name = format!("status-{}-{}", status.as_str(), lang.code());
        // The PDF shows labels in capitals; compare without case.
        let pdf = pdf_text_raw(&name, &render(&purchase, &context)).to_lowercase();
        let html = render_invoice_html(&purchase, &context).to_lowercase();
        for (what, text) in [("PDF", &pdf), ("invoice", &html)] {
            let squeezed = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(
                squeezed.contains(&says.to_lowercase()),
                "{status:?} {lang:?} {what} lacks {says:?}:\n{squeezed}"
            );
            for wrong in never {
                assert!(
                    !squeezed.contains(&wrong.to_lowercase()),
                    "{status:?} {lang:?} {what} says {wrong:?}:\n{squeezed}"
                );
            }
        }
    }
}

#[test]
fn a_receipt_speaks_only_the_buyers_language() {
    let tell_tale = |lang: Lang| -> &'static [&'static str] {
        match lang {
            Lang::Es => &[
                "receipt",
                "reference",
                "tickets",
                "date",
                "amount",
                "customer",
                "method",
                "paid",
                "purchase",
            ],
            Lang::En => &[
                "recibo",
                "referencia",
                "boletos",
                "fecha",
                "monto",
                "cliente",
                "método",
                "pagado",
                "compra",
            ],
        }
    };
    for lang in [Lang::Es, Lang::En] {
        for status in [
            PurchaseStatus::Pending,
            PurchaseStatus::Approved,
            PurchaseStatus::Rejected,
            PurchaseStatus::Test,
        ] {
            let mut purchase = purchase(vec![7, 8]);
            purchase.status = status;
            let name = format!("language-{}-{}", status.as_str(), lang.code());
            let text =
                pdf_text_raw(&name, &render(&purchase, &context(lang, 9_999))).to_lowercase();
            let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).collect();
            for word in tell_tale(lang) {
                assert!(
                    !words.contains(word),
                    "{status:?} receipt in {lang:?} says {word:?}:\n{text}"
                );
            }
        }
    }
}
