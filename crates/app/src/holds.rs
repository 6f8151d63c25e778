//! Holds that expire (decision 0016): the sweep that gives numbers back when no proof came in
//! time, and the release alerts of buyers waiting for a sold-out raffle.

use std::collections::BTreeSet;
use std::sync::Arc;

use rifa_domain::Lang;
use rifa_domain::customer::Email;
use rifa_domain::raffle::RaffleId;
use rifa_ports::{
    Clock, HoldExpiry, MailKind, PurchaseRepository, RaffleRepository, ReleaseAlerts,
};

use crate::shared::{AvailabilityCache, MailSignal, RaffleTermsCache, Shared, now};

/// Purchases expired per transaction: small enough to keep each one short.
pub const SWEEP_BATCH: u32 = 200;

/// What expiring holds does besides the status: each buyer is told their numbers went back on
/// sale, and whoever asked about one of those raffles is told it has numbers again.
#[must_use]
pub fn expiry(raffle: Option<RaffleId>) -> HoldExpiry {
    HoldExpiry {
        limit: SWEEP_BATCH,
        raffle,
        buyer_mail: Some(MailKind::Expired),
        alert_mail: Some(MailKind::NumbersReleased),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AlertError {
    /// No such raffle, or one the public cannot see.
    #[error("raffle not found")]
    RaffleNotFound,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Holds that expire and the alerts of those waiting for numbers.
#[async_trait::async_trait]
pub trait HoldsService: Send + Sync + 'static {
    /// Expires every hold already due, a batch at a time, and answers how many purchases
    /// expired. Safe to run on every instance at once.
    ///
    /// # Errors
    /// Storage failures only; batches before the failure stay expired.
    async fn expire_due_holds(&self) -> anyhow::Result<u32>;

    /// Records that `email` wants one notice, in `lang`, the next time numbers of the raffle
    /// come back on sale.
    ///
    /// # Errors
    /// `RaffleNotFound`, or a storage failure.
    async fn ask_for_release_alert(
        &self,
        raffle: RaffleId,
        email: &Email,
        lang: Lang,
    ) -> Result<(), AlertError>;
}

/// Holds over their ports: purchases, raffles and alerts from `S`, the time from `C`.
pub struct Holds<S, C> {
    store: S,
    clock: C,
    raffle_terms: Arc<RaffleTermsCache>,
    availability: Arc<AvailabilityCache>,
    mail_signal: Arc<MailSignal>,
}

impl<S, C> Holds<S, C>
where
    S: PurchaseRepository + RaffleRepository + ReleaseAlerts,
    C: Clock,
{
    pub fn new(store: S, clock: C, shared: &Shared) -> Self {
        Self {
            store,
            clock,
            raffle_terms: Arc::clone(&shared.raffle_terms),
            availability: Arc::clone(&shared.availability),
            mail_signal: Arc::clone(&shared.mail_signal),
        }
    }
}

#[async_trait::async_trait]
impl<S, C> HoldsService for Holds<S, C>
where
    S: PurchaseRepository + RaffleRepository + ReleaseAlerts,
    C: Clock,
{
    async fn expire_due_holds(&self) -> anyhow::Result<u32> {
        let mut expired = 0;
        loop {
            let batch = self.store.expire_due_holds(&expiry(None)).await?;
            let raffles: BTreeSet<RaffleId> = batch.iter().map(|e| e.raffle_id).collect();
            for raffle in &raffles {
                self.availability.holds_changed(*raffle);
            }
            if !batch.is_empty() {
                self.mail_signal.queued();
                tracing::info!(
                    purchases = batch.len(),
                    raffles = raffles.len(),
                    "holds expired"
                );
            }
            expired += u32::try_from(batch.len()).unwrap_or(u32::MAX);
            if batch.len() < SWEEP_BATCH as usize {
                return Ok(expired);
            }
        }
    }

    async fn ask_for_release_alert(
        &self,
        raffle: RaffleId,
        email: &Email,
        lang: Lang,
    ) -> Result<(), AlertError> {
        self.raffle_terms
            .get(&self.store, raffle)
            .await?
            .filter(|r| r.status.is_publicly_visible())
            .ok_or(AlertError::RaffleNotFound)?;
        self.store
            .add_release_alert(raffle, email.as_str(), lang, now(&self.clock))
            .await?;
        Ok(())
    }
}
