//! An in-memory store honouring the repository ports' `# Errors` contracts (crates/ports), so the
//! use cases run without a database. One mutex over the whole state stands for the database's
//! transactions: every method reads and writes under it, so each is atomic.

use rifa_domain::ticket::TicketNumber;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use chrono::{DateTime, NaiveDate, TimeDelta, Utc};
use rifa_domain::Lang;
use rifa_domain::admin::AdminUser;
use rifa_domain::branding::Branding;
use rifa_domain::draw::prize::PrizeDraft;
use rifa_domain::email_settings::EmailSettings;
use rifa_domain::exchange::{ExchangeRate, ExchangeRateDraft, ExchangeRateId};
use rifa_domain::lookup::LookupKey;
use rifa_domain::money::Money;
use rifa_domain::payment::{LinkedRate, PaymentMethod, PaymentMethodDraft, PaymentMethodId};
use rifa_domain::pricing::DiscountTable;
use rifa_domain::purchase::{
    NewPurchase, Purchase, PurchaseCursor, PurchaseEvent, PurchaseEventKind, PurchaseId,
    PurchaseStatus,
};
use rifa_domain::raffle::{Raffle, RaffleDraft, RaffleId, RaffleStatus};
use rifa_domain::sales::BuyerKeys;
use rifa_domain::stats::{DashboardStats, DaySales};
use rifa_ports::{
    AttachOutcome, Clock, CreatePurchaseError, DecidePurchaseError, DeleteRaffleError,
    ExchangeRateRepository, ExpiredHold, HoldExpiry, HoldSummary, MailId, MailJob, MailKind,
    MailOutbox, MailRecord, MailStatus, MailSubject, PaymentMethodRepository, Promotion,
    ProofProblem, PurchaseAccess, PurchaseDecision, PurchasePage, PurchaseProofs, PurchaseQuery,
    PurchaseRepository, PurchaseSummary, RaffleRepository, RaffleScope, RateWriteError,
    RecipientCaps, RecordAudit, ReleaseAlerts, ReopenError, Reopening, SettingsRepository,
    UpdateRaffleError, WithheldReason, WriteError, recipient_key,
};

use super::system::SettableClock;

mod audit;
mod draws;
mod proof_checks;
mod staff;

/// A handle on the shared state: clones see the same data (the app holds one, the test another).
#[derive(Clone, Default)]
pub struct MemoryStore {
    state: Arc<Mutex<State>>,
}

#[derive(Default)]
struct State {
    last_id: i64,
    raffles: BTreeMap<RaffleId, Raffle>,
    promotions: Vec<(RaffleId, Promotion)>,
    purchases: BTreeMap<PurchaseId, StoredPurchase>,
    mail: BTreeMap<MailId, StoredMail>,
    quota: HashMap<String, Quota>,
    caps: RecipientCaps,
    methods: BTreeMap<PaymentMethodId, PaymentMethodDraft>,
    rates: BTreeMap<ExchangeRateId, ExchangeRate>,
    branding: Option<Branding>,
    email_settings: Option<EmailSettings>,
    discounts: Option<DiscountTable>,
    admins: Vec<AdminUser>,
    /// Every decision storage was asked to carry out, pending or not, in order.
    decisions: Vec<(PurchaseId, PurchaseDecision)>,
    /// Tickets counted per raffle and tagged buyer key, as `buyer_allowance`.
    allowance: HashMap<(RaffleId, String), u32>,
    /// Purchases' histories, in the order written.
    history: Vec<(PurchaseId, PurchaseEvent)>,
    alerts: Vec<(RaffleId, String, Lang)>,
    draws: draws::DrawState,
    proof_checks: proof_checks::CheckState,
    audit: audit::AuditState,
    /// The database's own clock; the wall clock until a harness shares its clock.
    clock: Option<SettableClock>,
    /// Set by [`MemoryStore::pause_next_held_read`]: the next read of held numbers takes its
    /// snapshot, says so, and answers only when released.
    paused_held_read: Option<PausedRead>,
    /// How many times expiring due holds was asked for.
    expiry_runs: u32,
}

struct PausedRead {
    taken: tokio::sync::oneshot::Sender<()>,
    release: tokio::sync::oneshot::Receiver<()>,
}

/// The test's side of a paused read: wait until the snapshot is taken, then let it answer.
pub struct HeldReadPause {
    pub taken: tokio::sync::oneshot::Receiver<()>,
    pub release: tokio::sync::oneshot::Sender<()>,
}

/// A purchase row with the columns the domain's `Purchase` leaves out.
struct StoredPurchase {
    purchase: Purchase,
    lang: Lang,
    phone_digits: String,
    access_digest: Option<String>,
    upload_key: Option<String>,
    upload_granted_at: Option<DateTime<Utc>>,
    upload_grants: u32,
    proof_problem: Option<ProofProblem>,
    /// Whether its numbers are back on sale: only what a decision says, as the database's
    /// ticket rows are deleted only when told (never judged from the status here).
    released: bool,
    keys: BuyerKeys,
    /// The payment reference's key, unique per method among live purchases.
    payment_reference_key: Option<String>,
}

struct StoredMail {
    record: MailRecord,
    lang: Lang,
}

/// Confirmations counted for one recipient in the current UTC hour and day.
struct Quota {
    hour: i64,
    sent_this_hour: u32,
    day: i64,
    sent_today: u32,
}

impl State {
    fn db_now(&self) -> DateTime<Utc> {
        self.clock.as_ref().map_or_else(Utc::now, Clock::now)
    }

    /// Counts `tickets` against each of the buyer's keys, unless one would pass `cap` (then
    /// nothing is counted): the `CHECK (tickets <= cap)` of `buyer_allowance`.
    fn take_allowance(
        &mut self,
        raffle: RaffleId,
        keys: &BuyerKeys,
        tickets: u32,
        cap: u32,
    ) -> Result<(), u32> {
        let tagged = keys.tagged();
        let used = tagged
            .iter()
            .map(|k| {
                self.allowance
                    .get(&(raffle, k.clone()))
                    .copied()
                    .unwrap_or(0)
            })
            .max()
            .unwrap_or(0);
        if used + tickets > cap {
            return Err(used);
        }
        for key in tagged {
            *self.allowance.entry((raffle, key)).or_insert(0) += tickets;
        }
        Ok(())
    }

