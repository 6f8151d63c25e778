//! The verifiable draw (decisions 0020, 0025, 0027): a raffle's rule and prizes with their public
//! sources, locked by the first purchase; the ledger frozen when sales close; each source's
//! result recorded (previewed first), and the prizes settled in order by the fair rules along
//! each prize's chain, the last one finishing the raffle; the claim window and the delivery;
//! and what anyone needs to check all of it.

use std::collections::BTreeSet;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use rifa_domain::audit::{Actor, AuditAction, AuditEntry, Change};
use rifa_domain::draw::beacon::{round_time, verify_quicknet};
use rifa_domain::draw::fair::Rule;
use rifa_domain::draw::ledger::Hash;
use rifa_domain::draw::ledger::{LedgerEntry, MerkleTree, bytes_from_hex, purchase_tag, to_hex};
use rifa_domain::draw::prize::public_name;
use rifa_domain::draw::prize::{
    FREEZE_MARGIN, PrizeDraft, PrizeInput, PrizeResult, PrizeSource, ResultReading,
};
use rifa_domain::draw::settle::{
    ChainLink, PrizeProgress, Settlement, SourceState, settle_in_order,
};
use rifa_domain::id::PrizeId;
use rifa_domain::raffle::{Raffle, RaffleId, RaffleStatus};
use rifa_domain::validation::web_url;
use rifa_domain::{FieldErrors, Lang};
use rifa_ports::outbound::{CertificateRenderer, DrawCertificate, InclusionProof};
use rifa_ports::{
    BeaconFetchError, BeaconSource, BuiltLedger, Clock, Commitment, DrawRepository, FreezeError,
    PrizeDelivery, PrizeDraw, PrizeRecord, RaffleRepository, RecentWinner, RecordDeliveryError,
    RecordDrawError, RecordResultError, RecordedResult, ReplacePrizesError, SaltGenerator,
    SettingsRepository, SoldNumber, UndecidedPurchase,
};

use crate::cpu::CpuPool;
use crate::links::SiteLinks;
use crate::shared::{MailSignal, Shared, now};

/// Pending purchases the panel lists before a freeze.
const PENDING_LISTED: u32 = 50;
/// The longest delivery photo address kept.
const PHOTO_URL_MAX: usize = 2048;
/// Winners the home page shows.
pub const RECENT_WINNERS: u32 = 12;

#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    /// No such raffle (or, on public reads, one the public cannot see).
    #[error("raffle not found")]
    RaffleNotFound,
    #[error("prize not found")]
    PrizeNotFound,
    #[error("invalid input")]
    Invalid(FieldErrors),
    /// A real purchase exists: the prizes and their sources can no longer change.
    #[error("the rules are locked")]
    RulesLocked,
    /// The raffle is on sale: it keeps at least one prize (unpublish it first).
    #[error("a raffle on sale keeps at least one prize")]
    OnSaleNeedsPrize,
    /// The ledger is frozen once sales close, not before.
    #[error("sales close at {closes_at:?}")]
    SalesStillOpen { closes_at: Option<DateTime<Utc>> },
    #[error("{} purchases are pending", .0.len())]
    PurchasesPending(Vec<UndecidedPurchase>),
    #[error("the raffle has no prizes")]
    NoPrizes,
    #[error("the ledger is already frozen")]
    AlreadyFrozen,
    /// No approved purchase holds a number: a raffle that sold nothing has no draw.
    #[error("nothing was sold")]
    NothingSold,
    #[error("the ledger is not frozen yet")]
    NotFrozen,
    #[error("the prize was already drawn")]
    AlreadyDrawn,
    /// The result given is not of the kind the prize's published source is.
    #[error("the prize is drawn from another source")]
    WrongSource,
    #[error("the prize is not drawn yet")]
    NotDrawn,
    #[error("the prize was already delivered")]
    AlreadyDelivered,
    /// A beacon prize's round is published before the freeze: its result could be known
    /// before the ledger is fixed.
    #[error("prize {position}'s round is published before the freeze")]
    BeaconRoundTooEarly { position: u32, round: u64 },
    /// The prize's round is not published yet.
    #[error("round {round} is published at {at}")]
    BeaconRoundNotYet { round: u64, at: DateTime<Utc> },
    /// A lottery prize's source draws before the freeze (or within its margin): its result
    /// could be known before the list is fixed.
    #[error("prize {position}'s lottery draws at {draws_at}, before the freeze")]
    SourceDrawsBeforeFreeze {
        position: u32,
        draws_at: DateTime<Utc>,
        /// The same instant on the lottery's own clock, as the form shows it.
        local: String,
    },
    /// The prize's lottery has not drawn yet: no result of it can exist.
    #[error("the lottery draws at {draws_at}")]
    SourceNotDrawnYet {
        draws_at: DateTime<Utc>,
        local: String,
    },
    /// The lottery's deadline passed without its result: the prize's drand round decides.
    #[error("the lottery's result was due by {deadline}")]
    SourceDeadlinePassed {
        deadline: DateTime<Utc>,
        local: String,
        round: u64,
    },
    /// That source of the prize already has its result.
    #[error("the source's result is already recorded")]
    ResultAlreadyRecorded,
    #[error("the drand relay could not give the round")]
    BeaconUnavailable(anyhow::Error),
    /// The signature given (or fetched) is not drand's for the prize's round.
    #[error("not drand's signature of round {round}")]
    BeaconSignatureInvalid { round: u64 },
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

