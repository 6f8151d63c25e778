//! Buying tickets: the public purchase and the admin's test purchase.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use rifa_domain::audit::{Actor, AuditAction, AuditEntry, Change};
use rifa_domain::money::Money;
use rifa_domain::payment::PaymentMethod;
use rifa_domain::pricing::{self, PriceQuote};
use rifa_domain::purchase::{
    MethodChoice, NewPurchase, PaymentSnapshot, Purchase, PurchaseRequest, PurchaseStatus,
    TicketChoice,
};
use rifa_domain::raffle::{PurchaseLimits, RaffleId};
use rifa_domain::sales::BuyerKeys;
use rifa_domain::ticket::{TicketNumber, TicketSelection};
use rifa_domain::{FieldError, FieldErrors, Lang};
use rifa_ports::{
    AccessKeys, Clock, CreatePurchaseError, DomainEvent, EventBus, PaymentMethodRepository,
    PurchaseRepository, RaffleRepository, ReferenceGenerator, SettingsRepository,
};

pub use crate::shared::PurchaseTerms;
use crate::shared::{
    AvailabilityCache, MailSignal, PurchaseTermsCache, RaffleTermsCache, Shared, now,
};

/// Whether the purchase is real or an admin's rehearsal (status `test`, nothing held), which
/// the trail records as theirs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PurchaseMode {
    Public,
    AdminTest(Actor),
}

impl PurchaseMode {
    fn is_public(&self) -> bool {
        *self == Self::Public
    }
}

/// The trail's entry of a test purchase; storage adds the purchase it creates as the target.
fn rehearsal_entry(
    by: &Actor,
    at: DateTime<Utc>,
    raffle: RaffleId,
    quote: &PriceQuote,
) -> AuditEntry {
    AuditEntry {
        at,
        actor: by.clone(),
        action: AuditAction::TestPurchaseCreated,
        target: None,
        changes: vec![
            Change::new("raffleId", None, Some(raffle.get().to_string())),
            Change::new("tickets", None, Some(quote.ticket_count.to_string())),
            Change::new("totalAmount", None, Some(quote.total.to_string())),
        ],
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PurchaseError {
    #[error("invalid purchase")]
    Invalid(FieldErrors),
    #[error("raffle not found")]
    RaffleNotFound,
    #[error("raffle is not on sale")]
    RaffleNotOnSale,
    /// Sales closed at `closed_at` (before the draw), whatever the raffle's status says.
    #[error("sales closed")]
    SalesClosed { closed_at: DateTime<Utc> },
    /// The client computed another total (stale price, tampering): nothing was written.
    #[error("client total does not match the server's")]
    TotalMismatch { expected: Money, sent: Money },
    /// Someone else holds these numbers (ascending); `max_tickets` sets their display padding.
    #[error("numbers already taken: {numbers:?}")]
    NumbersTaken {
        numbers: Vec<TicketNumber>,
        max_tickets: u32,
    },
    /// A purchase of random numbers asked for more than the raffle has free.
    #[error("only {available} numbers left")]
    TooFewLeft { available: u32 },
    /// Every draw of random numbers lost some of them to other purchases written at the same
    /// moment (on other instances): worth trying again.
    #[error("random numbers kept being taken while drawn")]
    DrawContended,
    /// A live purchase paid with the same method carries this payment reference: the same
    /// payment cannot pay twice. Nothing was written.
    #[error("payment reference already used")]
    PaymentReferenceUsed,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, Clone, PartialEq)]
pub struct PurchaseReceipt {
    pub purchase: Purchase,
    pub quote: PriceQuote,
    pub test_mode: bool,
    /// The raffle's size, which sets how numbers are padded for display.
    pub max_tickets: u32,
    /// The buyer's secret key to attach the proof and read the invoice: given out once, here.
    /// `None` for test purchases.
    pub access_key: Option<String>,
}

/// A reference collision is a one-in-a-trillion event; three tries is plenty.
const REFERENCE_ATTEMPTS: usize = 3;

/// Draws of random numbers per purchase. Within one instance draws never collide (each takes
/// its numbers off the shared copy); another instance's sale of the same number within the
/// copy's second of age is what a redraw is for.
const DRAW_ATTEMPTS: usize = 4;

/// A uniform draw in `0..n`, the randomness a purchase of random numbers uses.
fn uniform_below(n: u32) -> u32 {
    rand::random_range(0..n)
}

fn find_method<'a>(
    methods: &'a [PaymentMethod],
    choice: &MethodChoice,
) -> Result<&'a PaymentMethod, FieldError> {
    match choice {
        MethodChoice::Id(id) => methods.iter().find(|m| m.id == *id),
        MethodChoice::Name(name) => methods.iter().find(|m| m.name.eq_ignore_ascii_case(name)),
    }
    .ok_or(FieldError::PaymentMethodUnavailable)
}

