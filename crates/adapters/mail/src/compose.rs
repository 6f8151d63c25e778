//! The buyer's e-mails worded from the catalogue and laid out by templates
//! (`templates/purchase.{txt,html}`, `templates/settings_test.html`).

use askama::Template;
use rifa_domain::Lang;
use rifa_domain::exchange::Currency;
use rifa_domain::purchase::Purchase;
use rifa_domain::ticket::display_number;
use rifa_ports::MailKind;
use rifa_ports::outbound::{Attachment, MailComposer, MailMessage, OutgoingEmail, ReceiptContext};
use rifa_text::format::format_money;
use rifa_text::{Message, text};

/// Numbers listed in the body; the attached receipt has every one.
const NUMBERS_IN_BODY: usize = 50;

/// The [`MailComposer`] of the product: its templates, its catalogue.
#[derive(Debug, Clone, Copy, Default)]
pub struct MailTemplates;

impl MailComposer for MailTemplates {
    #[tracing::instrument(name = "mail.compose", skip_all)]
    fn compose(&self, message: MailMessage) -> anyhow::Result<OutgoingEmail> {
        match message {
            MailMessage::Purchase {
                kind,
                to,
                purchase,
                context,
                receipt_pdf,
            } => purchase_email(kind, to, &purchase, &context, receipt_pdf),
            MailMessage::SettingsTest {
                to,
                company_name,
                lang,
            } => settings_test_email(to, company_name, lang),
        }
    }
}

/// One labelled line of a purchase's message (`Referencia: RF-ABC123`).
struct Row {
    label: String,
    value: String,
}

/// What a purchase's message says, worded in the buyer's language.
struct PurchaseWords {
    lang: &'static str,
    subject: String,
    company: String,
    greeting: String,
    lead: String,
    rows: Vec<Row>,
    receipt_attached: String,
}

#[derive(Template)]
#[template(path = "purchase.txt")]
struct PurchaseText<'a> {
    words: &'a PurchaseWords,
}

#[derive(Template)]
#[template(path = "purchase.html")]
struct PurchaseHtml<'a> {
    words: &'a PurchaseWords,
}

fn purchase_email(
    kind: MailKind,
    to: String,
    purchase: &Purchase,
    context: &ReceiptContext,
    receipt_pdf: Vec<u8>,
) -> anyhow::Result<OutgoingEmail> {
    let lang = context.lang;
    let reference = &purchase.reference;
    let words = purchase_words(kind, purchase, context);
    let text_body = PurchaseText { words: &words }.render()?;
    let html_body = PurchaseHtml { words: &words }.render()?;
    let filename = Message::new("mail-receipt_filename")
        .text("reference", reference.as_str())
        .render(lang);
    Ok(OutgoingEmail {
        // Branding read at delivery: a renamed company signs its next message.
        sender_name: words.company.clone(),
        to,
        subject: words.subject,
        text_body,
        html_body,
        attachments: vec![Attachment {
            filename,
            content_type: "application/pdf".to_owned(),
            bytes: receipt_pdf,
        }],
    })
}

fn purchase_words(kind: MailKind, purchase: &Purchase, context: &ReceiptContext) -> PurchaseWords {
    let lang = context.lang;
    let title = &purchase.raffle_title;
    let reference = &purchase.reference;
    let (subject_key, lead_key) = match kind {
        MailKind::Received => ("mail-subject-received", "mail-lead-received"),
        MailKind::Approved => ("mail-subject-approved", "mail-lead-approved"),
        MailKind::Rejected => ("mail-subject-rejected", "mail-lead-rejected"),
    };
    let subject = Message::new(subject_key)
        .text("reference", reference.as_str())
        .text("title", title.as_str())
        .render(lang);
    let mut numbers_line = purchase
        .ticket_numbers
        .iter()
        .take(NUMBERS_IN_BODY)
        .map(|n| display_number(*n, context.max_tickets))
        .collect::<Vec<_>>()
        .join(", ");
    let more = purchase
        .ticket_numbers
        .len()
        .saturating_sub(NUMBERS_IN_BODY);
    if more > 0 {
        numbers_line.push(' ');
        numbers_line.push_str(
            &Message::new("mail-more_numbers")
                .count("count", u64::try_from(more).unwrap_or(u64::MAX))
                .render(lang),
        );
    }
    let usd = format_money(Currency::Usd, purchase.total_amount.as_decimal(), lang);
    let total = match purchase.conversion {
        Some((currency, rate)) => format!(
            "{usd} ({})",
            format_money(currency, rate.convert(purchase.total_amount), lang)
        ),
        None => usd,
    };
    let row = |key: &'static str, value: String| Row {
        label: text(key, lang),
        value,
    };
    let mut rows = vec![
        row("mail-raffle", title.clone()),
        row("mail-reference", reference.clone()),
        row("mail-tickets", numbers_line),
        row("mail-total", total),
        row("mail-payment_method", purchase.payment_method.clone()),
    ];
    // A decision's message carries the admin's note; the purchase's own does not.
    let notes = matches!(kind, MailKind::Approved | MailKind::Rejected)
        .then_some(purchase.admin_notes.as_deref())
        .flatten();
    if let Some(notes) = notes {
        rows.push(row("mail-team_note", notes.to_owned()));
    }
    PurchaseWords {
        lang: lang.code(),
        subject,
        company: context.company_name.clone(),
        greeting: Message::new("mail-greeting")
            .text("name", purchase.customer_name.as_str())
            .render(lang),
        lead: text(lead_key, lang),
        rows,
        receipt_attached: text("mail-receipt_attached", lang),
    }
}

#[derive(Template)]
#[template(path = "settings_test.html")]
struct SettingsTestHtml<'a> {
    lang: &'static str,
    body: &'a str,
}

fn settings_test_email(
    to: String,
    company_name: String,
    lang: Lang,
) -> anyhow::Result<OutgoingEmail> {
    let body = text("mail-test-body", lang);
    let html_body = SettingsTestHtml {
        lang: lang.code(),
        body: &body,
    }
    .render()?;
    Ok(OutgoingEmail {
        subject: Message::new("mail-test-subject")
            .text("company", company_name.as_str())
            .render(lang),
        sender_name: company_name,
        to,
        html_body,
        text_body: body,
        attachments: Vec::new(),
    })
}
