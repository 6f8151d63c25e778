//! Storage of the verifiable draw (issue 15, decision 0020): prizes, the frozen ledger, each
//! prize's draw and its delivery. The ledger, the draws and the deliveries are append-only.

use std::future::Future;

use chrono::{DateTime, Utc};
use rifa_domain::audit::AuditEntry;
use rifa_domain::draw::fair::Rule;
use rifa_domain::draw::ledger::{Hash, LedgerEntry};
use rifa_domain::draw::prize::{PrizeDraft, PrizeResult};
use rifa_domain::draw::rule::DrawStep;
use rifa_domain::id::PrizeId;
use rifa_domain::purchase::PurchaseId;
use rifa_domain::raffle::RaffleId;

/// A prize as stored, with its draw and delivery once they happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrizeRecord {
    pub id: PrizeId,
    /// 1 for the first prize, drawn first.
    pub position: u32,
    pub prize: PrizeDraft,
    /// What the sources of its chain gave so far, by source.
    pub results: Vec<RecordedResult>,
    pub draw: Option<PrizeDraw>,
    pub delivery: Option<PrizeDelivery>,
}

/// What one source of a prize's chain gave, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedResult {
    /// The source's place in the chain: 0 the prize's own, 1 its drand round.
    pub source: u32,
    pub result: PrizeResult,
    pub recorded_at: DateTime<Utc>,
}

/// A prize's draw: the result that decided, the rule's steps, and the winner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrizeDraw {
    /// The source of the chain whose result decided.
    pub source: u32,
    pub result: PrizeResult,
    /// The number the result names, before looking at what was sold.
    pub drawn_number: u32,
    pub winning_number: Option<u32>,
    pub steps: Vec<DrawStep>,
    pub drawn_at: DateTime<Utc>,
    /// The purchase holding the winning number (filled in by storage on reads).
    pub winner: Option<Winner>,
}

/// The purchase that won, as the panel needs it to reach the winner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Winner {
    pub purchase_id: PurchaseId,
    pub reference: String,
    pub customer_name: String,
    pub customer_email: String,
    pub customer_phone: String,
    pub customer_country: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrizeDelivery {
    pub delivered_at: DateTime<Utc>,
    pub photo: Option<String>,
}

/// What was published when the ledger was frozen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commitment {
    pub salt: [u8; 32],
    pub root: Hash,
    pub size: u32,
    pub frozen_at: DateTime<Utc>,
    /// The raffle's size when the ledger was frozen: the rule reads this one, never the
    /// raffle's current size.
    pub max_tickets: u32,
    /// The rule the raffle is drawn by, as frozen.
    pub rule: Rule,
}

/// The approved purchase holding a number, and whose it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub purchase: PurchaseId,
    pub customer_name: String,
}

/// A number an approved purchase holds, as the freeze reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoldNumber {
    pub number: u32,
    pub reference: String,
}

/// A purchase still waiting for a decision: the freeze is refused while any exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndecidedPurchase {
    pub id: PurchaseId,
    pub reference: String,
    pub customer_name: String,
    pub created_at: DateTime<Utc>,
}

/// A winner as the home page's "Ganadores" shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecentWinner {
    pub raffle_id: RaffleId,
    pub raffle_title: String,
    pub max_tickets: u32,
    pub prize_title: String,
    pub position: u32,
    pub number: u32,
    pub customer_name: String,
    pub customer_country: String,
    pub drawn_at: DateTime<Utc>,
}