    fn give_back_allowance(&mut self, id: PurchaseId) {
        let Some(stored) = self.purchases.get(&id) else {
            return;
        };
        let (raffle, tickets) = (
            stored.purchase.raffle_id,
            u32::try_from(stored.purchase.ticket_numbers.len()).unwrap_or(u32::MAX),
        );
        for key in stored.keys.tagged() {
            if let Some(count) = self.allowance.get_mut(&(raffle, key)) {
                *count = count.saturating_sub(tickets);
            }
        }
    }

    fn record(
        &mut self,
        id: PurchaseId,
        kind: PurchaseEventKind,
        at: DateTime<Utc>,
        note: Option<String>,
    ) {
        self.history.push((id, PurchaseEvent { kind, at, note }));
    }

    fn next_id(&mut self) -> i64 {
        self.last_id += 1;
        self.last_id
    }

    fn held(&self, raffle_id: RaffleId) -> Vec<TicketNumber> {
        let mut held: Vec<TicketNumber> = self
            .purchases
            .values()
            .filter(|p| p.purchase.raffle_id == raffle_id && !p.released)
            .flat_map(|p| p.purchase.ticket_numbers.iter().copied())
            .collect();
        held.sort_unstable();
        held
    }

    fn with_sold(&self, raffle: &Raffle) -> Raffle {
        Raffle {
            tickets_sold: Some(u32::try_from(self.held(raffle.id).len()).unwrap_or(u32::MAX)),
            ..raffle.clone()
        }
    }

    /// The purchase as storage reads it: with its raffle's current title.
    fn read(&self, stored: &StoredPurchase) -> Purchase {
        let title = self
            .raffles
            .get(&stored.purchase.raffle_id)
            .map(|r| r.title.clone())
            .unwrap_or_default();
        Purchase {
            raffle_title: title,
            ..stored.purchase.clone()
        }
    }

    fn method(&self, id: PaymentMethodId, draft: &PaymentMethodDraft) -> PaymentMethod {
        PaymentMethod {
            id,
            name: draft.name.clone(),
            kind: draft.kind.clone(),
            active: draft.active,
            details: draft.details.clone(),
            exchange_rate: draft
                .exchange_rate_id
                .and_then(|rate| self.rates.get(&rate))
                .map(|rate| LinkedRate {
                    id: rate.id,
                    from: rate.from,
                    to: rate.to,
                    rate: rate.rate,
                }),
            reference: draft.reference,
        }
    }

    fn check_rate(&self, id: Option<ExchangeRateId>) -> Result<(), WriteError> {
        match id {
            Some(id) if !self.rates.contains_key(&id) => {
                Err(WriteError::MissingReference("exchangeRateId"))
            }
            _ => Ok(()),
        }
    }

    fn pair_taken(
        &self,
        draft: &ExchangeRateDraft,
        except: Option<ExchangeRateId>,
    ) -> Option<ExchangeRate> {
        self.rates
            .values()
            .find(|r| r.from == draft.from && r.to == draft.to && Some(r.id) != except)
            .cloned()
    }

    /// Counts one more confirmation to `recipient` at `at` unless that passes a cap, which it
    /// then names (the database's `mail_quota` upsert).
    fn count_confirmation(&mut self, recipient: &str, at: DateTime<Utc>) -> Option<WithheldReason> {
        let (hour, day) = (
            at.timestamp().div_euclid(3_600),
            at.timestamp().div_euclid(86_400),
        );
        let caps = self.caps;
        let quota = self.quota.entry(recipient_key(recipient)).or_insert(Quota {
            hour,
            sent_this_hour: 0,
            day,
            sent_today: 0,
        });
        if quota.hour != hour {
            (quota.hour, quota.sent_this_hour) = (hour, 0);
        }
        if quota.day != day {
            (quota.day, quota.sent_today) = (day, 0);
        }
        if quota.sent_today >= caps.per_day {
            return Some(WithheldReason::DailyCap);
        }
        if quota.sent_this_hour >= caps.per_hour {
            return Some(WithheldReason::HourlyCap);
        }
        quota.sent_this_hour += 1;
        quota.sent_today += 1;
        None
    }

    fn enqueue(
        &mut self,
        purchase_id: PurchaseId,
        kind: MailKind,
        at: DateTime<Utc>,
        withheld: Option<WithheldReason>,
    ) {
        let Some(stored) = self.purchases.get(&purchase_id) else {
            return;
        };
        let (recipient, lang) = (stored.purchase.customer_email.clone(), stored.lang);
        self.enqueue_to(
            MailSubject::Purchase(purchase_id),
            kind,
            recipient,
            lang,
            at,
            withheld,
        );
    }

    fn enqueue_to(
        &mut self,
        subject: MailSubject,
        kind: MailKind,
        recipient: String,
        lang: Lang,
        at: DateTime<Utc>,
        withheld: Option<WithheldReason>,
    ) {
        let id = self.next_id();
        self.mail.insert(
            MailId::new(id),
            StoredMail {
                record: MailRecord {
                    id: MailId::new(id),
                    subject,
                    kind,
                    recipient,
                    status: if withheld.is_some() {
                        MailStatus::Withheld
                    } else {
                        MailStatus::Pending
                    },
                    attempts: 0,
                    next_attempt_at: at,
                    last_error: None,
                    withheld,
                    created_at: at,
                    sent_at: None,
                },
                lang,
            },
        );
    }

    fn matching<'a>(&'a self, query: &'a PurchaseQuery) -> impl Iterator<Item = &'a Purchase> + 'a {
        let name = query
            .name_contains
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(rifa_domain::customer::fold_for_search);
        self.purchases
            .values()
            .map(|p| &p.purchase)
            .filter(move |p| {
                query.raffle_id.is_none_or(|id| p.raffle_id == id)
                    && name.as_deref().is_none_or(|n| {
                        rifa_domain::customer::fold_for_search(&p.customer_name).contains(n)
                    })
                    && query.status.is_none_or(|s| p.status == s)
                    && (query.ticket_numbers.is_empty()
                        || p.ticket_numbers
                            .iter()
                            .any(|n| query.ticket_numbers.contains(n)))
                    && query
                        .created
                        .is_none_or(|(from, to)| p.created_at >= from && p.created_at < to)
                    && query.max_id.is_none_or(|max| p.id <= max)
            })
    }
}