impl From<ReplacePrizesError> for DrawError {
    fn from(error: ReplacePrizesError) -> Self {
        match error {
            ReplacePrizesError::RulesLocked => Self::RulesLocked,
            ReplacePrizesError::OnSaleNeedsPrize => Self::OnSaleNeedsPrize,
            ReplacePrizesError::Unknown(e) => Self::Unknown(e),
        }
    }
}

/// A lottery result as the admin typed it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LotteryResultInput {
    pub result: Option<String>,
    pub published_on: Option<String>,
    pub official_url: Option<String>,
}

/// A raffle's draw as the panel sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct AdminDraw {
    pub raffle: Raffle,
    /// The rule the raffle is drawn by (the frozen one once frozen).
    pub rule: Rule,
    /// The first prize not drawn yet and the source of its chain it waits for.
    pub awaiting: Option<(PrizeId, u32)>,
    pub sales_open: bool,
    /// A real purchase exists or the ledger is frozen: the prizes can no longer change.
    pub rules_locked: bool,
    /// Empty once frozen: none can be pending then.
    pub pending: Vec<UndecidedPurchase>,
    pub commitment: Option<Commitment>,
    pub prizes: Vec<PrizeRecord>,
    pub now: DateTime<Utc>,
}

/// What a result would decide for one prize, before it is recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewedPrize {
    pub prize: PrizeId,
    pub position: u32,
    pub title: String,
    pub outcome: Previewed,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Previewed {
    /// `number` would win; its holder as the public would see them (`María G.`).
    Winner { number: u32, public_name: String },
    /// Nothing is left in play.
    NoWinner,
    /// The prize would wait for source `source` of its chain (1: its drand round).
    Awaiting { source: u32 },
}

/// A raffle's draw as its page shows it (winners' contacts are the edge's to leave out).
#[derive(Debug, Clone, PartialEq)]
pub struct PublicDraw {
    pub raffle: Raffle,
    /// The rule the raffle is drawn by (the frozen one once frozen).
    pub rule: Rule,
    pub commitment: Option<Commitment>,
    pub prizes: Vec<PrizeRecord>,
}

/// Everything a third party needs to check the draw.
#[derive(Debug, Clone, PartialEq)]
pub struct PublishedLedger {
    pub raffle: Raffle,
    pub rule: Rule,
    pub commitment: Commitment,
    pub entries: Vec<LedgerEntry>,
    pub prizes: Vec<PrizeRecord>,
}

#[async_trait::async_trait]
pub trait DrawService: Send + Sync + 'static {
    /// # Errors
    /// `RaffleNotFound`, or a storage failure.
    async fn admin_draw(&self, raffle: RaffleId) -> Result<AdminDraw, DrawError>;

    /// # Errors
    /// `RaffleNotFound` (hidden raffles too), or a storage failure.
    async fn public_draw(&self, raffle: RaffleId) -> Result<PublicDraw, DrawError>;

    /// # Errors
    /// `RaffleNotFound`, `NotFrozen`, or a storage failure.
    async fn published_ledger(&self, raffle: RaffleId) -> Result<PublishedLedger, DrawError>;

    /// Replaces the raffle's rule (`None` keeps it) and prizes (in order) while no real
    /// purchase exists.
    ///
    /// # Errors
    /// `RaffleNotFound`, `Invalid`, `RulesLocked`, or a storage failure.
    async fn set_prizes(
        &self,
        raffle: RaffleId,
        rule: Option<&str>,
        prizes: &[PrizeInput],
        by: &Actor,
    ) -> Result<AdminDraw, DrawError>;

    /// Freezes the ledger: after sales close, with every purchase decided.
    ///
    /// # Errors
    /// `RaffleNotFound`, `SalesStillOpen`, `NoPrizes`, `PurchasesPending`, `AlreadyFrozen`,
    /// `NothingSold`, or a storage failure.
    async fn freeze(&self, raffle: RaffleId, by: &Actor) -> Result<AdminDraw, DrawError>;

    /// Records a lottery prize's published result, and settles every prize it lets settle.
    ///
    /// # Errors
    /// `RaffleNotFound`, `PrizeNotFound`, `NotFrozen`, `WrongSource`, `SourceNotDrawnYet`,
    /// `SourceDeadlinePassed`, `ResultAlreadyRecorded`, `AlreadyDrawn`, `Invalid`, or a
    /// storage failure.
    async fn draw_from_lottery(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        input: &LotteryResultInput,
        by: &Actor,
    ) -> Result<AdminDraw, DrawError>;

    /// What recording a lottery prize's result would decide, recording nothing: the prizes it
    /// would draw (each with its winner as the public sees them) and the one left waiting.
    ///
    /// # Errors
    /// As [`DrawService::draw_from_lottery`], but nothing is stored.
    async fn preview_lottery(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        input: &LotteryResultInput,
    ) -> Result<Vec<PreviewedPrize>, DrawError>;

    /// Records the drand round of a prize's chain (its own, or the one after its lottery's
    /// deadline): the `signature` an admin pasted (hex), or the round fetched from the relay
    /// when `None`; verified either way. Then settles every prize it lets settle.
    ///
    /// # Errors
    /// As [`DrawService::draw_from_lottery`], and `BeaconRoundNotYet`, `BeaconUnavailable`,
    /// `BeaconSignatureInvalid`.
    async fn draw_from_beacon(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        signature: Option<&str>,
        by: &Actor,
    ) -> Result<AdminDraw, DrawError>;

    /// Records that a drawn prize was handed over, with an optional photo (an uploaded image's
    /// address).
    ///
    /// # Errors
    /// `RaffleNotFound`, `PrizeNotFound`, `NotDrawn`, `AlreadyDelivered`, `Invalid`, or a
    /// storage failure.
    async fn mark_delivered(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        photo: Option<&str>,
        by: &Actor,
    ) -> Result<AdminDraw, DrawError>;

    /// The latest winners of visible raffles, newest first.
    ///
    /// # Errors
    /// Storage failures only.
    async fn recent_winners(&self) -> anyhow::Result<Vec<RecentWinner>>;

    /// The "Acta de sorteo" of a drawn prize of a visible raffle, as a PDF in `lang`.
    ///
    /// # Errors
    /// `RaffleNotFound`, `PrizeNotFound`, `NotDrawn`, or a failure of storage or rendering.
    async fn certificate(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        lang: Lang,
    ) -> Result<Vec<u8>, DrawError>;
}

