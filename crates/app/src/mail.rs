//! The buyer's e-mails: written from the outbox and delivered with retries.
//!
//! Storage puts a row in the outbox in the same transaction as the purchase or decision, so a
//! message exists even when the mail server is down. [`MailService::deliver_due_mail`] drains the rows
//! that are due: it chooses the message at delivery time (the receipt PDF shows the purchase as
//! it is then), has the [`MailComposer`] word it, sends it, and on failure schedules another
//! attempt with exponential backoff,
//! giving up after [`RetryPolicy::max_attempts`] so admins see it as failed and may retry it.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};
use futures_util::StreamExt as _;
use futures_util::stream::FuturesUnordered;
use rifa_domain::audit::{Actor, AuditAction, AuditEntry, Change};
use rifa_domain::customer::Email;
use rifa_domain::draw::prize::claim_deadline;
use rifa_domain::id::PrizeId;
use rifa_domain::purchase::{Purchase, PurchaseId, PurchaseStatus};
use rifa_domain::raffle::RaffleId;
use rifa_domain::{FieldError, FieldErrors, Lang};
use rifa_ports::outbound::{
    CertificateRenderer, MailComposer, MailMessage, MailRoute, MailTransports, Mailer,
    ReceiptRenderer,
};
use rifa_ports::{
    AccessKeys, AuditTrail, Clock, DrawRepository, MailId, MailJob, MailKind, MailOutbox,
    MailRecord, MailStatus, MailSubject, PurchaseProofs, PurchaseRepository, RaffleRepository,
    SettingsRepository,
};

use crate::cpu::CpuPool;
use crate::draws::{FrozenLedger, certificate_of, inclusion_proofs};
use crate::links::SiteLinks;
use crate::receipts::ReceiptWriter;
use crate::shared::{MailSignal, Shared, now};

/// How long a claimed message is kept from other workers while it is being sent.
const LEASE: TimeDelta = TimeDelta::minutes(5);
/// Messages in flight at once per worker.
pub const CONCURRENT_DELIVERIES: usize = 4;

/// When failed deliveries are tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The wait after the first failure; it doubles after each further one.
    pub first_delay: TimeDelta,
    pub max_delay: TimeDelta,
    /// Attempts before a message is given up (admins see it as failed and may retry it).
    pub max_attempts: u32,
}

impl Default for RetryPolicy {
    /// 30 s doubling up to 6 hours, 12 attempts: about 21 hours before giving up.
    fn default() -> Self {
        Self {
            first_delay: TimeDelta::seconds(30),
            max_delay: TimeDelta::hours(6),
            max_attempts: 12,
        }
    }
}

impl RetryPolicy {
    /// The wait after the `attempts`-th failure.
    #[must_use]
    pub fn backoff(&self, attempts: u32) -> TimeDelta {
        let factor = 1_i32 << attempts.saturating_sub(1).min(20);
        (self.first_delay * factor).min(self.max_delay)
    }

    /// When to try again after the `attempts`-th failure at `now`; `None` to give up.
    #[must_use]
    pub fn next_attempt(&self, now: DateTime<Utc>, attempts: u32) -> Option<DateTime<Utc>> {
        (attempts < self.max_attempts).then(|| now + self.backoff(attempts))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TestEmailError {
    #[error("invalid address")]
    Invalid(FieldErrors),
    /// The mail server's answer (never containing the password).
    #[error("{0}")]
    Failed(String),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// A test message that left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestEmailSent {
    /// The address written to.
    pub to: String,
    pub route: MailRoute,
}

/// What one pass of the worker did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeliveryReport {
    pub sent: u32,
    pub failed: u32,
}

/// The outbox: delivering the buyers' e-mails, showing and retrying them, the test message.
#[async_trait::async_trait]
pub trait MailService: Send + Sync + 'static {
    /// Sends every message due now, up to [`CONCURRENT_DELIVERIES`] at once, until none is
    /// left or `limit` were tried: a message stuck on a server that does not answer holds its
    /// own slot until the mailer's timeout, not the messages behind it.
    ///
    /// The mailer is the one the e-mail settings call for now; when they are unusable, the
    /// waiting messages are marked blocked with the reason and none is tried.
    ///
    /// # Errors
    /// Only storage failures; a message that cannot be sent is recorded, not returned.
    async fn deliver_due_mail(&self, limit: u32) -> anyhow::Result<DeliveryReport>;

