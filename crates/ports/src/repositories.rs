//! Storage of raffles, purchases, payment methods, rates, settings and admins.

use chrono::{DateTime, Utc};
use rifa_domain::Lang;
use rifa_domain::admin::{AdminId, AdminUser, Role, StaffChange, StaffMember, StaffRefusal};
use rifa_domain::audit::AuditEntry;
use rifa_domain::branding::Branding;
use rifa_domain::draw::prize::PrizeDraft;
use rifa_domain::email_settings::EmailSettings;
use rifa_domain::exchange::{ExchangeRate, ExchangeRateDraft, ExchangeRateId};
use rifa_domain::lookup::LookupKey;
use rifa_domain::money::Money;
use rifa_domain::payment::{PaymentMethod, PaymentMethodDraft, PaymentMethodId};
use rifa_domain::pricing::DiscountTable;
use rifa_domain::purchase::{
    NewPurchase, Purchase, PurchaseCursor, PurchaseEvent, PurchaseEventKind, PurchaseId,
    PurchaseStatus,
};
use rifa_domain::raffle::{Raffle, RaffleDraft, RaffleId};
use rifa_domain::stats::{DashboardStats, DaySales};
use rifa_domain::ticket::TicketNumber;

use crate::MailKind;

/// Which raffles a listing shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RaffleScope {
    /// Status available only: what the public site lists.
    OnSale,
    /// Every status: the admin panel.
    All,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Promotion {
    pub id: i64,
    pub description: String,
}

#[derive(Debug, thiserror::Error)]
pub enum UpdateRaffleError {
    #[error("raffle not found")]
    NotFound,
    /// Lowering `maxTickets` below a number someone already holds would orphan it.
    #[error("number {highest_held} is held, above the new maximum")]
    BelowHeldNumber { highest_held: TicketNumber },
    /// The size decides the winner: it cannot change once a real purchase exists or the
    /// ledger is frozen (decided by the database).
    #[error("the raffle's size is locked")]
    SizeLocked,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum DeleteRaffleError {
    #[error("raffle not found")]
    NotFound,
    /// Real purchases (anything but tests) keep a raffle alive: deleting it would lose records
    /// of money paid.
    #[error("raffle has {count} purchases")]
    HasPurchases { count: u64 },
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// The audit entry of a write, made by the core from the record as it was and as it is (each
/// read inside the write's transaction; `None` before a creation or after a deletion).
pub type RecordAudit<'a, T> = &'a (dyn Fn(Option<&T>, Option<&T>) -> AuditEntry + Sync);

pub trait RaffleRepository: Send + Sync + 'static {
    /// Newest first, each with its count of held numbers.
    ///
    /// # Errors
    /// Storage failures only.
    fn list_raffles(
        &self,
        scope: RaffleScope,
    ) -> impl Future<Output = anyhow::Result<Vec<Raffle>>> + Send;

    /// # Errors
    /// Storage failures only; a missing raffle is `Ok(None)`.
    fn get_raffle(
        &self,
        id: RaffleId,
    ) -> impl Future<Output = anyhow::Result<Option<Raffle>>> + Send;

    /// The raffle without its sold count (`tickets_sold` is `None`): for callers that need only
    /// its terms (status, price, size, limits), since the count grows with sales.
    ///
    /// # Errors
    /// Storage failures only; a missing raffle is `Ok(None)`.
    fn raffle_terms(
        &self,
        id: RaffleId,
    ) -> impl Future<Output = anyhow::Result<Option<Raffle>>> + Send;

    /// Creates the raffle with its prizes, in order, in one transaction.
    ///
    /// # Errors
    /// Storage failures only.
    fn create_raffle(
        &self,
        draft: &RaffleDraft,
        prizes: &[PrizeDraft],
        now: DateTime<Utc>,
        audit: RecordAudit<'_, Raffle>,
    ) -> impl Future<Output = anyhow::Result<Raffle>> + Send;

    /// Replaces the raffle's fields. A raffle is never on sale without a prize: a draft that
    /// says available is stored inactive when the raffle has none, judged under the raffle's
    /// row lock, which replacing prizes takes too.
    ///
    /// # Errors
    /// `NotFound`, `BelowHeldNumber`, or `Unknown`.
    fn update_raffle(
        &self,
        id: RaffleId,
        draft: &RaffleDraft,
        audit: RecordAudit<'_, Raffle>,
    ) -> impl Future<Output = Result<Raffle, UpdateRaffleError>> + Send;

    /// Deletes the raffle with its promotions and test purchases.
    ///
    /// # Errors
    /// `NotFound`, `HasPurchases`, or `Unknown`.
    fn delete_raffle(
        &self,
        id: RaffleId,
        audit: RecordAudit<'_, Raffle>,
    ) -> impl Future<Output = Result<(), DeleteRaffleError>> + Send;

    /// Numbers currently held (by pending or approved purchases), ascending.
    ///
    /// # Errors
    /// Storage failures only.
    fn held_numbers(
        &self,
        id: RaffleId,
    ) -> impl Future<Output = anyhow::Result<Vec<TicketNumber>>> + Send;

    /// # Errors
    /// Storage failures only.
    fn promotions(
        &self,
        id: RaffleId,
    ) -> impl Future<Output = anyhow::Result<Vec<Promotion>>> + Send;

    /// How many numbers pending purchases hold and when the next hold can expire.
    ///
    /// # Errors
    /// Storage failures only.
    fn hold_summary(
        &self,
        id: RaffleId,
    ) -> impl Future<Output = anyhow::Result<HoldSummary>> + Send;
}

/// The held part of a raffle: numbers that may still come back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HoldSummary {
    /// Numbers held by pending purchases (with or without a proof).
    pub pending_tickets: u32,
    /// The earliest deadline of a pending purchase without a proof.
    pub next_release_at: Option<DateTime<Utc>>,
}

