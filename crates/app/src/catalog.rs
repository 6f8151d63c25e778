//! Raffles: what the public sees, what admins manage, and which numbers remain.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use rifa_domain::FieldErrors;
use rifa_domain::audit::{Actor, AuditAction, AuditEntry, Change, Fields};
use rifa_domain::draw::prize::{PrizeDraft, PrizeInput};
use rifa_domain::pricing::{self, PriceQuote};
use rifa_domain::raffle::{Raffle, RaffleDraft, RaffleId, RaffleInput};
use rifa_domain::ticket::{TicketNumber, available_numbers};
use rifa_ports::{
    Clock, DeleteRaffleError, Promotion, RaffleRepository, RaffleScope, SettingsRepository,
    UpdateRaffleError,
};

use crate::audit::{Recorded, record_entry};
use crate::cache::Cache;
use crate::shared::{AvailabilityCache, RaffleTermsCache, Shared, now};

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
    BelowHeldNumber { highest_held: TicketNumber },
    #[error("raffle has {count} purchases")]
    HasPurchases { count: u64 },
    /// A real purchase exists or the ledger is frozen: the size decides the winner.
    #[error("the raffle's size is locked")]
    SizeLocked,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// A raffle's numbers in compact form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Availability {
    pub max_tickets: u32,
    pub available: u32,
    pub bitmap: Vec<u8>,
    /// Numbers held by pending purchases: taken now, but they may come back.
    pub pending: u32,
    /// When the next hold can expire, if any can.
    pub next_release_at: Option<DateTime<Utc>>,
}

/// A raffle as saved, and whether it was kept off sale for want of a prize although the
/// admin asked for it to be on sale.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedRaffle {
    pub raffle: Raffle,
    pub held_back_without_prizes: bool,
}

/// Raffles as the public and admins see them, and the admin's edits of them.
#[async_trait::async_trait]
pub trait CatalogService: Send + Sync + 'static {
    /// # Errors
    /// Storage failures only.
    async fn list_raffles(&self, viewer: Viewer) -> anyhow::Result<Vec<Raffle>>;

    /// # Errors
    /// `NotFound` when missing or, for the public, a draft.
    async fn raffle(&self, id: RaffleId, viewer: Viewer) -> Result<Raffle, RaffleError>;

    /// Numbers still available, ascending (the spec's ticket list).
    ///
    /// # Errors
    /// As [`CatalogService::raffle`].
    async fn available_numbers(
        &self,
        id: RaffleId,
        viewer: Viewer,
    ) -> Result<Vec<u32>, RaffleError>;

    /// The compact availability, at most [`crate::cache::TTL`] old: the picker's view. A sale
    /// is still decided by the database, never by this copy.
    ///
    /// # Errors
    /// As [`CatalogService::raffle`].
    async fn availability(
        &self,
        id: RaffleId,
        viewer: Viewer,
    ) -> Result<Arc<Availability>, RaffleError>;

    /// # Errors
    /// As [`CatalogService::raffle`].
    async fn promotions(&self, id: RaffleId, viewer: Viewer)
    -> Result<Vec<Promotion>, RaffleError>;

    /// What `count` tickets of a raffle cost now, with the configured discounts.
    ///
    /// # Errors
    /// As [`CatalogService::raffle`].
    async fn quote(
        &self,
        id: RaffleId,
        count: u32,
        viewer: Viewer,
    ) -> Result<PriceQuote, RaffleError>;

    /// Creates a raffle with its prizes (the form's first prize), in one write. Asked to go on
    /// sale without a prize, it is saved unpublished and the answer says so.
    ///
    /// # Errors
    /// `Invalid` with every bad field (the prizes' named `prizes[i].…`), or a storage failure.
    async fn create_raffle(
        &self,
        input: RaffleInput,
        prizes: &[PrizeInput],
        by: &Actor,
    ) -> Result<SavedRaffle, RaffleError>;

    /// Replaces a raffle's fields; asked to go on sale while it has no prize, it stays
    /// unpublished and the answer says so.
    ///
    /// # Errors
    /// `Invalid`, `NotFound`, `BelowHeldNumber`, or a storage failure.
    async fn update_raffle(
        &self,
        id: RaffleId,
        input: RaffleInput,
        by: &Actor,
    ) -> Result<SavedRaffle, RaffleError>;

    /// # Errors
    /// `NotFound`, `HasPurchases`, or a storage failure.
    async fn delete_raffle(&self, id: RaffleId, by: &Actor) -> Result<(), RaffleError>;
}

