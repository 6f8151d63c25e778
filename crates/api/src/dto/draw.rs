//! The verifiable draw's shapes (decision 0020). The published ledger (`PublishedDrawDto`) is
//! also what `rifa-api verify-draw` reads back, so it deserialises too.

use chrono::{DateTime, Utc};
use rifa_app::draws::{AdminDraw, Previewed, PreviewedPrize, PublicDraw, PublishedLedger};
use rifa_domain::draw::fair::Rule;
use rifa_domain::draw::ledger::{LedgerEntry, bytes_from_hex, hash_from_hex, to_hex};
use rifa_domain::draw::prize::{
    DEFAULT_DEADLINE_HOURS, DEFAULT_TIME_ZONE, MAX_DEADLINE_HOURS, PrizeInput, PrizeResult,
    PrizeSource, PrizeSourceInput, claim_days_left, claim_deadline, public_name,
};
use rifa_domain::draw::rule::{DrawInput, DrawStep, digits_used};
use rifa_domain::draw::verify::{PublishedDraw, PublishedPrize, PublishedResult};
use rifa_ports::{
    Commitment, PrizeDraw, PrizeRecord, RecentWinner, RecordedResult, UndecidedPurchase, Winner,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::instant;

/// The published file's format name: `rifa-draw-v2` names the rule and each source's result.
pub const LEDGER_FORMAT: &str = "rifa-draw-v2";
/// The first format, still read: its raffles are drawn by `rifa-rule-v1` from one source each.
pub const FIRST_LEDGER_FORMAT: &str = "rifa-draw-v1";

/// Where a prize's winning number comes from, fixed before sales close.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum PrizeSourceDto {
    /// A national lottery's draw: the last digits of its result.
    #[serde(rename_all = "camelCase")]
    Lottery {
        lottery_name: String,
        /// `YYYY-MM-DD`.
        draw_date: String,
        /// `HH:MM` on the lottery's own clock (absent in files published before it was kept).
        #[serde(default)]
        draw_time: String,
        /// The IANA name of that clock (`America/Caracas`).
        #[serde(default)]
        time_zone: String,
        /// The same instant in UTC: the list must be frozen before it.
        #[serde(default)]
        draws_at: String,
        source_url: String,
        /// How many of a result's last digits `rifa-among-sold-v2` reads; absent is as many as
        /// the raffle's size has (what `rifa-number-v2` always reads).
        #[serde(default)]
        digits: Option<u32>,
        /// Hours after the draw its result may be recorded (24 when absent).
        #[serde(default)]
        deadline_hours: Option<u32>,
        /// The instant of that deadline, UTC: past it the prize's drand round decides.
        #[serde(default)]
        deadline: String,
        /// The drand round that decides when the lottery's result names no number in play or
        /// misses its deadline: the first round published ten minutes or more after it.
        #[serde(default)]
        fallback_round: Option<u64>,
    },
    /// A drand "quicknet" round.
    Beacon { round: u64 },
}

impl From<&PrizeSource> for PrizeSourceDto {
    fn from(source: &PrizeSource) -> Self {
        match source {
            PrizeSource::Lottery {
                lottery_name,
                draw_date,
                draw_time,
                time_zone,
                source_url,
                digits,
                deadline_hours,
            } => Self::Lottery {
                lottery_name: lottery_name.clone(),
                draw_date: draw_date.to_string(),
                draw_time: draw_time.format("%H:%M").to_string(),
                time_zone: time_zone.name().to_owned(),
                draws_at: instant(source.draws_at()),
                source_url: source_url.clone(),
                digits: *digits,
                deadline_hours: Some(*deadline_hours),
                deadline: source.deadline().map(instant).unwrap_or_default(),
                fallback_round: source.chain().iter().find_map(|link| match link {
                    PrizeSource::Beacon { round } => Some(*round),
                    PrizeSource::Lottery { .. } => None,
                }),
            },
            PrizeSource::Beacon { round } => Self::Beacon { round: *round },
        }
    }
}

/// The result a prize was drawn from.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum PrizeResultDto {
    #[serde(rename_all = "camelCase")]
    Lottery {
        result: String,
        /// `YYYY-MM-DD`.
        published_on: String,
        official_url: String,
    },
    #[serde(rename_all = "camelCase")]
    Beacon {
        round: u64,
        /// SHA-256 of the signature, hex.
        randomness: String,
        signature: String,
    },
}

impl From<&PrizeResult> for PrizeResultDto {
    fn from(result: &PrizeResult) -> Self {
        match result {
            PrizeResult::Lottery {
                result,
                published_on,
                official_url,
            } => Self::Lottery {
                result: result.clone(),
                published_on: published_on.to_string(),
                official_url: official_url.clone(),
            },
            PrizeResult::Beacon {
                round,
                randomness,
                signature,
            } => Self::Beacon {
                round: *round,
                randomness: to_hex(randomness),
                signature: to_hex(signature),
            },
        }
    }
}

impl PrizeResultDto {
    /// What the rule reads, or `None` when a beacon's randomness is not 32 bytes of hex.
    fn input(&self) -> Option<DrawInput> {
        Some(match self {
            Self::Lottery { result, .. } => DrawInput::Lottery {
                result: result.clone(),
            },
            Self::Beacon {
                round, randomness, ..
            } => DrawInput::Beacon {
                round: *round,
                randomness: hash_from_hex(randomness)?,
            },
        })
    }
}

