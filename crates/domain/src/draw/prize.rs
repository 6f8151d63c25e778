//! A raffle's prizes, the public source each is drawn from, and the results an admin records
//! (issue 15, decision 0020). Prizes are drawn in their order: the first prize first.

use chrono::{DateTime, NaiveDate, NaiveTime, TimeDelta, TimeZone as _, Utc};
use chrono_tz::Tz;

use super::beacon::{first_round_from, round_time};
use super::fair::{MAX_SOURCE_DIGITS, Rule, read_lottery};
use super::rule::{DrawInput, digits_used, number_from_lottery};
use crate::calendar::parse_day;
use crate::validation::{FieldError, FieldErrors, TextKind, free_text, required_text, web_url};

/// Prizes a raffle may have.
pub const MAX_PRIZES: usize = 20;
/// Days a winner has to claim their prize (the spec's claim window).
pub const CLAIM_DAYS: i64 = 30;

const TITLE_MAX: usize = 200;
const DESCRIPTION_MAX: usize = 2000;
const NAME_MAX: usize = 120;
const URL_MAX: usize = 2048;
const RESULT_MAX: usize = 60;
/// Past any round drand will reach (quicknet gives one every 3 s: 10 million a year).
const MAX_ROUND: u64 = 999_999_999_999;
/// The time zone a lottery draws in when none is given: the operators' own (decision 0025).
pub const DEFAULT_TIME_ZONE: Tz = chrono_tz::America::Caracas;
/// The clocks a lottery may draw on: the countries whose lotteries raffles follow (the panel
/// offers the same list).
pub const TIME_ZONES: [&str; 14] = [
    "America/Caracas",
    "America/Bogota",
    "America/Mexico_City",
    "America/Lima",
    "America/Guayaquil",
    "America/Panama",
    "America/Santo_Domingo",
    "America/Puerto_Rico",
    "America/Santiago",
    "America/Argentina/Buenos_Aires",
    "America/New_York",
    "America/Los_Angeles",
    "Europe/Madrid",
    "UTC",
];
/// How long before a source draws the list must be frozen: a result cannot be known, nor
/// leaked early, while the freeze is still being made.
pub const FREEZE_MARGIN: TimeDelta = TimeDelta::minutes(10);
/// Hours after a lottery draws that its result may still be recorded, unless its rules say
/// otherwise; then the prize's drand round decides (decision 0027).
pub const DEFAULT_DEADLINE_HOURS: u32 = 24;
/// The longest a prize may wait for its lottery: a week.
pub const MAX_DEADLINE_HOURS: u32 = 168;

/// The public result a prize is drawn from, fixed before sales close.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrizeSource {
    /// A national lottery's draw: its name, the day and local time it is drawn and the time
    /// zone of that clock, and where it publishes results.
    Lottery {
        lottery_name: String,
        draw_date: NaiveDate,
        draw_time: NaiveTime,
        time_zone: Tz,
        source_url: String,
        /// How many of a result's last digits are read under `rifa-among-sold-v2`; `None` is
        /// as many as the raffle's size has (what `rifa-number-v2` always reads).
        digits: Option<u32>,
        /// Hours after the draw its result may be recorded; past them the next source decides.
        deadline_hours: u32,
    },
    /// A drand "quicknet" round fixed in advance (the first round after sales close).
    Beacon { round: u64 },
}

/// A prize as the raffle publishes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrizeDraft {
    pub title: String,
    pub description: String,
    pub image: Option<String>,
    pub source: PrizeSource,
}

/// The form's raw source, as it arrives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrizeSourceInput {
    Lottery {
        lottery_name: Option<String>,
        draw_date: Option<String>,
        /// `HH:MM` on the lottery's clock; none is the day's first minute (the strictest).
        draw_time: Option<String>,
        /// An IANA name (`America/Bogota`); none is [`DEFAULT_TIME_ZONE`].
        time_zone: Option<String>,
        source_url: Option<String>,
        digits: Option<u64>,
        deadline_hours: Option<u64>,
    },
    Beacon {
        round: Option<u64>,
    },
}