/// The draw over its ports: raffles, settings and the draw's records from `S`, salts from `G`,
/// drand rounds from `B`, certificates from `R`, the time from `C`.
pub struct Draws<S, G, B, R, C> {
    store: S,
    salts: G,
    beacon: B,
    certificates: Arc<R>,
    clock: C,
    links: SiteLinks,
    cpu: CpuPool,
    mail_signal: Arc<MailSignal>,
}

impl<S, G, B, R, C> Draws<S, G, B, R, C> {
    #[allow(clippy::too_many_arguments, reason = "one per port, as every service")]
    pub fn new(
        store: S,
        salts: G,
        beacon: B,
        certificates: Arc<R>,
        clock: C,
        links: SiteLinks,
        shared: &Shared,
    ) -> Self {
        Self {
            store,
            salts,
            beacon,
            certificates,
            clock,
            links,
            cpu: shared.cpu.clone(),
            mail_signal: Arc::clone(&shared.mail_signal),
        }
    }
}

/// The certificate of the drawn prize `record` of `raffle`; `None` while it is not drawn.
#[must_use]
pub fn certificate_of(
    raffle: &Raffle,
    commitment: &Commitment,
    record: &PrizeRecord,
    company_name: String,
    lang: Lang,
    links: &SiteLinks,
) -> Option<DrawCertificate> {
    let draw = record.draw.clone()?;
    Some(DrawCertificate {
        company_name,
        lang,
        raffle_title: raffle.title.clone(),
        max_tickets: commitment.max_tickets,
        commitment: commitment.clone(),
        position: record.position,
        prize_title: record.prize.title.clone(),
        source: record.prize.source.clone(),
        winner: draw
            .winner
            .as_ref()
            .map(|w| (public_name(&w.customer_name), w.customer_country.clone())),
        draw,
        verify_link: links.verification_page(raffle.id, None, lang),
    })
}

/// `raffle` with the terms its commitment froze: the rule reads the size the buyers bought
/// under, whatever the raffle's row says now.
fn as_frozen(mut raffle: Raffle, commitment: Option<&Commitment>) -> Raffle {
    if let Some(commitment) = commitment {
        raffle.max_tickets = commitment.max_tickets;
    }
    raffle
}

/// A frozen ledger with its tree, built once: every buyer's message needs proofs from it, and
/// a frozen ledger never changes.
pub struct FrozenLedger {
    pub entries: Vec<LedgerEntry>,
    pub tree: MerkleTree,
}

impl FrozenLedger {
    #[must_use]
    pub fn over(entries: Vec<LedgerEntry>) -> Self {
        Self {
            tree: MerkleTree::over(&entries),
            entries,
        }
    }
}

/// The numbers the purchase `reference` holds in `ledger` under `salt`, each with its
/// inclusion proof, and the purchase's tag.
#[must_use]
pub fn inclusion_proofs(
    salt: &[u8],
    ledger: &FrozenLedger,
    reference: &str,
) -> (Hash, Vec<InclusionProof>) {
    let tag = purchase_tag(salt, reference);
    let tree = &ledger.tree;
    let proofs = ledger
        .entries
        .iter()
        .enumerate()
        .filter(|(_, entry)| entry.tag == tag)
        .filter_map(|(index, entry)| {
            Some(InclusionProof {
                number: entry.number,
                index: u64::try_from(index).ok()?,
                path: tree.inclusion_proof(index)?,
            })
        })
        .collect();
    (tag, proofs)
}