/// The catalog over its ports: raffles and the discount table (for quotes) from `S`, the time
/// of creation from `C`.
pub struct Catalog<S, C> {
    store: S,
    clock: C,
    raffle_terms: Arc<RaffleTermsCache>,
    availability: Arc<AvailabilityCache>,
    /// The public list (the home page's one read): its sold counts may be a
    /// [`crate::cache::TTL`] old, so a launch's visitors cost one query a second, not one each.
    /// Purchases do not drop it.
    on_sale: Cache<(), Vec<Raffle>>,
}

impl<S, C> Catalog<S, C>
where
    S: RaffleRepository + SettingsRepository,
    C: Clock,
{
    pub fn new(store: S, clock: C, shared: &Shared) -> Self {
        Self {
            store,
            clock,
            raffle_terms: Arc::clone(&shared.raffle_terms),
            availability: Arc::clone(&shared.availability),
            on_sale: Cache::default(),
        }
    }

    /// The raffle's terms (no sold count), if this viewer may see it.
    async fn visible_terms(
        &self,
        id: RaffleId,
        viewer: Viewer,
    ) -> Result<Arc<Raffle>, RaffleError> {
        let raffle = self
            .raffle_terms
            .get(&self.store, id)
            .await?
            .ok_or(RaffleError::NotFound)?;
        if viewer == Viewer::Public && !raffle.status.is_publicly_visible() {
            return Err(RaffleError::NotFound);
        }
        Ok(raffle)
    }

    /// The raffle changed: its terms, (its size may have) its bitmap, and the list showing it.
    fn forget(&self, id: RaffleId) {
        self.availability.holds_changed(id);
        self.raffle_terms.invalidate(id);
        self.on_sale.invalidate(&());
    }
}