/// The form's raw prize, as it arrives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrizeInput {
    pub title: Option<String>,
    pub description: Option<String>,
    pub image: Option<String>,
    pub source: PrizeSourceInput,
}

impl PrizeSource {
    fn parse(input: &PrizeSourceInput, errors: &mut FieldErrors) -> Option<Self> {
        match input {
            PrizeSourceInput::Lottery {
                lottery_name,
                draw_date,
                draw_time,
                time_zone,
                source_url,
                digits,
                deadline_hours,
            } => {
                let lottery_name = errors.check(
                    "source.lotteryName",
                    required_text(
                        lottery_name.as_deref().unwrap_or(""),
                        TextKind::SingleLine,
                        2,
                        NAME_MAX,
                    ),
                );
                let draw_date = errors.check(
                    "source.drawDate",
                    match draw_date.as_deref().map(str::trim) {
                        None | Some("") => Err(FieldError::Required),
                        Some(raw) => parse_day(raw),
                    },
                );
                let draw_time = errors.check(
                    "source.drawTime",
                    match draw_time.as_deref().map(str::trim) {
                        None | Some("") => Ok(NaiveTime::MIN),
                        Some(raw) => NaiveTime::parse_from_str(raw, "%H:%M")
                            .map_err(|_| FieldError::InvalidDate),
                    },
                );
                let time_zone = errors.check(
                    "source.timeZone",
                    match time_zone.as_deref().map(str::trim) {
                        None | Some("") => Ok(DEFAULT_TIME_ZONE),
                        Some(raw) => TIME_ZONES
                            .contains(&raw)
                            .then(|| raw.parse::<Tz>().ok())
                            .flatten()
                            .ok_or_else(|| FieldError::UnknownOption {
                                allowed: TIME_ZONES.to_vec(),
                            }),
                    },
                );
                let source_url = errors.check(
                    "source.sourceUrl",
                    match source_url.as_deref().map(str::trim) {
                        None | Some("") => Err(FieldError::Required),
                        Some(raw) => absolute_url(raw),
                    },
                );
                let digits = errors.check(
                    "source.digits",
                    digits
                        .map(|d| {
                            u32::try_from(d)
                                .ok()
                                .filter(|d| (1..=MAX_SOURCE_DIGITS).contains(d))
                                .ok_or(FieldError::OutOfRange {
                                    min: "1".into(),
                                    max: MAX_SOURCE_DIGITS.to_string(),
                                })
                        })
                        .transpose(),
                );
                let deadline_hours = errors.check(
                    "source.deadlineHours",
                    u32::try_from(deadline_hours.unwrap_or(u64::from(DEFAULT_DEADLINE_HOURS)))
                        .ok()
                        .filter(|h| (1..=MAX_DEADLINE_HOURS).contains(h))
                        .ok_or(FieldError::OutOfRange {
                            min: "1".into(),
                            max: MAX_DEADLINE_HOURS.to_string(),
                        }),
                );
                Some(Self::Lottery {
                    lottery_name: lottery_name?,
                    draw_date: draw_date?,
                    draw_time: draw_time?,
                    time_zone: time_zone?,
                    source_url: source_url?,
                    digits: digits?,
                    deadline_hours: deadline_hours?,
                })
            }
            PrizeSourceInput::Beacon { round } => {
                let round = errors.check(
                    "source.round",
                    match round {
                        None => Err(FieldError::Required),
                        Some(round) if !(1..=MAX_ROUND).contains(round) => {
                            Err(FieldError::OutOfRange {
                                min: "1".into(),
                                max: MAX_ROUND.to_string(),
                            })
                        }
                        Some(round) => Ok(*round),
                    },
                );
                Some(Self::Beacon { round: round? })
            }
        }
    }
}

