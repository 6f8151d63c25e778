//! E-mails waiting to be delivered. Rows are written by storage in the same transaction as the
//! purchase or decision that causes them (see `PurchaseRepository`), so nothing is lost when the
//! mail server is down; a worker drains them.

use chrono::{DateTime, Utc};
use rifa_domain::Lang;
use rifa_domain::audit::AuditEntry;
use rifa_domain::id::PrizeId;
use rifa_domain::purchase::PurchaseId;
use rifa_domain::raffle::RaffleId;

pub use rifa_domain::id::MailId;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    /// The purchase was received and awaits verification.
    Received,
    Approved,
    Rejected,
    /// No proof came before the hold's deadline: the numbers went back on sale.
    Expired,
    /// To someone who asked to be told: numbers of a sold-out raffle are on sale again.
    NumbersReleased,
    /// To each buyer of a raffle whose ledger was frozen: the commitment and the proof that
    /// their numbers are in it.
    LedgerFrozen,
    /// To the winner of a prize, with the draw's certificate.
    PrizeWon,
}

impl MailKind {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Received => "received",
            Self::Approved => "approved",
            Self::Rejected => "rejected",
            Self::Expired => "expired",
            Self::NumbersReleased => "numbers_released",
            Self::LedgerFrozen => "ledger_frozen",
            Self::PrizeWon => "prize_won",
        }
    }

    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        [
            Self::Received,
            Self::Approved,
            Self::Rejected,
            Self::Expired,
            Self::NumbersReleased,
            Self::LedgerFrozen,
            Self::PrizeWon,
        ]
        .into_iter()
        .find(|k| k.as_str() == raw)
    }
}

/// What a message is about: one purchase (its buyer's messages), a raffle (a release alert) or
/// a prize (its winner's message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailSubject {
    Purchase(PurchaseId),
    Raffle(RaffleId),
    Prize(PrizeId),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailStatus {
    Pending,
    Sent,
    /// Gave up after the last attempt; an admin may retry.
    Failed,
    /// Never sent: its recipient had already received their share of e-mails
    /// ([`RecipientCaps`]); an admin may send it anyway.
    Withheld,
}

impl MailStatus {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Sent => "sent",
            Self::Failed => "failed",
            Self::Withheld => "withheld",
        }
    }

    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        [Self::Pending, Self::Sent, Self::Failed, Self::Withheld]
            .into_iter()
            .find(|s| s.as_str() == raw)
    }
}

/// Why a message was withheld.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WithheldReason {
    /// The recipient had received [`RecipientCaps::per_hour`] e-mails this hour.
    HourlyCap,
    /// The recipient had received [`RecipientCaps::per_day`] e-mails today.
    DailyCap,
}

impl WithheldReason {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::HourlyCap => "hourly_cap",
            Self::DailyCap => "daily_cap",
        }
    }

    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        [Self::HourlyCap, Self::DailyCap]
            .into_iter()
            .find(|r| r.as_str() == raw)
    }
}

/// How many purchase confirmations one address may receive: anyone can buy with any address,
/// so without a cap the platform mails whoever a stranger names. Counted per UTC clock hour and
/// UTC day; decisions (written by an admin) are neither capped nor counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecipientCaps {
    pub per_hour: u32,
    pub per_day: u32,
}

impl Default for RecipientCaps {
    /// 5 an hour, 20 a day: more purchases than a buyer makes, few mails for a victim.
    fn default() -> Self {
        Self {
            per_hour: 5,
            per_day: 20,
        }
    }
}

/// The address a cap counts for: lower case, without a `+tag` (`Ana+1@X.com` and
/// `ana@x.com` reach one mailbox at most providers, so they share one count).
#[must_use]
pub fn recipient_key(address: &str) -> String {
    let address = address.trim().to_lowercase();
    match address.rsplit_once('@') {
        Some((local, domain)) => {
            let local = local.split_once('+').map_or(local, |(base, _)| base);
            format!("{local}@{domain}")
        }
        None => address,
    }
}

/// One message to write and send now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailJob {
    pub id: MailId,
    pub subject: MailSubject,
    pub kind: MailKind,
    pub recipient: String,
    pub lang: Lang,
    /// Attempts so far, this one included.
    pub attempts: u32,
}

/// An outbox row as admins see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailRecord {
    pub id: MailId,
    pub subject: MailSubject,
    pub kind: MailKind,
    pub recipient: String,
    pub status: MailStatus,
    pub attempts: u32,
    pub next_attempt_at: DateTime<Utc>,
    pub last_error: Option<String>,
    /// Set when the status is [`MailStatus::Withheld`].
    pub withheld: Option<WithheldReason>,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
}

pub trait MailOutbox: Send + Sync + 'static {
    /// Takes the oldest pending message due at `now`, leasing it until `lease_until` (another
    /// worker, on this instance or another, will not take it before then) and counting the
    /// attempt.
    ///
    /// # Errors
    /// Storage failures only.
    fn claim_due_mail(
        &self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<Option<MailJob>>> + Send;

    /// # Errors
    /// Storage failures only.
    fn mail_sent(
        &self,
        id: MailId,
        now: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// Records a failed attempt: to be tried again at `retry_at`, or given up (`None`).
    ///
    /// # Errors
    /// Storage failures only.
    fn mail_failed(
        &self,
        id: MailId,
        error: &str,
        retry_at: Option<DateTime<Utc>>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// Writes `error` on every pending message due at `now`, without counting an attempt:
    /// nothing could be tried (the e-mail settings are unusable), and admins should see why.
    ///
    /// # Errors
    /// Storage failures only.
    fn mail_blocked(
        &self,
        error: &str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// How many messages wait to be sent (due now or later): what the outbox is behind by.
    ///
    /// # Errors
    /// Storage failures only.
    fn pending_mail(&self) -> impl Future<Output = anyhow::Result<u64>> + Send;

    /// Newest first, optionally of one status.
    ///
    /// # Errors
    /// Storage failures only.
    fn list_mail(
        &self,
        status: Option<MailStatus>,
        limit: u32,
    ) -> impl Future<Output = anyhow::Result<Vec<MailRecord>>> + Send;

    /// Puts a failed or withheld message back in line, due at `now` (an admin's decision to
    /// send it), recording `audit` in the same transaction. `false` when it is neither (and
    /// nothing is recorded).
    ///
    /// # Errors
    /// Storage failures only.
    fn retry_mail(
        &self,
        id: MailId,
        now: DateTime<Utc>,
        audit: &AuditEntry,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;
}