    /// Notes on the waiting messages that none can be sent (the e-mail settings are unusable),
    /// so the outbox admins read says why they wait.
    ///
    /// # Errors
    /// Storage failures only.
    async fn mail_blocked(&self, reason: &str) -> anyhow::Result<()>;

    /// Returns when an e-mail was queued on this instance or after `poll` (others' messages and
    /// retries are found by polling).
    async fn mail_queued_or(&self, poll: Duration);

    /// The outbox, newest first, for admins.
    ///
    /// # Errors
    /// Storage failures only.
    async fn outbox(
        &self,
        status: Option<MailStatus>,
        limit: u32,
    ) -> anyhow::Result<Vec<MailRecord>>;

    /// How many messages wait to be sent.
    ///
    /// # Errors
    /// Storage failures only.
    async fn pending_mail(&self) -> anyhow::Result<u64>;

    /// Puts a failed or withheld message back in line, in the trail as `by`'s. `false` when it
    /// is neither.
    ///
    /// # Errors
    /// Storage failures only.
    async fn retry_mail(&self, id: MailId, by: &Actor) -> anyhow::Result<bool>;

    /// Sends a short message through the current mailer so an admin can check the e-mail settings;
    /// `to` defaults to the saved sender address. Returns the address written to and the route the message took.
    ///
    /// # Errors
    /// `Invalid` for a bad or missing address, `Failed` with the mail server's answer (or why
    /// the settings make no mailer).
    async fn send_test_email(
        &self,
        to: Option<&str>,
        lang: Lang,
        by: &Actor,
    ) -> Result<TestEmailSent, TestEmailError>;
}

/// The outbox over its ports: messages, purchases, raffles and settings from `S`, the mailer
/// from `T`, the attached receipt written by a [`ReceiptWriter`] (over `R`), the words from
/// `M`, the buyers' keys (for their links) from `K`, the time from `C`.
pub struct Mail<S, T, R, M, K, C> {
    store: S,
    transports: T,
    receipts: ReceiptWriter<S, R, C>,
    /// The same renderer, for the winners' certificates.
    certificates: Arc<R>,
    cpu: CpuPool,
    /// The last frozen ledger a buyer's message needed (see [`Mail::frozen_ledger`]).
    last_ledger: tokio::sync::Mutex<Option<(RaffleId, Arc<FrozenLedger>)>>,
    composer: M,
    access_keys: K,
    clock: C,
    retry: RetryPolicy,
    links: SiteLinks,
    mail_signal: Arc<MailSignal>,
}

/// What the outbox is made of besides its ports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailSetup {
    pub retry: RetryPolicy,
    pub links: SiteLinks,
}

