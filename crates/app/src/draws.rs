//! The verifiable draw (issue 15, decision 0020): a raffle's prizes and their public sources,
//! locked by the first purchase; the ledger frozen when sales close; each prize drawn from its
//! result by the published rule; the claim window and the delivery; and what anyone needs to
//! check all of it.

use std::collections::BTreeSet;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use rifa_domain::audit::{Actor, AuditAction, AuditEntry, Change};
use rifa_domain::draw::beacon::{round_time, verify_quicknet};
use rifa_domain::draw::ledger::Hash;
use rifa_domain::draw::ledger::{LedgerEntry, MerkleTree, bytes_from_hex, purchase_tag, to_hex};
use rifa_domain::draw::prize::public_name;
use rifa_domain::draw::prize::{FREEZE_MARGIN, PrizeDraft, PrizeInput, PrizeResult, PrizeSource};
use rifa_domain::draw::rule;
use rifa_domain::id::PrizeId;
use rifa_domain::raffle::{Raffle, RaffleId};
use rifa_domain::validation::web_url;
use rifa_domain::{FieldErrors, Lang};
use rifa_ports::outbound::{CertificateRenderer, DrawCertificate, InclusionProof};
use rifa_ports::{
    BeaconFetchError, BeaconSource, BuiltLedger, Clock, Commitment, DrawRepository, FreezeError,
    PrizeDelivery, PrizeDraw, PrizeRecord, RaffleRepository, RecentWinner, RecordDeliveryError,
    RecordDrawError, ReplacePrizesError, SaltGenerator, SettingsRepository, SoldNumber,
    UndecidedPurchase,
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
    /// Prizes are drawn in order; this one's turn has not come.
    #[error("prize {position} is not drawn yet")]
    EarlierPrizeNotDrawn { position: u32 },
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
    pub sales_open: bool,
    /// A real purchase exists or the ledger is frozen: the prizes can no longer change.
    pub rules_locked: bool,
    /// Empty once frozen: none can be pending then.
    pub pending: Vec<UndecidedPurchase>,
    pub commitment: Option<Commitment>,
    pub prizes: Vec<PrizeRecord>,
    pub now: DateTime<Utc>,
}

/// A raffle's draw as its page shows it (winners' contacts are the edge's to leave out).
#[derive(Debug, Clone, PartialEq)]
pub struct PublicDraw {
    pub raffle: Raffle,
    pub commitment: Option<Commitment>,
    pub prizes: Vec<PrizeRecord>,
}

/// Everything a third party needs to check the draw.
#[derive(Debug, Clone, PartialEq)]
pub struct PublishedLedger {
    pub raffle: Raffle,
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

    /// Replaces the raffle's prizes (in order) while no real purchase exists.
    ///
    /// # Errors
    /// `RaffleNotFound`, `Invalid`, `RulesLocked`, or a storage failure.
    async fn set_prizes(
        &self,
        raffle: RaffleId,
        prizes: &[PrizeInput],
        by: &Actor,
    ) -> Result<AdminDraw, DrawError>;

    /// Freezes the ledger: after sales close, with every purchase decided.
    ///
    /// # Errors
    /// `RaffleNotFound`, `SalesStillOpen`, `NoPrizes`, `PurchasesPending`, `AlreadyFrozen`,
    /// `NothingSold`, or a storage failure.
    async fn freeze(&self, raffle: RaffleId, by: &Actor) -> Result<AdminDraw, DrawError>;

    /// Draws a lottery prize from its published result.
    ///
    /// # Errors
    /// `RaffleNotFound`, `PrizeNotFound`, `NotFrozen`, `WrongSource`, `EarlierPrizeNotDrawn`,
    /// `AlreadyDrawn`, `Invalid`, or a storage failure.
    async fn draw_from_lottery(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        input: &LotteryResultInput,
        by: &Actor,
    ) -> Result<AdminDraw, DrawError>;

    /// Draws a beacon prize from its announced drand round: the `signature` an admin pasted
    /// (hex), or the round fetched from the relay when `None`; verified either way.
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

    async fn admin_view_of(&self, raffle: Raffle) -> Result<AdminDraw, DrawError> {
        let commitment = self.store.commitment(raffle.id).await?;
        let raffle = as_frozen(raffle, commitment.as_ref());
        let pending = if commitment.is_some() {
            Vec::new()
        } else {
            self.store
                .undecided_purchases(raffle.id, PENDING_LISTED)
                .await?
        };
        let now = now(&self.clock);
        Ok(AdminDraw {
            sales_open: raffle.sales_open(now),
            rules_locked: commitment.is_some() || self.store.rules_locked(raffle.id).await?,
            pending,
            commitment,
            prizes: self.store.prizes(raffle.id).await?,
            raffle,
            now,
        })
    }