#[derive(Debug, thiserror::Error)]
pub enum CreatePurchaseError {
    /// Someone else holds these numbers (ascending); nothing was written.
    #[error("numbers already held: {0:?}")]
    NumbersTaken(Vec<TicketNumber>),
    /// The generated reference exists already; nothing was written, try another.
    #[error("purchase reference already exists")]
    ReferenceTaken,
    /// The buyer would hold more than `cap` tickets of the raffle; one of their keys holds
    /// `used` already. Nothing was written.
    #[error("allowance of {cap} passed ({used} used)")]
    AllowanceExceeded { cap: u32, used: u32 },
    /// The raffle's ledger is frozen for its draw: it sells nothing more.
    #[error("the raffle's ledger is frozen")]
    LedgerFrozen,
    /// A live purchase paid with the same method carries this payment reference already.
    #[error("payment reference already used with this method")]
    PaymentReferenceUsed,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum DecidePurchaseError {
    #[error("purchase not found")]
    NotFound,
    /// Someone decided it first, or it was never pending.
    #[error("purchase is {0:?}")]
    NotPending(PurchaseStatus),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Everything a decision on a purchase does, decided by the core (see
/// `rifa_app::review::decision_of`); storage only carries it out, atomically.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PurchaseDecision {
    pub status: PurchaseStatus,
    pub notes: Option<String>,
    pub decided_at: DateTime<Utc>,
    /// Whether the purchase's numbers go back on sale and its tickets stop counting against
    /// the buyer's allowance.
    pub release_numbers: bool,
    /// The e-mail the buyer is sent.
    pub mail: MailKind,
    /// The entry the decision leaves in the purchase's history (with `notes`).
    pub history: PurchaseEventKind,
    /// Who decided, for the audit trail, written in the decision's transaction.
    pub audit: AuditEntry,
}

/// What expiring due holds does besides the status, decided by the core
/// (`rifa_app::holds`); storage carries it out by the database's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoldExpiry {
    /// At most this many purchases in one batch.
    pub limit: u32,
    /// Only holds of this raffle.
    pub raffle: Option<RaffleId>,
    /// The e-mail each buyer is sent.
    pub buyer_mail: Option<MailKind>,
    /// The e-mail sent to each release alert of a raffle that got numbers back; the alert is
    /// consumed.
    pub alert_mail: Option<MailKind>,
}

/// A purchase whose hold expired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExpiredHold {
    pub purchase_id: PurchaseId,
    pub raffle_id: RaffleId,
}