/// One step of the published rule, as it was applied.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(
    tag = "step",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum DrawStepDto {
    /// The last `digits` digits of the result (zeros in front when it had fewer).
    #[serde(rename_all = "camelCase")]
    LastDigits {
        result: String,
        digits: usize,
        used: String,
        number: u32,
    },
    #[serde(rename_all = "camelCase")]
    Beacon {
        round: u64,
        randomness_hex: String,
        number: u32,
    },
    #[serde(rename_all = "camelCase")]
    NotInRaffle {
        number: u32,
        max_tickets: u32,
    },
    NotSold {
        number: u32,
        next: u32,
    },
    AlreadyWon {
        number: u32,
        next: u32,
    },
    WrappedAround,
    Wins {
        number: u32,
    },
    NoWinner,
    /// The fair rules: the last `digits` digits of a lottery result.
    Digits {
        result: String,
        digits: usize,
        used: String,
    },
    /// The fair rules: a drand round's randomness, read as a number below 2^256.
    #[serde(rename_all = "camelCase")]
    BeaconRandomness {
        round: u64,
        randomness_hex: String,
    },
    /// `rifa-number-v2`: the number the result names.
    Names {
        number: u32,
    },
    /// `rifa-number-v2`: not a number of the raffle; the next source decides.
    #[serde(rename_all = "camelCase")]
    OutsideRaffle {
        number: u32,
        max_tickets: u32,
    },
    NotSoldNextSource {
        number: u32,
    },
    AlreadyWonNextSource {
        number: u32,
    },
    /// The value is in the incomplete last round of `count`; the next source decides.
    IncompleteRound {
        count: u32,
    },
    /// `rifa-among-sold-v2`: the sold numbers still in play.
    InPlay {
        count: u32,
    },
    /// `rifa-among-sold-v2`: the value modulo `count` is `remainder`, `number`'s place (from 0).
    Place {
        remainder: u32,
        count: u32,
        number: u32,
    },
    NextSource,
    /// A round's randomness in the incomplete last round, replaced by its SHA-256.
    #[serde(rename_all = "camelCase")]
    Rehashed {
        randomness_hex: String,
    },
    /// Source `source` of the chain (0 the prize's own) gave no result by `deadline`.
    SourceLapsed {
        source: u32,
        deadline: String,
    },
}

impl From<&DrawStep> for DrawStepDto {
    fn from(step: &DrawStep) -> Self {
        match step.clone() {
            DrawStep::LastDigits {
                result,
                digits,
                used,
                number,
            } => Self::LastDigits {
                result,
                digits,
                used,
                number,
            },
            DrawStep::Beacon {
                round,
                randomness_hex,
                number,
            } => Self::Beacon {
                round,
                randomness_hex,
                number,
            },
            DrawStep::NotInRaffle {
                number,
                max_tickets,
            } => Self::NotInRaffle {
                number,
                max_tickets,
            },
            DrawStep::NotSold { number, next } => Self::NotSold { number, next },
            DrawStep::AlreadyWon { number, next } => Self::AlreadyWon { number, next },
            DrawStep::WrappedAround => Self::WrappedAround,
            DrawStep::Wins { number } => Self::Wins { number },
            DrawStep::NoWinner => Self::NoWinner,
            DrawStep::Digits {
                result,
                digits,
                used,
            } => Self::Digits {
                result,
                digits,
                used,
            },
            DrawStep::BeaconRandomness {
                round,
                randomness_hex,
            } => Self::BeaconRandomness {
                round,
                randomness_hex,
            },
            DrawStep::Names { number } => Self::Names { number },
            DrawStep::OutsideRaffle {
                number,
                max_tickets,
            } => Self::OutsideRaffle {
                number,
                max_tickets,
            },
            DrawStep::NotSoldNextSource { number } => Self::NotSoldNextSource { number },
            DrawStep::AlreadyWonNextSource { number } => Self::AlreadyWonNextSource { number },
            DrawStep::IncompleteRound { count } => Self::IncompleteRound { count },
            DrawStep::InPlay { count } => Self::InPlay { count },
            DrawStep::Place {
                remainder,
                count,
                number,
            } => Self::Place {
                remainder,
                count,
                number,
            },
            DrawStep::NextSource => Self::NextSource,
            DrawStep::Rehashed { randomness_hex } => Self::Rehashed {
                randomness_hex: randomness_hex.clone(),
            },
            DrawStep::SourceLapsed { source, deadline } => Self::SourceLapsed {
                source,
                deadline: deadline.clone(),
            },
        }
    }
}

/// What was published when the ledger was frozen.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommitmentDto {
    /// The Merkle root of the ledger (SHA-256, hex).
    pub root: String,
    /// Sold numbers in the ledger.
    pub size: u32,
    /// The salt of the buyers' tags, hex.
    pub salt: String,
    pub frozen_at: String,
    /// The rule frozen with the ledger.
    pub rule: String,
}

impl From<&Commitment> for CommitmentDto {
    fn from(c: &Commitment) -> Self {
        Self {
            root: to_hex(&c.root),
            size: c.size,
            salt: to_hex(&c.salt),
            frozen_at: instant(c.frozen_at),
            rule: c.rule.as_str().to_owned(),
        }
    }
}

/// What one source of a prize's chain gave.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordedResultDto {
    /// 0 the prize's own source, 1 its drand round.
    pub source: u32,
    pub result: PrizeResultDto,
    pub recorded_at: String,
}

impl From<&RecordedResult> for RecordedResultDto {
    fn from(r: &RecordedResult) -> Self {
        Self {
            source: r.source,
            result: (&r.result).into(),
            recorded_at: instant(r.recorded_at),
        }
    }
}

/// The first prize not drawn yet and the source of its chain it waits for.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AwaitingDto {
    pub prize_id: i64,
    /// 0 the prize's own source, 1 its drand round.
    pub source: u32,
}

/// A winner as the public sees them.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicWinnerDto {
    pub number: u32,
    /// The first name and the initial of the last (`María P.`).
    pub display_name: String,
    pub country: String,
}