fn money(cents: i64) -> anyhow::Result<Money> {
    Money::from_cents(cents).map_err(|e| anyhow::anyhow!("amount out of range: {e:?}"))
}

/// Tickets and revenue of the approved purchases among `purchases`.
fn approved_totals<'a>(
    purchases: impl Iterator<Item = &'a Purchase>,
) -> anyhow::Result<(u64, Money)> {
    let (tickets, cents) = purchases
        .filter(|p| p.status == PurchaseStatus::Approved)
        .fold((0_u64, 0_i64), |(t, c), p| {
            (
                t + p.ticket_numbers.len() as u64,
                c + p.total_amount.cents(),
            )
        });
    Ok((tickets, money(cents)?))
}

impl MemoryStore {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Judges deadlines by `clock`, as the database judges them by its own.
    pub fn use_clock(&self, clock: SettableClock) {
        self.state().clock = Some(clock);
    }

    /// The tickets counted against a tagged buyer key (`email:ana@correo.com`) in a raffle.
    pub fn allowance(&self, raffle: RaffleId, key: &str) -> u32 {
        self.state()
            .allowance
            .get(&(raffle, key.to_owned()))
            .copied()
            .unwrap_or(0)
    }

    /// Every release alert waiting, as (raffle, e-mail).
    pub fn alerts(&self) -> Vec<(RaffleId, String)> {
        self.state()
            .alerts
            .iter()
            .map(|(raffle, email, _)| (*raffle, email.clone()))
            .collect()
    }

    /// Replaces the caps on purchase confirmations (the database adapter's `with_mail_caps`).
    pub fn set_mail_caps(&self, caps: RecipientCaps) {
        self.state().caps = caps;
    }

    /// Every outbox row, oldest first.
    pub fn mail(&self) -> Vec<MailRecord> {
        self.state()
            .mail
            .values()
            .map(|m| m.record.clone())
            .collect()
    }

    /// Every purchase written, oldest first.
    pub fn purchases(&self) -> Vec<Purchase> {
        let state = self.state();
        state.purchases.values().map(|p| state.read(p)).collect()
    }

    /// The decisions the use cases handed to storage, in order.
    pub fn decisions(&self) -> Vec<(PurchaseId, PurchaseDecision)> {
        self.state().decisions.clone()
    }

    /// Makes the next read of a raffle's held numbers slow, as a database read of a big raffle
    /// is: writes can land between its snapshot and its answer.
    pub fn pause_next_held_read(&self) -> HeldReadPause {
        let (taken, on_taken) = tokio::sync::oneshot::channel();
        let (release, on_release) = tokio::sync::oneshot::channel();
        self.state().paused_held_read = Some(PausedRead {
            taken,
            release: on_release,
        });
        HeldReadPause {
            taken: on_taken,
            release,
        }
    }

    /// How many times the use cases asked to expire due holds.
    pub fn expiry_runs(&self) -> u32 {
        self.state().expiry_runs
    }

    /// The numbers held in the raffle, as plain numbers.
    pub fn held(&self, raffle_id: RaffleId) -> Vec<u32> {
        self.state()
            .held(raffle_id)
            .iter()
            .map(|n| n.get())
            .collect()
    }

    pub fn add_promotion(&self, raffle_id: RaffleId, description: &str) {
        let mut state = self.state();
        let id = state.next_id();
        state.promotions.push((
            raffle_id,
            Promotion {
                id,
                description: description.to_owned(),
            },
        ));
    }
}

impl RaffleRepository for MemoryStore {
    async fn list_raffles(&self, scope: RaffleScope) -> anyhow::Result<Vec<Raffle>> {
        let state = self.state();
        let mut raffles: Vec<Raffle> = state
            .raffles
            .values()
            .filter(|r| scope == RaffleScope::All || r.status == RaffleStatus::Available)
            .map(|r| state.with_sold(r))
            .collect();
        raffles.sort_by_key(|r| std::cmp::Reverse((r.created_at, r.id)));
        Ok(raffles)
    }

    async fn get_raffle(&self, id: RaffleId) -> anyhow::Result<Option<Raffle>> {
        let state = self.state();
        Ok(state.raffles.get(&id).map(|r| state.with_sold(r)))
    }

    async fn raffle_terms(&self, id: RaffleId) -> anyhow::Result<Option<Raffle>> {
        Ok(self.state().raffles.get(&id).cloned())
    }

    async fn create_raffle(
        &self,
        draft: &RaffleDraft,
        prizes: &[PrizeDraft],
        now: DateTime<Utc>,
        audit: RecordAudit<'_, Raffle>,
    ) -> anyhow::Result<Raffle> {
        let mut state = self.state();
        let id = state.next_id();
        state.add_prizes(RaffleId::new(id), prizes);
        let raffle = Raffle {
            id: RaffleId::new(id),
            title: draft.title.clone(),
            description: draft.description.clone(),
            image: draft.image.clone(),
            price: draft.price,
            status: draft.status,
            max_tickets: draft.max_tickets,
            limits: draft.limits,
            draw_date: draft.draw_date,
            end_date: draft.end_date,
            created_at: now,
            sales: draft.sales,
            tickets_sold: None,
        };
        state.raffles.insert(RaffleId::new(id), raffle.clone());
        state.append_audit(&audit(None, Some(&raffle)));
        Ok(state.with_sold(&raffle))
    }

