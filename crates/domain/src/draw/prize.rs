//! A raffle's prizes, the public source each is drawn from, and the results an admin records
//! (issue 15, decision 0020). Prizes are drawn in their order: the first prize first.

use chrono::{DateTime, NaiveDate, TimeDelta, Utc};

use super::rule::{DrawInput, number_from_lottery};
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

/// The public result a prize is drawn from, fixed before sales close.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrizeSource {
    /// A national lottery's draw: its name, the day it is drawn, and where it publishes results.
    Lottery {
        lottery_name: String,
        draw_date: NaiveDate,
        source_url: String,
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
        source_url: Option<String>,
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
                source_url,
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
                let source_url = errors.check(
                    "source.sourceUrl",
                    match source_url.as_deref().map(str::trim) {
                        None | Some("") => Err(FieldError::Required),
                        Some(raw) => absolute_url(raw),
                    },
                );
                Some(Self::Lottery {
                    lottery_name: lottery_name?,
                    draw_date: draw_date?,
                    source_url: source_url?,
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

    /// Parses a lottery result an admin typed for a raffle of `max_tickets` numbers.
    ///
    /// # Errors
    /// `result` when the rule cannot read it; `publishedOn`, `officialUrl` when missing or bad.
    pub fn parse_lottery(
        result: Option<&str>,
        published_on: Option<&str>,
        official_url: Option<&str>,
        max_tickets: u32,
    ) -> Result<Self, FieldErrors> {
        let mut errors = FieldErrors::new();
        let result = errors.check(
            "result",
            match result.map(str::trim) {
                None | Some("") => Err(FieldError::Required),
                Some(raw) if raw.chars().count() > RESULT_MAX => {
                    Err(FieldError::TooLong { max: RESULT_MAX })
                }
                Some(raw) => number_from_lottery(raw, max_tickets).map(|_| raw.to_owned()),
            },
        );
        let published_on = errors.check(
            "publishedOn",
            match published_on.map(str::trim) {
                None | Some("") => Err(FieldError::Required),
                Some(raw) => parse_day(raw),
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
                source_url: Some(url.into()),
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
                source_url: "https://loteria.example/resultados".into(),
            }
        );
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

    #[test]
    fn a_lottery_result_must_be_readable_by_the_rule() {
        let refused = PrizeResult::parse_lottery(
            Some("12a4"),
            Some("2026-12-24"),
            Some("https://l.example/r"),
            9999,
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
            9999,
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