impl<S, T, R, M, K, C> Mail<S, T, R, M, K, C>
where
    S: MailOutbox
        + PurchaseRepository
        + PurchaseProofs
        + SettingsRepository
        + RaffleRepository
        + DrawRepository
        + Clone,
    T: MailTransports,
    R: ReceiptRenderer + CertificateRenderer,
    M: MailComposer,
    K: AccessKeys,
    C: Clock + Clone,
{
    #[allow(clippy::too_many_arguments, reason = "one per port, as every service")]
    pub fn new(
        store: S,
        transports: T,
        renderer: Arc<R>,
        composer: M,
        access_keys: K,
        clock: C,
        setup: MailSetup,
        shared: &Shared,
    ) -> Self {
        Self {
            receipts: ReceiptWriter::new(
                store.clone(),
                Arc::clone(&renderer),
                clock.clone(),
                shared,
            ),
            certificates: renderer,
            cpu: shared.cpu.clone(),
            last_ledger: tokio::sync::Mutex::new(None),
            store,
            transports,
            composer,
            access_keys,
            clock,
            retry: setup.retry,
            links: setup.links,
            mail_signal: Arc::clone(&shared.mail_signal),
        }
    }

    /// The buyer's page of the purchase, when the key its reference derives is the one it was
    /// given (purchases made before keys were derived have none to give).
    async fn buyer_link(&self, purchase: &Purchase, lang: Lang) -> anyhow::Result<Option<String>> {
        let key = self.access_keys.key_for(&purchase.reference);
        let digest = self
            .store
            .purchase_access(purchase.id)
            .await?
            .and_then(|access| access.access_digest);
        Ok(digest
            .filter(|digest| self.access_keys.matches(&key, digest))
            .map(|_| self.links.purchase_page(purchase.id, &key, lang)))
    }

    /// Sends one claimed message and records the outcome: whether it was sent.
    async fn deliver_one(&self, job: MailJob, mailer: &impl Mailer) -> anyhow::Result<bool> {
        match self.send_one(&job, mailer).await {
            Ok(()) => {
                self.store.mail_sent(job.id, now(&self.clock)).await?;
                tracing::info!(
                    mail.id = job.id.get(),
                    kind = job.kind.as_str(),
                    "e-mail sent"
                );
                Ok(true)
            }
            Err(error) => {
                let retry_at = self.retry.next_attempt(now(&self.clock), job.attempts);
                let reason = format!("{error:#}");
                self.store.mail_failed(job.id, &reason, retry_at).await?;
                tracing::warn!(mail.id = job.id.get(), attempts = job.attempts, gave_up = retry_at.is_none(), error = %reason, "e-mail not sent");
                Ok(false)
            }
        }
    }

    async fn send_one(&self, job: &MailJob, mailer: &impl Mailer) -> anyhow::Result<()> {
        let message = match job.subject {
            MailSubject::Purchase(id) if job.kind == MailKind::LedgerFrozen => {
                self.ledger_message(job, id).await?
            }
            MailSubject::Prize(id) => self.winner_message(job, id).await?,
            MailSubject::Purchase(id) => {
                let purchase = self
                    .store
                    .get_purchase(id)
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("purchase {id} no longer exists"))?;
                let buyer_link = self.buyer_link(&purchase, job.lang).await?;
                let proof_missing = job.kind == MailKind::Received
                    && purchase.status == PurchaseStatus::Pending
                    && purchase.payment_proof.is_none();
                let purchase = as_when_queued(job.kind, purchase);
                let context = self.receipts.receipt_context(&purchase, job.lang).await?;
                let (purchase, context, pdf) =
                    self.receipts.render_receipt(purchase, context).await?;
                MailMessage::Purchase {
                    kind: job.kind,
                    to: job.recipient.clone(),
                    purchase,
                    context,
                    receipt_pdf: pdf,
                    buyer_link,
                    proof_missing,
                }
            }
            MailSubject::Raffle(id) => {
                let raffle = self
                    .store
                    .raffle_terms(id)
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("raffle {id} no longer exists"))?;
                MailMessage::NumbersReleased {
                    to: job.recipient.clone(),
                    company_name: self
                        .store
                        .branding()
                        .await?
                        .unwrap_or_default()
                        .company_name,
                    raffle_title: raffle.title,
                    raffle_link: self.links.raffle_page(id, job.lang),
                    lang: job.lang,
                }
            }
        };
        mailer.send(&self.composer.compose(message)?).await
    }

    /// The raffle's frozen ledger with its tree: read and built once for all its buyers'
    /// messages (the freeze queues one per buyer, of one raffle at a time), off the async
    /// workers, as hashing 100,000 entries takes a while.
    async fn frozen_ledger(&self, raffle: RaffleId) -> anyhow::Result<Arc<FrozenLedger>> {
        let mut last = self.last_ledger.lock().await;
        if let Some((id, ledger)) = last.as_ref()
            && *id == raffle
        {
            return Ok(Arc::clone(ledger));
        }
        let entries = self.store.ledger_entries(raffle).await?;
        let ledger = Arc::new(self.cpu.run(move || FrozenLedger::over(entries)).await?);
        *last = Some((raffle, Arc::clone(&ledger)));
        Ok(ledger)
    }

    async fn company_name(&self) -> anyhow::Result<String> {
        Ok(self
            .store
            .branding()
            .await?
            .unwrap_or_default()
            .company_name)
    }

    /// A buyer's message about their raffle's frozen ledger: their numbers' proofs.
    async fn ledger_message(&self, job: &MailJob, id: PurchaseId) -> anyhow::Result<MailMessage> {
        let purchase = self
            .store
            .get_purchase(id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("purchase {id} no longer exists"))?;
        let raffle = self
            .store
            .raffle_terms(purchase.raffle_id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("raffle {} no longer exists", purchase.raffle_id))?;
        let commitment = self
            .store
            .commitment(raffle.id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("raffle {} has no frozen ledger", raffle.id))?;
        let ledger = self.frozen_ledger(raffle.id).await?;
        let (tag, proofs) = inclusion_proofs(&commitment.salt, &ledger, &purchase.reference);
        Ok(MailMessage::LedgerFrozen {
            to: job.recipient.clone(),
            lang: job.lang,
            company_name: self.company_name().await?,
            raffle_id: raffle.id,
            raffle_title: raffle.title,
            max_tickets: commitment.max_tickets,
            verify_link: self.links.verification_page(
                raffle.id,
                Some(&purchase.reference),
                job.lang,
            ),
            reference: purchase.reference,
            commitment,
            tag,
            proofs,
        })
    }

    /// A winner's message, with the prize's certificate.
    async fn winner_message(&self, job: &MailJob, prize: PrizeId) -> anyhow::Result<MailMessage> {
        let raffle_id = self
            .store
            .raffle_of_prize(prize)
            .await?
            .ok_or_else(|| anyhow::anyhow!("prize {prize} no longer exists"))?;
        let raffle = self
            .store
            .raffle_terms(raffle_id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("raffle {raffle_id} no longer exists"))?;
        let commitment = self
            .store
            .commitment(raffle_id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("raffle {raffle_id} has no frozen ledger"))?;
        let prizes = self.store.prizes(raffle_id).await?;
        let record = prizes
            .iter()
            .find(|p| p.id == prize)
            .ok_or_else(|| anyhow::anyhow!("prize {prize} no longer exists"))?;
        let (winner, drawn_at) = record
            .draw
            .as_ref()
            .and_then(|d| d.winner.clone().zip(Some(d.drawn_at)))
            .ok_or_else(|| anyhow::anyhow!("prize {prize} has no winner"))?;
        let certificate = certificate_of(
            &raffle,
            &commitment,
            record,
            self.company_name().await?,
            job.lang,
            &self.links,
        )
        .ok_or_else(|| anyhow::anyhow!("prize {prize} is not drawn"))?;
        let renderer = Arc::clone(&self.certificates);
        let rendered = certificate.clone();
        let certificate_pdf = self
            .cpu
            .run(move || renderer.render_certificate(&rendered))
            .await??;
        Ok(MailMessage::PrizeWon {
            to: job.recipient.clone(),
            customer_name: winner.customer_name,
            reference: winner.reference,
            claim_deadline: claim_deadline(drawn_at),
            certificate,
            certificate_pdf,
        })
    }
}