impl PrizeSource {
    /// When the source's result is drawn: the lottery's local time on its own clock (on a
    /// day a clock skips that hour, the first instant after), or the round's time.
    #[must_use]
    pub fn draws_at(&self) -> DateTime<Utc> {
        match self {
            Self::Lottery {
                draw_date,
                draw_time,
                time_zone,
                ..
            } => {
                let local = draw_date.and_time(*draw_time);
                time_zone
                    .from_local_datetime(&local)
                    .earliest()
                    .or_else(|| {
                        time_zone
                            .from_local_datetime(&(local + TimeDelta::hours(1)))
                            .earliest()
                    })
                    .map_or_else(|| local.and_utc(), |at| at.with_timezone(&Utc))
            }
            Self::Beacon { round } => round_time(*round),
        }
    }

    /// Until when a lottery's result may be recorded; a round has no deadline (anyone can
    /// fetch it from any relay, whenever).
    #[must_use]
    pub fn deadline(&self) -> Option<DateTime<Utc>> {
        match self {
            Self::Lottery { deadline_hours, .. } => self
                .draws_at()
                .checked_add_signed(TimeDelta::hours(i64::from(*deadline_hours))),
            Self::Beacon { .. } => None,
        }
    }

    /// The prize's chain: this source, then for a lottery the first drand round published
    /// [`FREEZE_MARGIN`] after its deadline, which nobody can know when the lottery lapses.
    #[must_use]
    pub fn chain(&self) -> Vec<Self> {
        // A deadline past what a clock can hold (only a forged file has one) has no round.
        match self
            .deadline()
            .and_then(|deadline| deadline.checked_add_signed(FREEZE_MARGIN))
        {
            Some(from) => vec![
                self.clone(),
                Self::Beacon {
                    round: first_round_from(from),
                },
            ],
            None => vec![self.clone()],
        }
    }

    /// How many of a result's last digits `rule` reads from this source in a raffle of
    /// `max_tickets` numbers (a round's randomness is read whole: 0).
    #[must_use]
    pub fn digits_read(&self, rule: Rule, max_tickets: u32) -> u32 {
        let size_digits = u32::try_from(digits_used(max_tickets)).unwrap_or(MAX_SOURCE_DIGITS);
        match (self, rule) {
            (Self::Beacon { .. }, _) => 0,
            (Self::Lottery { digits, .. }, Rule::AmongSoldV2) => digits.unwrap_or(size_digits),
            (Self::Lottery { .. }, _) => size_digits,
        }
    }

    /// `at` on the source's own clock, as a form shows it (`2026-12-24 19:59`).
    #[must_use]
    pub fn local_time(&self, at: DateTime<Utc>) -> String {
        match self {
            Self::Lottery { time_zone, .. } => at.with_timezone(time_zone).format("%Y-%m-%d %H:%M"),
            Self::Beacon { .. } => at.format("%Y-%m-%d %H:%M"),
        }
        .to_string()
    }

    /// The day it is on the source's own clock at `now`: a result cannot be published later.
    #[must_use]
    pub fn today(&self, now: DateTime<Utc>) -> NaiveDate {
        match self {
            Self::Lottery { time_zone, .. } => now.with_timezone(time_zone).date_naive(),
            Self::Beacon { .. } => now.date_naive(),
        }
    }
}

/// A link to a page elsewhere: `web_url`'s rules, and absolute (a lottery publishes on its own
/// site, never on ours).
fn absolute_url(raw: &str) -> Result<String, FieldError> {
    let url = web_url(raw, URL_MAX)?;
    if url.starts_with('/') {
        Err(FieldError::InvalidUrl)
    } else {
        Ok(url)
    }
}