#[async_trait::async_trait]
impl<S, C> CatalogService for Catalog<S, C>
where
    S: RaffleRepository + SettingsRepository,
    C: Clock,
{
    async fn list_raffles(&self, viewer: Viewer) -> anyhow::Result<Vec<Raffle>> {
        match viewer {
            Viewer::Public => {
                let listed = self
                    .on_sale
                    .get_or_load(&(), self.store.list_raffles(RaffleScope::OnSale))
                    .await?;
                Ok(listed.as_ref().clone())
            }
            Viewer::Admin => self.store.list_raffles(RaffleScope::All).await,
        }
    }

    async fn raffle(&self, id: RaffleId, viewer: Viewer) -> Result<Raffle, RaffleError> {
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

    async fn available_numbers(
        &self,
        id: RaffleId,
        viewer: Viewer,
    ) -> Result<Vec<u32>, RaffleError> {
        let availability = self.availability(id, viewer).await?;
        Ok(available_numbers(&availability.bitmap, availability.max_tickets).collect())
    }

    async fn availability(
        &self,
        id: RaffleId,
        viewer: Viewer,
    ) -> Result<Arc<Availability>, RaffleError> {
        let raffle = self.visible_terms(id, viewer).await?;
        Ok(self
            .availability
            .get(&self.store, id, raffle.max_tickets)
            .await?)
    }

    async fn promotions(
        &self,
        id: RaffleId,
        viewer: Viewer,
    ) -> Result<Vec<Promotion>, RaffleError> {
        self.visible_terms(id, viewer).await?;
        Ok(self.store.promotions(id).await?)
    }

    async fn quote(
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

    async fn create_raffle(
        &self,
        input: RaffleInput,
        prizes: &[PrizeInput],
        by: &Actor,
    ) -> Result<SavedRaffle, RaffleError> {
        let mut errors = FieldErrors::new();
        let draft = RaffleDraft::parse(input).map_err(|e| errors.merge(e)).ok();
        let prizes = PrizeDraft::parse_all(prizes)
            .map_err(|e| errors.merge(e))
            .ok();
        let (Some(draft), Some(prizes)) = (draft, prizes) else {
            return Err(RaffleError::Invalid(errors));
        };
        PrizeDraft::check_after_close(
            &prizes,
            draft.sales.closes_at(draft.draw_date, draft.end_date),
        )
        .map_err(RaffleError::Invalid)?;
        let (draft, held_back) = draft.held_back_without_prizes(!prizes.is_empty());
        let at = now(&self.clock);
        let raffle_entry = trail_entry(at, by, AuditAction::RaffleCreated);
        let prize_titles = PrizeDraft::titles(prizes.iter());
        let entry = |before: Option<&Raffle>, after: Option<&Raffle>| {
            let mut entry = raffle_entry(before, after);
            if prize_titles.is_some() {
                entry
                    .changes
                    .push(Change::new("prizes", None, prize_titles.clone()));
            }
            entry
        };
        let raffle = self
            .store
            .create_raffle(&draft, &prizes, at, &entry)
            .await?;
        self.on_sale.invalidate(&());
        Ok(SavedRaffle {
            raffle,
            held_back_without_prizes: held_back,
        })
    }

    async fn update_raffle(
        &self,
        id: RaffleId,
        input: RaffleInput,
        by: &Actor,
    ) -> Result<SavedRaffle, RaffleError> {
        let draft = RaffleDraft::parse(input).map_err(RaffleError::Invalid)?;
        let asked_on_sale = draft.status.is_on_sale();
        let entry = trail_entry(now(&self.clock), by, AuditAction::RaffleUpdated);
        let updated = self
            .store
            .update_raffle(id, &draft, &entry)
            .await
            .map_err(|e| match e {
                UpdateRaffleError::NotFound => RaffleError::NotFound,
                UpdateRaffleError::BelowHeldNumber { highest_held } => {
                    RaffleError::BelowHeldNumber { highest_held }
                }
                UpdateRaffleError::SizeLocked => RaffleError::SizeLocked,
                UpdateRaffleError::Unknown(e) => RaffleError::Unknown(e),
            })?;
        self.forget(id);
        Ok(SavedRaffle {
            held_back_without_prizes: asked_on_sale && !updated.status.is_on_sale(),
            raffle: updated,
        })
    }

    async fn delete_raffle(&self, id: RaffleId, by: &Actor) -> Result<(), RaffleError> {
        let entry = trail_entry(now(&self.clock), by, AuditAction::RaffleDeleted);
        self.store
            .delete_raffle(id, &entry)
            .await
            .map_err(|e| match e {
                DeleteRaffleError::NotFound => RaffleError::NotFound,
                DeleteRaffleError::HasPurchases { count } => RaffleError::HasPurchases { count },
                DeleteRaffleError::Unknown(e) => RaffleError::Unknown(e),
            })?;
        self.forget(id);
        Ok(())
    }
}

/// The trail's entry for a write of a raffle by `by`.
fn trail_entry(
    at: DateTime<Utc>,
    by: &Actor,
    action: AuditAction,
) -> impl Fn(Option<&Raffle>, Option<&Raffle>) -> AuditEntry + Sync + use<> {
    record_entry(
        at,
        by,
        action,
        Recorded {
            kind: "raffle",
            id: |raffle: &Raffle| raffle.id.get(),
            fields: raffle_fields,
        },
    )
}

/// What the trail records of a raffle: what an admin sets.
fn raffle_fields(raffle: &Raffle) -> Fields {
    let instant = |at: Option<DateTime<Utc>>| at.map(|at| at.to_rfc3339());
    vec![
        ("title", Some(raffle.title.clone())),
        ("description", Some(raffle.description.clone())),
        ("image", Some(raffle.image.clone())),
        ("price", Some(raffle.price.money().to_string())),
        ("status", Some(raffle.status.as_str().to_owned())),
        ("maxTickets", Some(raffle.max_tickets.to_string())),
        ("minPerPurchase", Some(raffle.limits.min().to_string())),
        ("maxPerPurchase", Some(raffle.limits.max().to_string())),
        ("drawDate", instant(raffle.draw_date)),
        ("endDate", instant(raffle.end_date)),
        ("holdMinutes", Some(raffle.sales.hold_minutes().to_string())),
        (
            "closeHoursBeforeDraw",
            Some(raffle.sales.close_hours_before_draw().to_string()),
        ),
    ]
}
