//! The buyer's e-mails as the templates word them: in the buyer's language only, with what the
//! use case chose (kind, recipient, purchase, receipt).

#![allow(clippy::unwrap_used)]

use chrono::Utc;
use rifa_domain::Lang;
use rifa_domain::money::Money;
use rifa_domain::purchase::PurchaseId;
use rifa_domain::purchase::{Purchase, PurchaseStatus};
use rifa_domain::raffle::RaffleId;
use rifa_domain::ticket::TicketNumber;
use rifa_mail::MailTemplates;
use rifa_ports::MailKind;
use rifa_ports::outbound::{MailComposer, MailMessage, OutgoingEmail, ReceiptContext};

fn purchase(status: PurchaseStatus, tickets: u32) -> Purchase {
    Purchase {
        id: PurchaseId::new(1),
        reference: "RF-ABC123".into(),
        raffle_id: RaffleId::new(1),
        raffle_title: "RX-7".into(),
        ticket_numbers: (1..=tickets).map(TicketNumber::from_stored).collect(),
        customer_name: "Ana Ruiz".into(),
        customer_id_document: "V12345678".into(),
        customer_email: "ana@correo.com".into(),
        customer_phone: "04141234567".into(),
        customer_country: "ve".into(),
        payment_method: "Zelle".into(),
        payment_method_id: None,
        conversion: None,
        total_amount: Money::from_cents(6_000).unwrap(),
        discount_applied: Money::ZERO,
        status,
        created_at: Utc::now(),
        decided_at: None,
        payment_proof: None,
        admin_notes: Some("ID 42".into()),
        hold_expires_at: None,
        payment_reference: None,
    }
}

fn compose(kind: MailKind, purchase: Purchase, lang: Lang) -> OutgoingEmail {
    compose_linked(kind, purchase, lang, None)
}

fn compose_linked(
    kind: MailKind,
    purchase: Purchase,
    lang: Lang,
    buyer_link: Option<&str>,
) -> OutgoingEmail {
    MailTemplates
        .compose(MailMessage::Purchase {
            kind,
            to: "ana@correo.com".into(),
            purchase,
            context: ReceiptContext {
                company_name: "Acme".into(),
                max_tickets: 100,
                lang,
                generated_at: Utc::now(),
            },
            receipt_pdf: b"%PDF-1.4".to_vec(),
            buyer_link: buyer_link.map(str::to_owned),
            proof_missing: false,
        })
        .unwrap()
}

/// The words a message in the other language would give itself away by.
fn tell_tale_words(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::Es => &[
            "hello",
            "purchase",
            "received",
            "approved",
            "rejected",
            "tickets",
            "reference",
            "payment",
            "raffle",
            "receipt",
            "attached",
            "more",
            "team",
            "follow",
            "expired",
            "time",
        ],
        Lang::En => &[
            "hola",
            "compra",
            "recibimos",
            "aprobada",
            "rechazada",
            "boletos",
            "referencia",
            "método",
            "sorteo",
            "recibo",
            "adjuntamos",
            "más",
            "equipo",
            "sigue",
            "venció",
            "tiempo",
        ],
    }
}

fn visible_words(email: &OutgoingEmail) -> Vec<String> {
    let mut html_text = String::new();
    let mut in_tag = false;
    for c in email.html_body.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                html_text.push(' ');
            }
            c if !in_tag => html_text.push(c),
            _ => {}
        }
    }
    // Links are the site's paths (`/compra/…`), the same in every language.
    let text_body: String = email
        .text_body
        .split_whitespace()
        .filter(|word| !word.starts_with("http"))
        .collect::<Vec<_>>()
        .join(" ");
    [&email.subject, &text_body, &html_text]
        .iter()
        .flat_map(|text| text.split(|c: char| !c.is_alphanumeric() && c != 'é'))
        .map(str::to_lowercase)
        .collect()
}