    async fn update_raffle(
        &self,
        id: RaffleId,
        draft: &RaffleDraft,
        audit: RecordAudit<'_, Raffle>,
    ) -> Result<Raffle, UpdateRaffleError> {
        let mut state = self.state();
        if !state.raffles.contains_key(&id) {
            return Err(UpdateRaffleError::NotFound);
        }
        if let Some(&highest_held) = state.held(id).last()
            && highest_held.get() > draft.max_tickets
        {
            return Err(UpdateRaffleError::BelowHeldNumber { highest_held });
        }
        if state.raffles[&id].max_tickets != draft.max_tickets
            && (state.real_purchase_of(id) || state.draws.ledgers.contains_key(&id))
        {
            return Err(UpdateRaffleError::SizeLocked);
        }
        let has_prizes = state.has_prizes(id);
        let raffle = state
            .raffles
            .get_mut(&id)
            .ok_or(UpdateRaffleError::NotFound)?;
        let before = raffle.clone();
        raffle.title.clone_from(&draft.title);
        raffle.description.clone_from(&draft.description);
        raffle.image.clone_from(&draft.image);
        raffle.price = draft.price;
        raffle.status = if draft.status.is_on_sale() && !has_prizes {
            RaffleStatus::Inactive
        } else {
            draft.status
        };
        raffle.max_tickets = draft.max_tickets;
        raffle.limits = draft.limits;
        raffle.draw_date = draft.draw_date;
        raffle.end_date = draft.end_date;
        raffle.sales = draft.sales;
        let raffle = raffle.clone();
        state.append_audit(&audit(Some(&before), Some(&raffle)));
        Ok(state.with_sold(&raffle))
    }

    async fn delete_raffle(
        &self,
        id: RaffleId,
        audit: RecordAudit<'_, Raffle>,
    ) -> Result<(), DeleteRaffleError> {
        let mut state = self.state();
        if !state.raffles.contains_key(&id) {
            return Err(DeleteRaffleError::NotFound);
        }
        let real = state
            .purchases
            .values()
            .filter(|p| p.purchase.raffle_id == id && p.purchase.status != PurchaseStatus::Test)
            .count() as u64;
        if real > 0 {
            return Err(DeleteRaffleError::HasPurchases { count: real });
        }
        state.purchases.retain(|_, p| p.purchase.raffle_id != id);
        state.promotions.retain(|(raffle, _)| *raffle != id);
        if let Some(before) = state.raffles.remove(&id) {
            state.append_audit(&audit(Some(&before), None));
        }
        Ok(())
    }

    async fn held_numbers(&self, id: RaffleId) -> anyhow::Result<Vec<TicketNumber>> {
        let (held, paused) = {
            let mut state = self.state();
            (state.held(id), state.paused_held_read.take())
        };
        if let Some(paused) = paused {
            paused.taken.send(()).ok();
            paused.release.await.ok();
        }
        Ok(held)
    }

    async fn promotions(&self, id: RaffleId) -> anyhow::Result<Vec<Promotion>> {
        Ok(self
            .state()
            .promotions
            .iter()
            .filter(|(raffle, _)| *raffle == id)
            .map(|(_, p)| p.clone())
            .collect())
    }

    async fn hold_summary(&self, id: RaffleId) -> anyhow::Result<HoldSummary> {
        let state = self.state();
        let pending = state
            .purchases
            .values()
            .map(|p| &p.purchase)
            .filter(|p| p.raffle_id == id && p.status == PurchaseStatus::Pending);
        Ok(HoldSummary {
            pending_tickets: pending
                .clone()
                .map(|p| u32::try_from(p.ticket_numbers.len()).unwrap_or(u32::MAX))
                .sum(),
            next_release_at: pending.filter_map(|p| p.hold_expires_at).min(),
        })
    }
}

impl ReleaseAlerts for MemoryStore {
    async fn add_release_alert(
        &self,
        raffle: RaffleId,
        email: &str,
        lang: Lang,
        _at: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        let mut state = self.state();
        if !state
            .alerts
            .iter()
            .any(|(r, e, _)| *r == raffle && e == email)
        {
            state.alerts.push((raffle, email.to_owned(), lang));
        }
        Ok(())
    }
}

impl PurchaseRepository for MemoryStore {
    async fn create_purchase(
        &self,
        new: &NewPurchase,
        raffle_title: &str,
    ) -> Result<Purchase, CreatePurchaseError> {
        let mut state = self.state();
        if state.draws.is_frozen(new.raffle_id) {
            return Err(CreatePurchaseError::LedgerFrozen);
        }
        if state
            .purchases
            .values()
            .any(|p| p.purchase.reference == new.reference)
        {
            return Err(CreatePurchaseError::ReferenceTaken);
        }
        let numbers = new.selection.numbers().to_vec();
        if new.hold_until.is_some() {
            let held = state.held(new.raffle_id);
            let taken: Vec<TicketNumber> = numbers
                .iter()
                .copied()
                .filter(|n| held.binary_search(n).is_ok())
                .collect();
            if !taken.is_empty() {
                return Err(CreatePurchaseError::NumbersTaken(taken));
            }
        }
        if let Some(reference) = &new.payment_reference
            && matches!(
                new.status,
                PurchaseStatus::Pending | PurchaseStatus::Approved
            )
            && state.purchases.values().any(|s| {
                s.payment_reference_key.as_deref() == Some(reference.key())
                    && s.purchase.payment_method_id == new.payment.method_id
                    && matches!(
                        s.purchase.status,
                        PurchaseStatus::Pending | PurchaseStatus::Approved
                    )
            })
        {
            return Err(CreatePurchaseError::PaymentReferenceUsed);
        }
        let id = state.next_id();
        let purchase = Purchase {
            id: PurchaseId::new(id),
            reference: new.reference.clone(),
            raffle_id: new.raffle_id,
            raffle_title: raffle_title.to_owned(),
            ticket_numbers: numbers,
            customer_name: new.customer.name.clone(),
            customer_id_document: new.customer.id_document.clone(),
            customer_email: new.customer.email.as_str().to_owned(),
            customer_phone: new.customer.phone.display().to_owned(),
            customer_country: new.customer.country.clone(),
            payment_method: new.payment.method_name.clone(),
            payment_method_id: new.payment.method_id,
            conversion: new.payment.conversion,
            payment_reference: new
                .payment_reference
                .as_ref()
                .map(|r| r.as_str().to_owned()),
            total_amount: new.quote.total,
            discount_applied: new.quote.discount,
            status: new.status,
            created_at: new.created_at,
            decided_at: None,
            payment_proof: None,
            admin_notes: None,
            hold_expires_at: new.hold_until,
        };
        if let Some(cap) = new.allowance_cap {
            state
                .take_allowance(new.raffle_id, &new.buyer_keys, new.selection.count(), cap)
                .map_err(|used| CreatePurchaseError::AllowanceExceeded { cap, used })?;
        }
        state.purchases.insert(
            PurchaseId::new(id),
            StoredPurchase {
                purchase: purchase.clone(),
                lang: new.lang,
                phone_digits: new.customer.phone.digits().to_owned(),
                access_digest: new.access_digest.clone(),
                upload_key: None,
                upload_granted_at: None,
                upload_grants: 0,
                proof_problem: None,
                released: new.hold_until.is_none(),
                keys: new.buyer_keys.clone(),
                payment_reference_key: new.payment_reference.as_ref().map(|r| r.key().to_owned()),
            },
        );
        if new.confirm_to_buyer {
            let withheld = state.count_confirmation(&purchase.customer_email, new.created_at);
            state.enqueue(
                PurchaseId::new(id),
                MailKind::Received,
                new.created_at,
                withheld,
            );
        }
        if let Some(entry) = &new.audit {
            state.append_audit(&rifa_domain::audit::AuditEntry {
                target: Some(format!("purchase:{id}")),
                ..entry.clone()
            });
        }
        Ok(purchase)
    }