/// The ledger of `sold` under `salt`: sorted by number, each number with its purchase's tag.
#[must_use]
pub fn build_ledger(salt: &[u8], sold: &[SoldNumber]) -> BuiltLedger {
    let mut entries: Vec<LedgerEntry> = sold
        .iter()
        .map(|s| LedgerEntry {
            number: s.number,
            tag: purchase_tag(salt, &s.reference),
        })
        .collect();
    entries.sort_unstable();
    let root = MerkleTree::over(&entries).root();
    BuiltLedger { entries, root }
}

impl<S, G, B, R, C> Draws<S, G, B, R, C>
where
    S: DrawRepository + RaffleRepository + SettingsRepository,
    G: SaltGenerator,
    B: BeaconSource,
    R: CertificateRenderer,
    C: Clock,
{
    async fn raffle(&self, raffle: RaffleId) -> Result<Raffle, DrawError> {
        self.store
            .raffle_terms(raffle)
            .await?
            .ok_or(DrawError::RaffleNotFound)
    }

    /// The frozen rule once frozen, the raffle's current one before.
    async fn rule_of(
        &self,
        raffle: RaffleId,
        commitment: Option<&Commitment>,
    ) -> Result<Rule, DrawError> {
        Ok(match commitment {
            Some(commitment) => commitment.rule,
            None => self.store.draw_rule(raffle).await?,
        })
    }

    async fn admin_view_of(&self, raffle: Raffle) -> Result<AdminDraw, DrawError> {
        let commitment = self.store.commitment(raffle.id).await?;
        let rule = self.rule_of(raffle.id, commitment.as_ref()).await?;
        let raffle = as_frozen(raffle, commitment.as_ref());
        let pending = if commitment.is_some() {
            Vec::new()
        } else {
            self.store
                .undecided_purchases(raffle.id, PENDING_LISTED)
                .await?
        };
        let now = now(&self.clock);
        let prizes = self.store.prizes(raffle.id).await?;
        Ok(AdminDraw {
            sales_open: raffle.sales_open(now),
            rules_locked: commitment.is_some() || self.store.rules_locked(raffle.id).await?,
            pending,
            awaiting: commitment
                .as_ref()
                .and_then(|commitment| awaiting(commitment, &prizes, now)),
            commitment,
            prizes,
            rule,
            raffle,
            now,
        })
    }

    /// The raffle as frozen, its commitment, and its prizes with the index of `prize`, which is
    /// not drawn yet.
    async fn undrawn(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
    ) -> Result<(Raffle, Commitment, Vec<PrizeRecord>, usize), DrawError> {
        let raffle = self.raffle(raffle).await?;
        let (prizes, index) = self.prize_of(raffle.id, prize).await?;
        if prizes[index].draw.is_some() {
            return Err(DrawError::AlreadyDrawn);
        }
        let commitment = self.store.commitment(raffle.id).await?;
        let Some(commitment) = commitment else {
            return Err(DrawError::NotFrozen);
        };
        Ok((
            as_frozen(raffle, Some(&commitment)),
            commitment,
            prizes,
            index,
        ))
    }

    async fn prize_of(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
    ) -> Result<(Vec<PrizeRecord>, usize), DrawError> {
        let prizes = self.store.prizes(raffle).await?;
        let index = prizes
            .iter()
            .position(|p| p.id == prize)
            .ok_or(DrawError::PrizeNotFound)?;
        Ok((prizes, index))
    }
}