#[async_trait::async_trait]
impl<S, T, R, M, K, C> MailService for Mail<S, T, R, M, K, C>
where
    S: MailOutbox
        + PurchaseRepository
        + PurchaseProofs
        + SettingsRepository
        + RaffleRepository
        + DrawRepository
        + AuditTrail
        + Clone,
    T: MailTransports,
    R: ReceiptRenderer + CertificateRenderer,
    M: MailComposer,
    K: AccessKeys,
    C: Clock + Clone,
{
    async fn deliver_due_mail(&self, limit: u32) -> anyhow::Result<DeliveryReport> {
        let mut report = DeliveryReport::default();
        let settings = self.store.email_settings().await?.unwrap_or_default();
        let mailer = match self.transports.open(&settings) {
            Ok((mailer, _)) => mailer,
            Err(error) => {
                // Messages wait in the outbox until the settings are fixed; admins see why.
                let reason = format!("e-mail settings are unusable: {error:#}");
                tracing::warn!(error = %reason, "no e-mail can be sent");
                self.mail_blocked(&reason).await?;
                return Ok(report);
            }
        };
        let mut sending = FuturesUnordered::new();
        let (mut claimed, mut none_due) = (0, false);
        loop {
            while !none_due && claimed < limit && sending.len() < CONCURRENT_DELIVERIES {
                let now = now(&self.clock);
                match self.store.claim_due_mail(now, now + LEASE).await? {
                    Some(job) => {
                        claimed += 1;
                        sending.push(self.deliver_one(job, &mailer));
                    }
                    None => none_due = true,
                }
            }
            if sending.is_empty() {
                break;
            }
            tokio::select! {
                Some(sent) = sending.next() => {
                    if sent? {
                        report.sent += 1;
                    } else {
                        report.failed += 1;
                    }
                }
                // A message queued meanwhile takes a free slot now, not after the slowest
                // delivery in flight.
                () = self.mail_signal.notified() => none_due = false,
            }
        }
        Ok(report)
    }

    async fn mail_blocked(&self, reason: &str) -> anyhow::Result<()> {
        self.store.mail_blocked(reason, now(&self.clock)).await
    }

    async fn mail_queued_or(&self, poll: Duration) {
        let _ = tokio::time::timeout(poll, self.mail_signal.notified()).await;
    }

    async fn outbox(
        &self,
        status: Option<MailStatus>,
        limit: u32,
    ) -> anyhow::Result<Vec<MailRecord>> {
        self.store.list_mail(status, limit).await
    }

    async fn pending_mail(&self) -> anyhow::Result<u64> {
        self.store.pending_mail().await
    }

    async fn retry_mail(&self, id: MailId, by: &Actor) -> anyhow::Result<bool> {
        let at = now(&self.clock);
        let entry = AuditEntry {
            at,
            actor: by.clone(),
            action: AuditAction::MailRetried,
            target: Some(format!("mail:{}", id.get())),
            changes: Vec::new(),
        };
        let retried = self.store.retry_mail(id, at, &entry).await?;
        if retried {
            self.mail_signal.queued();
        }
        Ok(retried)
    }

    async fn send_test_email(
        &self,
        to: Option<&str>,
        lang: Lang,
        by: &Actor,
    ) -> Result<TestEmailSent, TestEmailError> {
        let settings = self.store.email_settings().await?.unwrap_or_default();
        let (mailer, route) = self
            .transports
            .open(&settings)
            .map_err(|e| TestEmailError::Failed(format!("{e:#}")))?;
        let fallback = settings.from_email;
        let raw = to
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .unwrap_or(fallback.trim());
        if raw.is_empty() {
            // No address given and no sender saved to fall back on.
            return Err(TestEmailError::Invalid(FieldErrors::single(
                "to",
                FieldError::Required,
            )));
        }
        let to =
            Email::parse(raw).map_err(|e| TestEmailError::Invalid(FieldErrors::single("to", e)))?;
        let company_name = self
            .store
            .branding()
            .await?
            .unwrap_or_default()
            .company_name;
        let email = self.composer.compose(MailMessage::SettingsTest {
            to: to.as_str().to_owned(),
            company_name,
            lang,
        })?;
        let sent = mailer.send(&email).await;
        // The attempt is in the trail either way (it writes nothing else): who sent a message
        // with the saved settings, to whom, and whether it went.
        let entry = AuditEntry {
            at: now(&self.clock),
            actor: by.clone(),
            action: AuditAction::TestEmailSent,
            target: None,
            changes: vec![
                Change::new("to", None, Some(email.to.clone())),
                Change::new("delivered", None, Some(sent.is_ok().to_string())),
            ],
        };
        self.store.append_audit(&entry).await?;
        sent.map_err(|e| TestEmailError::Failed(format!("{e:#}")))?;
        Ok(TestEmailSent {
            to: email.to,
            route,
        })
    }
}

/// The purchase as it stood when the message was queued: a "received" message delivered after
/// the decision (the mail server was down meanwhile) still shows a pending purchase, not a
/// verdict the buyer has not been told of yet.
fn as_when_queued(kind: MailKind, mut purchase: Purchase) -> Purchase {
    if kind == MailKind::Received {
        purchase.status = PurchaseStatus::Pending;
        purchase.decided_at = None;
        purchase.admin_notes = None;
    }
    purchase
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_thirty_seconds_up_to_six_hours() {
        let policy = RetryPolicy::default();
        assert_eq!(policy.backoff(1), TimeDelta::seconds(30));
        assert_eq!(policy.backoff(2), TimeDelta::seconds(60));
        assert_eq!(policy.backoff(5), TimeDelta::seconds(480));
        assert_eq!(policy.backoff(11), TimeDelta::hours(6));
        assert_eq!(policy.backoff(40), TimeDelta::hours(6));
    }

    #[test]
    fn the_last_attempt_gives_up() {
        let policy = RetryPolicy::default();
        let now = Utc::now();
        assert!(policy.next_attempt(now, policy.max_attempts - 1).is_some());
        assert_eq!(policy.next_attempt(now, policy.max_attempts), None);
    }
}
