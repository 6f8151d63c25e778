//! The buyer's own page of a purchase (decision 0016), opened with the key given at purchase:
//! the raffle, the numbers, the status with its history, the hold's deadline, and whether a
//! proof can be sent (again).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use rifa_domain::purchase::{Purchase, PurchaseEvent, PurchaseId, PurchaseStatus};
use rifa_domain::raffle::Raffle;
use rifa_ports::{
    AccessKeys, Clock, ProofProblem, PurchaseProofs, PurchaseRepository, RaffleRepository,
};

use crate::proofs::{MAX_UPLOAD_GRANTS, ProofFailure, open_purchase};
use crate::shared::{RaffleTermsCache, Shared};

/// A purchase as its buyer follows it.
#[derive(Debug, Clone, PartialEq)]
pub struct BuyerView {
    pub purchase: Purchase,
    pub raffle: Arc<Raffle>,
    /// Oldest first.
    pub history: Vec<PurchaseEvent>,
    /// Why the last proof sent was refused, while none is attached.
    pub proof_problem: Option<ProofProblem>,
    /// Whether the buyer may send a proof now: pending, no proof attached, the hold's deadline
    /// not passed, upload links left.
    pub can_upload_proof: bool,
    /// The server's clock, so the page's countdown agrees with it.
    pub now: DateTime<Utc>,
}

/// The buyer's page.
#[async_trait::async_trait]
pub trait BuyerService: Send + Sync + 'static {
    /// # Errors
    /// `NotFound` (unknown purchase or wrong key, alike), or a storage failure.
    async fn buyer_view(&self, id: PurchaseId, access_key: &str)
    -> Result<BuyerView, ProofFailure>;
}

/// The buyer's page over its ports: purchases, proofs and raffles from `S`, keys compared by
/// `K`, the time from `C`.
pub struct Buyer<S, K, C> {
    store: S,
    access_keys: K,
    clock: C,
    raffle_terms: Arc<RaffleTermsCache>,
}

impl<S, K, C> Buyer<S, K, C>
where
    S: PurchaseProofs + PurchaseRepository + RaffleRepository,
    K: AccessKeys,
    C: Clock,
{
    pub fn new(store: S, access_keys: K, clock: C, shared: &Shared) -> Self {
        Self {
            store,
            access_keys,
            clock,
            raffle_terms: Arc::clone(&shared.raffle_terms),
        }
    }
}

#[async_trait::async_trait]
impl<S, K, C> BuyerService for Buyer<S, K, C>
where
    S: PurchaseProofs + PurchaseRepository + RaffleRepository,
    K: AccessKeys,
    C: Clock,
{
    async fn buyer_view(
        &self,
        id: PurchaseId,
        access_key: &str,
    ) -> Result<BuyerView, ProofFailure> {
        let access = open_purchase(&self.store, &self.access_keys, id, access_key).await?;
        let purchase = self
            .store
            .get_purchase(id)
            .await?
            .ok_or(ProofFailure::NotFound)?;
        let raffle = self
            .raffle_terms
            .get(&self.store, purchase.raffle_id)
            .await?
            .ok_or(ProofFailure::NotFound)?;
        let now = self.clock.now();
        let hold_open = access.hold_expires_at.is_none_or(|deadline| now < deadline);
        let can_upload_proof = purchase.status == PurchaseStatus::Pending
            && purchase.payment_proof.is_none()
            && hold_open
            && access.upload_grants < MAX_UPLOAD_GRANTS;
        let proof_problem = if purchase.payment_proof.is_none() {
            self.store.proof_problem(id).await?
        } else {
            None
        };
        Ok(BuyerView {
            history: self.store.purchase_history(id).await?,
            purchase,
            raffle,
            proof_problem,
            can_upload_proof,
            now,
        })
    }
}
