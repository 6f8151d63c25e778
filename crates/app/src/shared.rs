//! What several services share: the caches of read-mostly data and the outbox's wake-up call.
//!
//! Each is its own component, built once by the composition root ([`Shared::default`]) and
//! handed to exactly the services that read or invalidate it: a service never reaches another
//! service to drop a cached copy.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use chrono::{DateTime, Utc};
use rifa_domain::payment::PaymentMethod;
use rifa_domain::pricing::DiscountTable;
use rifa_domain::raffle::{Raffle, RaffleId};
use rifa_domain::ticket::{
    TicketNumber, availability_bitmap, mark_free, mark_held, pick_available,
};
use rifa_ports::{Clock, PaymentMethodRepository, RaffleRepository, SettingsRepository};
use tokio::sync::Notify;

use crate::cache::Cache;
use crate::catalog::Availability;
use crate::cpu::CpuPool;

/// Raffles' terms (status, price, size, limits), read by every purchase, picker and receipt.
/// Invalidated by the catalog when a raffle changes.
#[derive(Default)]
pub struct RaffleTermsCache(Cache<RaffleId, Raffle>);

impl RaffleTermsCache {
    /// A raffle's terms (no sold count), at most [`crate::cache::TTL`] old.
    ///
    /// # Errors
    /// Storage failures only; a missing raffle is `Ok(None)` (and is not cached).
    pub async fn get(
        &self,
        raffles: &impl RaffleRepository,
        id: RaffleId,
    ) -> anyhow::Result<Option<Arc<Raffle>>> {
        // `Err(None)` carries a missing raffle past the cache.
        let loaded = self
            .0
            .get_or_load(&id, async {
                match raffles.raffle_terms(id).await {
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

    pub fn invalidate(&self, id: RaffleId) {
        self.0.invalidate(&id);
    }
}

/// Availability bitmaps by raffle: a sale made here takes its numbers off the copy in place;
/// whoever gives numbers back or changes a raffle drops it (a decision, an expiry, an edit).
#[derive(Default)]
pub struct AvailabilityCache {
    copies: Cache<RaffleId, Availability>,
    recent: Mutex<RecentlyHeld>,
}

/// Numbers this process drew or learnt are held, by raffle, with when their purchase was
/// written (`None` while a drawn one is). A copy read from the database may not know them: the
/// ones being written, and the ones written after the read began, are taken off it as it
/// arrives; otherwise a reload would show numbers sold during its read as free for a whole
/// [`crate::cache::TTL`] (every buyer picking them would clash) and the last numbers of a
/// raffle would be drawn twice. Loads run concurrently, so a written number is kept for a while
/// rather than until the next load.
#[derive(Default)]
struct RecentlyHeld {
    by_raffle: HashMap<RaffleId, HashMap<TicketNumber, Option<Instant>>>,
    /// Written numbers are forgotten at most once per [`FORGET_WRITTEN_AFTER`], whoever asks,
    /// so what is kept stays within two such spans of sales even for a raffle nobody reads.
    forgot_at: Option<Instant>,
}

/// How long a written number is remembered: far longer than any read of the held numbers.
const FORGET_WRITTEN_AFTER: std::time::Duration = std::time::Duration::from_secs(10);

impl RecentlyHeld {
    fn being_written(&mut self, id: RaffleId, numbers: &[TicketNumber]) {
        self.mark(id, numbers.iter().map(|&number| (number, None)));
    }

    fn written(&mut self, id: RaffleId, numbers: &[TicketNumber]) {
        let now = Instant::now();
        self.mark(id, numbers.iter().map(|&number| (number, Some(now))));
    }

    /// A drawn purchase given up: its numbers are not held (by this process) after all.
    fn given_up(&mut self, id: RaffleId, numbers: &[TicketNumber]) {
        if let Some(held) = self.by_raffle.get_mut(&id) {
            for number in numbers {
                held.remove(number);
            }
            if held.is_empty() {
                self.by_raffle.remove(&id);
            }
        }
    }

    /// The numbers a read of the database begun at `started` may not have seen: those being
    /// written, and those written since.
    fn since(&mut self, id: RaffleId, started: Instant) -> Vec<TicketNumber> {
        self.forget_old();
        self.by_raffle.get(&id).map_or_else(Vec::new, |held| {
            held.iter()
                .filter(|(_, written)| written.is_none_or(|at| at >= started))
                .map(|(number, _)| *number)
                .collect()
        })
    }

    fn mark(
        &mut self,
        id: RaffleId,
        numbers: impl Iterator<Item = (TicketNumber, Option<Instant>)>,
    ) {
        self.forget_old();
        self.by_raffle.entry(id).or_default().extend(numbers);
    }

    fn forget_old(&mut self) {
        let now = Instant::now();
        if self
            .forgot_at
            .is_some_and(|at| now - at < FORGET_WRITTEN_AFTER)
        {
            return;
        }
        self.forgot_at = Some(now);
        self.by_raffle.retain(|_, held| {
            held.retain(|_, written| written.is_none_or(|at| now - at < FORGET_WRITTEN_AFTER));
            !held.is_empty()
        });
    }
}

impl AvailabilityCache {
    /// A raffle's availability, at most [`crate::cache::TTL`] old: the picker's view, and what
    /// a purchase of random numbers draws from.
    ///
    /// # Errors
    /// Storage failures only.
    pub async fn get(
        &self,
        store: &impl RaffleRepository,
        id: RaffleId,
        max_tickets: u32,
    ) -> anyhow::Result<Arc<Availability>> {
        self.copies
            .get_or_load(&id, self.load(store, id, max_tickets))
            .await
    }

    /// Reads the raffle's availability now and keeps it, for a purchase whose draws keep
    /// meeting numbers sold elsewhere; other callers keep the copy they have meanwhile.
    ///
    /// # Errors
    /// Storage failures only.
    pub async fn reload(
        &self,
        store: &impl RaffleRepository,
        id: RaffleId,
        max_tickets: u32,
    ) -> anyhow::Result<Arc<Availability>> {
        self.copies
            .reload(&id, self.load(store, id, max_tickets))
            .await
    }

    async fn load(
        &self,
        store: &impl RaffleRepository,
        id: RaffleId,
        max_tickets: u32,
    ) -> anyhow::Result<Availability> {
        let started = Instant::now();
        // The summary first: a purchase written during the long read of the held numbers is
        // added below as one this read missed, and would be counted twice by a later summary.
        let holds = store.hold_summary(id).await?;
        let held = store.held_numbers(id).await?;
        let mut bitmap = availability_bitmap(max_tickets, &held);
        let recent = self
            .recent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .since(id, started);
        let being_written = mark_held(&mut bitmap, max_tickets, &recent);
        Ok(Availability {
            max_tickets,
            available: max_tickets
                .saturating_sub(u32::try_from(held.len()).unwrap_or(u32::MAX))
                .saturating_sub(being_written),
            bitmap,
            pending: holds.pending_tickets + being_written,
            next_release_at: holds.next_release_at,
        })
    }

    /// Draws `count` numbers among those the copy shows free and takes them off it in the same
    /// step, so no other purchase in this process draws them while this one is written (other
    /// instances' purchases, and held numbers the copy is too old to know, are for the
    /// database's unique index to refuse). `below(n)` draws uniformly in `0..n`. Every draw is
    /// [settled](Self::settle) once its purchase is written or given up.
    ///
    /// `None` when the raffle has no copy (load it with [`Self::get`]); `Some(Err(available))`
    /// when the copy shows fewer than `count` numbers free.
    pub fn draw(
        &self,
        id: RaffleId,
        count: u32,
        below: impl FnMut(u32) -> u32,
    ) -> Option<Result<Vec<TicketNumber>, u32>> {
        // Held across the copy's change, so a reload cannot slip between the two.
        let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
        let mut drawn = None;
        self.copies.update(&id, |cached| {
            let Some(numbers) = pick_available(&cached.bitmap, cached.max_tickets, count, below)
            else {
                drawn = Some(Err(cached.available));
                return cached.clone();
            };
            let mut next = cached.clone();
            let newly_held = mark_held(&mut next.bitmap, next.max_tickets, &numbers);
            next.available = next.available.saturating_sub(newly_held);
            // Pending from now: the purchase's own `numbers_held` finds them held already.
            next.pending += newly_held;
            drawn = Some(Ok(numbers));
            next
        });
        if let Some(Ok(numbers)) = &drawn {
            recent.being_written(id, numbers);
        }
        drawn
    }

    /// A drawn purchase was written (`written`) or not. Not written, its numbers go back on the
    /// copy but for `taken`, which someone else holds.
    pub fn settle(
        &self,
        id: RaffleId,
        drawn: &[TicketNumber],
        written: bool,
        taken: &[TicketNumber],
    ) {
        let (held, back): (&[TicketNumber], Vec<TicketNumber>) = if written {
            (drawn, Vec::new())
        } else {
            let back = drawn.iter().copied().filter(|n| !taken.contains(n));
            (taken, back.collect())
        };
        {
            let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
            recent.given_up(id, &back);
            recent.written(id, held);
        }
        if back.is_empty() {
            return;
        }
        self.copies.update(&id, |cached| {
            let mut next = cached.clone();
            let freed = mark_free(&mut next.bitmap, next.max_tickets, &back);
            next.available += freed;
            next.pending = next.pending.saturating_sub(freed);
            next
        });
    }

    /// Whether a hold of the raffle may be due at `now`: not when a fresh copy's earliest
    /// deadline is later, since a hold written after that copy was read runs a minute at least.
    pub fn hold_may_be_due(&self, id: RaffleId, now: DateTime<Utc>) -> bool {
        self.copies
            .fresh(&id)
            .is_none_or(|copy| copy.next_release_at.is_some_and(|at| at <= now))
    }

    /// Forgets the cached availability of a raffle whose holds this process just changed.
    pub fn holds_changed(&self, id: RaffleId) {
        self.copies.invalidate(&id);
    }

    /// This process just learnt that `numbers` of a raffle are held: by its own purchase,
    /// pending until `pending_until`, or by someone else (a clash names them; `None`). The copy
    /// loses them at once without a reload, so a raffle selling out re-reads its held numbers
    /// once per [`crate::cache::TTL`], not after every sale.
    pub fn numbers_held(
        &self,
        id: RaffleId,
        numbers: &[TicketNumber],
        pending_until: Option<DateTime<Utc>>,
    ) {
        // Recorded before the copy changes: a load ending in between has applied them.
        self.recent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .written(id, numbers);
        self.copies.update(&id, |cached| {
            let mut next = cached.clone();
            let newly_held = mark_held(&mut next.bitmap, next.max_tickets, numbers);
            next.available = next.available.saturating_sub(newly_held);
            if let Some(until) = pending_until {
                next.pending += newly_held;
                next.next_release_at = Some(next.next_release_at.map_or(until, |t| t.min(until)));
            }
            next
        });
    }
}

/// What every purchase reads besides its raffle: cached for [`crate::cache::TTL`].
pub struct PurchaseTerms {
    pub methods: Vec<PaymentMethod>,
    pub discounts: DiscountTable,
}

/// The active payment methods and the discount table: read by purchasing, dropped by payments
/// and settings when they change them.
#[derive(Default)]
pub struct PurchaseTermsCache(Cache<(), PurchaseTerms>);

impl PurchaseTermsCache {
    /// # Errors
    /// Storage failures only.
    pub async fn get(
        &self,
        store: &(impl PaymentMethodRepository + SettingsRepository),
    ) -> anyhow::Result<Arc<PurchaseTerms>> {
        self.0
            .get_or_load(&(), async {
                Ok(PurchaseTerms {
                    methods: store.list_payment_methods(true).await?,
                    discounts: store.discounts().await?.unwrap_or_default(),
                })
            })
            .await
    }

    /// Forgets the cached methods and discounts after this process changed them.
    pub fn changed(&self) {
        self.0.invalidate(&());
    }
}

/// Rung when an e-mail is put in the outbox, so delivery starts at once instead of at the
/// worker's next poll.
#[derive(Default)]
pub struct MailSignal(Notify);

impl MailSignal {
    pub fn queued(&self) {
        self.0.notify_one();
    }

    /// Returns when an e-mail was queued on this instance.
    pub async fn notified(&self) {
        self.0.notified().await;
    }
}

/// Every shared component, built once by the composition root. Each service's constructor
/// takes the ones it needs from here.
#[derive(Clone)]
pub struct Shared {
    pub raffle_terms: Arc<RaffleTermsCache>,
    pub availability: Arc<AvailabilityCache>,
    pub purchase_terms: Arc<PurchaseTermsCache>,
    pub mail_signal: Arc<MailSignal>,
    /// Where password checks and receipts are computed, off the async workers.
    pub cpu: CpuPool,
}

impl Default for Shared {
    fn default() -> Self {
        Self {
            raffle_terms: Arc::default(),
            availability: Arc::default(),
            purchase_terms: Arc::default(),
            mail_signal: Arc::default(),
            cpu: CpuPool::sized_to_cores(),
        }
    }
}

/// Now, to the millisecond: stored timestamps compare the same on both databases.
pub(crate) fn now(clock: &impl Clock) -> DateTime<Utc> {
    let now = clock.now();
    DateTime::from_timestamp_millis(now.timestamp_millis()).unwrap_or(now)
}