/// Buying tickets.
#[async_trait::async_trait]
pub trait PurchasingService: Send + Sync + 'static {
    /// Refuses a raffle that cannot be bought, then a form the edge found fields wrong in (so a
    /// closed raffle is said before any field), then checks the request against the raffle and
    /// the catalogue, prices it on the server, checks the client's total against that price
    /// and writes the purchase, holding its numbers, in one transaction.
    ///
    /// # Errors
    /// `RaffleNotFound`, `RaffleNotOnSale` (public only), `Invalid` with every field the raffle
    /// or the catalogue refuses (numbers out of range or past the limits, a method not on offer),
    /// `TotalMismatch`, `NumbersTaken` naming the numbers lost, or a storage failure.
    async fn purchase(
        &self,
        raffle_id: RaffleId,
        request: Result<PurchaseRequest, FieldErrors>,
        mode: PurchaseMode,
        lang: Lang,
    ) -> Result<PurchaseReceipt, PurchaseError>;
}

/// Purchasing over its ports: raffles' terms, active methods, discounts and the purchase write
/// from `S`; the buyer's key from `K`, the reference from `G`, the time from `C`; a new
/// purchase announced on `E`.
pub struct Purchasing<S, E, K, G, C> {
    store: S,
    events: E,
    access_keys: K,
    references: G,
    clock: C,
    raffle_terms: Arc<RaffleTermsCache>,
    availability: Arc<AvailabilityCache>,
    purchase_terms: Arc<PurchaseTermsCache>,
    mail_signal: Arc<MailSignal>,
}

impl<S, E, K, G, C> Purchasing<S, E, K, G, C>
where
    S: RaffleRepository + PaymentMethodRepository + SettingsRepository + PurchaseRepository,
    E: EventBus,
    K: AccessKeys,
    G: ReferenceGenerator,
    C: Clock,
{
    pub fn new(
        store: S,
        events: E,
        access_keys: K,
        references: G,
        clock: C,
        shared: &Shared,
    ) -> Self {
        Self {
            store,
            events,
            access_keys,
            references,
            clock,
            raffle_terms: Arc::clone(&shared.raffle_terms),
            availability: Arc::clone(&shared.availability),
            purchase_terms: Arc::clone(&shared.purchase_terms),
            mail_signal: Arc::clone(&shared.mail_signal),
        }
    }
}

impl<S, E, K, G, C> Purchasing<S, E, K, G, C>
where
    S: RaffleRepository + PaymentMethodRepository + SettingsRepository + PurchaseRepository,
    E: EventBus,
    K: AccessKeys,
    G: ReferenceGenerator,
    C: Clock,
{
    /// Draws `count` free numbers of the raffle for a purchase of random numbers, from a copy
    /// at most [`crate::cache::TTL`] old. When it shows too few, holds already due are expired
    /// once (their numbers come back now, not at the next sweep) before saying so.
    async fn draw(
        &self,
        raffle_id: RaffleId,
        max_tickets: u32,
        limits: PurchaseLimits,
        count: u32,
    ) -> Result<TicketSelection, PurchaseError> {
        let mut cleared_due_holds = false;
        loop {
            self.availability
                .get(&self.store, raffle_id, max_tickets)
                .await?;
            let drawn = self
                .availability
                .draw(raffle_id, count, uniform_below)
                .ok_or_else(|| anyhow::anyhow!("the raffle's availability was not kept"))?;
            match drawn {
                Ok(numbers) => {
                    let numbers: Vec<i64> = numbers.iter().map(|n| i64::from(n.get())).collect();
                    return TicketSelection::new(&numbers, max_tickets, limits).map_err(|e| {
                        anyhow::anyhow!("a draw gave an invalid selection: {e:?}").into()
                    });
                }
                Err(available) if cleared_due_holds => {
                    return Err(PurchaseError::TooFewLeft { available });
                }
                Err(available) => {
                    cleared_due_holds = true;
                    if !self.expire_due_holds_of(raffle_id).await? {
                        return Err(PurchaseError::TooFewLeft { available });
                    }
                }
            }
        }
    }

    /// Expires the raffle's holds already due; whether any number came back. Without a write
    /// when the raffle's copy shows none due: then a clash costs the buyer no second statement.
    async fn expire_due_holds_of(&self, raffle: RaffleId) -> anyhow::Result<bool> {
        if !self.availability.hold_may_be_due(raffle, now(&self.clock)) {
            return Ok(false);
        }
        let expired = self
            .store
            .expire_due_holds(&crate::holds::expiry(Some(raffle)))
            .await?;
        if expired.is_empty() {
            return Ok(false);
        }
        self.availability.holds_changed(raffle);
        self.mail_signal.queued();
        Ok(true)
    }
}

