//! Raffles: what the public sees, what admins manage, and which numbers remain.

use std::sync::Arc;

use rifa_domain::FieldErrors;
use rifa_domain::pricing::{self, PriceQuote};
use rifa_domain::raffle::{Raffle, RaffleDraft, RaffleId, RaffleInput};
use rifa_domain::ticket::{availability_bitmap, available_numbers};
use rifa_ports::{DeleteRaffleError, EventBus, Promotion, RaffleScope, UpdateRaffleError};

use crate::{App, Store};

/// Who is looking: the public sees on-sale and closed raffles (not drafts); admins see all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    Public,
    Admin,
}

#[derive(Debug, thiserror::Error)]
pub enum RaffleError {
    #[error("invalid raffle")]
    Invalid(FieldErrors),
    #[error("raffle not found")]
    NotFound,
    #[error("number {highest_held} is held above the new maximum")]
    BelowHeldNumber { highest_held: u32 },
    #[error("raffle has {count} purchases")]
    HasPurchases { count: u64 },
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// A raffle's numbers in compact form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Availability {
    pub max_tickets: u32,
    pub available: u32,
    pub bitmap: Vec<u8>,
}

impl<S: Store, E: EventBus> App<S, E> {
    /// # Errors
    /// Storage failures only.
    pub async fn list_raffles(&self, viewer: Viewer) -> anyhow::Result<Vec<Raffle>> {
        let scope = match viewer {
            Viewer::Public => RaffleScope::OnSale,
            Viewer::Admin => RaffleScope::All,
        };
        self.store.list_raffles(scope).await
    }

    /// # Errors
    /// `NotFound` when missing or, for the public, a draft.
    pub async fn raffle(&self, id: RaffleId, viewer: Viewer) -> Result<Raffle, RaffleError> {
        let raffle = self
            .store
            .get_raffle(id)
            .await?
            .ok_or(RaffleError::NotFound)?;
        if viewer == Viewer::Public && !raffle.status.is_publicly_visible() {
            return Err(RaffleError::NotFound);
        }
        Ok(raffle)
    }

    /// A raffle's terms (no sold count), at most [`crate::cache::TTL`] old.
    pub(crate) async fn cached_terms(&self, id: RaffleId) -> anyhow::Result<Option<Arc<Raffle>>> {
        // A missing raffle is not cached: `Err(None)` carries it past the cache.
        let loaded = self
            .raffle_terms
            .get_or_load(&id, async {
                match self.store.raffle_terms(id).await {
                    Ok(Some(raffle)) => Ok(raffle),
                    Ok(None) => Err(None),
                    Err(error) => Err(Some(error)),
                }
            })
            .await;
        match loaded {
            Ok(raffle) => Ok(Some(raffle)),
            Err(None) => Ok(None),
            Err(Some(error)) => Err(error),
        }
    }

    /// The raffle's terms (no sold count), if this viewer may see it.
    async fn visible_terms(
        &self,
        id: RaffleId,
        viewer: Viewer,
    ) -> Result<Arc<Raffle>, RaffleError> {
        let raffle = self.cached_terms(id).await?.ok_or(RaffleError::NotFound)?;
        if viewer == Viewer::Public && !raffle.status.is_publicly_visible() {
            return Err(RaffleError::NotFound);
        }
        Ok(raffle)
    }

    /// Numbers still available, ascending (the spec's ticket list).
    ///
    /// # Errors
    /// As [`App::raffle`].
    pub async fn available_numbers(
        &self,
        id: RaffleId,
        viewer: Viewer,
    ) -> Result<Vec<u32>, RaffleError> {
        let availability = self.availability(id, viewer).await?;
        Ok(available_numbers(&availability.bitmap, availability.max_tickets).collect())
    }

