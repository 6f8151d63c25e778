//! Checking attached proofs off the request path (issue 16): each proof is read once by
//! whichever instance claims its check, and what it shows becomes signals and a light for the
//! reviewer. Today a check finds the same file attached to another purchase (any raffle);
//! reading the text (OCR), near-duplicate pictures and metadata come next.

use chrono::{DateTime, TimeDelta, Utc};
use rifa_domain::proof::MAX_PROOF_BYTES;
use rifa_domain::proof_signals::{Signal, fingerprint, light_of};
use rifa_domain::purchase::PurchaseId;
use rifa_ports::outbound::ObjectStore;
use rifa_ports::{Clock, ProofCheckJob, ProofCheckState, ProofChecks};

use crate::shared::now;

/// Checks claimed at once by one instance.
pub const CHECK_BATCH: u32 = 20;
/// How long a claimed check is this instance's before another may take it (a crash).
const LEASE: TimeDelta = TimeDelta::minutes(2);
/// Attempts before a check is given up (the object store down for good, a file gone).
const ATTEMPTS: u32 = 5;
const READ_LIMIT: usize = MAX_PROOF_BYTES as usize + 1;

#[async_trait::async_trait]
pub trait ProofCheckService: Send + Sync + 'static {
    /// Checks every proof due, a batch at a time; answers how many were checked. Safe to run
    /// on every instance at once.
    ///
    /// # Errors
    /// Storage failures only; a check that fails is retried later.
    async fn check_due_proofs(&self) -> anyhow::Result<u32>;

    /// Where the check of a purchase's proof stands; `None` when no proof was attached.
    ///
    /// # Errors
    /// Storage failures only.
    async fn proof_check(&self, purchase: PurchaseId) -> anyhow::Result<Option<ProofCheckState>>;
}

/// Proof checks over their ports: the queue and results from `S`, the files from `O`, the time
/// from `C`.
pub struct ProofChecking<S, O, C> {
    store: S,
    objects: O,
    clock: C,
}

impl<S, O, C> ProofChecking<S, O, C> {
    pub fn new(store: S, objects: O, clock: C) -> Self {
        Self {
            store,
            objects,
            clock,
        }
    }
}

/// When a failed check is tried again: a minute, doubling, until it is given up.
fn retry_at(now: DateTime<Utc>, attempts: u32) -> Option<DateTime<Utc>> {
    (attempts < ATTEMPTS).then(|| now + TimeDelta::minutes(1 << attempts.min(10)))
}

impl<S, O, C> ProofChecking<S, O, C>
where
    S: ProofChecks,
    O: ObjectStore,
    C: Clock,
{
    async fn check(&self, job: &ProofCheckJob) -> anyhow::Result<()> {
        let Some(object) = self.objects.read(&job.object_key, READ_LIMIT).await? else {
            anyhow::bail!("the proof {} is no longer stored", job.object_key);
        };
        let print = fingerprint(&object.first_bytes);
        let mut signals: Vec<Signal> = self
            .store
            .purchases_with_fingerprint(&print, job.purchase_id)
            .await?
            .into_iter()
            .map(|other| Signal::ExactReuse { other })
            .collect();
        // Nothing reads a proof's text yet: the reviewer is told so, and the light stays amber
        // at best.
        signals.push(Signal::Unreadable);
        let light = light_of(&signals);
        self.store
            .record_proof_check(job, &print, light, &signals, now(&self.clock))
            .await?;
        tracing::info!(
            purchase.id = job.purchase_id.get(),
            light = light.as_str(),
            "proof checked"
        );
        Ok(())
    }
}

#[async_trait::async_trait]
impl<S, O, C> ProofCheckService for ProofChecking<S, O, C>
where
    S: ProofChecks,
    O: ObjectStore,
    C: Clock,
{
    async fn check_due_proofs(&self) -> anyhow::Result<u32> {
        let mut checked = 0;
        loop {
            let at = now(&self.clock);
            let jobs = self
                .store
                .claim_proof_checks(CHECK_BATCH, at, at + LEASE)
                .await?;
            for job in &jobs {
                match self.check(job).await {
                    Ok(()) => checked += 1,
                    Err(error) => {
                        let reason = format!("{error:#}");
                        let retry = retry_at(now(&self.clock), job.attempts);
                        tracing::warn!(purchase.id = job.purchase_id.get(), gave_up = retry.is_none(), error = %reason, "proof not checked");
                        self.store.proof_check_failed(job, &reason, retry).await?;
                    }
                }
            }
            if jobs.len() < CHECK_BATCH as usize {
                return Ok(checked);
            }
        }
    }

    async fn proof_check(&self, purchase: PurchaseId) -> anyhow::Result<Option<ProofCheckState>> {
        self.store.proof_check(purchase).await
    }
}