#[async_trait::async_trait]
impl<S, G, B, R, C> DrawService for Draws<S, G, B, R, C>
where
    S: DrawRepository + RaffleRepository + SettingsRepository,
    G: SaltGenerator,
    B: BeaconSource,
    R: CertificateRenderer,
    C: Clock,
{
    async fn admin_draw(&self, raffle: RaffleId) -> Result<AdminDraw, DrawError> {
        let raffle = self.raffle(raffle).await?;
        self.admin_view_of(raffle).await
    }

    async fn public_draw(&self, raffle: RaffleId) -> Result<PublicDraw, DrawError> {
        let raffle = Some(self.raffle(raffle).await?)
            .filter(|r| r.status.is_publicly_visible())
            .ok_or(DrawError::RaffleNotFound)?;
        let commitment = self.store.commitment(raffle.id).await?;
        Ok(PublicDraw {
            rule: self.rule_of(raffle.id, commitment.as_ref()).await?,
            prizes: self.store.prizes(raffle.id).await?,
            raffle: as_frozen(raffle, commitment.as_ref()),
            commitment,
        })
    }

    async fn published_ledger(&self, raffle: RaffleId) -> Result<PublishedLedger, DrawError> {
        let PublicDraw {
            raffle,
            rule,
            commitment,
            prizes,
        } = self.public_draw(raffle).await?;
        let commitment = commitment.ok_or(DrawError::NotFrozen)?;
        Ok(PublishedLedger {
            entries: self.store.ledger_entries(raffle.id).await?,
            rule,
            raffle,
            commitment,
            prizes,
        })
    }

    async fn set_prizes(
        &self,
        raffle: RaffleId,
        rule: Option<&str>,
        prizes: &[PrizeInput],
        by: &Actor,
    ) -> Result<AdminDraw, DrawError> {
        let raffle = self.raffle(raffle).await?;
        let current = self.store.draw_rule(raffle.id).await?;
        let chosen = match rule {
            None => current,
            Some(raw) => Rule::parse_offered(raw)
                .map_err(|e| DrawError::Invalid(FieldErrors::single("rule", e)))?,
        };
        let drafts = PrizeDraft::parse_all(prizes).map_err(DrawError::Invalid)?;
        PrizeDraft::check_after_close(&drafts, raffle.sales_close_at())
            .map_err(DrawError::Invalid)?;
        PrizeDraft::check_digits(&drafts, chosen, raffle.max_tickets)
            .map_err(DrawError::Invalid)?;
        let before =
            PrizeDraft::titles(self.store.prizes(raffle.id).await?.iter().map(|p| &p.prize));
        let mut changes = vec![Change::new(
            "prizes",
            before,
            PrizeDraft::titles(drafts.iter()),
        )];
        if chosen != current {
            changes.push(Change::new(
                "rule",
                Some(current.as_str().to_owned()),
                Some(chosen.as_str().to_owned()),
            ));
        }
        let entry = self.entry(
            by,
            AuditAction::DrawPrizesSet,
            format!("raffle:{}", raffle.id.get()),
            changes,
        );
        self.store
            .replace_prizes(raffle.id, chosen, &drafts, &entry)
            .await?;
        self.admin_view_of(raffle).await
    }

    async fn freeze(&self, raffle: RaffleId, by: &Actor) -> Result<AdminDraw, DrawError> {
        let raffle = self.raffle(raffle).await?;
        let at = now(&self.clock);
        if raffle.sales_open(at) {
            return Err(DrawError::SalesStillOpen {
                closes_at: raffle.sales_close_at(),
            });
        }
        let prizes = self.store.prizes(raffle.id).await?;
        if prizes.is_empty() {
            return Err(DrawError::NoPrizes);
        }
        // Every source draws strictly after the freeze, with a margin: nobody can know a
        // result while the list it decides on is being fixed.
        if let Some(early) = prizes
            .iter()
            .find(|p| p.prize.source.draws_at() <= at + FREEZE_MARGIN)
        {
            let position = early.position;
            return Err(match early.prize.source {
                PrizeSource::Beacon { round } => DrawError::BeaconRoundTooEarly { position, round },
                PrizeSource::Lottery { .. } => DrawError::SourceDrawsBeforeFreeze {
                    position,
                    draws_at: early.prize.source.draws_at(),
                    local: early.prize.source.local_time(early.prize.source.draws_at()),
                },
            });
        }
        let salt = self.salts.salt();
        let build = |sold: &[SoldNumber]| build_ledger(&salt, sold);
        // The root joins the trail in the freeze's own transaction: a ledger changed in the
        // database afterwards no longer matches the root the chain pins.
        let entry = |commitment: &Commitment| AuditEntry {
            at,
            actor: by.clone(),
            action: AuditAction::DrawLedgerFrozen,
            target: Some(format!("raffle:{}", raffle.id.get())),
            changes: vec![
                Change::new("root", None, Some(to_hex(&commitment.root))),
                Change::new("size", None, Some(commitment.size.to_string())),
            ],
        };
        match self
            .store
            .freeze_ledger(raffle.id, salt, at, &build, &entry)
            .await
        {
            Ok(commitment) => {
                self.mail_signal.queued();
                tracing::info!(
                    raffle.id = raffle.id.get(),
                    size = commitment.size,
                    "ledger frozen"
                );
            }
            Err(FreezeError::PurchasesPending(pending)) => {
                return Err(DrawError::PurchasesPending(pending));
            }
            Err(FreezeError::AlreadyFrozen) => return Err(DrawError::AlreadyFrozen),
            Err(FreezeError::NothingSold) => return Err(DrawError::NothingSold),
            Err(FreezeError::Unknown(e)) => return Err(e.into()),
        }
        self.admin_view_of(raffle).await
    }

    async fn draw_from_lottery(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        input: &LotteryResultInput,
        by: &Actor,
    ) -> Result<AdminDraw, DrawError> {
        let checked = self.lottery_result(raffle, prize, input).await?;
        let record = &checked.prizes[checked.index];
        self.record(&checked.raffle, record, 0, checked.result, by)
            .await?;
        self.settle(&checked.raffle, &checked.commitment, by)
            .await?;
        self.admin_view_of(checked.raffle).await
    }

    async fn preview_lottery(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        input: &LotteryResultInput,
    ) -> Result<Vec<PreviewedPrize>, DrawError> {
        let LotteryResult {
            raffle,
            commitment,
            mut prizes,
            index,
            result,
        } = self.lottery_result(raffle, prize, input).await?;
        if prizes[index].results.iter().any(|r| r.source == 0) {
            return Err(DrawError::ResultAlreadyRecorded);
        }
        let at = now(&self.clock);
        prizes[index].results.push(RecordedResult {
            source: 0,
            result,
            recorded_at: at,
        });
        let mut previewed = Vec::new();
        for (index, settlement) in self
            .settlements(raffle.id, &commitment, &prizes, at)
            .await?
        {
            let outcome = match settlement {
                Settlement::Awaiting { source, .. } => Previewed::Awaiting {
                    source: u32::try_from(source).unwrap_or(u32::MAX),
                },
                Settlement::Decided { winner: None, .. } => Previewed::NoWinner,
                Settlement::Decided {
                    winner: Some(number),
                    ..
                } => {
                    let holder = self.store.holder_of(raffle.id, number).await?;
                    Previewed::Winner {
                        number,
                        public_name: holder
                            .map(|h| public_name(&h.customer_name))
                            .unwrap_or_default(),
                    }
                }
            };
            previewed.push(PreviewedPrize {
                prize: prizes[index].id,
                position: prizes[index].position,
                title: prizes[index].prize.title.clone(),
                outcome,
            });
        }
        Ok(previewed)
    }

    async fn draw_from_beacon(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        signature: Option<&str>,
        by: &Actor,
    ) -> Result<AdminDraw, DrawError> {
        let (raffle, commitment, prizes, index) = self.undrawn(raffle, prize).await?;
        let record = &prizes[index];
        let Some((source, round)) = chain(commitment.rule, &record.prize.source)
            .iter()
            .enumerate()
            .find_map(|(i, link)| match link {
                PrizeSource::Beacon { round } => Some((i, *round)),
                PrizeSource::Lottery { .. } => None,
            })
        else {
            return Err(DrawError::WrongSource);
        };
        let signature = match signature.map(str::trim).filter(|s| !s.is_empty()) {
            Some(hex) => bytes_from_hex(hex).ok_or(DrawError::BeaconSignatureInvalid { round })?,
            None => {
                let at = round_time(round);
                if at > now(&self.clock) {
                    return Err(DrawError::BeaconRoundNotYet { round, at });
                }
                self.beacon
                    .signature_of(round)
                    .await
                    .map_err(|BeaconFetchError::Unavailable(e)| DrawError::BeaconUnavailable(e))?
            }
        };
        let randomness = verify_quicknet(round, &signature)
            .map_err(|_| DrawError::BeaconSignatureInvalid { round })?;
        let result = PrizeResult::Beacon {
            round,
            randomness,
            signature,
        };
        let source = u32::try_from(source).unwrap_or(u32::MAX);
        self.record(&raffle, record, source, result, by).await?;
        self.settle(&raffle, &commitment, by).await?;
        self.admin_view_of(raffle).await
    }

    async fn mark_delivered(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        photo: Option<&str>,
        by: &Actor,
    ) -> Result<AdminDraw, DrawError> {
        let raffle = self.raffle(raffle).await?;
        let (prizes, index) = self.prize_of(raffle.id, prize).await?;
        if prizes[index].draw.is_none() {
            return Err(DrawError::NotDrawn);
        }
        let photo = match photo.map(str::trim).filter(|p| !p.is_empty()) {
            None => None,
            Some(raw) => Some(
                web_url(raw, PHOTO_URL_MAX)
                    .map_err(|e| DrawError::Invalid(FieldErrors::single("photo", e)))?,
            ),
        };
        let delivery = PrizeDelivery {
            delivered_at: now(&self.clock),
            photo,
        };
        let entry = self.entry(
            by,
            AuditAction::DrawPrizeDelivered,
            format!("prize:{}", prize.get()),
            vec![Change::new("photo", None, delivery.photo.clone())],
        );
        match self.store.record_delivery(prize, &delivery, &entry).await {
            Ok(()) => {}
            Err(RecordDeliveryError::AlreadyDelivered) => return Err(DrawError::AlreadyDelivered),
            Err(RecordDeliveryError::Unknown(e)) => return Err(e.into()),
        }
        self.admin_view_of(raffle).await
    }

    async fn recent_winners(&self) -> anyhow::Result<Vec<RecentWinner>> {
        self.store.recent_winners(RECENT_WINNERS).await
    }

    async fn certificate(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        lang: Lang,
    ) -> Result<Vec<u8>, DrawError> {
        let PublicDraw {
            raffle,
            commitment,
            prizes,
            ..
        } = self.public_draw(raffle).await?;
        let record = prizes
            .iter()
            .find(|p| p.id == prize)
            .ok_or(DrawError::PrizeNotFound)?;
        let commitment = commitment.ok_or(DrawError::NotDrawn)?;
        let company = self
            .store
            .branding()
            .await?
            .unwrap_or_default()
            .company_name;
        let certificate = certificate_of(&raffle, &commitment, record, company, lang, &self.links)
            .ok_or(DrawError::NotDrawn)?;
        let renderer = Arc::clone(&self.certificates);
        Ok(self
            .cpu
            .run(move || renderer.render_certificate(&certificate))
            .await??)
    }
}