    async fn get_purchase(&self, id: PurchaseId) -> anyhow::Result<Option<Purchase>> {
        let state = self.state();
        Ok(state.purchases.get(&id).map(|p| state.read(p)))
    }

    async fn purchases_after(
        &self,
        query: &PurchaseQuery,
        after: Option<PurchaseCursor>,
        limit: u32,
    ) -> anyhow::Result<Vec<Purchase>> {
        let state = self.state();
        let mut found: Vec<&Purchase> = state
            .matching(query)
            .filter(|p| after.is_none_or(|a| (p.created_at, p.id) < (a.created_at, a.id)))
            .collect();
        found.sort_by_key(|p| std::cmp::Reverse((p.created_at, p.id)));
        Ok(found
            .into_iter()
            .take(limit as usize)
            .filter_map(|p| state.purchases.get(&p.id))
            .map(|p| state.read(p))
            .collect())
    }

    async fn search_purchases(&self, query: &PurchaseQuery) -> anyhow::Result<PurchasePage> {
        let state = self.state();
        let mut found: Vec<&Purchase> = state.matching(query).collect();
        found.sort_by_key(|p| std::cmp::Reverse((p.created_at, p.id)));
        let page_size = query.page_size.max(1) as usize;
        let skip = (query.page.max(1) as usize - 1) * page_size;
        let (tickets_sold, total_revenue) = approved_totals(found.iter().copied())?;
        let items = found
            .iter()
            .skip(skip)
            .take(page_size)
            .filter_map(|p| state.purchases.get(&p.id))
            .map(|p| state.read(p))
            .collect();
        Ok(PurchasePage {
            items,
            total: found.len() as u64,
            summary: Some(PurchaseSummary {
                tickets_sold,
                total_revenue,
                pending_purchases: found
                    .iter()
                    .filter(|p| p.status == PurchaseStatus::Pending)
                    .count() as u64,
            }),
        })
    }

    async fn decide_purchase(
        &self,
        id: PurchaseId,
        decision: &PurchaseDecision,
    ) -> Result<Purchase, DecidePurchaseError> {
        let mut state = self.state();
        state.decisions.push((id, decision.clone()));
        let stored = state
            .purchases
            .get_mut(&id)
            .ok_or(DecidePurchaseError::NotFound)?;
        if stored.purchase.status != PurchaseStatus::Pending {
            return Err(DecidePurchaseError::NotPending(stored.purchase.status));
        }
        // Carries out exactly what the use case decided, as the database adapter does.
        stored.purchase.status = decision.status;
        stored.purchase.admin_notes.clone_from(&decision.notes);
        stored.purchase.decided_at = Some(decision.decided_at);
        stored.purchase.hold_expires_at = None;
        stored.released |= decision.release_numbers;
        if decision.release_numbers {
            state.give_back_allowance(id);
        }
        state.record(
            id,
            decision.history,
            decision.decided_at,
            decision.notes.clone(),
        );
        state.enqueue(id, decision.mail, decision.decided_at, None);
        state.append_audit(&decision.audit);
        let stored = state
            .purchases
            .get(&id)
            .ok_or(DecidePurchaseError::NotFound)?;
        Ok(state.read(stored))
    }

    async fn expire_due_holds(&self, expiry: &HoldExpiry) -> anyhow::Result<Vec<ExpiredHold>> {
        let mut state = self.state();
        state.expiry_runs += 1;
        let now = state.db_now();
        let mut due: Vec<(DateTime<Utc>, PurchaseId, RaffleId)> = state
            .purchases
            .values()
            .map(|p| &p.purchase)
            .filter(|p| p.status == PurchaseStatus::Pending)
            .filter(|p| expiry.raffle.is_none_or(|r| p.raffle_id == r))
            .filter_map(|p| {
                p.hold_expires_at
                    .filter(|deadline| *deadline <= now)
                    .map(|deadline| (deadline, p.id, p.raffle_id))
            })
            .collect();
        due.sort_unstable();
        due.truncate(expiry.limit as usize);
        let mut released_raffles = Vec::new();
        for (_, id, raffle) in &due {
            let Some(stored) = state.purchases.get_mut(id) else {
                continue;
            };
            stored.purchase.status = PurchaseStatus::Expired;
            stored.purchase.hold_expires_at = None;
            stored.purchase.decided_at = Some(now);
            stored.released = true;
            state.give_back_allowance(*id);
            state.record(*id, PurchaseEventKind::Expired, now, None);
            if let Some(mail) = expiry.buyer_mail {
                let withheld = state
                    .mail
                    .values()
                    .find(|m| {
                        m.record.subject == MailSubject::Purchase(*id)
                            && m.record.kind == MailKind::Received
                    })
                    .and_then(|m| m.record.withheld);
                state.enqueue(*id, mail, now, withheld);
            }
            if !released_raffles.contains(raffle) {
                released_raffles.push(*raffle);
            }
        }
        if let Some(mail) = expiry.alert_mail {
            let (told, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut state.alerts)
                .into_iter()
                .partition(|(raffle, _, _)| released_raffles.contains(raffle));
            state.alerts = kept;
            for (raffle, email, lang) in told {
                state.enqueue_to(MailSubject::Raffle(raffle), mail, email, lang, now, None);
            }
        }
        Ok(due
            .into_iter()
            .map(|(_, purchase_id, raffle_id)| ExpiredHold {
                purchase_id,
                raffle_id,
            })
            .collect())
    }