    /// The raffle as frozen and its prizes with the index of `prize`, which is not drawn yet.
    async fn undrawn(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
    ) -> Result<(Raffle, Vec<PrizeRecord>, usize), DrawError> {
        let raffle = self.raffle(raffle).await?;
        let (prizes, index) = self.prize_of(raffle.id, prize).await?;
        if prizes[index].draw.is_some() {
            return Err(DrawError::AlreadyDrawn);
        }
        let commitment = self.store.commitment(raffle.id).await?;
        let Some(commitment) = commitment else {
            return Err(DrawError::NotFrozen);
        };
        Ok((as_frozen(raffle, Some(&commitment)), prizes, index))
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
            prizes: self.store.prizes(raffle.id).await?,
            raffle: as_frozen(raffle, commitment.as_ref()),
            commitment,
        })
    }

    async fn published_ledger(&self, raffle: RaffleId) -> Result<PublishedLedger, DrawError> {
        let PublicDraw {
            raffle,
            commitment,
            prizes,
        } = self.public_draw(raffle).await?;
        let commitment = commitment.ok_or(DrawError::NotFrozen)?;
        Ok(PublishedLedger {
            entries: self.store.ledger_entries(raffle.id).await?,
            raffle,
            commitment,
            prizes,
        })
    }

    async fn set_prizes(
        &self,
        raffle: RaffleId,
        prizes: &[PrizeInput],
        by: &Actor,
    ) -> Result<AdminDraw, DrawError> {
        let raffle = self.raffle(raffle).await?;
        let drafts = PrizeDraft::parse_all(prizes).map_err(DrawError::Invalid)?;
        PrizeDraft::check_after_close(&drafts, raffle.sales_close_at())
            .map_err(DrawError::Invalid)?;
        let before =
            PrizeDraft::titles(self.store.prizes(raffle.id).await?.iter().map(|p| &p.prize));
        let entry = self.entry(
            by,
            AuditAction::DrawPrizesSet,
            format!("raffle:{}", raffle.id.get()),
            vec![Change::new(
                "prizes",
                before,
                PrizeDraft::titles(drafts.iter()),
            )],
        );
        self.store
            .replace_prizes(raffle.id, &drafts, &entry)
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
        let (raffle, prizes, index) = self.undrawn(raffle, prize).await?;
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
        let result = PrizeResult::parse_lottery(
            input.result.as_deref(),
            input.published_on.as_deref(),
            input.official_url.as_deref(),
            raffle.max_tickets,
            (*draw_date, source.today(at)),
        )
        .map_err(DrawError::Invalid)?;
        self.draw_prize(&raffle, &prizes, index, result, by).await?;
        self.admin_view_of(raffle).await
    }

    async fn draw_from_beacon(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        signature: Option<&str>,
        by: &Actor,
    ) -> Result<AdminDraw, DrawError> {
        let (raffle, prizes, index) = self.undrawn(raffle, prize).await?;
        let PrizeSource::Beacon { round } = prizes[index].prize.source else {
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
        self.draw_prize(&raffle, &prizes, index, result, by).await?;
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

    /// Applies the rule to the prize at `index` of `raffle` (as frozen) and records the
    /// outcome: the prizes before it drawn (their winners cannot win again).
    async fn draw_prize(
        &self,
        raffle: &Raffle,
        prizes: &[PrizeRecord],
        index: usize,
        result: PrizeResult,
        by: &Actor,
    ) -> Result<(), DrawError> {
        if let Some(earlier) = prizes[..index].iter().find(|p| p.draw.is_none()) {
            return Err(DrawError::EarlierPrizeNotDrawn {
                position: earlier.position,
            });
        }
        let already_won: BTreeSet<u32> = prizes[..index]
            .iter()
            .filter_map(|p| p.draw.as_ref().and_then(|d| d.winning_number))
            .collect();
        let sold: BTreeSet<u32> = self
            .store
            .ledger_entries(raffle.id)
            .await?
            .iter()
            .map(|entry| entry.number)
            .collect();
        let outcome = rule::apply(&result.input(), raffle.max_tickets, &sold, &already_won)
            .map_err(|e| DrawError::Invalid(FieldErrors::single("result", e)))?;
        let holder = match outcome.winner {
            Some(number) => Some(self.store.holder_of(raffle.id, number).await?.ok_or_else(
                || anyhow::anyhow!("number {number} is in the ledger but no purchase holds it"),
            )?),
            None => None,
        };
        let draw = PrizeDraw {
            result,
            drawn_number: outcome.drawn,
            winning_number: outcome.winner,
            steps: outcome.steps,
            drawn_at: now(&self.clock),
            winner: None,
        };
        let entry = self.entry(
            by,
            AuditAction::DrawPrizeDrawn,
            format!("prize:{}", prizes[index].id.get()),
            vec![
                Change::new("result", None, Some(result_text(&draw.result))),
                Change::new(
                    "winningNumber",
                    None,
                    draw.winning_number.map(|n| n.to_string()),
                ),
            ],
        );
        match self
            .store
            .record_draw(raffle.id, prizes[index].id, &draw, holder, &entry)
            .await
        {
            Ok(()) => {
                self.mail_signal.queued();
                tracing::info!(
                    raffle.id = raffle.id.get(),
                    prize.position = prizes[index].position,
                    winner = ?draw.winning_number,
                    "prize drawn"
                );
                Ok(())
            }
            Err(RecordDrawError::AlreadyDrawn) => Err(DrawError::AlreadyDrawn),
            Err(RecordDrawError::Unknown(e)) => Err(e.into()),
        }
    }
}

/// Prizes' titles as the trail shows them; `None` for none.
/// A result as the trail shows it: the lottery's number, or the beacon's round.
fn result_text(result: &PrizeResult) -> String {
    match result {
        PrizeResult::Lottery { result, .. } => result.clone(),
        PrizeResult::Beacon { round, .. } => format!("drand round {round}"),
    }
}