impl<S, G, B, R, C> Draws<S, G, B, R, C>
where
    S: DrawRepository + RaffleRepository + SettingsRepository,
    G: SaltGenerator,
    B: BeaconSource,
    R: CertificateRenderer,
    C: Clock,
{
    /// An entry of the trail for an action of `by` on `target`, now.
    fn entry(
        &self,
        by: &Actor,
        action: AuditAction,
        target: String,
        changes: Vec<Change>,
    ) -> AuditEntry {
        AuditEntry {
            at: now(&self.clock),
            actor: by.clone(),
            action,
            target: Some(target),
            changes,
        }
    }

    /// A lottery result for `prize` checked as recording it would check it: the prize's
    /// source is a lottery that has drawn and whose deadline has not passed, and the result
    /// reads as its rule reads it.
    async fn lottery_result(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        input: &LotteryResultInput,
    ) -> Result<LotteryResult, DrawError> {
        let (raffle, commitment, prizes, index) = self.undrawn(raffle, prize).await?;
        let source = &prizes[index].prize.source;
        let PrizeSource::Lottery { draw_date, .. } = source else {
            return Err(DrawError::WrongSource);
        };
        let at = now(&self.clock);
        if at < source.draws_at() {
            return Err(DrawError::SourceNotDrawnYet {
                draws_at: source.draws_at(),
                local: source.local_time(source.draws_at()),
            });
        }
        if let [_, PrizeSource::Beacon { round }] = chain(commitment.rule, source)[..]
            && let Some(deadline) = source.deadline().filter(|deadline| at > *deadline)
        {
            return Err(DrawError::SourceDeadlinePassed {
                deadline,
                local: source.local_time(deadline),
                round,
            });
        }
        let result = PrizeResult::parse_lottery(
            input.result.as_deref(),
            input.published_on.as_deref(),
            input.official_url.as_deref(),
            ResultReading::of(source, commitment.rule, commitment.max_tickets),
            (*draw_date, source.today(at)),
        )
        .map_err(DrawError::Invalid)?;
        Ok(LotteryResult {
            raffle,
            commitment,
            prizes,
            index,
            result,
        })
    }

    /// How the open prizes settle at `at` from what their sources gave, in order.
    async fn settlements(
        &self,
        raffle: RaffleId,
        commitment: &Commitment,
        prizes: &[PrizeRecord],
        at: DateTime<Utc>,
    ) -> Result<Vec<(usize, Settlement)>, DrawError> {
        let progress: Vec<PrizeProgress> = prizes
            .iter()
            .map(|record| match &record.draw {
                Some(draw) => PrizeProgress::Decided(draw.winning_number),
                None => PrizeProgress::Open(links(commitment, record, at)),
            })
            .collect();
        if !progress.iter().any(|p| matches!(p, PrizeProgress::Open(_))) {
            return Ok(Vec::new());
        }
        let sold: BTreeSet<u32> = self
            .store
            .ledger_entries(raffle)
            .await?
            .iter()
            .map(|entry| entry.number)
            .collect();
        Ok(
            settle_in_order(commitment.rule, commitment.max_tickets, &sold, &progress).map_err(
                |(index, e)| {
                    anyhow::anyhow!("prize {}'s recorded result is unreadable: {e:?}", index + 1)
                },
            )?,
        )
    }

    /// Records what source `source` of the prize `record` gave.
    async fn record(
        &self,
        raffle: &Raffle,
        record: &PrizeRecord,
        source: u32,
        result: PrizeResult,
        by: &Actor,
    ) -> Result<(), DrawError> {
        let entry = self.entry(
            by,
            AuditAction::DrawResultRecorded,
            format!("prize:{}", record.id.get()),
            vec![Change::new("result", None, Some(result_text(&result)))],
        );
        let recorded = RecordedResult {
            source,
            result,
            recorded_at: now(&self.clock),
        };
        match self
            .store
            .record_result(raffle.id, record.id, &recorded, &entry)
            .await
        {
            Ok(()) => Ok(()),
            Err(RecordResultError::AlreadyRecorded) => Err(DrawError::ResultAlreadyRecorded),
            Err(RecordResultError::Unknown(e)) => Err(e.into()),
        }
    }

    /// Draws every prize whose chain now decides, in order: the prizes before it drawn (their
    /// winners cannot win again). Settling is deterministic, so two settling at once write the
    /// same draws and the second finds them written.
    async fn settle(
        &self,
        raffle: &Raffle,
        commitment: &Commitment,
        by: &Actor,
    ) -> Result<(), DrawError> {
        let prizes = self.store.prizes(raffle.id).await?;
        let at = now(&self.clock);
        let settled = self.settlements(raffle.id, commitment, &prizes, at).await?;
        let drawn_after: BTreeSet<usize> = settled
            .iter()
            .filter(|(_, s)| matches!(s, Settlement::Decided { .. }))
            .map(|(index, _)| *index)
            .chain(
                prizes
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.draw.is_some())
                    .map(|(index, _)| index),
            )
            .collect();
        let last_drawn = (drawn_after.len() == prizes.len())
            .then(|| drawn_after.last().copied())
            .flatten();
        for (index, settlement) in settled {
            let Settlement::Decided {
                source,
                drawn,
                winner,
                steps,
            } = settlement
            else {
                continue;
            };
            let record = &prizes[index];
            let source = u32::try_from(source).unwrap_or(u32::MAX);
            let result = record
                .results
                .iter()
                .find(|r| r.source == source)
                .map(|r| r.result.clone())
                .ok_or_else(|| anyhow::anyhow!("the deciding source {source} has no result"))?;
            let holder = match winner {
                Some(number) => Some(
                    self.store
                        .holder_of(raffle.id, number)
                        .await?
                        .ok_or_else(|| {
                            anyhow::anyhow!(
                                "number {number} is in the ledger but no purchase holds it"
                            )
                        })?
                        .purchase,
                ),
                None => None,
            };
            let draw = PrizeDraw {
                source,
                result,
                drawn_number: drawn,
                winning_number: winner,
                steps,
                drawn_at: at,
                winner: None,
            };
            // The last prize drawn finishes the raffle: it leaves every list of raffles on sale.
            let finishes = last_drawn == Some(index);
            let mut changes = vec![
                Change::new("result", None, Some(result_text(&draw.result))),
                Change::new(
                    "winningNumber",
                    None,
                    draw.winning_number.map(|n| n.to_string()),
                ),
            ];
            if finishes {
                changes.push(Change::new(
                    "status",
                    Some(raffle.status.as_str().to_owned()),
                    Some(RaffleStatus::Finished.as_str().to_owned()),
                ));
            }
            let entry = self.entry(
                by,
                AuditAction::DrawPrizeDrawn,
                format!("prize:{}", record.id.get()),
                changes,
            );
            match self
                .store
                .record_draw(raffle.id, record.id, &draw, holder, finishes, &entry)
                .await
            {
                Ok(()) => {
                    self.mail_signal.queued();
                    tracing::info!(
                        raffle.id = raffle.id.get(),
                        prize.position = record.position,
                        source,
                        winner = ?draw.winning_number,
                        "prize drawn"
                    );
                }
                Err(RecordDrawError::AlreadyDrawn) => {}
                Err(RecordDrawError::Unknown(e)) => return Err(e.into()),
            }
        }
        Ok(())
    }
}