    async fn reopen_purchase(
        &self,
        id: PurchaseId,
        reopening: &Reopening,
    ) -> Result<Purchase, ReopenError> {
        let mut state = self.state();
        let stored = state.purchases.get(&id).ok_or(ReopenError::NotFound)?;
        if stored.purchase.status != PurchaseStatus::Expired {
            return Err(ReopenError::NotExpired(stored.purchase.status));
        }
        if state.draws.is_frozen(stored.purchase.raffle_id) {
            return Err(ReopenError::LedgerFrozen);
        }
        let (raffle, numbers, keys) = (
            stored.purchase.raffle_id,
            stored.purchase.ticket_numbers.clone(),
            stored.keys.clone(),
        );
        let held = state.held(raffle);
        let taken: Vec<TicketNumber> = numbers
            .iter()
            .copied()
            .filter(|n| held.binary_search(n).is_ok())
            .collect();
        if !taken.is_empty() {
            return Err(ReopenError::NumbersTaken(taken));
        }
        let tickets = u32::try_from(numbers.len()).unwrap_or(u32::MAX);
        state
            .take_allowance(raffle, &keys, tickets, reopening.allowance_cap)
            .map_err(|used| ReopenError::AllowanceExceeded {
                cap: reopening.allowance_cap,
                used,
            })?;
        let stored = state.purchases.get_mut(&id).ok_or(ReopenError::NotFound)?;
        stored.purchase.status = PurchaseStatus::Pending;
        stored.purchase.hold_expires_at = Some(reopening.hold_until);
        stored.purchase.decided_at = None;
        stored.released = false;
        state.record(id, PurchaseEventKind::Reopened, reopening.at, None);
        if let Some(mail) = reopening.mail {
            state.enqueue(id, mail, reopening.at, None);
        }
        let stored = state.purchases.get(&id).ok_or(ReopenError::NotFound)?;
        Ok(state.read(stored))
    }

    async fn purchase_history(&self, id: PurchaseId) -> anyhow::Result<Vec<PurchaseEvent>> {
        let state = self.state();
        let Some(stored) = state.purchases.get(&id) else {
            return Ok(Vec::new());
        };
        let received = PurchaseEvent {
            kind: PurchaseEventKind::Received,
            at: stored.purchase.created_at,
            note: None,
        };
        Ok(std::iter::once(received)
            .chain(
                state
                    .history
                    .iter()
                    .filter(|(purchase, _)| *purchase == id)
                    .map(|(_, event)| event.clone()),
            )
            .collect())
    }

    async fn purchases_of(&self, key: &LookupKey, limit: u32) -> anyhow::Result<Vec<Purchase>> {
        let state = self.state();
        let mut found: Vec<&StoredPurchase> = state
            .purchases
            .values()
            .filter(|p| match key {
                LookupKey::Email(email) => p.purchase.customer_email == email.as_str(),
                LookupKey::Phone(digits) => p.phone_digits == *digits,
            })
            .filter(|p| p.purchase.status.holds_numbers())
            .collect();
        found.sort_by_key(|p| std::cmp::Reverse(p.purchase.created_at));
        Ok(found
            .into_iter()
            .take(limit as usize)
            .map(|p| state.read(p))
            .collect())
    }

    async fn dashboard_stats(
        &self,
        created: Option<(DateTime<Utc>, DateTime<Utc>)>,
    ) -> anyhow::Result<DashboardStats> {
        let state = self.state();
        let in_period = || {
            state
                .purchases
                .values()
                .map(|p| &p.purchase)
                .filter(move |p| {
                    created.is_none_or(|(from, to)| p.created_at >= from && p.created_at < to)
                })
        };
        let (tickets_sold, total_revenue) = approved_totals(in_period())?;
        Ok(DashboardStats {
            tickets_sold,
            total_revenue,
            pending_purchases: in_period()
                .filter(|p| p.status == PurchaseStatus::Pending)
                .count() as u64,
            active_raffles: state
                .raffles
                .values()
                .filter(|r| r.status == RaffleStatus::Available)
                .count() as u64,
        })
    }

    async fn daily_sales(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        utc_offset_minutes: i32,
    ) -> anyhow::Result<Vec<DaySales>> {
        let state = self.state();
        let offset = TimeDelta::minutes(i64::from(utc_offset_minutes));
        let mut days: BTreeMap<NaiveDate, (u64, i64, u64)> = BTreeMap::new();
        for p in state.purchases.values().map(|p| &p.purchase) {
            if p.created_at < from || p.created_at >= to {
                continue;
            }
            let day = days
                .entry((p.created_at + offset).date_naive())
                .or_default();
            if p.status == PurchaseStatus::Approved {
                day.0 += p.ticket_numbers.len() as u64;
                day.1 += p.total_amount.cents();
            }
            if p.status != PurchaseStatus::Test {
                day.2 += 1;
            }
        }
        days.into_iter()
            .map(|(date, (tickets_sold, cents, purchases))| {
                Ok(DaySales {
                    date,
                    revenue: money(cents)?,
                    tickets_sold,
                    purchases,
                })
            })
            .collect()
    }
}

impl PurchaseProofs for MemoryStore {
    async fn purchase_access(&self, id: PurchaseId) -> anyhow::Result<Option<PurchaseAccess>> {
        Ok(self.state().purchases.get(&id).map(|p| PurchaseAccess {
            raffle_id: p.purchase.raffle_id,
            status: p.purchase.status,
            access_digest: p.access_digest.clone(),
            lang: p.lang,
            upload_key: p.upload_key.clone(),
            payment_proof: p.purchase.payment_proof.clone(),
            upload_grants: p.upload_grants,
            hold_expires_at: p.purchase.hold_expires_at,
        }))
    }