/// A winner as the panel sees them: enough to reach them.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminWinnerDto {
    pub number: u32,
    pub display_name: String,
    pub country: String,
    pub purchase_id: i64,
    pub reference: String,
    pub customer_name: String,
    pub customer_email: String,
    pub customer_phone: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicPrizeDrawDto {
    /// The source of the chain that decided (0 the prize's own, 1 its drand round).
    pub source: u32,
    pub result: PrizeResultDto,
    pub drawn_number: u32,
    pub winning_number: Option<u32>,
    pub steps: Vec<DrawStepDto>,
    pub drawn_at: String,
    pub winner: Option<PublicWinnerDto>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminPrizeDrawDto {
    /// The source of the chain that decided (0 the prize's own, 1 its drand round).
    pub source: u32,
    pub result: PrizeResultDto,
    pub drawn_number: u32,
    pub winning_number: Option<u32>,
    pub steps: Vec<DrawStepDto>,
    pub drawn_at: String,
    pub winner: Option<AdminWinnerDto>,
}

/// The claim window of a drawn prize.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaimDto {
    pub deadline: String,
    /// Whole days left (a started day counts); negative once past.
    pub days_left: i64,
    pub delivered_at: Option<String>,
    pub delivery_photo: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicPrizeDto {
    pub id: i64,
    /// 1 for the first prize, drawn first.
    pub position: u32,
    pub title: String,
    pub description: String,
    pub image: Option<String>,
    pub source: PrizeSourceDto,
    /// What each source of its chain gave so far.
    pub results: Vec<RecordedResultDto>,
    pub draw: Option<PublicPrizeDrawDto>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminPrizeDto {
    pub id: i64,
    pub position: u32,
    pub title: String,
    pub description: String,
    pub image: Option<String>,
    pub source: PrizeSourceDto,
    pub results: Vec<RecordedResultDto>,
    pub draw: Option<AdminPrizeDrawDto>,
    pub claim: Option<ClaimDto>,
}

/// A raffle's prizes, the published rule's parameters, and the commitment once frozen.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicDrawDto {
    pub raffle_id: i64,
    pub raffle_title: String,
    pub max_tickets: u32,
    /// How many last digits of a lottery result name the number.
    pub digits_used: usize,
    /// The rule the raffle is drawn by (`rifa-among-sold-v2`, `rifa-number-v2`, or
    /// `rifa-rule-v1` for raffles sold before the fair rules).
    pub rule: String,
    pub commitment: Option<CommitmentDto>,
    pub prizes: Vec<PublicPrizeDto>,
}

/// A purchase still to be decided: the freeze waits for it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingPurchaseDto {
    pub id: i64,
    pub reference: String,
    pub customer_name: String,
    pub created_at: String,
}

impl From<&UndecidedPurchase> for PendingPurchaseDto {
    fn from(p: &UndecidedPurchase) -> Self {
        Self {
            id: p.id.get(),
            reference: p.reference.clone(),
            customer_name: p.customer_name.clone(),
            created_at: instant(p.created_at),
        }
    }
}

/// A raffle's draw as the panel runs it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminDrawDto {
    pub raffle_id: i64,
    pub max_tickets: u32,
    pub digits_used: usize,
    pub rule: String,
    /// Once frozen: the first prize not drawn and the source it waits for.
    pub awaiting: Option<AwaitingDto>,
    pub sales_close_at: Option<String>,
    pub sales_open: bool,
    /// A real purchase exists: the prizes and their sources can no longer change.
    pub rules_locked: bool,
    /// Purchases still pending (up to 50): the freeze is refused while any exists.
    pub pending_purchases: Vec<PendingPurchaseDto>,
    pub commitment: Option<CommitmentDto>,
    pub prizes: Vec<AdminPrizeDto>,
}

fn public_winner(number: u32, winner: &Winner) -> PublicWinnerDto {
    PublicWinnerDto {
        number,
        display_name: public_name(&winner.customer_name),
        country: winner.customer_country.clone(),
    }
}

fn steps_of(draw: &PrizeDraw) -> Vec<DrawStepDto> {
    draw.steps.iter().map(DrawStepDto::from).collect()
}

impl From<&PrizeDraw> for PublicPrizeDrawDto {
    fn from(draw: &PrizeDraw) -> Self {
        Self {
            source: draw.source,
            result: (&draw.result).into(),
            drawn_number: draw.drawn_number,
            winning_number: draw.winning_number,
            steps: steps_of(draw),
            drawn_at: instant(draw.drawn_at),
            winner: draw
                .winning_number
                .zip(draw.winner.as_ref())
                .map(|(number, winner)| public_winner(number, winner)),
        }
    }
}

impl From<&PrizeDraw> for AdminPrizeDrawDto {
    fn from(draw: &PrizeDraw) -> Self {
        Self {
            source: draw.source,
            result: (&draw.result).into(),
            drawn_number: draw.drawn_number,
            winning_number: draw.winning_number,
            steps: steps_of(draw),
            drawn_at: instant(draw.drawn_at),
            winner: draw
                .winning_number
                .zip(draw.winner.as_ref())
                .map(|(number, winner)| AdminWinnerDto {
                    number,
                    display_name: public_name(&winner.customer_name),
                    country: winner.customer_country.clone(),
                    purchase_id: winner.purchase_id.get(),
                    reference: winner.reference.clone(),
                    customer_name: winner.customer_name.clone(),
                    customer_email: winner.customer_email.clone(),
                    customer_phone: winner.customer_phone.clone(),
                }),
        }
    }
}

impl From<&PrizeRecord> for PublicPrizeDto {
    fn from(p: &PrizeRecord) -> Self {
        Self {
            id: p.id.get(),
            position: p.position,
            title: p.prize.title.clone(),
            description: p.prize.description.clone(),
            image: p.prize.image.clone(),
            source: (&p.prize.source).into(),
            results: p.results.iter().map(Into::into).collect(),
            draw: p.draw.as_ref().map(Into::into),
        }
    }
}

fn admin_prize(p: &PrizeRecord, now: DateTime<Utc>) -> AdminPrizeDto {
    AdminPrizeDto {
        id: p.id.get(),
        position: p.position,
        title: p.prize.title.clone(),
        description: p.prize.description.clone(),
        image: p.prize.image.clone(),
        source: (&p.prize.source).into(),
        results: p.results.iter().map(Into::into).collect(),
        draw: p.draw.as_ref().map(Into::into),
        claim: p
            .draw
            .as_ref()
            .filter(|draw| draw.winning_number.is_some())
            .map(|draw| ClaimDto {
                deadline: instant(claim_deadline(draw.drawn_at)),
                days_left: claim_days_left(draw.drawn_at, now),
                delivered_at: p.delivery.as_ref().map(|d| instant(d.delivered_at)),
                delivery_photo: p.delivery.as_ref().and_then(|d| d.photo.clone()),
            }),
    }
}