#[test]
fn every_message_speaks_only_the_buyers_language() {
    for lang in [Lang::Es, Lang::En] {
        for (kind, status) in [
            (MailKind::Received, PurchaseStatus::Pending),
            (MailKind::Approved, PurchaseStatus::Approved),
            (MailKind::Rejected, PurchaseStatus::Rejected),
            (MailKind::Expired, PurchaseStatus::Expired),
        ] {
            let email = compose_linked(
                kind,
                purchase(status, 60),
                lang,
                Some("https://rifa.test/compra/1#k"),
            );
            let words = visible_words(&email);
            for word in tell_tale_words(lang) {
                assert!(
                    !words.iter().any(|w| w == word),
                    "{kind:?} in {lang:?} says {word:?}: {}\n{}",
                    email.subject,
                    email.text_body
                );
            }
        }
    }
}

#[test]
fn a_message_goes_to_the_chosen_recipient_with_its_receipt_attached() {
    let email = compose(
        MailKind::Received,
        purchase(PurchaseStatus::Pending, 3),
        Lang::Es,
    );
    assert_eq!(email.to, "ana@correo.com");
    assert_eq!(email.sender_name, "Acme");
    assert_eq!(email.subject, "Recibimos tu compra RF-ABC123 – RX-7");
    assert_eq!(email.attachments.len(), 1);
    assert_eq!(email.attachments[0].filename, "recibo-RF-ABC123.pdf");
    assert_eq!(email.attachments[0].content_type, "application/pdf");
    assert_eq!(email.attachments[0].bytes, b"%PDF-1.4");
}

#[test]
fn values_are_escaped_in_html_and_kept_as_typed_in_text() {
    let mut bought = purchase(PurchaseStatus::Approved, 2);
    bought.customer_name = "<b>Ana</b> & Co".into();
    let email = compose(MailKind::Approved, bought, Lang::En);
    assert!(email.text_body.starts_with("Hello <b>Ana</b> & Co,\n"));
    assert!(
        email
            .html_body
            .contains("&#60;b&#62;Ana&#60;/b&#62; &#38; Co"),
        "{}",
        email.html_body
    );
    assert!(!email.html_body.contains("<b>Ana"));
}

#[test]
fn a_settings_test_says_it_is_one_in_the_admins_language() {
    let email = MailTemplates
        .compose(MailMessage::SettingsTest {
            to: "admin@rifa.example".into(),
            company_name: "Rifa".into(),
            lang: Lang::Es,
        })
        .unwrap();
    assert_eq!(email.subject, "Correo de prueba de Rifa");
    assert_eq!(email.sender_name, "Rifa");
    assert_eq!(
        email.text_body,
        "Si lees esto, la configuración de correo funciona: los compradores recibirán sus \
         confirmaciones."
    );
    assert_eq!(
        email.html_body,
        format!(
            "<!doctype html><html lang=\"es\"><body><p>{}</p></body></html>",
            email.text_body
        )
    );
    assert!(email.attachments.is_empty());
}

