//! E-mails waiting to be delivered. Rows are written by storage in the same transaction as the
//! purchase or decision that causes them (see `PurchaseRepository`), so nothing is lost when the
//! mail server is down; a worker drains them.

use chrono::{DateTime, Utc};
use rifa_domain::Lang;
use rifa_domain::purchase::PurchaseId;

pub type MailId = i64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    /// The purchase was received and awaits verification.
    Received,
    Approved,
    Rejected,
}

impl MailKind {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Received => "received",
            Self::Approved => "approved",
            Self::Rejected => "rejected",
        }
    }

    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        [Self::Received, Self::Approved, Self::Rejected]
            .into_iter()
            .find(|k| k.as_str() == raw)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailStatus {
    Pending,
    Sent,
    /// Gave up after the last attempt; an admin may retry.
    Failed,
}

impl MailStatus {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Sent => "sent",
            Self::Failed => "failed",
        }
    }

    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        [Self::Pending, Self::Sent, Self::Failed]
            .into_iter()
            .find(|s| s.as_str() == raw)
    }
}

/// One message to write and send now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailJob {
    pub id: MailId,
    pub purchase_id: PurchaseId,
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
    pub purchase_id: PurchaseId,
    pub kind: MailKind,
    pub recipient: String,
    pub status: MailStatus,
    pub attempts: u32,
    pub next_attempt_at: DateTime<Utc>,
    pub last_error: Option<String>,
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

    /// Newest first, optionally of one status.
    ///
    /// # Errors
    /// Storage failures only.
    fn list_mail(
        &self,
        status: Option<MailStatus>,
        limit: u32,
    ) -> impl Future<Output = anyhow::Result<Vec<MailRecord>>> + Send;

    /// Puts a failed message back in line, due at `now`. `false` when it is not failed.
    ///
    /// # Errors
    /// Storage failures only.
    fn retry_mail(
        &self,
        id: MailId,
        now: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;
}
