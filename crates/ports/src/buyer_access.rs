//! What the buyer may do after the purchase: attach a proof, read the invoice. Both need the
//! secret key handed to the buyer once, at creation; storage keeps only its digest.

use chrono::{DateTime, Utc};
use rifa_domain::Lang;
use rifa_domain::purchase::{PurchaseId, PurchaseStatus};
use rifa_domain::raffle::RaffleId;

/// A purchase as seen by its access checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PurchaseAccess {
    pub raffle_id: RaffleId,
    pub status: PurchaseStatus,
    /// `None` for purchases no buyer can reach (test purchases, rows from before keys existed).
    pub access_digest: Option<String>,
    pub lang: Lang,
    /// The object key of the upload granted last and not yet attached.
    pub upload_key: Option<String>,
    pub payment_proof: Option<String>,
    /// Upload URLs granted so far.
    pub upload_grants: u32,
    /// Until when the purchase holds its numbers without a proof.
    pub hold_expires_at: Option<DateTime<Utc>>,
}

/// What became of an attach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttachOutcome {
    Attached,
    /// The purchase is no longer pending, or `key` is not its grant.
    NotGranted,
    /// The hold's deadline passed, by the database's clock (the purchase may not be swept yet).
    HoldExpired,
}

/// Why a proof was refused, kept on the purchase so admins and the buyer can see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofProblem {
    Missing,
    TooLarge,
    WrongType,
}

impl ProofProblem {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Missing => "missing",
            Self::TooLarge => "too_large",
            Self::WrongType => "wrong_type",
        }
    }

    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        [Self::Missing, Self::TooLarge, Self::WrongType]
            .into_iter()
            .find(|p| p.as_str() == raw)
    }
}

pub trait PurchaseProofs: Send + Sync + 'static {
    /// # Errors
    /// Storage failures only.
    fn purchase_access(
        &self,
        id: PurchaseId,
    ) -> impl Future<Output = anyhow::Result<Option<PurchaseAccess>>> + Send;

    /// Records `key`, granted `at`, as the one upload this pending purchase may attach next
    /// (replacing any earlier grant) and counts the grant, if fewer than `max_grants` were made
    /// before. `false` when the purchase is gone, no longer pending or out of grants.
    ///
    /// # Errors
    /// Storage failures only.
    fn grant_upload(
        &self,
        id: PurchaseId,
        key: &str,
        max_grants: u32,
        at: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;

    /// Up to `limit` grants made before `granted_before` and never attached,
    /// whatever the purchase's status, oldest purchase first.
    ///
    /// # Errors
    /// Storage failures only.
    fn abandoned_uploads(
        &self,
        granted_before: DateTime<Utc>,
        limit: u32,
    ) -> impl Future<Output = anyhow::Result<Vec<(PurchaseId, String)>>> + Send;

    /// Withdraws the grant of `key` if it is still the purchase's; `false` otherwise.
    ///
    /// # Errors
    /// Storage failures only.
    fn withdraw_upload(
        &self,
        id: PurchaseId,
        key: &str,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;

    /// Attaches the granted upload `key` as the purchase's proof, if the purchase is still
    /// pending, `key` is still its grant and its hold's deadline has not passed by the
    /// database's clock; clears any earlier problem and the deadline (the hold now lasts until
    /// an admin decides), writes the history entry and queues the proof's check
    /// ([`crate::ProofChecks`]), at `at`.
    ///
    /// # Errors
    /// Storage failures only.
    fn attach_proof(
        &self,
        id: PurchaseId,
        key: &str,
        at: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<AttachOutcome>> + Send;

    /// Withdraws the grant of the refused upload `key` (if it is still the purchase's grant)
    /// and records why (`None` leaves the recorded
    /// problem as it is: an earlier proof is attached and stands).
    ///
    /// # Errors
    /// Storage failures only.
    fn refuse_proof(
        &self,
        id: PurchaseId,
        key: &str,
        problem: Option<ProofProblem>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// The recorded problem of the last proof sent, if any.
    ///
    /// # Errors
    /// Storage failures only.
    fn proof_problem(
        &self,
        id: PurchaseId,
    ) -> impl Future<Output = anyhow::Result<Option<ProofProblem>>> + Send;
}