/// What the e-mails said when they were written in code (before the templates), for purchases
/// of 3 and of 60 numbers, with and without a converted amount, a note and a name to escape.
/// Subjects, text bodies and file names are the same to the byte; the HTML differs only by line
/// breaks between tags and the form of its escapes (`&#38;` for `&amp;`, an apostrophe escaped).
#[test]
fn the_templates_say_what_the_messages_said_before_them() {
    use rifa_domain::exchange::Currency;
    use rifa_domain::money::Rate;

    let golden: serde_json::Value =
        serde_json::from_str(include_str!("golden/purchase-mails.json")).unwrap();
    let cases = golden.as_array().unwrap();
    assert_eq!(cases.len(), 12);
    for case in cases {
        let lang = Lang::from_code(case["lang"].as_str().unwrap());
        let kind = MailKind::parse(case["kind"].as_str().unwrap()).unwrap();
        let tickets = u32::try_from(case["tickets"].as_u64().unwrap()).unwrap();
        let mut bought = purchase(PurchaseStatus::Pending, 0);
        bought.raffle_title = "Rifa de prueba".into();
        bought.ticket_numbers = (1..=tickets)
            .map(|n| TicketNumber::from_stored(n * 7))
            .collect();
        bought.customer_name = case["name"].as_str().unwrap().into();
        bought.payment_method = "Pago Móvil".into();
        bought.total_amount = Money::from_cents(1_234_567).unwrap();
        bought.admin_notes = case["notes"].as_str().map(Into::into);
        if case["converted"].as_bool().unwrap() {
            let rate = Rate::new(rust_decimal::Decimal::new(365_012, 4)).unwrap();
            bought.conversion = Some((Currency::Ves, rate));
        }
        let email = MailTemplates
            .compose(MailMessage::Purchase {
                kind,
                to: "ana@correo.com".into(),
                purchase: bought,
                context: ReceiptContext {
                    company_name: "Sorteos & Co".into(),
                    max_tickets: 1000,
                    lang,
                    generated_at: Utc::now(),
                },
                buyer_link: None,
                receipt_pdf: Vec::new(),
                proof_missing: false,
            })
            .unwrap();
        assert_eq!(email.subject, case["subject"].as_str().unwrap(), "{case}");
        assert_eq!(email.text_body, case["text"].as_str().unwrap(), "{case}");
        assert_eq!(
            email.attachments[0].filename,
            case["filename"].as_str().unwrap()
        );
        let html = email
            .html_body
            .replace('\n', "")
            .replace("&#38;", "&amp;")
            .replace("&#39;", "'");
        assert_eq!(html, case["html"].as_str().unwrap(), "{case}");
    }
}

#[test]
fn a_purchases_message_links_the_buyers_page_in_both_bodies() {
    let link = "https://rifa.test/compra/1#Ab-_9";
    let email = compose_linked(
        MailKind::Received,
        purchase(PurchaseStatus::Pending, 3),
        Lang::Es,
        Some(link),
    );
    assert!(
        email
            .text_body
            .contains(&format!("Sigue tu compra: {link}")),
        "{}",
        email.text_body
    );
    assert!(
        email.html_body.contains(&format!("href=\"{link}\"")),
        "{}",
        email.html_body
    );
    let unlinked = compose(
        MailKind::Received,
        purchase(PurchaseStatus::Pending, 3),
        Lang::Es,
    );
    assert!(!unlinked.text_body.contains("Sigue tu compra"));
}

#[test]
fn an_expiry_says_the_numbers_went_back_on_sale() {
    let email = compose(
        MailKind::Expired,
        purchase(PurchaseStatus::Expired, 3),
        Lang::Es,
    );
    assert_eq!(email.subject, "Tu reserva venció RF-ABC123 – RX-7");
    assert!(
        email.text_body.contains("tus números volvieron a la venta"),
        "{}",
        email.text_body
    );
}

#[test]
fn a_release_alert_names_the_raffle_and_links_its_page_in_the_askers_language() {
    for (lang, subject, label) in [
        (
            Lang::Es,
            "Hay números disponibles otra vez en RX-7 <1>",
            "Ver el sorteo",
        ),
        (
            Lang::En,
            "Numbers are available again in RX-7 <1>",
            "See the raffle",
        ),
    ] {
        let email = MailTemplates
            .compose(MailMessage::NumbersReleased {
                to: "vigia@correo.com".into(),
                company_name: "Acme".into(),
                raffle_title: "RX-7 <1>".into(),
                raffle_link: "https://rifa.test/sorteo/3".into(),
                lang,
            })
            .unwrap();
        assert_eq!(email.subject, subject);
        assert_eq!(email.to, "vigia@correo.com");
        assert!(email.attachments.is_empty());
        assert!(
            email
                .text_body
                .contains(&format!("{label}: https://rifa.test/sorteo/3")),
            "{}",
            email.text_body
        );
        assert!(
            email.html_body.contains("RX-7 &#60;1&#62;"),
            "{}",
            email.html_body
        );
        assert!(
            email
                .html_body
                .contains("href=\"https://rifa.test/sorteo/3\"")
        );
    }
}