/// Reopening an expired purchase, decided by the core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reopening {
    pub at: DateTime<Utc>,
    /// The new deadline of its hold.
    pub hold_until: DateTime<Utc>,
    /// The raffle's per-person allowance its tickets count against again.
    pub allowance_cap: u32,
    /// The e-mail the buyer is sent, if any.
    pub mail: Option<MailKind>,
    /// Who reopened it, for the audit trail, written in the reopening's transaction.
    pub audit: AuditEntry,
}

#[derive(Debug, thiserror::Error)]
pub enum ReopenError {
    #[error("purchase not found")]
    NotFound,
    #[error("purchase is {0:?}, only expired purchases can be reopened")]
    NotExpired(PurchaseStatus),
    /// Others hold these numbers now (ascending); nothing changed.
    #[error("numbers taken meanwhile: {0:?}")]
    NumbersTaken(Vec<TicketNumber>),
    #[error("allowance of {cap} passed ({used} used)")]
    AllowanceExceeded { cap: u32, used: u32 },
    /// The raffle's ledger is frozen for its draw: its purchases no longer change.
    #[error("the raffle's ledger is frozen")]
    LedgerFrozen,
    /// Another live purchase paid with the same method carries its payment reference now.
    #[error("payment reference used by another purchase")]
    PaymentReferenceUsed,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// The admin's purchase search is a domain value, built where the request is parsed.
pub use rifa_domain::purchase::PurchaseQuery;

/// Figures over every purchase matching a query's filters (not just the page).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PurchaseSummary {
    /// Tickets of approved purchases.
    pub tickets_sold: u64,
    /// Sum of approved totals.
    pub total_revenue: Money,
    pub pending_purchases: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PurchasePage {
    pub items: Vec<Purchase>,
    /// Purchases matching, across all pages; only a floor (the query's `count_cap`) when
    /// `summary` is `None`.
    pub total: u64,
    /// The figures of what matched; `None` when more than that cap matched and
    /// counting stopped.
    pub summary: Option<PurchaseSummary>,
}

pub trait PurchaseRepository: Send + Sync + 'static {
    /// In one transaction: writes the purchase and its `received` history entry; when
    /// `hold_until` is set, holds every number for it until then; when `allowance_cap` is set,
    /// counts its tickets against each of the buyer's keys, none of which may pass the cap; when
    /// `confirm_to_buyer`, puts the buyer's `Received` e-mail in the outbox. Storage, not a
    /// prior check, guarantees a number is held at most once and an allowance is never passed.
    /// `raffle_title` (known to the caller) is set on the returned purchase, saving a read.
    ///
    /// # Errors
    /// `NumbersTaken` naming the numbers lost to someone else, `AllowanceExceeded`,
    /// `ReferenceTaken`, or `Unknown`.
    fn create_purchase(
        &self,
        purchase: &NewPurchase,
        raffle_title: &str,
    ) -> impl Future<Output = Result<Purchase, CreatePurchaseError>> + Send;

    /// # Errors
    /// Storage failures only.
    fn get_purchase(
        &self,
        id: PurchaseId,
    ) -> impl Future<Output = anyhow::Result<Option<Purchase>>> + Send;

    /// Newest first.
    ///
    /// # Errors
    /// Storage failures only.
    fn search_purchases(
        &self,
        query: &PurchaseQuery,
    ) -> impl Future<Output = anyhow::Result<PurchasePage>> + Send;

    /// Up to `limit` purchases matching the filters of `query` (its page is ignored), newest
    /// first, from just after `after` (from the newest when `None`). Each call reads one range
    /// of an index, however far the walk has gone.
    ///
    /// # Errors
    /// Storage failures only.
    fn purchases_after(
        &self,
        query: &PurchaseQuery,
        after: Option<PurchaseCursor>,
        limit: u32,
    ) -> impl Future<Output = anyhow::Result<Vec<Purchase>>> + Send;