impl PrizeDraft {
    /// The prizes' titles in order, as the audit trail records them (`None` for none).
    pub fn titles<'a>(prizes: impl Iterator<Item = &'a Self>) -> Option<String> {
        let titles: Vec<&str> = prizes.map(|p| p.title.as_str()).collect();
        (!titles.is_empty()).then(|| titles.join(" | "))
    }

    /// Parses every prize of the form, in order; errors are named `prizes[i].field`.
    ///
    /// # Errors
    /// Every bad field of every prize, and `prizes` when there are more than [`MAX_PRIZES`].
    pub fn parse_all(inputs: &[PrizeInput]) -> Result<Vec<Self>, FieldErrors> {
        let mut errors = FieldErrors::new();
        if inputs.len() > MAX_PRIZES {
            errors.add("prizes", FieldError::TooLong { max: MAX_PRIZES });
            return Err(errors);
        }
        let mut prizes = Vec::with_capacity(inputs.len());
        for (index, input) in inputs.iter().enumerate() {
            let mut own = FieldErrors::new();
            let prize = Self::parse(input, &mut own);
            errors.nest(&format!("prizes[{index}]"), own);
            prizes.extend(prize);
        }
        errors.into_result().map(|()| prizes)
    }

    /// Every source must draw after the sales close (a result known while numbers are still
    /// sold decides nothing fairly); errors are named as [`PrizeDraft::parse_all`]'s.
    ///
    /// # Errors
    /// `prizes[i].source.drawDate` (or `.round`) `DateBefore` the close plus [`FREEZE_MARGIN`],
    /// on that source's clock.
    pub fn check_after_close(
        prizes: &[Self],
        sales_close: Option<DateTime<Utc>>,
    ) -> Result<(), FieldErrors> {
        let mut errors = FieldErrors::new();
        let Some(close) = sales_close else {
            return Ok(());
        };
        for (index, prize) in prizes.iter().enumerate() {
            if prize.source.draws_at() <= close + FREEZE_MARGIN {
                let field = match prize.source {
                    PrizeSource::Lottery { .. } => "source.drawDate",
                    PrizeSource::Beacon { .. } => "source.round",
                };
                errors.add(
                    format!("prizes[{index}].{field}"),
                    FieldError::DateBefore {
                        min: prize.source.local_time(close + FREEZE_MARGIN),
                    },
                );
            }
        }
        errors.into_result()
    }

    /// Under `rifa-number-v2` a lottery must print at least as many digits as the raffle's
    /// size has, or some numbers could never be named.
    ///
    /// # Errors
    /// `prizes[i].source.digits` `OutOfRange` from the size's digits.
    pub fn check_digits(prizes: &[Self], rule: Rule, max_tickets: u32) -> Result<(), FieldErrors> {
        let mut errors = FieldErrors::new();
        let needed = u32::try_from(digits_used(max_tickets)).unwrap_or(MAX_SOURCE_DIGITS);
        for (index, prize) in prizes.iter().enumerate() {
            if let PrizeSource::Lottery {
                digits: Some(digits),
                ..
            } = prize.source
                && rule == Rule::NumberV2
                && digits < needed
            {
                errors.add(
                    format!("prizes[{index}].source.digits"),
                    FieldError::OutOfRange {
                        min: needed.to_string(),
                        max: MAX_SOURCE_DIGITS.to_string(),
                    },
                );
            }
        }
        errors.into_result()
    }

    fn parse(input: &PrizeInput, errors: &mut FieldErrors) -> Option<Self> {
        let title = errors.check(
            "title",
            required_text(
                input.title.as_deref().unwrap_or(""),
                TextKind::SingleLine,
                2,
                TITLE_MAX,
            ),
        );
        let description = errors.check(
            "description",
            free_text(
                input.description.as_deref().unwrap_or(""),
                TextKind::MultiLine,
                DESCRIPTION_MAX,
            ),
        );
        let image = errors.check(
            "image",
            match input.image.as_deref().map(str::trim) {
                None | Some("") => Ok(None),
                Some(raw) => web_url(raw, URL_MAX).map(Some),
            },
        );
        let source = PrizeSource::parse(&input.source, errors);
        Some(Self {
            title: title?,
            description: description?,
            image: image?,
            source: source?,
        })
    }
}

/// How a lottery result is read: by the first rule (digits of the size, zeros in front), or
/// as the fair rules read it (the last `digits` digits, whatever else it carries).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultReading {
    Upward { max_tickets: u32 },
    Digits(u32),
}

