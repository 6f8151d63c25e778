use rifa_ports::{MailRecord, MailSubject};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::instant;

/// One message of the e-mail outbox.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailDto {
    pub id: i64,
    /// The purchase a buyer's message is about; `null` for a release alert or a winner's
    /// message.
    pub purchase_id: Option<i64>,
    /// The raffle a release alert is about; `null` otherwise.
    pub raffle_id: Option<i64>,
    /// The prize a winner's message is about; `null` otherwise.
    pub prize_id: Option<i64>,
    /// `received`, `approved`, `rejected`, `expired` (no proof in time), `numbers_released`
    /// (a release alert), `ledger_frozen` (the draw's commitment and the buyer's proof) or
    /// `prize_won` (the winner's message, with the certificate).
    pub kind: &'static str,
    pub recipient: String,
    /// `pending`, `sent`, `failed` (given up after the last attempt; may be retried) or
    /// `withheld` (never sent: the recipient had received their share of confirmations this hour
    /// or day; may be sent with the retry call).
    pub status: &'static str,
    pub attempts: u32,
    pub next_attempt_at: String,
    /// Why the last attempt failed, as the mail server said it.
    pub last_error: Option<String>,
    /// Why a `withheld` message was withheld: `hourly_cap` or `daily_cap`
    /// (`RIFA_MAIL_PER_RECIPIENT_HOUR` / `_DAY`).
    #[schema(value_type = Option<String>, example = "hourly_cap")]
    pub withheld_reason: Option<&'static str>,
    pub created_at: String,
    pub sent_at: Option<String>,
}

impl From<MailRecord> for MailDto {
    fn from(r: MailRecord) -> Self {
        Self {
            id: r.id.get(),
            purchase_id: match r.subject {
                MailSubject::Purchase(id) => Some(id.get()),
                MailSubject::Raffle(_) | MailSubject::Prize(_) => None,
            },
            raffle_id: match r.subject {
                MailSubject::Raffle(id) => Some(id.get()),
                MailSubject::Purchase(_) | MailSubject::Prize(_) => None,
            },
            prize_id: match r.subject {
                MailSubject::Prize(id) => Some(id.get()),
                MailSubject::Purchase(_) | MailSubject::Raffle(_) => None,
            },
            kind: r.kind.as_str(),
            recipient: r.recipient,
            status: r.status.as_str(),
            attempts: r.attempts,
            next_attempt_at: instant(r.next_attempt_at),
            last_error: r.last_error,
            withheld_reason: r.withheld.map(|w| w.as_str()),
            created_at: instant(r.created_at),
            sent_at: r.sent_at.map(instant),
        }
    }
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MailQuery {
    /// `pending`, `sent`, `failed` or `withheld`; all when absent.
    pub status: Option<String>,
    /// At most this many, newest first (default 100).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
}

/// Where to send the test message; the admin's sender address when absent.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestEmailRequest {
    pub to: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestEmailResponse {
    /// Where the message went: an SMTP server (`smtp`) or the file outbox (`outbox`).
    pub delivered_via: &'static str,
    pub to: String,
}