    /// Carries out `decision` if the purchase is still pending: its status, notes and time, the
    /// release of its numbers when the decision says so, and the e-mail it names put in the
    /// outbox, all in one transaction (a concurrent decision loses with `NotPending`).
    ///
    /// # Errors
    /// `NotFound`, `NotPending`, or `Unknown`.
    fn decide_purchase(
        &self,
        id: PurchaseId,
        decision: &PurchaseDecision,
    ) -> impl Future<Output = Result<Purchase, DecidePurchaseError>> + Send;

    /// Expires, by the database's clock, pending purchases without a proof whose deadline has
    /// passed, oldest deadline first, at most `expiry.limit`: each becomes `expired`, its
    /// numbers are released, its tickets stop counting against the buyer's allowance, its
    /// history and e-mail are written, and the release alerts of their raffles are sent and
    /// consumed — all in one transaction whose first statement decides which purchases expire,
    /// so concurrent sweeps (other instances) never expire or release one twice.
    ///
    /// # Errors
    /// Storage failures only.
    fn expire_due_holds(
        &self,
        expiry: &HoldExpiry,
    ) -> impl Future<Output = anyhow::Result<Vec<ExpiredHold>>> + Send;

    /// Makes an expired purchase pending again, holding its numbers until
    /// `reopening.hold_until` and counting its tickets against the buyer's allowance, in one
    /// transaction: numbers someone else holds now, or an allowance passed, leave it expired.
    ///
    /// # Errors
    /// `NotFound`, `NotExpired`, `NumbersTaken`, `AllowanceExceeded` or `Unknown`.
    fn reopen_purchase(
        &self,
        id: PurchaseId,
        reopening: &Reopening,
    ) -> impl Future<Output = Result<Purchase, ReopenError>> + Send;

    /// The purchase's history, oldest first.
    ///
    /// # Errors
    /// Storage failures only.
    fn purchase_history(
        &self,
        id: PurchaseId,
    ) -> impl Future<Output = anyhow::Result<Vec<PurchaseEvent>>> + Send;

    /// Pending and approved purchases of a buyer, newest first, at most `limit`.
    ///
    /// # Errors
    /// Storage failures only.
    fn purchases_of(
        &self,
        key: &LookupKey,
        limit: u32,
    ) -> impl Future<Output = anyhow::Result<Vec<Purchase>>> + Send;

    /// Dashboard figures; `created` narrows purchases to a period (raffles are always counted).
    ///
    /// # Errors
    /// Storage failures only.
    fn dashboard_stats(
        &self,
        created: Option<(DateTime<Utc>, DateTime<Utc>)>,
    ) -> impl Future<Output = anyhow::Result<DashboardStats>> + Send;

    /// The figures of each day with purchases created in `[from, to)`, days counted at
    /// `utc_offset_minutes` from UTC, in one query; days without purchases are left out.
    ///
    /// # Errors
    /// Storage failures only.
    fn daily_sales(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        utc_offset_minutes: i32,
    ) -> impl Future<Output = anyhow::Result<Vec<DaySales>>> + Send;
}

/// A write that names another record which does not exist.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("not found")]
    NotFound,
    /// A referenced record (e.g. the exchange rate of a payment method) does not exist.
    #[error("referenced {0} does not exist")]
    MissingReference(&'static str),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

pub trait PaymentMethodRepository: Send + Sync + 'static {
    /// By name; `active_only` for the public site.
    ///
    /// # Errors
    /// Storage failures only.
    fn list_payment_methods(
        &self,
        active_only: bool,
    ) -> impl Future<Output = anyhow::Result<Vec<PaymentMethod>>> + Send;

    /// # Errors
    /// Storage failures only.
    fn get_payment_method(
        &self,
        id: PaymentMethodId,
    ) -> impl Future<Output = anyhow::Result<Option<PaymentMethod>>> + Send;

    /// # Errors
    /// `MissingReference("exchangeRateId")` or `Unknown`.
    fn create_payment_method(
        &self,
        draft: &PaymentMethodDraft,
        audit: RecordAudit<'_, PaymentMethod>,
    ) -> impl Future<Output = Result<PaymentMethod, WriteError>> + Send;

    /// # Errors
    /// `NotFound`, `MissingReference("exchangeRateId")` or `Unknown`.
    fn update_payment_method(
        &self,
        id: PaymentMethodId,
        draft: &PaymentMethodDraft,
        audit: RecordAudit<'_, PaymentMethod>,
    ) -> impl Future<Output = Result<PaymentMethod, WriteError>> + Send;

    /// Past purchases keep the method's name.
    ///
    /// # Errors
    /// `NotFound` or `Unknown`.
    fn delete_payment_method(
        &self,
        id: PaymentMethodId,
        audit: RecordAudit<'_, PaymentMethod>,
    ) -> impl Future<Output = Result<(), WriteError>> + Send;
}

