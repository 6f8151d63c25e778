//! Checking attached proofs off the request path (issue 16): each proof is read once by
//! whichever instance claims its check, and what it shows becomes signals and a light for the
//! reviewer: the same file or picture attached to another purchase (any raffle), the same
//! reference shown or typed elsewhere, editing software and dates in its metadata, and what
//! its text says (the amount against what the purchase costs in the method's currency at the
//! rate locked when it was made, the reference against the one the buyer typed).

use chrono::{DateTime, TimeDelta, Utc};
use rifa_domain::exchange::Currency;
use rifa_domain::payment_reference::{PaymentReference, reference_key};
use rifa_domain::proof::{MAX_PROOF_BYTES, ProofKind};
use rifa_domain::proof_reading::{ProofReading, check_amount, read_proof};
use rifa_domain::proof_signals::{
    NEAR_REUSE_DISTANCE, ReadFailure, Signal, amount_signal, date_signal, editing_software,
    fingerprint, light_of, reference_signal,
};
use rifa_domain::purchase::PurchaseId;
use rifa_ports::outbound::ObjectStore;
use rifa_ports::{
    Clock, ProofCheckJob, ProofCheckState, ProofChecks, ProofEvidence, ProofExaminer,
    ProofFindings, ProofSubject, ProofText, TextReader,
};

use crate::shared::now;

/// How long a claimed check is this instance's before another may take it (a crash). Checks
/// are claimed one at a time, and reading one proof is bounded well under this (a minute at
/// most, `rifa_proofs`), so a lease does not run out under a live worker.
const LEASE: TimeDelta = TimeDelta::minutes(2);
/// Attempts before a check is given up. Only failures of the infrastructure are tried again
/// (the object store or the database unreachable, a file gone); what a file makes the readers
/// do is a result, recorded at the first attempt.
const ATTEMPTS: u32 = 5;
const READ_LIMIT: usize = MAX_PROOF_BYTES as usize + 1;

#[async_trait::async_trait]
pub trait ProofCheckService: Send + Sync + 'static {
    /// Checks every proof due, one at a time, proofs not tried yet first; answers how many
    /// were checked. Safe to run on every instance at once.
    ///
    /// # Errors
    /// Storage failures only. A check the infrastructure failed is tried again later; a file
    /// the readers could not read within its bounds is a result, recorded once.
    async fn check_due_proofs(&self) -> anyhow::Result<u32>;

    /// Where the check of a purchase's proof stands; `None` when no proof was attached.
    ///
    /// # Errors
    /// Storage failures only.
    async fn proof_check(&self, purchase: PurchaseId) -> anyhow::Result<Option<ProofCheckState>>;
}

/// Proof checks over their ports: the queue and results from `S`, the files from `O`, their
/// hashes and metadata from `E`, their text from `T`, the time from `C`.
pub struct ProofChecking<S, O, E, T, C> {
    store: S,
    objects: O,
    examiner: E,
    reader: T,
    clock: C,
}

impl<S, O, E, T, C> ProofChecking<S, O, E, T, C> {
    pub fn new(store: S, objects: O, examiner: E, reader: T, clock: C) -> Self {
        Self {
            store,
            objects,
            examiner,
            reader,
            clock,
        }
    }
}

/// When a failed check is tried again: a minute, doubling, until it is given up.
fn retry_at(now: DateTime<Utc>, attempts: u32) -> Option<DateTime<Utc>> {
    (attempts < ATTEMPTS).then(|| now + TimeDelta::minutes(1 << attempts.min(10)))
}

/// What a check learnt about a proof, before it is judged.
struct Facts {
    subject: ProofSubject,
    evidence: ProofEvidence,
    /// The proof's text and what it says, or why it was not read.
    text: TextFacts,
    exact: Vec<PurchaseId>,
    near: Vec<(PurchaseId, u32)>,
    same_reference: Vec<PurchaseId>,
}

/// What became of reading a proof's text.
enum TextFacts {
    /// This server has no reader for the proof's kind.
    NoReader,
    /// The file was not read within its bounds (final).
    NotRead(ReadFailure),
    Read(String, ProofReading),
}

/// The signals of a proof, each other purchase named once, by the strongest evidence.
fn signals_of(facts: &Facts) -> Vec<Signal> {
    let mut signals: Vec<Signal> = facts
        .exact
        .iter()
        .map(|&other| Signal::ExactReuse { other })
        .collect();
    let mut named: Vec<PurchaseId> = facts.exact.clone();
    for &(other, distance) in &facts.near {
        if !named.contains(&other) {
            named.push(other);
            signals.push(Signal::NearReuse { other, distance });
        }
    }
    for &other in &facts.same_reference {
        if !named.contains(&other) {
            named.push(other);
            signals.push(Signal::ReferenceReused { other });
        }
    }
    if let Some(software) = editing_software(&facts.evidence.software) {
        signals.push(Signal::EditedWith {
            software: software.to_owned(),
        });
    }
    if let Some(made) = facts.evidence.created_at {
        signals.extend(date_signal(made, facts.subject.created_at));
    }
    match &facts.text {
        TextFacts::NoReader => signals.push(Signal::NoTextReader),
        TextFacts::NotRead(failure) => signals.push(Signal::from(*failure)),
        TextFacts::Read(text, _) if text.trim().is_empty() => signals.push(Signal::Unreadable),
        TextFacts::Read(_, reading) => {
            let (currency, expected) = match facts.subject.conversion {
                Some((currency, rate)) => (
                    currency,
                    rate.convert(facts.subject.total_amount).round_dp(2),
                ),
                None => (Currency::Usd, facts.subject.total_amount.as_decimal()),
            };
            signals.push(amount_signal(
                check_amount(reading, currency, expected),
                currency,
                expected,
            ));
            let typed = facts
                .subject
                .payment_reference
                .as_deref()
                .and_then(|typed| PaymentReference::parse(typed).ok().flatten());
            signals.push(reference_signal(
                reading.reference.as_deref(),
                typed.as_ref(),
            ));
        }
    }
    signals
}

