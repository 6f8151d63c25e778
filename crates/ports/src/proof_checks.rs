//! The queue of proof checks (issue 16): each attached proof is checked once, off the request
//! path, by whichever instance claims it first; what the check found is kept with it.

use std::future::Future;

use chrono::{DateTime, Utc};
use rifa_domain::proof_signals::{Light, Signal};
use rifa_domain::purchase::PurchaseId;

/// A proof waiting for its check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofCheckJob {
    pub purchase_id: PurchaseId,
    pub object_key: String,
    pub attempts: u32,
}

/// Where a purchase's proof check stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProofCheckState {
    /// Queued, or being checked.
    Pending,
    Done {
        light: Light,
        signals: Vec<Signal>,
        checked_at: DateTime<Utc>,
    },
    /// Given up after the last attempt.
    Failed { reason: String },
}

pub trait ProofChecks: Send + Sync + 'static {
    /// Up to `limit` checks due at `now`, each leased until `lease_until` so no other instance
    /// takes it meanwhile; a lease that ran out (a crashed worker) is taken again.
    ///
    /// # Errors
    /// Storage failures only.
    fn claim_proof_checks(
        &self,
        limit: u32,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<Vec<ProofCheckJob>>> + Send;

    /// The purchases other than `except` whose proof has this fingerprint.
    ///
    /// # Errors
    /// Storage failures only.
    fn purchases_with_fingerprint(
        &self,
        fingerprint: &[u8; 32],
        except: PurchaseId,
    ) -> impl Future<Output = anyhow::Result<Vec<PurchaseId>>> + Send;

    /// Records what the check of `job` found; nothing when another proof replaced it meanwhile
    /// (its own check is queued).
    ///
    /// # Errors
    /// Storage failures only.
    fn record_proof_check(
        &self,
        job: &ProofCheckJob,
        fingerprint: &[u8; 32],
        light: Light,
        signals: &[Signal],
        at: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// Records a failed attempt: tried again at `retry_at`, or given up when `None`.
    ///
    /// # Errors
    /// Storage failures only.
    fn proof_check_failed(
        &self,
        job: &ProofCheckJob,
        reason: &str,
        retry_at: Option<DateTime<Utc>>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// The check of a purchase's proof; `None` when no proof was attached.
    ///
    /// # Errors
    /// Storage failures only.
    fn proof_check(
        &self,
        purchase: PurchaseId,
    ) -> impl Future<Output = anyhow::Result<Option<ProofCheckState>>> + Send;
}