/// Why an exchange rate could not be written.
#[derive(Debug, thiserror::Error)]
pub enum RateWriteError {
    #[error("not found")]
    NotFound,
    /// The pair already has a rate (this one): there is one rate per currency pair.
    #[error("the pair already has rate {}", .0.id)]
    PairTaken(ExchangeRate),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// One rate per currency pair, kept by the store itself (a unique key), so that of two
/// concurrent writes of one pair exactly one succeeds.
pub trait ExchangeRateRepository: Send + Sync + 'static {
    /// # Errors
    /// Storage failures only.
    fn list_exchange_rates(&self)
    -> impl Future<Output = anyhow::Result<Vec<ExchangeRate>>> + Send;

    /// # Errors
    /// `PairTaken` with the pair's existing rate, or `Unknown`.
    fn create_exchange_rate(
        &self,
        draft: &ExchangeRateDraft,
        now: DateTime<Utc>,
        audit: RecordAudit<'_, ExchangeRate>,
    ) -> impl Future<Output = Result<ExchangeRate, RateWriteError>> + Send;

    /// # Errors
    /// `NotFound`, `PairTaken` when another rate has the new pair, or `Unknown`.
    fn update_exchange_rate(
        &self,
        id: ExchangeRateId,
        draft: &ExchangeRateDraft,
        now: DateTime<Utc>,
        audit: RecordAudit<'_, ExchangeRate>,
    ) -> impl Future<Output = Result<ExchangeRate, RateWriteError>> + Send;

    /// Methods converting with it are left without a rate.
    ///
    /// # Errors
    /// `NotFound` or `Unknown`.
    fn delete_exchange_rate(
        &self,
        id: ExchangeRateId,
        audit: RecordAudit<'_, ExchangeRate>,
    ) -> impl Future<Output = Result<(), WriteError>> + Send;
}