impl<S, O, E, T, C> ProofChecking<S, O, E, T, C>
where
    S: ProofChecks,
    O: ObjectStore,
    E: ProofExaminer,
    T: TextReader,
    C: Clock,
{
    async fn check(&self, job: &ProofCheckJob) -> anyhow::Result<()> {
        let Some(object) = self.objects.read(&job.object_key, READ_LIMIT).await? else {
            anyhow::bail!("the proof {} is no longer stored", job.object_key);
        };
        let Some(subject) = self.store.proof_subject(job.purchase_id).await? else {
            // The purchase is gone, and its check with it.
            return Ok(());
        };
        let bytes = object.first_bytes;
        let Some(kind) = ProofKind::sniff(&bytes) else {
            anyhow::bail!("the proof {} is no picture or PDF", job.object_key);
        };
        let print = fingerprint(&bytes);
        let evidence = self.examiner.examine(kind, bytes.clone()).await?;
        let text = match self.reader.read_text(kind, bytes).await? {
            ProofText::Read(text) => {
                let reading = read_proof(&text);
                TextFacts::Read(text, reading)
            }
            ProofText::NoReader => TextFacts::NoReader,
            ProofText::NotRead(failure) => {
                tracing::info!(
                    purchase.id = job.purchase_id.get(),
                    ?failure,
                    "proof not read"
                );
                TextFacts::NotRead(failure)
            }
        };
        let read_reference = match &text {
            TextFacts::Read(_, reading) => reading.reference.as_deref().map(reference_key),
            TextFacts::NoReader | TextFacts::NotRead(_) => None,
        };
        let near = match &evidence.picture_hash {
            Some(hash) => {
                self.store
                    .purchases_with_similar_picture(hash, NEAR_REUSE_DISTANCE, job.purchase_id)
                    .await?
            }
            None => Vec::new(),
        };
        let same_reference = match &read_reference {
            Some(key) => {
                self.store
                    .purchases_with_reference(key, job.purchase_id)
                    .await?
            }
            None => Vec::new(),
        };
        let facts = Facts {
            exact: self
                .store
                .purchases_with_fingerprint(&print, job.purchase_id)
                .await?,
            near,
            same_reference,
            subject,
            evidence,
            text,
        };
        let signals = signals_of(&facts);
        let findings = ProofFindings {
            fingerprint: print,
            picture_hash: facts.evidence.picture_hash,
            read_reference,
            text: match facts.text {
                TextFacts::Read(text, _) => Some(text),
                TextFacts::NoReader | TextFacts::NotRead(_) => None,
            },
            light: light_of(&signals),
            signals,
        };
        self.store
            .record_proof_check(job, &findings, now(&self.clock))
            .await?;
        tracing::info!(
            purchase.id = job.purchase_id.get(),
            light = findings.light.as_str(),
            "proof checked"
        );
        Ok(())
    }
}

#[async_trait::async_trait]
impl<S, O, E, T, C> ProofCheckService for ProofChecking<S, O, E, T, C>
where
    S: ProofChecks,
    O: ObjectStore,
    E: ProofExaminer,
    T: TextReader,
    C: Clock,
{
    async fn check_due_proofs(&self) -> anyhow::Result<u32> {
        let mut checked = 0;
        // One at a time: each claim sees the proofs attached meanwhile and takes them before
        // any check tried again (the port's order), and a lease covers one proof.
        loop {
            let at = now(&self.clock);
            let Some(job) = self
                .store
                .claim_proof_checks(1, at, at + LEASE)
                .await?
                .pop()
            else {
                return Ok(checked);
            };
            if job.attempts > ATTEMPTS {
                // Its lease ran out each time: a worker stopped while checking it.
                let reason = format!("the checker stopped {ATTEMPTS} times while checking it");
                tracing::warn!(purchase.id = job.purchase_id.get(), error = %reason, "proof check given up");
                self.store.proof_check_failed(&job, &reason, None).await?;
                continue;
            }
            match self.check(&job).await {
                Ok(()) => checked += 1,
                Err(error) => {
                    let reason = format!("{error:#}");
                    let retry = retry_at(now(&self.clock), job.attempts);
                    tracing::warn!(purchase.id = job.purchase_id.get(), gave_up = retry.is_none(), error = %reason, "proof not checked");
                    self.store.proof_check_failed(&job, &reason, retry).await?;
                }
            }
        }
    }

    async fn proof_check(&self, purchase: PurchaseId) -> anyhow::Result<Option<ProofCheckState>> {
        self.store.proof_check(purchase).await
    }
}
