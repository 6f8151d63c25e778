//! The draw's e-mails (decision 0020): to every buyer when the ledger is frozen, with the
//! proof their numbers are in it; to each winner, with the certificate. Both are laid out by
//! the purchase templates: a greeting, a lead, labelled rows, a link and an attachment.

use askama::Template;
use rifa_domain::Lang;
use rifa_domain::draw::ledger::{Hash, to_hex};
use rifa_domain::draw::prize::PrizeSource;
use rifa_domain::raffle::RaffleId;
use rifa_domain::ticket::{TicketNumber, display_number};
use rifa_ports::Commitment;
use rifa_ports::outbound::{Attachment, DrawCertificate, InclusionProof, OutgoingEmail};
use rifa_text::format::format_instant;
use rifa_text::{Message, text};
use serde_json::json;

use crate::compose::{Link, PurchaseHtml, PurchaseText, PurchaseWords, Row};

fn padded(number: u32, max_tickets: u32) -> String {
    display_number(TicketNumber::from_stored(number), max_tickets)
}

/// What a buyer gets when the ledger is frozen, and what they need to check it.
pub(crate) struct LedgerNotice<'a> {
    pub to: String,
    pub lang: Lang,
    pub company_name: String,
    pub raffle_id: RaffleId,
    pub raffle_title: &'a str,
    pub max_tickets: u32,
    pub reference: &'a str,
    pub commitment: &'a Commitment,
    pub tag: Hash,
    pub proofs: &'a [InclusionProof],
    pub verify_link: &'a str,
}

/// The proof file: everything `verify_inclusion` needs for each of the buyer's numbers.
fn proof_file(notice: &LedgerNotice<'_>) -> anyhow::Result<Vec<u8>> {
    let numbers: Vec<serde_json::Value> = notice
        .proofs
        .iter()
        .map(|p| {
            json!({
                "number": p.number,
                "index": p.index,
                "path": p.path.iter().map(|h| to_hex(h)).collect::<Vec<_>>(),
            })
        })
        .collect();
    Ok(serde_json::to_vec_pretty(&json!({
        "format": "rifa-inclusion-v1",
        "raffleId": notice.raffle_id.get(),
        "raffleTitle": notice.raffle_title,
        "reference": notice.reference,
        "salt": to_hex(&notice.commitment.salt),
        "tag": to_hex(&notice.tag),
        "root": to_hex(&notice.commitment.root),
        "size": notice.commitment.size,
        "numbers": numbers,
    }))?)
}

pub(crate) fn ledger_frozen_email(notice: &LedgerNotice<'_>) -> anyhow::Result<OutgoingEmail> {
    let lang = notice.lang;
    let row = |key: &'static str, value: String| Row {
        label: text(key, lang),
        value,
    };
    let numbers = notice
        .proofs
        .iter()
        .map(|p| padded(p.number, notice.max_tickets))
        .collect::<Vec<_>>()
        .join(", ");
    let words = PurchaseWords {
        lang: lang.code(),
        subject: Message::new("mail-subject-ledger_frozen")
            .text("title", notice.raffle_title)
            .render(lang),
        company: notice.company_name.clone(),
        greeting: text("mail-greeting-plain", lang),
        lead: Message::new("mail-lead-ledger_frozen")
            .text("title", notice.raffle_title)
            .render(lang),
        rows: vec![
            row("mail-raffle", notice.raffle_title.to_owned()),
            row("mail-reference", notice.reference.to_owned()),
            row("mail-tickets", numbers),
            row("mail-ledger_root", to_hex(&notice.commitment.root)),
            row("mail-ledger_size", notice.commitment.size.to_string()),
            row(
                "mail-ledger_frozen_at",
                format_instant(notice.commitment.frozen_at, lang),
            ),
        ],
        link: Some(Link {
            label: text("mail-verify_link", lang),
            url: notice.verify_link.to_owned(),
        }),
        receipt_attached: text("mail-proof_attached", lang),
    };
    Ok(OutgoingEmail {
        text_body: PurchaseText { words: &words }.render()?,
        html_body: PurchaseHtml { words: &words }.render()?,
        sender_name: words.company,
        to: notice.to.clone(),
        subject: words.subject,
        attachments: vec![Attachment {
            filename: Message::new("mail-proof_filename")
                .text("reference", notice.reference)
                .render(lang),
            content_type: "application/json".to_owned(),
            bytes: proof_file(notice)?,
        }],
    })
}

/// Where a prize's result came from, in words (`Lotería del Táchira, 15/01/2030` or `drand,
/// ronda 123`).
pub(crate) fn source_line(source: &PrizeSource, lang: Lang) -> String {
    match source {
        PrizeSource::Lottery {
            lottery_name,
            draw_date,
            draw_time,
            time_zone,
            ..
        } => Message::new("draw-source-lottery")
            .text("name", lottery_name.as_str())
            .text("date", draw_date.format("%d/%m/%Y").to_string())
            .text("time", draw_time.format("%H:%M").to_string())
            .text("zone", time_zone.name())
            .render(lang),
        PrizeSource::Beacon { round } => Message::new("draw-source-beacon")
            .text("round", round.to_string())
            .render(lang),
    }
}

pub(crate) fn prize_won_email(
    to: String,
    customer_name: &str,
    reference: &str,
    claim_deadline: chrono::DateTime<chrono::Utc>,
    certificate: &DrawCertificate,
    certificate_pdf: Vec<u8>,
) -> anyhow::Result<OutgoingEmail> {
    let lang = certificate.lang;
    let row = |key: &'static str, value: String| Row {
        label: text(key, lang),
        value,
    };
    let number = certificate
        .draw
        .winning_number
        .map(|n| padded(n, certificate.max_tickets))
        .unwrap_or_default();
    let words = PurchaseWords {
        lang: lang.code(),
        subject: Message::new("mail-subject-prize_won")
            .text("title", certificate.raffle_title.as_str())
            .render(lang),
        company: certificate.company_name.clone(),
        greeting: Message::new("mail-greeting")
            .text("name", customer_name)
            .render(lang),
        lead: Message::new("mail-lead-prize_won")
            .text("prize", certificate.prize_title.as_str())
            .text("title", certificate.raffle_title.as_str())
            .text("number", number.as_str())
            .render(lang),
        rows: vec![
            row("mail-raffle", certificate.raffle_title.clone()),
            row("mail-prize", certificate.prize_title.clone()),
            row("mail-winning_number", number),
            row("mail-reference", reference.to_owned()),
            row("mail-draw_source", source_line(&certificate.source, lang)),
            row("mail-claim_until", format_instant(claim_deadline, lang)),
        ],
        link: Some(Link {
            label: text("mail-verify_link", lang),
            url: certificate.verify_link.clone(),
        }),
        receipt_attached: text("mail-certificate_attached", lang),
    };
    Ok(OutgoingEmail {
        text_body: PurchaseText { words: &words }.render()?,
        html_body: PurchaseHtml { words: &words }.render()?,
        sender_name: words.company,
        to,
        subject: words.subject,
        attachments: vec![Attachment {
            filename: Message::new("mail-certificate_filename")
                .text("position", certificate.position.to_string())
                .render(lang),
            content_type: "application/pdf".to_owned(),
            bytes: certificate_pdf,
        }],
    })
}