/// Singleton settings. A setting never saved reads as `None`; callers apply the defaults.
pub trait SettingsRepository: Send + Sync + 'static {
    /// # Errors
    /// Storage failures, or a stored value that no longer parses.
    fn branding(&self) -> impl Future<Output = anyhow::Result<Option<Branding>>> + Send;
    /// Saves `branding` if the stored branding is still `read` (`None`: never saved), deciding
    /// it under the write lock; `false`, writing nothing, when someone saved since.
    ///
    /// # Errors
    /// Storage failures, or a stored value that no longer parses.
    fn save_branding(
        &self,
        branding: &Branding,
        read: Option<&Branding>,
        audit: RecordAudit<'_, Branding>,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;
    /// # Errors
    /// Storage failures, or a stored value that no longer parses.
    fn email_settings(&self) -> impl Future<Output = anyhow::Result<Option<EmailSettings>>> + Send;
    /// # Errors
    /// Storage failures only.
    fn save_email_settings(
        &self,
        settings: &EmailSettings,
        audit: RecordAudit<'_, EmailSettings>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;
    /// # Errors
    /// Storage failures, or a stored value that no longer parses.
    fn discounts(&self) -> impl Future<Output = anyhow::Result<Option<DiscountTable>>> + Send;
    /// # Errors
    /// Storage failures only.
    fn save_discounts(
        &self,
        table: &DiscountTable,
        audit: RecordAudit<'_, DiscountTable>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;
}

#[derive(Debug, thiserror::Error)]
pub enum CreateAdminError {
    #[error("username already taken")]
    UsernameTaken,
    #[error(transparent)]
    Refused(#[from] StaffRefusal),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// A new staff account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAdmin<'a> {
    pub username: &'a str,
    pub password_hash: &'a str,
    pub role: Role,
    pub must_change_password: bool,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, thiserror::Error)]
pub enum StaffChangeError {
    #[error("no such staff account")]
    NotFound,
    #[error(transparent)]
    Refused(#[from] StaffRefusal),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// The core's rule for a staff change, given the one acting and the account changed as the
/// change's transaction holds them.
pub type StaffCheck<'a> =
    &'a (dyn Fn(&StaffMember, &StaffMember) -> Result<(), StaffRefusal> + Sync);

pub trait AdminRepository: Send + Sync + 'static {
    /// # Errors
    /// Storage failures only.
    fn admin_by_username(
        &self,
        username: &str,
    ) -> impl Future<Output = anyhow::Result<Option<AdminUser>>> + Send;
    /// Creates an account and records `audit` in one transaction. With `by`, the account is
    /// created only while `by` is still an active owner (checked in the transaction).
    ///
    /// # Errors
    /// `UsernameTaken`, `NotAnOwner` or `Unknown`.
    fn create_admin(
        &self,
        new: &NewAdmin<'_>,
        by: Option<AdminId>,
        audit: RecordAudit<'_, StaffMember>,
    ) -> impl Future<Output = Result<StaffMember, CreateAdminError>> + Send;
    /// # Errors
    /// Storage failures only.
    fn count_admins(&self) -> impl Future<Output = anyhow::Result<u64>> + Send;

    /// Every account, oldest first.
    ///
    /// # Errors
    /// Storage failures only.
    fn list_staff(&self) -> impl Future<Output = anyhow::Result<Vec<StaffMember>>> + Send;

    /// Applies `change` to `target` when `check` allows it, ending all of the account's
    /// sessions when the change says so, and records `audit`: one transaction, which first
    /// holds every owner's row, so concurrent staff changes are decided one after another
    /// (two owners demoting each other at once leave one owner, never none).
    ///
    /// # Errors
    /// `NotFound` (either account), `Refused` by `check`, or `Unknown`.
    fn change_staff(
        &self,
        by: AdminId,
        target: AdminId,
        change: &StaffChange,
        at: DateTime<Utc>,
        check: StaffCheck<'_>,
        audit: RecordAudit<'_, StaffMember>,
    ) -> impl Future<Output = Result<StaffMember, StaffChangeError>> + Send;

    /// Sets the admin's own new password, ends every session they have and opens `session`
    /// for the caller, recording `audit`: one transaction.
    ///
    /// # Errors
    /// Storage failures only.
    fn replace_own_password(
        &self,
        admin: AdminId,
        password_hash: &str,
        session: &NewSession,
        audit: &AuditEntry,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// Records a sign-in's session and its audit entry in one transaction.
    ///
    /// # Errors
    /// Storage failures only.
    fn open_session(
        &self,
        session: &NewSession,
        audit: &AuditEntry,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// The admin of session `id` while it is neither revoked nor expired at `at`, and the
    /// account is not disabled.
    ///
    /// # Errors
    /// Storage failures only.
    fn admin_of_live_session(
        &self,
        id: &str,
        at: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<Option<AdminUser>>> + Send;

    /// Revokes `sessions` at `at` and records `audit`, in one transaction.
    ///
    /// # Errors
    /// Storage failures only.
    fn revoke_sessions(
        &self,
        sessions: SessionsToEnd<'_>,
        at: DateTime<Utc>,
        audit: &AuditEntry,
    ) -> impl Future<Output = anyhow::Result<u64>> + Send;
}

/// A sign-in's server-side record: its token is honoured while this lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSession {
    /// The token's `jti`.
    pub id: String,
    pub admin_id: AdminId,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

/// Which sessions a sign-out ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionsToEnd<'a> {
    One(&'a str),
    AllOf(AdminId),
}

/// People who asked to be told when numbers of a raffle come back on sale.
pub trait ReleaseAlerts: Send + Sync + 'static {
    /// Records that `email` wants one notice, in `lang`, the next time numbers of the raffle
    /// are released; asking again changes nothing.
    ///
    /// # Errors
    /// Storage failures only.
    fn add_release_alert(
        &self,
        raffle: RaffleId,
        email: &str,
        lang: Lang,
        at: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;
}