    async fn grant_upload(
        &self,
        id: PurchaseId,
        key: &str,
        max_grants: u32,
        at: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        let mut state = self.state();
        let now = state.db_now();
        match state.purchases.get_mut(&id) {
            Some(p)
                if p.purchase.status == PurchaseStatus::Pending
                    && p.upload_grants < max_grants
                    && p.purchase
                        .hold_expires_at
                        .is_none_or(|deadline| deadline > now) =>
            {
                p.upload_key = Some(key.to_owned());
                p.upload_granted_at = Some(at);
                p.upload_grants += 1;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    async fn abandoned_uploads(
        &self,
        granted_before: DateTime<Utc>,
        limit: u32,
    ) -> anyhow::Result<Vec<(PurchaseId, String)>> {
        Ok(self
            .state()
            .purchases
            .iter()
            .filter(|(_, p)| p.upload_granted_at.is_some_and(|at| at < granted_before))
            .filter_map(|(id, p)| p.upload_key.clone().map(|key| (*id, key)))
            .take(limit as usize)
            .collect())
    }

    async fn withdraw_upload(&self, id: PurchaseId, key: &str) -> anyhow::Result<bool> {
        let mut state = self.state();
        match state.purchases.get_mut(&id) {
            Some(p) if p.upload_key.as_deref() == Some(key) => {
                p.upload_key = None;
                p.upload_granted_at = None;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    async fn attach_proof(
        &self,
        id: PurchaseId,
        key: &str,
        at: DateTime<Utc>,
    ) -> anyhow::Result<AttachOutcome> {
        let mut state = self.state();
        let now = state.db_now();
        let Some(p) = state.purchases.get_mut(&id) else {
            return Ok(AttachOutcome::NotGranted);
        };
        let late = p.purchase.status == PurchaseStatus::Expired
            || (p.purchase.status == PurchaseStatus::Pending
                && p.purchase
                    .hold_expires_at
                    .is_some_and(|deadline| deadline <= now));
        if late {
            return Ok(AttachOutcome::HoldExpired);
        }
        if p.purchase.status != PurchaseStatus::Pending || p.upload_key.as_deref() != Some(key) {
            return Ok(AttachOutcome::NotGranted);
        }
        p.purchase.payment_proof = Some(key.to_owned());
        p.purchase.hold_expires_at = None;
        p.upload_key = None;
        p.proof_problem = None;
        state.record(id, PurchaseEventKind::ProofAttached, at, None);
        state.proof_checks.queue(id, key, at);
        Ok(AttachOutcome::Attached)
    }

    async fn refuse_proof(
        &self,
        id: PurchaseId,
        key: &str,
        problem: Option<ProofProblem>,
    ) -> anyhow::Result<()> {
        let mut state = self.state();
        if let Some(p) = state.purchases.get_mut(&id)
            && p.upload_key.as_deref() == Some(key)
        {
            p.upload_key = None;
            if problem.is_some() {
                p.proof_problem = problem;
            }
        }
        Ok(())
    }

    async fn proof_problem(&self, id: PurchaseId) -> anyhow::Result<Option<ProofProblem>> {
        Ok(self
            .state()
            .purchases
            .get(&id)
            .and_then(|p| p.proof_problem))
    }
}

impl MailOutbox for MemoryStore {
    async fn claim_due_mail(
        &self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> anyhow::Result<Option<MailJob>> {
        let mut state = self.state();
        let Some(mail) = state
            .mail
            .values_mut()
            .filter(|m| m.record.status == MailStatus::Pending && m.record.next_attempt_at <= now)
            .min_by_key(|m| (m.record.next_attempt_at, m.record.id))
        else {
            return Ok(None);
        };
        mail.record.next_attempt_at = lease_until;
        mail.record.attempts += 1;
        Ok(Some(MailJob {
            id: mail.record.id,
            subject: mail.record.subject,
            kind: mail.record.kind,
            recipient: mail.record.recipient.clone(),
            lang: mail.lang,
            attempts: mail.record.attempts,
        }))
    }

    async fn mail_sent(&self, id: MailId, now: DateTime<Utc>) -> anyhow::Result<()> {
        if let Some(mail) = self.state().mail.get_mut(&id) {
            mail.record.status = MailStatus::Sent;
            mail.record.sent_at = Some(now);
            mail.record.last_error = None;
        }
        Ok(())
    }

    async fn mail_failed(
        &self,
        id: MailId,
        error: &str,
        retry_at: Option<DateTime<Utc>>,
    ) -> anyhow::Result<()> {
        if let Some(mail) = self.state().mail.get_mut(&id) {
            mail.record.last_error = Some(error.to_owned());
            match retry_at {
                Some(at) => mail.record.next_attempt_at = at,
                None => mail.record.status = MailStatus::Failed,
            }
        }
        Ok(())
    }

    async fn mail_blocked(&self, error: &str, now: DateTime<Utc>) -> anyhow::Result<()> {
        for mail in self.state().mail.values_mut() {
            if mail.record.status == MailStatus::Pending && mail.record.next_attempt_at <= now {
                mail.record.last_error = Some(error.to_owned());
            }
        }
        Ok(())
    }

    async fn pending_mail(&self) -> anyhow::Result<u64> {
        Ok(self
            .state()
            .mail
            .values()
            .filter(|m| m.record.status == MailStatus::Pending)
            .count() as u64)
    }

    async fn list_mail(
        &self,
        status: Option<MailStatus>,
        limit: u32,
    ) -> anyhow::Result<Vec<MailRecord>> {
        Ok(self
            .state()
            .mail
            .values()
            .rev()
            .filter(|m| status.is_none_or(|s| m.record.status == s))
            .take(limit as usize)
            .map(|m| m.record.clone())
            .collect())
    }

    async fn retry_mail(
        &self,
        id: MailId,
        now: DateTime<Utc>,
        audit: &rifa_domain::audit::AuditEntry,
    ) -> anyhow::Result<bool> {
        let mut state = self.state();
        match state.mail.get_mut(&id) {
            Some(mail)
                if matches!(
                    mail.record.status,
                    MailStatus::Failed | MailStatus::Withheld
                ) =>
            {
                mail.record.status = MailStatus::Pending;
                mail.record.next_attempt_at = now;
                mail.record.attempts = 0;
                mail.record.withheld = None;
                state.append_audit(audit);
                Ok(true)
            }
            _ => Ok(false),
        }
    }
}

impl PaymentMethodRepository for MemoryStore {
    async fn list_payment_methods(&self, active_only: bool) -> anyhow::Result<Vec<PaymentMethod>> {
        let state = self.state();
        let mut methods: Vec<PaymentMethod> = state
            .methods
            .iter()
            .filter(|(_, m)| m.active || !active_only)
            .map(|(id, m)| state.method(*id, m))
            .collect();
        methods.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(methods)
    }

    async fn get_payment_method(
        &self,
        id: PaymentMethodId,
    ) -> anyhow::Result<Option<PaymentMethod>> {
        let state = self.state();
        Ok(state.methods.get(&id).map(|m| state.method(id, m)))
    }

    async fn create_payment_method(
        &self,
        draft: &PaymentMethodDraft,
        audit: RecordAudit<'_, PaymentMethod>,
    ) -> Result<PaymentMethod, WriteError> {
        let mut state = self.state();
        state.check_rate(draft.exchange_rate_id)?;
        let id = state.next_id();
        state
            .methods
            .insert(PaymentMethodId::new(id), draft.clone());
        let created = state.method(PaymentMethodId::new(id), draft);
        state.append_audit(&audit(None, Some(&created)));
        Ok(created)
    }

    async fn update_payment_method(
        &self,
        id: PaymentMethodId,
        draft: &PaymentMethodDraft,
        audit: RecordAudit<'_, PaymentMethod>,
    ) -> Result<PaymentMethod, WriteError> {
        let mut state = self.state();
        let Some(old) = state.methods.get(&id).cloned() else {
            return Err(WriteError::NotFound);
        };
        state.check_rate(draft.exchange_rate_id)?;
        let before = state.method(id, &old);
        state.methods.insert(id, draft.clone());
        let updated = state.method(id, draft);
        state.append_audit(&audit(Some(&before), Some(&updated)));
        Ok(updated)
    }

    async fn delete_payment_method(
        &self,
        id: PaymentMethodId,
        audit: RecordAudit<'_, PaymentMethod>,
    ) -> Result<(), WriteError> {
        let mut state = self.state();
        let old = state.methods.remove(&id).ok_or(WriteError::NotFound)?;
        let before = state.method(id, &old);
        state.append_audit(&audit(Some(&before), None));
        Ok(())
    }
}

impl ExchangeRateRepository for MemoryStore {
    async fn list_exchange_rates(&self) -> anyhow::Result<Vec<ExchangeRate>> {
        Ok(self.state().rates.values().cloned().collect())
    }

    async fn create_exchange_rate(
        &self,
        draft: &ExchangeRateDraft,
        now: DateTime<Utc>,
        audit: RecordAudit<'_, ExchangeRate>,
    ) -> Result<ExchangeRate, RateWriteError> {
        let mut state = self.state();
        if let Some(existing) = state.pair_taken(draft, None) {
            return Err(RateWriteError::PairTaken(existing));
        }
        let id = state.next_id();
        let rate = ExchangeRate {
            id: ExchangeRateId::new(id),
            from: draft.from,
            to: draft.to,
            rate: draft.rate,
            updated_at: now,
        };
        state.rates.insert(ExchangeRateId::new(id), rate.clone());
        state.append_audit(&audit(None, Some(&rate)));
        Ok(rate)
    }

    async fn update_exchange_rate(
        &self,
        id: ExchangeRateId,
        draft: &ExchangeRateDraft,
        now: DateTime<Utc>,
        audit: RecordAudit<'_, ExchangeRate>,
    ) -> Result<ExchangeRate, RateWriteError> {
        let mut state = self.state();
        let Some(before) = state.rates.get(&id).cloned() else {
            return Err(RateWriteError::NotFound);
        };
        if let Some(other) = state.pair_taken(draft, Some(id)) {
            return Err(RateWriteError::PairTaken(other));
        }
        let rate = ExchangeRate {
            id,
            from: draft.from,
            to: draft.to,
            rate: draft.rate,
            updated_at: now,
        };
        state.rates.insert(id, rate.clone());
        state.append_audit(&audit(Some(&before), Some(&rate)));
        Ok(rate)
    }

    async fn delete_exchange_rate(
        &self,
        id: ExchangeRateId,
        audit: RecordAudit<'_, ExchangeRate>,
    ) -> Result<(), WriteError> {
        let mut state = self.state();
        let before = state.rates.remove(&id).ok_or(WriteError::NotFound)?;
        state.append_audit(&audit(Some(&before), None));
        for method in state.methods.values_mut() {
            if method.exchange_rate_id == Some(id) {
                method.exchange_rate_id = None;
            }
        }
        Ok(())
    }
}

impl SettingsRepository for MemoryStore {
    async fn branding(&self) -> anyhow::Result<Option<Branding>> {
        Ok(self.state().branding.clone())
    }

    async fn save_branding(
        &self,
        branding: &Branding,
        read: Option<&Branding>,
        audit: RecordAudit<'_, Branding>,
    ) -> anyhow::Result<bool> {
        let mut state = self.state();
        if state.branding.as_ref() != read {
            return Ok(false);
        }
        let before = state.branding.replace(branding.clone());
        state.append_audit(&audit(before.as_ref(), Some(branding)));
        Ok(true)
    }

    async fn email_settings(&self) -> anyhow::Result<Option<EmailSettings>> {
        Ok(self.state().email_settings.clone())
    }

    async fn save_email_settings(
        &self,
        settings: &EmailSettings,
        audit: RecordAudit<'_, EmailSettings>,
    ) -> anyhow::Result<()> {
        let mut state = self.state();
        let before = state.email_settings.replace(settings.clone());
        state.append_audit(&audit(before.as_ref(), Some(settings)));
        Ok(())
    }

    async fn discounts(&self) -> anyhow::Result<Option<DiscountTable>> {
        Ok(self.state().discounts.clone())
    }

    async fn save_discounts(
        &self,
        table: &DiscountTable,
        audit: RecordAudit<'_, DiscountTable>,
    ) -> anyhow::Result<()> {
        let mut state = self.state();
        let before = state.discounts.replace(table.clone());
        state.append_audit(&audit(before.as_ref(), Some(table)));
        Ok(())
    }
}