    /// The compact availability, at most [`crate::cache::TTL`] old: the picker's view. A sale
    /// is still decided by the database, never by this copy.
    ///
    /// # Errors
    /// As [`App::raffle`].
    pub async fn availability(
        &self,
        id: RaffleId,
        viewer: Viewer,
    ) -> Result<Arc<Availability>, RaffleError> {
        let raffle = self.visible_terms(id, viewer).await?;
        self.availability
            .get_or_load(&id, async {
                let held = self.store.held_numbers(id).await?;
                let available = raffle
                    .max_tickets
                    .saturating_sub(u32::try_from(held.len()).unwrap_or(u32::MAX));
                Ok::<_, RaffleError>(Availability {
                    max_tickets: raffle.max_tickets,
                    available,
                    bitmap: availability_bitmap(raffle.max_tickets, &held),
                })
            })
            .await
    }

    /// Forgets the cached availability of a raffle whose holds this process just changed.
    pub(crate) fn holds_changed(&self, id: RaffleId) {
        self.availability.invalidate(&id);
    }

    /// # Errors
    /// As [`App::raffle`].
    pub async fn promotions(
        &self,
        id: RaffleId,
        viewer: Viewer,
    ) -> Result<Vec<Promotion>, RaffleError> {
        self.visible_terms(id, viewer).await?;
        Ok(self.store.promotions(id).await?)
    }

    /// What `count` tickets of a raffle cost now, with the configured discounts.
    ///
    /// # Errors
    /// As [`App::raffle`].
    pub async fn quote(
        &self,
        id: RaffleId,
        count: u32,
        viewer: Viewer,
    ) -> Result<PriceQuote, RaffleError> {
        let raffle = self.visible_terms(id, viewer).await?;
        let discounts = self.store.discounts().await?.unwrap_or_default();
        Ok(pricing::quote(
            raffle.price,
            count,
            raffle.limits,
            &discounts,
        ))
    }

    /// # Errors
    /// `Invalid` with every bad field, or a storage failure.
    pub async fn create_raffle(&self, input: RaffleInput) -> Result<Raffle, RaffleError> {
        let draft = RaffleDraft::parse(input).map_err(RaffleError::Invalid)?;
        Ok(self.store.create_raffle(&draft, self.now()).await?)
    }

    /// # Errors
    /// `Invalid`, `NotFound`, `BelowHeldNumber`, or a storage failure.
    pub async fn update_raffle(
        &self,
        id: RaffleId,
        input: RaffleInput,
    ) -> Result<Raffle, RaffleError> {
        let draft = RaffleDraft::parse(input).map_err(RaffleError::Invalid)?;
        let updated = self
            .store
            .update_raffle(id, &draft)
            .await
            .map_err(|e| match e {
                UpdateRaffleError::NotFound => RaffleError::NotFound,
                UpdateRaffleError::BelowHeldNumber { highest_held } => {
                    RaffleError::BelowHeldNumber { highest_held }
                }
                UpdateRaffleError::Unknown(e) => RaffleError::Unknown(e),
            })?;
        // The bitmap's length follows maxTickets; the terms are what changed.
        self.holds_changed(id);
        self.raffle_terms.invalidate(&id);
        Ok(updated)
    }

    /// # Errors
    /// `NotFound`, `HasPurchases`, or a storage failure.
    pub async fn delete_raffle(&self, id: RaffleId) -> Result<(), RaffleError> {
        self.store.delete_raffle(id).await.map_err(|e| match e {
            DeleteRaffleError::NotFound => RaffleError::NotFound,
            DeleteRaffleError::HasPurchases { count } => RaffleError::HasPurchases { count },
            DeleteRaffleError::Unknown(e) => RaffleError::Unknown(e),
        })?;
        self.holds_changed(id);
        self.raffle_terms.invalidate(&id);
        Ok(())
    }

    /// Now, to the millisecond: stored timestamps compare the same on both databases.
    pub(crate) fn now(&self) -> chrono::DateTime<chrono::Utc> {
        let now = self.clock.now();
        chrono::DateTime::from_timestamp_millis(now.timestamp_millis()).unwrap_or(now)
    }
}