impl From<PublicDraw> for PublicDrawDto {
    fn from(d: PublicDraw) -> Self {
        Self {
            raffle_id: d.raffle.id.get(),
            raffle_title: d.raffle.title.clone(),
            max_tickets: d.raffle.max_tickets,
            digits_used: digits_used(d.raffle.max_tickets),
            rule: d.rule.as_str().to_owned(),
            commitment: d.commitment.as_ref().map(Into::into),
            prizes: d.prizes.iter().map(Into::into).collect(),
        }
    }
}

impl From<AdminDraw> for AdminDrawDto {
    fn from(d: AdminDraw) -> Self {
        Self {
            raffle_id: d.raffle.id.get(),
            max_tickets: d.raffle.max_tickets,
            digits_used: digits_used(d.raffle.max_tickets),
            rule: d.rule.as_str().to_owned(),
            awaiting: d.awaiting.map(|(prize, source)| AwaitingDto {
                prize_id: prize.get(),
                source,
            }),
            sales_close_at: d.raffle.sales_close_at().map(instant),
            sales_open: d.sales_open,
            rules_locked: d.rules_locked,
            pending_purchases: d.pending.iter().map(Into::into).collect(),
            commitment: d.commitment.as_ref().map(Into::into),
            prizes: d.prizes.iter().map(|p| admin_prize(p, d.now)).collect(),
        }
    }
}

/// A prize of the published file: its source, its result and the winner the operator
/// published, for the verifier to recompute.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishedPrizeDto {
    pub position: u32,
    pub title: String,
    pub source: PrizeSourceDto,
    /// The result that decided (in `rifa-draw-v1`, the prize's only result).
    pub result: Option<PrizeResultDto>,
    /// What each source of the chain gave (`rifa-draw-v2`).
    #[serde(default)]
    pub results: Vec<RecordedResultDto>,
    pub winning_number: Option<u32>,
}

/// Everything needed to check the draw offline: the frozen ledger (each sold number with its
/// buyer's salted tag), its root, and every prize's result and published winner.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishedDrawDto {
    /// `rifa-draw-v2` (`rifa-draw-v1` files are still read).
    pub format: String,
    pub raffle_id: i64,
    pub raffle_title: String,
    pub max_tickets: u32,
    /// The rule frozen with the ledger; `rifa-draw-v1` files are all `rifa-rule-v1`.
    #[serde(default = "first_rule")]
    pub rule: String,
    /// Hex.
    pub salt: String,
    /// The Merkle root published at the freeze, hex.
    pub root: String,
    pub size: u32,
    pub frozen_at: String,
    /// `[number, tag]`, sorted by number; the tag is SHA-256("rifa-ledger-v1" ‖ 0 ‖ salt ‖
    /// REFERENCE), hex.
    #[schema(value_type = Vec<Vec<serde_json::Value>>)]
    pub entries: Vec<(u32, String)>,
    pub prizes: Vec<PublishedPrizeDto>,
}

fn first_rule() -> String {
    Rule::UpwardV1.as_str().to_owned()
}

impl From<PublishedLedger> for PublishedDrawDto {
    fn from(l: PublishedLedger) -> Self {
        Self {
            format: LEDGER_FORMAT.to_owned(),
            raffle_id: l.raffle.id.get(),
            raffle_title: l.raffle.title.clone(),
            max_tickets: l.raffle.max_tickets,
            rule: l.commitment.rule.as_str().to_owned(),
            salt: to_hex(&l.commitment.salt),
            root: to_hex(&l.commitment.root),
            size: l.commitment.size,
            frozen_at: instant(l.commitment.frozen_at),
            entries: l
                .entries
                .iter()
                .map(|e| (e.number, to_hex(&e.tag)))
                .collect(),
            prizes: l
                .prizes
                .iter()
                .map(|p| PublishedPrizeDto {
                    position: p.position,
                    title: p.prize.title.clone(),
                    source: (&p.prize.source).into(),
                    result: p.draw.as_ref().map(|d| (&d.result).into()),
                    results: p.results.iter().map(Into::into).collect(),
                    winning_number: p.draw.as_ref().and_then(|d| d.winning_number),
                })
                .collect(),
        }
    }
}

/// Why a published file cannot be checked at all.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum UnreadableDraw {
    #[error("not a {LEDGER_FORMAT} file (format {0:?})")]
    Format(String),
    #[error("the {0} is not hex of the right length")]
    Hex(&'static str),
    #[error("the tag of number {0} is not 64 hex digits")]
    Tag(u32),
    #[error("unknown rule {0:?}")]
    Rule(String),
    #[error("prize {0}'s source is not one the rules can name")]
    Source(u32),
}

impl PrizeSourceDto {
    /// The source as the rules fixed it: its chain and deadline follow from it.
    fn to_source(&self) -> Option<PrizeSource> {
        Some(match self {
            Self::Lottery {
                lottery_name,
                draw_date,
                draw_time,
                time_zone,
                source_url,
                digits,
                deadline_hours,
                ..
            } => PrizeSource::Lottery {
                lottery_name: lottery_name.clone(),
                draw_date: draw_date.parse().ok()?,
                draw_time: match draw_time.as_str() {
                    "" => chrono::NaiveTime::MIN,
                    raw => chrono::NaiveTime::parse_from_str(raw, "%H:%M").ok()?,
                },
                time_zone: match time_zone.as_str() {
                    "" => DEFAULT_TIME_ZONE,
                    raw => raw.parse().ok()?,
                },
                source_url: source_url.clone(),
                digits: *digits,
                deadline_hours: deadline_hours.map_or(Some(DEFAULT_DEADLINE_HOURS), |h| {
                    (1..=MAX_DEADLINE_HOURS).contains(&h).then_some(h)
                })?,
            },
            Self::Beacon { round } => PrizeSource::Beacon { round: *round },
        })
    }
}

