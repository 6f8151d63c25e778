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

use crate::draw::{LedgerNotice, ledger_frozen_email, prize_won_email};

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
                buyer_link,
                proof_missing,
            } => purchase_email(
                kind,
                to,
                &purchase,
                &context,
                receipt_pdf,
                (buyer_link.as_deref(), proof_missing),
            ),
            MailMessage::NumbersReleased {
                to,
                company_name,
                raffle_title,
                raffle_link,
                lang,
            } => numbers_released_email(to, company_name, &raffle_title, &raffle_link, lang),
            MailMessage::SettingsTest {
                to,
                company_name,
                lang,
            } => settings_test_email(to, company_name, lang),
            MailMessage::LedgerFrozen {
                to,
                lang,
                company_name,
                raffle_id,
                raffle_title,
                max_tickets,
                reference,
                commitment,
                tag,
                proofs,
                verify_link,
            } => ledger_frozen_email(&LedgerNotice {
                to,
                lang,
                company_name,
                raffle_id,
                raffle_title: &raffle_title,
                max_tickets,
                reference: &reference,
                commitment: &commitment,
                tag,
                proofs: &proofs,
                verify_link: &verify_link,
            }),
            MailMessage::PrizeWon {
                to,
                customer_name,
                reference,
                claim_deadline,
                certificate,
                certificate_pdf,
            } => prize_won_email(
                to,
                &customer_name,
                &reference,
                claim_deadline,
                &certificate,
                certificate_pdf,
            ),
        }
    }
}

/// One labelled line of a purchase's message (`Referencia: RF-ABC123`).
pub(crate) struct Row {
    pub(crate) label: String,
    pub(crate) value: String,
}

/// A link and what it is for (`Sigue tu compra`).
pub(crate) struct Link {
    pub(crate) label: String,
    pub(crate) url: String,
}

/// What a purchase's message says, worded in the buyer's language.
pub(crate) struct PurchaseWords {
    pub(crate) lang: &'static str,
    pub(crate) subject: String,
    pub(crate) company: String,
    pub(crate) greeting: String,
    pub(crate) lead: String,
    pub(crate) rows: Vec<Row>,
    /// The buyer's private page of the purchase, or the draw's verification page.
    pub(crate) link: Option<Link>,
    /// What is attached (the receipt, the proof, the certificate).
    pub(crate) receipt_attached: String,
}

#[derive(Template)]
#[template(path = "purchase.txt")]
pub(crate) struct PurchaseText<'a> {
    pub(crate) words: &'a PurchaseWords,
}

#[derive(Template)]
#[template(path = "purchase.html")]
pub(crate) struct PurchaseHtml<'a> {
    pub(crate) words: &'a PurchaseWords,
}

fn purchase_email(
    kind: MailKind,
    to: String,
    purchase: &Purchase,
    context: &ReceiptContext,
    receipt_pdf: Vec<u8>,
    link: (Option<&str>, bool),
) -> anyhow::Result<OutgoingEmail> {
    let lang = context.lang;
    let reference = &purchase.reference;
    let words = purchase_words(kind, purchase, context, link)?;
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

fn purchase_words(
    kind: MailKind,
    purchase: &Purchase,
    context: &ReceiptContext,
    (buyer_link, proof_missing): (Option<&str>, bool),
) -> anyhow::Result<PurchaseWords> {
    let lang = context.lang;
    let title = &purchase.raffle_title;
    let reference = &purchase.reference;
    let (subject_key, lead_key) = match kind {
        MailKind::Received if proof_missing => {
            ("mail-subject-received", "mail-lead-received-no_proof")
        }
        MailKind::Received => ("mail-subject-received", "mail-lead-received"),
        MailKind::Approved => ("mail-subject-approved", "mail-lead-approved"),
        MailKind::Rejected => ("mail-subject-rejected", "mail-lead-rejected"),
        MailKind::Expired => ("mail-subject-expired", "mail-lead-expired"),
        MailKind::NumbersReleased | MailKind::LedgerFrozen | MailKind::PrizeWon => {
            anyhow::bail!("{} is not a purchase's own message", kind.as_str())
        }
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
    Ok(PurchaseWords {
        lang: lang.code(),
        subject,
        company: context.company_name.clone(),
        greeting: Message::new("mail-greeting")
            .text("name", purchase.customer_name.as_str())
            .render(lang),
        lead: text(lead_key, lang),
        rows,
        link: buyer_link.map(|url| Link {
            label: text(
                if proof_missing {
                    "mail-send_proof_link"
                } else {
                    "mail-buyer_link"
                },
                lang,
            ),
            url: url.to_owned(),
        }),
        receipt_attached: text("mail-receipt_attached", lang),
    })
}

/// What a release alert says.
struct ReleaseWords {
    lang: &'static str,
    subject: String,
    company: String,
    lead: String,
    link: Link,
    footer: String,
}

#[derive(Template)]
#[template(path = "numbers_released.txt")]
struct ReleasedText<'a> {
    words: &'a ReleaseWords,
}

#[derive(Template)]
#[template(path = "numbers_released.html")]
struct ReleasedHtml<'a> {
    words: &'a ReleaseWords,
}

fn numbers_released_email(
    to: String,
    company_name: String,
    raffle_title: &str,
    raffle_link: &str,
    lang: Lang,
) -> anyhow::Result<OutgoingEmail> {
    let words = ReleaseWords {
        lang: lang.code(),
        subject: Message::new("mail-subject-numbers_released")
            .text("title", raffle_title)
            .render(lang),
        company: company_name,
        lead: Message::new("mail-lead-numbers_released")
            .text("title", raffle_title)
            .render(lang),
        link: Link {
            label: text("mail-raffle_link", lang),
            url: raffle_link.to_owned(),
        },
        footer: text("mail-alert_footer", lang),
    };
    Ok(OutgoingEmail {
        text_body: ReleasedText { words: &words }.render()?,
        html_body: ReleasedHtml { words: &words }.render()?,
        sender_name: words.company,
        to,
        subject: words.subject,
        attachments: Vec::new(),
    })
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