impl ResultReading {
    /// How `rule` reads `source`'s results in a raffle of `max_tickets` numbers.
    #[must_use]
    pub fn of(source: &PrizeSource, rule: Rule, max_tickets: u32) -> Self {
        match rule {
            Rule::UpwardV1 => Self::Upward { max_tickets },
            _ => Self::Digits(source.digits_read(rule, max_tickets)),
        }
    }

    fn check(self, raw: &str) -> Result<(), FieldError> {
        match self {
            Self::Upward { max_tickets } => number_from_lottery(raw, max_tickets).map(|_| ()),
            Self::Digits(digits) => read_lottery(raw, digits).map(|_| ()),
        }
    }
}

/// A result as an admin records it, or as the beacon gave it (already verified).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrizeResult {
    Lottery {
        result: String,
        published_on: NaiveDate,
        official_url: String,
    },
    Beacon {
        round: u64,
        randomness: [u8; 32],
        signature: Vec<u8>,
    },
}

impl PrizeResult {
    /// What the rule reads.
    #[must_use]
    pub fn input(&self) -> DrawInput {
        match self {
            Self::Lottery { result, .. } => DrawInput::Lottery {
                result: result.clone(),
            },
            Self::Beacon {
                round, randomness, ..
            } => DrawInput::Beacon {
                round: *round,
                randomness: *randomness,
            },
        }
    }

    /// Parses a lottery result an admin typed, read as `reading` says, published on a day of
    /// `published_within` (from the source's draw day to today on its clock).
    ///
    /// # Errors
    /// `result` when the rule cannot read it; `publishedOn`, `officialUrl` when missing or bad,
    /// `publishedOn` `OutOfRange` outside the window.
    pub fn parse_lottery(
        result: Option<&str>,
        published_on: Option<&str>,
        official_url: Option<&str>,
        reading: ResultReading,
        published_within: (NaiveDate, NaiveDate),
    ) -> Result<Self, FieldErrors> {
        let mut errors = FieldErrors::new();
        let result = errors.check(
            "result",
            match result.map(str::trim) {
                None | Some("") => Err(FieldError::Required),
                Some(raw) if raw.chars().count() > RESULT_MAX => {
                    Err(FieldError::TooLong { max: RESULT_MAX })
                }
                Some(raw) => reading.check(raw).map(|()| raw.to_owned()),
            },
        );
        let published_on = errors.check(
            "publishedOn",
            match published_on.map(str::trim) {
                None | Some("") => Err(FieldError::Required),
                Some(raw) => parse_day(raw).and_then(|day| {
                    let (earliest, latest) = published_within;
                    if (earliest..=latest).contains(&day) {
                        Ok(day)
                    } else {
                        Err(FieldError::OutOfRange {
                            min: earliest.to_string(),
                            max: latest.to_string(),
                        })
                    }
                }),
            },
        );
        let official_url = errors.check(
            "officialUrl",
            match official_url.map(str::trim) {
                None | Some("") => Err(FieldError::Required),
                Some(raw) => absolute_url(raw),
            },
        );
        match (result, published_on, official_url) {
            (Some(result), Some(published_on), Some(official_url)) => Ok(Self::Lottery {
                result,
                published_on,
                official_url,
            }),
            _ => Err(errors),
        }
    }
}

/// How the public sees a winner: the first name and the initial of the last (`María P.`).
#[must_use]
pub fn public_name(full_name: &str) -> String {
    let mut words = full_name.split_whitespace();
    let Some(first) = words.next() else {
        return String::new();
    };
    match words.last().and_then(|last| last.chars().next()) {
        Some(initial) => format!("{first} {}.", initial.to_uppercase()),
        None => first.to_owned(),
    }
}

/// Until when the winner of a prize drawn at `drawn_at` may claim it.
#[must_use]
pub fn claim_deadline(drawn_at: DateTime<Utc>) -> DateTime<Utc> {
    drawn_at + TimeDelta::days(CLAIM_DAYS)
}