fn published_result(
    source: u32,
    result: &PrizeResultDto,
) -> Result<PublishedResult, UnreadableDraw> {
    Ok(PublishedResult {
        source,
        input: result.input().ok_or(UnreadableDraw::Hex("randomness"))?,
        signature: match result {
            PrizeResultDto::Beacon { signature, .. } => {
                Some(bytes_from_hex(signature).ok_or(UnreadableDraw::Hex("signature"))?)
            }
            PrizeResultDto::Lottery { .. } => None,
        },
    })
}

impl PublishedDrawDto {
    /// The domain's view of the file, for [`rifa_domain::draw::verify::check`].
    ///
    /// # Errors
    /// When the file is not this format (or the first), names an unknown rule, or a hash is
    /// not hex.
    pub fn to_published(&self) -> Result<PublishedDraw, UnreadableDraw> {
        let first_format = self.format == FIRST_LEDGER_FORMAT;
        if !first_format && self.format != LEDGER_FORMAT {
            return Err(UnreadableDraw::Format(self.format.clone()));
        }
        let rule = if first_format {
            Rule::UpwardV1
        } else {
            Rule::parse(&self.rule).map_err(|_| UnreadableDraw::Rule(self.rule.clone()))?
        };
        let salt = hash_from_hex(&self.salt).ok_or(UnreadableDraw::Hex("salt"))?;
        let root = hash_from_hex(&self.root).ok_or(UnreadableDraw::Hex("root"))?;
        let entries = self
            .entries
            .iter()
            .map(|(number, tag)| {
                Ok(LedgerEntry {
                    number: *number,
                    tag: hash_from_hex(tag).ok_or(UnreadableDraw::Tag(*number))?,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let prizes = self
            .prizes
            .iter()
            .map(|p| {
                // The first format carried only the prize's one result.
                let results = if first_format {
                    p.result
                        .iter()
                        .map(|result| published_result(0, result))
                        .collect::<Result<Vec<_>, _>>()?
                } else {
                    p.results
                        .iter()
                        .map(|r| published_result(r.source, &r.result))
                        .collect::<Result<Vec<_>, _>>()?
                };
                Ok(PublishedPrize {
                    position: p.position,
                    source: p
                        .source
                        .to_source()
                        .ok_or(UnreadableDraw::Source(p.position))?,
                    results,
                    winner: p.winning_number,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PublishedDraw {
            max_tickets: self.max_tickets,
            rule,
            salt: salt.to_vec(),
            root,
            size: self.size,
            entries,
            prizes,
        })
    }
}

/// A winner on the home page.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WinnerDto {
    pub raffle_id: i64,
    pub raffle_title: String,
    /// The raffle's size, which sets how its numbers are written (`0046`).
    pub max_tickets: u32,
    pub prize_title: String,
    pub position: u32,
    pub number: u32,
    pub display_name: String,
    pub country: String,
    pub drawn_at: String,
}

#[derive(Serialize, ToSchema)]
pub struct WinnersDto {
    /// Newest first.
    pub winners: Vec<WinnerDto>,
}

impl From<&RecentWinner> for WinnerDto {
    fn from(w: &RecentWinner) -> Self {
        Self {
            raffle_id: w.raffle_id.get(),
            raffle_title: w.raffle_title.clone(),
            max_tickets: w.max_tickets,
            prize_title: w.prize_title.clone(),
            position: w.position,
            number: w.number,
            display_name: public_name(&w.customer_name),
            country: w.customer_country.clone(),
            drawn_at: instant(w.drawn_at),
        }
    }
}

/// A prize's source as the form sends it.
#[derive(Deserialize, ToSchema)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum PrizeSourceRequest {
    #[serde(rename_all = "camelCase")]
    Lottery {
        lottery_name: Option<String>,
        /// `YYYY-MM-DD`.
        draw_date: Option<String>,
        /// `HH:MM` on the lottery's clock; none is the day's first minute.
        draw_time: Option<String>,
        /// One of the offered IANA names; none is `America/Caracas`.
        time_zone: Option<String>,
        source_url: Option<String>,
        /// How many of a result's last digits are read under `rifa-among-sold-v2` (1–18);
        /// none is as many as the raffle's size has.
        digits: Option<u64>,
        /// Hours after the draw its result may be recorded (1–168); none is 24.
        deadline_hours: Option<u64>,
    },
    #[serde(rename_all = "camelCase")]
    Beacon { round: Option<u64> },
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PrizeRequest {
    pub title: Option<String>,
    pub description: Option<String>,
    pub image: Option<String>,
    pub source: PrizeSourceRequest,
}

/// The raffle's rule and prizes, in the order they are drawn.
#[derive(Deserialize, ToSchema)]
pub struct PrizesRequest {
    /// `rifa-among-sold-v2` or `rifa-number-v2`; absent keeps the raffle's rule.
    #[serde(default)]
    pub rule: Option<String>,
    pub prizes: Vec<PrizeRequest>,
}

impl PrizesRequest {
    #[must_use]
    pub fn inputs(self) -> (Option<String>, Vec<PrizeInput>) {
        (
            self.rule,
            self.prizes.into_iter().map(PrizeInput::from).collect(),
        )
    }
}

impl From<PrizeRequest> for PrizeInput {
    fn from(p: PrizeRequest) -> Self {
        Self {
            title: p.title,
            description: p.description,
            image: p.image,
            source: match p.source {
                PrizeSourceRequest::Lottery {
                    lottery_name,
                    draw_date,
                    draw_time,
                    time_zone,
                    source_url,
                    digits,
                    deadline_hours,
                } => PrizeSourceInput::Lottery {
                    lottery_name,
                    draw_date,
                    draw_time,
                    time_zone,
                    source_url,
                    digits,
                    deadline_hours,
                },
                PrizeSourceRequest::Beacon { round } => PrizeSourceInput::Beacon { round },
            },
        }
    }
}

/// A prize's result: a lottery's published result, or the prize's drand round.
#[derive(Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ResultRequest {
    #[serde(rename_all = "camelCase")]
    Lottery {
        /// As the lottery prints it; only its last digits count.
        result: Option<String>,
        /// `YYYY-MM-DD`.
        published_on: Option<String>,
        official_url: Option<String>,
    },
    /// The round announced for the prize: its signature as drand published it (hex), or
    /// `null` for the server to fetch it from its drand relay. Verified either way.
    Beacon { signature: Option<String> },
}

/// A lottery's published result, to see what it would decide.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LotteryResultRequest {
    pub result: Option<String>,
    /// `YYYY-MM-DD`.
    pub published_on: Option<String>,
    pub official_url: Option<String>,
}

/// What one prize would become.
#[derive(Serialize, ToSchema)]
#[serde(
    tag = "outcome",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum PreviewOutcomeDto {
    /// `winningNumber` would win; its holder as the public would see them.
    #[serde(rename_all = "camelCase")]
    Winner {
        winning_number: u32,
        display_name: String,
    },
    /// Nothing is left in play.
    NoWinner,
    /// The prize would wait for `source` of its chain (1: its drand round).
    Awaiting { source: u32 },
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewedPrizeDto {
    pub prize_id: i64,
    pub position: u32,
    pub title: String,
    #[serde(flatten)]
    pub outcome: PreviewOutcomeDto,
}

/// What recording the result would decide, in the prizes' order.
#[derive(Serialize, ToSchema)]
pub struct ResultPreviewDto {
    pub prizes: Vec<PreviewedPrizeDto>,
}

impl From<&[PreviewedPrize]> for ResultPreviewDto {
    fn from(previewed: &[PreviewedPrize]) -> Self {
        Self {
            prizes: previewed
                .iter()
                .map(|p| PreviewedPrizeDto {
                    prize_id: p.prize.get(),
                    position: p.position,
                    title: p.title.clone(),
                    outcome: match &p.outcome {
                        Previewed::Winner {
                            number,
                            public_name,
                        } => PreviewOutcomeDto::Winner {
                            winning_number: *number,
                            display_name: public_name.clone(),
                        },
                        Previewed::NoWinner => PreviewOutcomeDto::NoWinner,
                        Previewed::Awaiting { source } => {
                            PreviewOutcomeDto::Awaiting { source: *source }
                        }
                    },
                })
                .collect(),
        }
    }
}

/// A prize handed over.
#[derive(Deserialize, ToSchema)]
pub struct DeliveredRequest {
    /// An uploaded image's address, or `null`.
    pub photo: Option<String>,
}

#[cfg(test)]
mod tests {
    use rifa_domain::draw::ledger::{MerkleTree, purchase_tag};
    use rifa_domain::draw::verify::{Finding, check};
    use serde_json::Value;

    use super::*;

    /// A file as the first format published it: no rule, each prize with its one result.
    fn first_format_file() -> String {
        let salt = [7_u8; 32];
        let mut entries = [(46, "RF-ANA"), (50, "RF-LUIS")]
            .map(|(number, reference)| LedgerEntry {
                number,
                tag: purchase_tag(&salt, reference),
            })
            .to_vec();
        entries.sort();
        let root = MerkleTree::over(&entries).root();
        let entries: Vec<Value> = entries
            .iter()
            .map(|e| serde_json::json!([e.number, to_hex(&e.tag)]))
            .collect();
        serde_json::json!({
            "format": "rifa-draw-v1", "raffleId": 1, "raffleTitle": "Moto", "maxTickets": 100,
            "salt": to_hex(&salt), "root": to_hex(&root), "size": 2,
            "frozenAt": "2026-11-20T10:00:00.000Z", "entries": entries,
            "prizes": [{
                "position": 1, "title": "Moto",
                "source": {"kind": "lottery", "lotteryName": "Táchira", "drawDate": "2026-11-21",
                           "sourceUrl": "https://l.example"},
                "result": {"kind": "lottery", "result": "047", "publishedOn": "2026-11-21",
                           "officialUrl": "https://l.example/r"},
                "winningNumber": 50
            }]
        })
        .to_string()
    }

    #[test]
    fn a_file_of_the_first_format_still_verifies_by_the_first_rule() {
        let file: PublishedDrawDto = serde_json::from_str(&first_format_file()).unwrap();
        let published = file.to_published().unwrap();
        assert_eq!(published.rule, Rule::UpwardV1);
        let findings = check(&published);
        // 047 is unsold: upward to 50, as the first rule said.
        assert!(
            findings.iter().any(|f| matches!(
                f,
                Finding::WinnerConfirmed {
                    winner: Some(50),
                    ..
                }
            )),
            "{findings:#?}"
        );
        assert!(findings.iter().all(|f| !f.is_problem()), "{findings:#?}");
    }

    #[test]
    fn an_unknown_format_or_rule_is_refused_by_name() {
        let mut file: Value = serde_json::from_str(&first_format_file()).unwrap();
        file["format"] = "rifa-draw-v3".into();
        let dto: PublishedDrawDto = serde_json::from_value(file.clone()).unwrap();
        assert_eq!(
            dto.to_published(),
            Err(UnreadableDraw::Format("rifa-draw-v3".into()))
        );
        file["format"] = LEDGER_FORMAT.into();
        file["rule"] = "rifa-lucky-v9".into();
        let dto: PublishedDrawDto = serde_json::from_value(file).unwrap();
        assert_eq!(
            dto.to_published(),
            Err(UnreadableDraw::Rule("rifa-lucky-v9".into()))
        );
    }
}

/// `docs/formats/draw-vectors.json`, the vectors `docs/VERIFYING.md` gives: the site's verifier
/// and `scripts/verify_draw.py` are tested against the same file.
#[cfg(test)]
mod vectors {
    use std::collections::BTreeSet;

    use chrono::DateTime;
    use rifa_domain::draw::beacon::{first_round_from, round_time, verify_quicknet};
    use rifa_domain::draw::fair::{self, Decision, Pool};
    use rifa_domain::draw::ledger::{
        Hash, MerkleTree, empty_root, leaf_hash, purchase_tag, verify_inclusion,
    };
    use rifa_domain::draw::rule;
    use rifa_domain::draw::settle::{
        ChainLink, PrizeProgress, Settlement, SourceState, settle_in_order,
    };
    use rifa_domain::draw::verify::{Finding, check};
    use serde_json::{Value, json};

    use super::*;

    fn vectors() -> Value {
        serde_json::from_str(include_str!("../../../../docs/formats/draw-vectors.json"))
            .expect("the vectors are JSON")
    }

    fn hex(value: &Value) -> Vec<u8> {
        bytes_from_hex(value.as_str().expect("hex text")).expect("hex")
    }

    fn hash(value: &Value) -> Hash {
        hash_from_hex(value.as_str().expect("hex text")).expect("a hash")
    }

    fn number(value: &Value) -> u32 {
        u32::try_from(value.as_u64().expect("a number")).expect("a u32")
    }

    fn numbers(value: &Value) -> BTreeSet<u32> {
        value
            .as_array()
            .expect("a list")
            .iter()
            .map(number)
            .collect()
    }

    fn steps(steps: &[DrawStep]) -> Value {
        serde_json::to_value(steps.iter().map(DrawStepDto::from).collect::<Vec<_>>())
            .expect("steps serialise")
    }

    fn input(value: &Value) -> DrawInput {
        match value["kind"].as_str() {
            Some("lottery") => DrawInput::Lottery {
                result: value["result"].as_str().expect("a result").to_owned(),
            },
            _ => DrawInput::Beacon {
                round: value["round"].as_u64().expect("a round"),
                randomness: hash(&value["randomness"]),
            },
        }
    }

    #[test]
    fn the_ledger_s_bytes_are_the_vectors() {
        let v = vectors();
        let ledger = &v["ledger"];
        assert_eq!(to_hex(&empty_root()), ledger["emptyRoot"]);
        for case in ledger["tags"].as_array().expect("tags") {
            let reference = case["reference"].as_str().expect("a reference");
            assert_eq!(
                to_hex(&purchase_tag(&hex(&case["salt"]), reference)),
                case["tag"],
                "{reference:?}"
            );
        }
        let raffle = &ledger["raffle"];
        let entries: Vec<LedgerEntry> = raffle["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .map(|e| LedgerEntry {
                number: number(&e[0]),
                tag: hash(&e[1]),
            })
            .collect();
        let tree = MerkleTree::over(&entries);
        assert_eq!(to_hex(&tree.root()), raffle["root"]);
        for (entry, leaf) in entries
            .iter()
            .zip(raffle["leaves"].as_array().expect("leaves"))
        {
            assert_eq!(to_hex(&leaf_hash(entry)), *leaf);
        }
        for (size, root) in raffle["prefixRoots"]
            .as_array()
            .expect("roots")
            .iter()
            .enumerate()
        {
            assert_eq!(to_hex(&MerkleTree::over(&entries[..size]).root()), *root);
        }
        for proof in raffle["proofs"].as_array().expect("proofs") {
            let index = usize::try_from(proof["index"].as_u64().expect("index")).expect("usize");
            let path: Vec<String> = tree
                .inclusion_proof(index)
                .expect("a proof")
                .iter()
                .map(|h| to_hex(h))
                .collect();
            assert_eq!(json!(path), proof["path"], "{proof}");
        }
        for case in ledger["inclusionChecks"].as_array().expect("checks") {
            let path: Vec<Hash> = case["path"]
                .as_array()
                .expect("path")
                .iter()
                .map(hash)
                .collect();
            assert_eq!(
                verify_inclusion(
                    &hash(&case["leaf"]),
                    case["index"].as_u64().expect("index"),
                    case["size"].as_u64().expect("size"),
                    &path,
                    &hash(&case["root"]),
                ),
                case["verifies"].as_bool().expect("a verdict"),
                "{}",
                case["what"]
            );
        }
    }

    #[test]
    fn each_rule_reads_and_decides_as_the_vectors_say() {
        let v = vectors();
        for case in v["rules"]["cases"].as_array().expect("cases") {
            let what = &case["what"];
            let rule = Rule::parse(case["rule"].as_str().expect("a rule")).expect("known");
            let max_tickets = number(&case["maxTickets"]);
            let (sold, won) = (numbers(&case["sold"]), numbers(&case["won"]));
            let reading = &case["reading"];
            let expected = &case["expected"];
            let outcome: Result<(Option<u32>, &str, Vec<DrawStep>), _> = if rule == Rule::UpwardV1 {
                rule::apply(&input(reading), max_tickets, &sold, &won).map(|o| {
                    let decision = if o.winner.is_some() {
                        "winner"
                    } else {
                        "noWinner"
                    };
                    (o.winner, decision, o.steps)
                })
            } else {
                let read = match reading["kind"].as_str() {
                    Some("lottery") => fair::read_lottery(
                        reading["result"].as_str().expect("a result"),
                        number(&reading["digits"]),
                    ),
                    _ => Ok(fair::read_beacon(
                        reading["round"].as_u64().expect("a round"),
                        hash(&reading["randomness"]),
                    )),
                };
                read.map(|(reading, step)| {
                    let (decision, decided) =
                        fair::decide(rule, &reading, max_tickets, &Pool::new(sold, won));
                    let (winner, name) = match decision {
                        Decision::Winner(n) => (Some(n), "winner"),
                        Decision::NextSource => (None, "nextSource"),
                        Decision::NoWinner => (None, "noWinner"),
                    };
                    (winner, name, [vec![step], decided].concat())
                })
            };
            match outcome {
                Err(_) => assert_eq!(expected["error"], "notANumber", "{what}"),
                Ok((winner, decision, taken)) => {
                    assert_eq!(expected["decision"], decision, "{what}");
                    if decision == "winner" {
                        assert_eq!(
                            winner.map(Value::from),
                            Some(expected["number"].clone()),
                            "{what}"
                        );
                    }
                    assert_eq!(steps(&taken), expected["steps"], "{what}");
                }
            }
        }
    }

    #[test]
    fn chains_settle_in_order_as_the_vectors_say() {
        let v = vectors();
        for case in v["chains"]["cases"].as_array().expect("cases") {
            let what = &case["what"];
            let rule = Rule::parse(case["rule"].as_str().expect("a rule")).expect("known");
            let prizes: Vec<PrizeProgress> = case["prizes"]
                .as_array()
                .expect("prizes")
                .iter()
                .map(|prize| match prize.get("chain") {
                    None => PrizeProgress::Decided(
                        prize["decided"]
                            .as_u64()
                            .map(|n| u32::try_from(n).expect("a u32")),
                    ),
                    Some(chain) => PrizeProgress::Open(
                        chain
                            .as_array()
                            .expect("links")
                            .iter()
                            .map(|link| ChainLink {
                                digits: number(&link["digits"]),
                                state: match link["state"]["kind"].as_str() {
                                    Some("recorded") => {
                                        SourceState::Recorded(input(&link["state"]["input"]))
                                    }
                                    Some("lapsed") => SourceState::Lapsed {
                                        deadline: DateTime::parse_from_rfc3339(
                                            link["state"]["deadline"].as_str().expect("a time"),
                                        )
                                        .expect("RFC 3339")
                                        .to_utc(),
                                    },
                                    _ => SourceState::Awaited,
                                },
                            })
                            .collect(),
                    ),
                })
                .collect();
            let settled = settle_in_order(
                rule,
                number(&case["maxTickets"]),
                &numbers(&case["sold"]),
                &prizes,
            );
            let got = match settled {
                Err((index, _)) => json!({"error": "notANumber", "index": index}),
                Ok(settled) => Value::from(
                    settled
                        .iter()
                        .map(|(index, settlement)| match settlement {
                            Settlement::Decided {
                                source,
                                drawn,
                                winner,
                                steps: taken,
                            } => json!({"kind": "decided", "source": source, "drawn": drawn,
                                        "winner": winner, "steps": steps(taken), "index": index}),
                            Settlement::Awaiting {
                                source,
                                steps: taken,
                            } => json!({"kind": "awaiting", "source": source,
                                        "steps": steps(taken), "index": index}),
                        })
                        .collect::<Vec<_>>(),
                ),
            };
            assert_eq!(got, case["expected"], "{what}");
        }
    }

    #[test]
    fn sources_and_rounds_keep_the_vectors_clocks() {
        let v = vectors();
        for case in v["sources"]["cases"].as_array().expect("cases") {
            let what = &case["what"];
            let dto: PrizeSourceDto =
                serde_json::from_value(case["source"].clone()).expect("a source");
            let source = dto.to_source().expect("readable");
            let expected = &case["expected"];
            assert_eq!(instant(source.draws_at()), expected["drawsAt"], "{what}");
            assert_eq!(
                source.deadline().map(instant),
                expected["deadline"].as_str().map(str::to_owned),
                "{what}"
            );
            // The round after the source, when it has one.
            let fallback = match source.chain().get(1) {
                Some(PrizeSource::Beacon { round }) => Some(*round),
                _ => None,
            };
            assert_eq!(fallback, expected["fallbackRound"].as_u64(), "{what}");
        }
        let beacon = &v["beacon"];
        for round in beacon["rounds"].as_array().expect("rounds") {
            assert_eq!(
                round_time(round["round"].as_u64().expect("a round"))
                    .format("%Y-%m-%dT%H:%M:%SZ")
                    .to_string(),
                round["time"]
            );
        }
        for case in beacon["firstRoundFrom"].as_array().expect("cases") {
            let at = DateTime::parse_from_rfc3339(case["at"].as_str().expect("a time"))
                .expect("RFC 3339")
                .to_utc();
            assert_eq!(
                first_round_from(at),
                case["round"].as_u64().expect("a round"),
                "{at}"
            );
        }
        for case in beacon["randomness"].as_array().expect("cases") {
            let round = case["round"].as_u64().expect("a round");
            assert_eq!(
                verify_quicknet(round, &hex(&case["signature"])).map(|r| to_hex(&r)),
                Ok(case["randomness"].as_str().expect("hex").to_owned())
            );
        }
    }

    #[test]
    fn whole_files_check_out_as_the_vectors_say() {
        // The script checks more than this reference does (time order, the published
        // deadlines and rounds, `recordedAt`): those findings are the script's alone.
        const OURS: [&str; 8] = [
            "notSorted",
            "notInRaffle",
            "sizeDiffers",
            "rootDiffers",
            "winnerDiffers",
            "resultUnreadable",
            "beaconInvalid",
            "beaconRoundDiffers",
        ];
        let v = vectors();
        for case in v["files"]["cases"].as_array().expect("cases") {
            let what = &case["what"];
            let file: PublishedDrawDto =
                serde_json::from_value(case["file"].clone()).expect("a file");
            let findings = check(&file.to_published().expect("readable"));
            let winners: Vec<Option<u32>> = findings
                .iter()
                .filter_map(|f| match f {
                    Finding::WinnerConfirmed { winner, .. } => Some(*winner),
                    Finding::WinnerDiffers { computed, .. } => Some(*computed),
                    Finding::NotDrawn { .. } | Finding::ResultUnreadable { .. } => Some(None),
                    _ => None,
                })
                .collect();
            assert_eq!(json!(winners), case["expected"]["winners"], "{what}");
            let expected: Vec<&str> = case["expected"]["findings"]
                .as_array()
                .expect("findings")
                .iter()
                .filter_map(Value::as_str)
                .filter(|kind| OURS.contains(kind))
                .collect();
            assert_eq!(
                findings.iter().any(Finding::is_problem),
                !expected.is_empty(),
                "{what}: {findings:#?}"
            );
        }
    }
}