/// A lottery result checked for recording, with what it is recorded against.
struct LotteryResult {
    raffle: Raffle,
    commitment: Commitment,
    prizes: Vec<PrizeRecord>,
    index: usize,
    result: PrizeResult,
}

/// The sources a prize is drawn from under `rule`, in order: the first rule has none but the
/// prize's own.
fn chain(rule: Rule, source: &PrizeSource) -> Vec<PrizeSource> {
    match rule {
        Rule::UpwardV1 => vec![source.clone()],
        Rule::NumberV2 | Rule::AmongSoldV2 => source.chain(),
    }
}

/// What each source of `record`'s chain gave by `at`: its recorded result, a lapse once its
/// deadline passed without one, or nothing yet.
fn links(commitment: &Commitment, record: &PrizeRecord, at: DateTime<Utc>) -> Vec<ChainLink> {
    let sources = chain(commitment.rule, &record.prize.source);
    let last = sources.len().saturating_sub(1);
    sources
        .iter()
        .enumerate()
        .map(|(index, source)| {
            let recorded = record
                .results
                .iter()
                .find(|r| usize::try_from(r.source).ok() == Some(index));
            let state = match (recorded, source.deadline()) {
                (Some(r), _) => SourceState::Recorded(r.result.input()),
                (None, Some(deadline)) if index < last && at > deadline => {
                    SourceState::Lapsed { deadline }
                }
                (None, _) => SourceState::Awaited,
            };
            ChainLink {
                digits: source.digits_read(commitment.rule, commitment.max_tickets),
                state,
            }
        })
        .collect()
}

/// The first prize not drawn and the source it waits for: earlier prizes are all drawn (each
/// result settles what it can), so it waits for the first link of its chain still awaited.
fn awaiting(
    commitment: &Commitment,
    prizes: &[PrizeRecord],
    at: DateTime<Utc>,
) -> Option<(PrizeId, u32)> {
    let record = prizes.iter().find(|p| p.draw.is_none())?;
    let source = links(commitment, record, at)
        .iter()
        .position(|link| link.state == SourceState::Awaited)?;
    Some((record.id, u32::try_from(source).ok()?))
}

/// A result as the trail shows it: the lottery's number, or the beacon's round.
fn result_text(result: &PrizeResult) -> String {
    match result {
        PrizeResult::Lottery { result, .. } => result.clone(),
        PrizeResult::Beacon { round, .. } => format!("drand round {round}"),
    }
}