#[derive(Debug, thiserror::Error)]
pub enum ReplacePrizesError {
    /// A real purchase exists: the published rule can no longer change.
    #[error("the raffle's rules are locked by its purchases")]
    RulesLocked,
    /// The raffle is on sale: removing its last prize would leave a sale with nothing to draw.
    #[error("a raffle on sale keeps at least one prize")]
    OnSaleNeedsPrize,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum FreezeError {
    #[error("{} purchases are pending", .0.len())]
    PurchasesPending(Vec<UndecidedPurchase>),
    #[error("the ledger is already frozen")]
    AlreadyFrozen,
    /// No approved purchase holds a number: there is nothing to draw from.
    #[error("nothing was sold")]
    NothingSold,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum RecordDrawError {
    #[error("the prize was already drawn")]
    AlreadyDrawn,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum RecordResultError {
    /// That source of the prize already has its result.
    #[error("the source's result is already recorded")]
    AlreadyRecorded,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum RecordDeliveryError {
    #[error("the prize was already delivered")]
    AlreadyDelivered,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// A ledger ready to store: its entries sorted by number, and their root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltLedger {
    pub entries: Vec<LedgerEntry>,
    pub root: Hash,
}

/// How a freeze turns the sold numbers into the ledger: the use case's code, run by storage
/// inside the transaction that reads them.
pub type LedgerBuilder<'a> = &'a (dyn Fn(&[SoldNumber]) -> BuiltLedger + Sync);

/// The audit entry of a freeze, made from the commitment it published (its root is part of the
/// trail), inside the freeze's transaction.
pub type FreezeAudit<'a> = &'a (dyn Fn(&Commitment) -> AuditEntry + Sync);

pub trait DrawRepository: Send + Sync + 'static {
    /// The raffle's prizes in order, each with its draw and delivery.
    ///
    /// # Errors
    /// Storage failures only.
    fn prizes(
        &self,
        raffle: RaffleId,
    ) -> impl Future<Output = anyhow::Result<Vec<PrizeRecord>>> + Send;

    /// The rule the raffle is drawn by (before its freeze; the commitment keeps the frozen one).
    ///
    /// # Errors
    /// Storage failures only.
    fn draw_rule(&self, raffle: RaffleId) -> impl Future<Output = anyhow::Result<Rule>> + Send;

    /// Replaces the raffle's rule and its prizes, in order, unless a real purchase exists;
    /// decided by the database against a purchase being made at the same moment. An empty list
    /// is refused while the raffle is on sale, judged under the raffle's row lock (which a
    /// raffle's update takes too).
    ///
    /// # Errors
    /// `RulesLocked`, `OnSaleNeedsPrize`, or a storage failure.
    fn replace_prizes(
        &self,
        raffle: RaffleId,
        rule: Rule,
        prizes: &[PrizeDraft],
        audit: &AuditEntry,
    ) -> impl Future<Output = Result<(), ReplacePrizesError>> + Send;

    /// Whether a real purchase (anything but a test) of the raffle exists.
    ///
    /// # Errors
    /// Storage failures only.
    fn rules_locked(&self, raffle: RaffleId) -> impl Future<Output = anyhow::Result<bool>> + Send;

    /// Up to `limit` purchases of the raffle still pending, oldest first.
    ///
    /// # Errors
    /// Storage failures only.
    fn undecided_purchases(
        &self,
        raffle: RaffleId,
        limit: u32,
    ) -> impl Future<Output = anyhow::Result<Vec<UndecidedPurchase>>> + Send;

    /// Freezes the ledger in one transaction: with no purchase pending, the numbers approved
    /// purchases hold are read, `build` makes the ledger, and it is stored with `salt`, and
    /// each approved buyer's [`crate::MailKind::LedgerFrozen`] message is queued; from then on
    /// no purchase of the raffle can be made or change status.
    ///
    /// # Errors
    /// `PurchasesPending` (up to 50 of them), `AlreadyFrozen`, `NothingSold`, or a storage
    /// failure.
    fn freeze_ledger(
        &self,
        raffle: RaffleId,
        salt: [u8; 32],
        frozen_at: DateTime<Utc>,
        build: LedgerBuilder<'_>,
        audit: FreezeAudit<'_>,
    ) -> impl Future<Output = Result<Commitment, FreezeError>> + Send;

    /// What was published at the freeze, if it happened.
    ///
    /// # Errors
    /// Storage failures only.
    fn commitment(
        &self,
        raffle: RaffleId,
    ) -> impl Future<Output = anyhow::Result<Option<Commitment>>> + Send;

    /// The raffle a prize belongs to.
    ///
    /// # Errors
    /// Storage failures only.
    fn raffle_of_prize(
        &self,
        prize: PrizeId,
    ) -> impl Future<Output = anyhow::Result<Option<RaffleId>>> + Send;

    /// The frozen ledger's entries, sorted by number.
    ///
    /// # Errors
    /// Storage failures only.
    fn ledger_entries(
        &self,
        raffle: RaffleId,
    ) -> impl Future<Output = anyhow::Result<Vec<LedgerEntry>>> + Send;

    /// The approved purchase of the raffle that holds `number`.
    ///
    /// # Errors
    /// Storage failures only.
    fn holder_of(
        &self,
        raffle: RaffleId,
        number: u32,
    ) -> impl Future<Output = anyhow::Result<Option<Holder>>> + Send;

    /// Records what source `result.source` of a prize's chain gave; each source gives one
    /// result (the database decides).
    ///
    /// # Errors
    /// `AlreadyRecorded`, or a storage failure.
    fn record_result(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        result: &RecordedResult,
        audit: &AuditEntry,
    ) -> impl Future<Output = Result<(), RecordResultError>> + Send;

    /// Records a prize's draw (`winner` is ignored: `winner_purchase` names it) and queues the
    /// winner's [`crate::MailKind::PrizeWon`] message, in one transaction; a prize is drawn
    /// once, a number wins once (the database decides both). The raffle's last prize
    /// (`finishes_raffle`) marks the raffle finished in the same transaction.
    ///
    /// # Errors
    /// `AlreadyDrawn`, or a storage failure.
    fn record_draw(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        draw: &PrizeDraw,
        winner_purchase: Option<PurchaseId>,
        finishes_raffle: bool,
        audit: &AuditEntry,
    ) -> impl Future<Output = Result<(), RecordDrawError>> + Send;

    /// Records that a drawn prize was handed over.
    ///
    /// # Errors
    /// `AlreadyDelivered`, or a storage failure.
    fn record_delivery(
        &self,
        prize: PrizeId,
        delivery: &PrizeDelivery,
        audit: &AuditEntry,
    ) -> impl Future<Output = Result<(), RecordDeliveryError>> + Send;

    /// The latest winners of raffles the public can see, newest first.
    ///
    /// # Errors
    /// Storage failures only.
    fn recent_winners(
        &self,
        limit: u32,
    ) -> impl Future<Output = anyhow::Result<Vec<RecentWinner>>> + Send;
}

#[derive(Debug, thiserror::Error)]
pub enum BeaconFetchError {
    /// The relay could not be reached or did not give the round.
    #[error(transparent)]
    Unavailable(#[from] anyhow::Error),
}

/// Where drand rounds come from. Whatever it answers is verified before use.
pub trait BeaconSource: Send + Sync + 'static {
    /// The signature of quicknet's `round`.
    ///
    /// # Errors
    /// `Unavailable` when it cannot be had now.
    fn signature_of(
        &self,
        round: u64,
    ) -> impl Future<Output = Result<Vec<u8>, BeaconFetchError>> + Send;
}