#[async_trait::async_trait]
impl<S, E, K, G, C> PurchasingService for Purchasing<S, E, K, G, C>
where
    S: RaffleRepository + PaymentMethodRepository + SettingsRepository + PurchaseRepository,
    E: EventBus,
    K: AccessKeys,
    G: ReferenceGenerator,
    C: Clock,
{
    async fn purchase(
        &self,
        raffle_id: RaffleId,
        request: Result<PurchaseRequest, FieldErrors>,
        mode: PurchaseMode,
        lang: Lang,
    ) -> Result<PurchaseReceipt, PurchaseError> {
        let raffle = self
            .raffle_terms
            .get(&self.store, raffle_id)
            .await?
            .ok_or(PurchaseError::RaffleNotFound)?;
        let now = now(&self.clock);
        if mode.is_public() && !raffle.status.is_on_sale() {
            return Err(if raffle.status.is_publicly_visible() {
                PurchaseError::RaffleNotOnSale
            } else {
                PurchaseError::RaffleNotFound
            });
        }
        if mode.is_public()
            && let Some(closed_at) = raffle.sales_close_at().filter(|close| now >= *close)
        {
            return Err(PurchaseError::SalesClosed { closed_at });
        }

        let request = request.map_err(PurchaseError::Invalid)?;
        let mut errors = FieldErrors::new();
        let count = match &request.tickets {
            TicketChoice::Numbers(numbers) => errors
                .check(
                    "ticketNumbers",
                    TicketSelection::new(numbers, raffle.max_tickets, raffle.limits),
                )
                .map(|selection| (selection.count(), Some(selection))),
            TicketChoice::Random(count) => errors
                .check(
                    "randomCount",
                    TicketSelection::check_count(*count, raffle.limits),
                )
                .map(|()| (*count, None)),
        };
        let terms = self.purchase_terms.get(&self.store).await?;
        let method = errors.check(
            "paymentMethod",
            find_method(&terms.methods, &request.payment_method),
        );
        if let Some(method) = method {
            errors.check(
                "paymentReference",
                method.reference.check(request.payment_reference.as_ref()),
            );
        }
        let (Some((count, chosen)), Some(method), true) = (count, method, errors.is_empty()) else {
            return Err(PurchaseError::Invalid(errors));
        };

        let quote = pricing::quote(raffle.price, count, raffle.limits, &terms.discounts);
        if request.total_amount != quote.total || request.discount_applied != quote.discount {
            return Err(PurchaseError::TotalMismatch {
                expected: quote.total,
                sent: request.total_amount,
            });
        }

        let payment = PaymentSnapshot {
            method_id: Some(method.id),
            method_name: method.name.clone(),
            conversion: method.exchange_rate.as_ref().map(|r| (r.to, r.rate)),
        };
        let public = mode.is_public();
        let drawn = chosen.is_none();
        let selection = match chosen {
            Some(selection) => selection,
            None => {
                self.draw(raffle_id, raffle.max_tickets, raffle.limits, count)
                    .await?
            }
        };
        let buyer_keys = BuyerKeys::of(&request.customer);
        let mut new = NewPurchase {
            raffle_id,
            reference: self.references.next_reference(),
            selection,
            customer: request.customer,
            payment,
            payment_reference: request.payment_reference,
            quote: quote.clone(),
            // A rehearsal takes nobody's numbers, counts against nobody and writes to nobody.
            status: if public {
                PurchaseStatus::Pending
            } else {
                PurchaseStatus::Test
            },
            hold_until: public.then(|| raffle.sales.hold_deadline(now)),
            buyer_keys,
            allowance_cap: public.then(|| raffle.limits.max()),
            confirm_to_buyer: public,
            created_at: now,
            lang,
            access_digest: None,
            audit: match &mode {
                PurchaseMode::Public => None,
                PurchaseMode::AdminTest(by) => Some(rehearsal_entry(by, now, raffle_id, &quote)),
            },
        };
        let (mut attempt, mut draws, mut cleared_due_holds) = (1, 1, false);
        // Drawn numbers the last write found held by someone else: they stay off the copy.
        let mut lost = Vec::new();
        let written = loop {
            if public {
                new.access_digest = Some(
                    self.access_keys
                        .digest(&self.access_keys.key_for(&new.reference)),
                );
            }
            match self.store.create_purchase(&new, &raffle.title).await {
                Ok(purchase) => break Ok(purchase),
                Err(CreatePurchaseError::ReferenceTaken) if attempt < REFERENCE_ATTEMPTS => {
                    attempt += 1;
                    new.reference = self.references.next_reference();
                }
                Err(CreatePurchaseError::ReferenceTaken) => {
                    break Err(anyhow::anyhow!("could not find a free purchase reference").into());
                }
                // Drawn numbers someone else took meanwhile (another instance): they stay off
                // this process's copy, the rest of the draw goes back, and the next draw cannot
                // pick them again. The last draw reads the raffle afresh.
                Err(CreatePurchaseError::NumbersTaken(taken)) if drawn && draws < DRAW_ATTEMPTS => {
                    self.availability
                        .settle(raffle_id, new.selection.numbers(), false, &taken);
                    draws += 1;
                    if draws == DRAW_ATTEMPTS {
                        self.availability
                            .reload(&self.store, raffle_id, raffle.max_tickets)
                            .await?;
                    }
                    new.selection = self
                        .draw(raffle_id, raffle.max_tickets, raffle.limits, count)
                        .await?;
                }
                Err(CreatePurchaseError::NumbersTaken(taken)) if drawn => {
                    lost = taken;
                    break Err(PurchaseError::DrawContended);
                }
                Err(CreatePurchaseError::NumbersTaken(numbers)) => {
                    // Numbers whose holds are due but not swept yet come back now, not at the
                    // next sweep: only a purchase that clashed pays for it, once.
                    if !cleared_due_holds {
                        cleared_due_holds = true;
                        if self.expire_due_holds_of(raffle_id).await? {
                            continue;
                        }
                    }
                    // The buyer's picker was stale: it loses the numbers someone holds.
                    self.availability.numbers_held(raffle_id, &numbers, None);
                    break Err(PurchaseError::NumbersTaken {
                        numbers,
                        max_tickets: raffle.max_tickets,
                    });
                }
                Err(CreatePurchaseError::AllowanceExceeded { cap, used }) => {
                    break Err(PurchaseError::Invalid(FieldErrors::single(
                        if drawn {
                            "randomCount"
                        } else {
                            "ticketNumbers"
                        },
                        FieldError::PerPersonLimit { max: cap, used },
                    )));
                }
                Err(CreatePurchaseError::PaymentReferenceUsed) => {
                    break Err(PurchaseError::PaymentReferenceUsed);
                }
                // Frozen for the draw: sales closed, whatever the raffle's dates say now.
                Err(CreatePurchaseError::LedgerFrozen) => {
                    break Err(PurchaseError::SalesClosed {
                        closed_at: raffle.sales_close_at().unwrap_or(now),
                    });
                }
                Err(CreatePurchaseError::Unknown(e)) => break Err(e.into()),
            }
        };
        if drawn {
            // Written and held, or back on the copy (a purchase refused, or a rehearsal, which
            // holds nothing).
            let held = written.is_ok() && public;
            self.availability
                .settle(raffle_id, new.selection.numbers(), held, &lost);
        }
        let purchase = written?;
        let access_key = public.then(|| self.access_keys.key_for(&purchase.reference));
        if public {
            self.availability.numbers_held(
                raffle_id,
                &purchase.ticket_numbers,
                purchase.hold_expires_at,
            );
        }
        if public {
            self.mail_signal.queued();
        }
        tracing::info!(
            purchase.id = purchase.id.get(),
            raffle.id = raffle_id.get(),
            tickets = quote.ticket_count,
            test = !public,
            "purchase created"
        );
        if public {
            self.events
                .publish(DomainEvent::NewPurchase {
                    purchase_id: purchase.id,
                    reference: purchase.reference.clone(),
                    raffle_id,
                    customer_name: purchase.customer_name.clone(),
                    ticket_count: quote.ticket_count,
                    total_amount: purchase.total_amount.to_string(),
                    created_at: purchase.created_at,
                })
                .await;
        }
        Ok(PurchaseReceipt {
            purchase,
            quote,
            test_mode: !public,
            max_tickets: raffle.max_tickets,
            access_key,
        })
    }
}