/// Whole days left to claim at `now`, counting a started day as a day; negative once past.
#[must_use]
pub fn claim_days_left(drawn_at: DateTime<Utc>, now: DateTime<Utc>) -> i64 {
    let left = claim_deadline(drawn_at) - now;
    let days = left.num_days();
    if left > TimeDelta::days(days) {
        days + 1
    } else {
        days
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lottery(name: &str, date: &str, url: &str) -> PrizeInput {
        PrizeInput {
            title: Some("Moto".into()),
            description: Some(String::new()),
            image: None,
            source: PrizeSourceInput::Lottery {
                lottery_name: Some(name.into()),
                draw_date: Some(date.into()),
                draw_time: None,
                time_zone: None,
                source_url: Some(url.into()),
                digits: None,
                deadline_hours: None,
            },
        }
    }

    #[test]
    fn a_lottery_prize_parses() {
        let prizes = PrizeDraft::parse_all(&[lottery(
            " Lotería del Táchira ",
            "2026-12-24",
            "https://loteria.example/resultados",
        )])
        .expect("valid");
        assert_eq!(
            prizes[0].source,
            PrizeSource::Lottery {
                lottery_name: "Lotería del Táchira".into(),
                draw_date: NaiveDate::from_ymd_opt(2026, 12, 24).expect("date"),
                draw_time: NaiveTime::MIN,
                time_zone: DEFAULT_TIME_ZONE,
                source_url: "https://loteria.example/resultados".into(),
                digits: None,
                deadline_hours: DEFAULT_DEADLINE_HOURS,
            }
        );
    }

    #[test]
    fn a_lottery_is_followed_by_a_round_published_after_its_deadline() {
        let mut input = lottery_at("2030-01-15", "16:45", "America/Caracas");
        if let PrizeSourceInput::Lottery { deadline_hours, .. } = &mut input.source {
            *deadline_hours = Some(2);
        }
        let source = PrizeDraft::parse_all(&[input]).expect("valid")[0]
            .source
            .clone();
        let deadline = source.deadline().expect("a lottery has one");
        assert_eq!(
            deadline,
            at("2030-01-15T22:45:00Z"),
            "16:45 in Caracas plus 2 h"
        );
        let chain = source.chain();
        let PrizeSource::Beacon { round } = chain[1] else {
            panic!("a round follows")
        };
        assert!(round_time(round) >= deadline + FREEZE_MARGIN);
        assert!(round_time(round - 1) < deadline + FREEZE_MARGIN);
        assert_eq!(PrizeSource::Beacon { round }.chain().len(), 1);
    }

    #[test]
    fn digits_and_deadlines_are_bounded_and_number_rule_reads_the_whole_size() {
        let mut input = lottery_at("2030-01-15", "16:45", "America/Caracas");
        if let PrizeSourceInput::Lottery {
            digits,
            deadline_hours,
            ..
        } = &mut input.source
        {
            *digits = Some(19);
            *deadline_hours = Some(169);
        }
        let errors = PrizeDraft::parse_all(&[input.clone()]).expect_err("out of range");
        let fields: Vec<String> = errors.iter().map(|(f, _)| f.to_string()).collect();
        assert_eq!(
            fields,
            ["prizes[0].source.digits", "prizes[0].source.deadlineHours"]
        );
        if let PrizeSourceInput::Lottery {
            digits,
            deadline_hours,
            ..
        } = &mut input.source
        {
            *digits = Some(3);
            *deadline_hours = None;
        }
        let prizes = PrizeDraft::parse_all(&[input]).expect("valid");
        assert_eq!(prizes[0].source.digits_read(Rule::AmongSoldV2, 9_999), 3);
        assert_eq!(prizes[0].source.digits_read(Rule::NumberV2, 9_999), 4);
        let refused = PrizeDraft::check_digits(&prizes, Rule::NumberV2, 9_999).expect_err("3 < 4");
        assert_eq!(
            refused
                .iter()
                .next()
                .map(|(f, e)| (f.to_string(), e.clone())),
            Some((
                "prizes[0].source.digits".into(),
                FieldError::OutOfRange {
                    min: "4".into(),
                    max: "18".into()
                }
            ))
        );
        assert!(PrizeDraft::check_digits(&prizes, Rule::AmongSoldV2, 9_999).is_ok());
        assert!(PrizeDraft::check_digits(&prizes, Rule::NumberV2, 999).is_ok());
    }

    fn at(raw: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(raw).expect("instant").to_utc()
    }

    fn lottery_at(date: &str, time: &str, zone: &str) -> PrizeInput {
        let mut input = lottery("Lotería", date, "https://l.example");
        if let PrizeSourceInput::Lottery {
            draw_time,
            time_zone,
            ..
        } = &mut input.source
        {
            *draw_time = Some(time.into());
            *time_zone = Some(zone.into());
        }
        input
    }

    fn draws_at(input: PrizeInput) -> DateTime<Utc> {
        PrizeDraft::parse_all(&[input]).expect("valid")[0]
            .source
            .draws_at()
    }

    #[test]
    fn a_lottery_draws_at_its_local_time_on_its_own_clock() {
        assert_eq!(
            draws_at(lottery_at("2026-12-24", "16:45", "America/Bogota")),
            at("2026-12-24T21:45:00Z"),
            "Bogotá is 5 hours behind UTC"
        );
        assert_eq!(
            draws_at(lottery("Lotería", "2026-12-24", "https://l.example")),
            at("2026-12-24T04:00:00Z"),
            "no time is the first minute of the day in Caracas"
        );
        // New York's clock skips 02:30 on 2026-03-08: the first instant after is taken.
        assert_eq!(
            draws_at(lottery_at("2026-03-08", "02:30", "America/New_York")),
            at("2026-03-08T07:30:00Z")
        );

        let refused: Vec<String> =
            PrizeDraft::parse_all(&[lottery_at("2026-12-24", "25:00", "Mars/Olympus")])
                .expect_err("invalid")
                .iter()
                .map(|(field, _)| field.to_string())
                .collect();
        assert_eq!(
            refused,
            ["prizes[0].source.drawTime", "prizes[0].source.timeZone"]
        );
    }

    #[test]
    fn a_source_must_draw_after_the_sales_close() {
        let prizes = PrizeDraft::parse_all(&[
            lottery("Lotería", "2026-12-24", "https://l.example"),
            lottery("Lotería", "2026-12-25", "https://l.example"),
        ])
        .expect("valid");
        // Sales close at 19:59:59 on the 24th in Caracas: the 24th's draw is before it, the
        // 25th's (its first minute) after it.
        let errors = PrizeDraft::check_after_close(&prizes, Some(at("2026-12-24T23:59:59Z")))
            .expect_err("the first draws before the close");
        let named: Vec<(String, FieldError)> = errors
            .iter()
            .map(|(field, error)| (field.to_string(), error.clone()))
            .collect();
        assert_eq!(
            named,
            [(
                "prizes[0].source.drawDate".to_owned(),
                FieldError::DateBefore {
                    min: "2026-12-24 20:09".into()
                }
            )]
        );
        assert!(
            PrizeDraft::check_after_close(&prizes[1..], Some(at("2026-12-24T23:59:59Z"))).is_ok()
        );
        assert!(PrizeDraft::check_after_close(&prizes, None).is_ok());
    }

    #[test]
    fn errors_name_the_prize_and_its_field() {
        let mut beacon = lottery("x", "", "");
        beacon.source = PrizeSourceInput::Beacon { round: Some(0) };
        let errors =
            PrizeDraft::parse_all(&[lottery("Lotería", "24/12/2026", "/resultados"), beacon])
                .expect_err("invalid");
        let named: Vec<(String, FieldError)> = errors
            .iter()
            .map(|(field, error)| (field.to_string(), error.clone()))
            .collect();
        assert_eq!(
            named,
            vec![
                ("prizes[0].source.drawDate".into(), FieldError::InvalidDate),
                ("prizes[0].source.sourceUrl".into(), FieldError::InvalidUrl),
                (
                    "prizes[1].source.round".into(),
                    FieldError::OutOfRange {
                        min: "1".into(),
                        max: MAX_ROUND.to_string()
                    }
                ),
            ]
        );
    }

    #[test]
    fn more_prizes_than_allowed_are_refused() {
        let many = vec![lottery("Lotería", "2026-12-24", "https://l.example"); MAX_PRIZES + 1];
        let errors = PrizeDraft::parse_all(&many).expect_err("too many");
        assert_eq!(
            errors.iter().next().map(|(f, _)| f.to_string()),
            Some("prizes".into())
        );
    }

    fn day(raw: &str) -> NaiveDate {
        NaiveDate::parse_from_str(raw, "%Y-%m-%d").expect("day")
    }

    #[test]
    fn a_result_is_published_between_the_draw_and_today() {
        let parse = |published_on: &str| {
            PrizeResult::parse_lottery(
                Some("1234"),
                Some(published_on),
                Some("https://l.example/r"),
                ResultReading::Digits(4),
                (day("2030-01-15"), day("2030-01-20")),
            )
        };
        for refused in ["1999-01-01", "2030-01-14", "2030-01-21"] {
            let errors = parse(refused).expect_err(refused);
            assert_eq!(
                errors
                    .iter()
                    .next()
                    .map(|(f, e)| (f.to_string(), e.clone())),
                Some((
                    "publishedOn".into(),
                    FieldError::OutOfRange {
                        min: "2030-01-15".into(),
                        max: "2030-01-20".into()
                    }
                ))
            );
        }
        assert!(parse("2030-01-15").is_ok() && parse("2030-01-20").is_ok());
    }

    #[test]
    fn a_lottery_result_must_be_readable_by_the_rule() {
        let fair = |result: &str| {
            PrizeResult::parse_lottery(
                Some(result),
                Some("2026-12-24"),
                Some("https://l.example/r"),
                ResultReading::Digits(4),
                (day("2026-12-24"), day("2026-12-26")),
            )
        };
        assert!(fair("Táchira 12-4073").is_ok(), "names and dashes separate");
        assert!(fair("46").is_err(), "fewer digits than the source prints");
        let refused = PrizeResult::parse_lottery(
            Some("12a4"),
            Some("2026-12-24"),
            Some("https://l.example/r"),
            ResultReading::Upward { max_tickets: 9999 },
            (day("2026-12-24"), day("2026-12-26")),
        )
        .expect_err("letters");
        assert_eq!(
            refused
                .iter()
                .next()
                .map(|(f, e)| (f.to_string(), e.clone())),
            Some(("result".into(), FieldError::NotANumber))
        );
        let read = PrizeResult::parse_lottery(
            Some(" 12-34-5678 "),
            Some("2026-12-24"),
            Some("https://l.example/r"),
            ResultReading::Upward { max_tickets: 9999 },
            (day("2026-12-24"), day("2026-12-26")),
        )
        .expect("readable");
        assert_eq!(
            read.input(),
            DrawInput::Lottery {
                result: "12-34-5678".into()
            }
        );
    }

    #[test]
    fn the_public_sees_a_first_name_and_an_initial() {
        assert_eq!(public_name("María José Pérez"), "María P.");
        assert_eq!(public_name("  ana   ruiz "), "ana R.");
        assert_eq!(public_name("Cher"), "Cher");
        assert_eq!(public_name(""), "");
    }

    #[test]
    fn claim_days_count_a_started_day() {
        let drawn = DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z")
            .expect("time")
            .with_timezone(&Utc);
        assert_eq!(claim_days_left(drawn, drawn), 30);
        assert_eq!(claim_days_left(drawn, drawn + TimeDelta::hours(1)), 30);
        assert_eq!(claim_days_left(drawn, drawn + TimeDelta::days(29)), 1);
        assert_eq!(claim_days_left(drawn, drawn + TimeDelta::days(30)), 0);
        assert_eq!(claim_days_left(drawn, drawn + TimeDelta::days(31)), -1);
    }
}
