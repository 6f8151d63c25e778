//! How prizes are settled from what their sources gave (issue 32, decision 0027).
//!
//! Each prize has a chain of sources fixed in its raffle's rules: its own source, then — for a
//! lottery — a drand round published after that lottery's deadline. A source either gave a
//! result (recorded by staff, or a verified round), lapsed (no result recorded by its deadline),
//! or is still awaited. The chain is walked in order: a result the rule decides with settles the
//! prize; a result that names no number in play, or a lapse, passes to the next source. A round
//! always decides ([`super::fair`]), so a chain ending in one always settles.
//!
//! Prizes settle in their order: the winners of earlier prizes are out of play for later ones,
//! so a prize waits for every prize before it.

use std::collections::BTreeSet;

use chrono::{DateTime, SecondsFormat, Utc};

use super::fair::{self, Decision, Pool, Rule};
use super::rule::{self, DrawInput, DrawStep};
use crate::validation::FieldError;

/// What one source of a prize's chain gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceState {
    Recorded(DrawInput),
    /// No result was recorded by `deadline`: the next source decides.
    Lapsed {
        deadline: DateTime<Utc>,
    },
    Awaited,
}

/// One link of a prize's chain: what it gave, and how many of a lottery result's last digits
/// are read (a round's randomness is read whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainLink {
    pub digits: u32,
    pub state: SourceState,
}

/// Where a prize stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settlement {
    /// Source `source` decided: `winner` (none when no number was left in play); `drawn` is
    /// the number the result named (the winner under the fair rules).
    Decided {
        source: usize,
        drawn: u32,
        winner: Option<u32>,
        steps: Vec<DrawStep>,
    },
    /// Source `source` is awaited; `steps` say why the earlier ones passed.
    Awaiting { source: usize, steps: Vec<DrawStep> },
}

/// A prize as settlement sees it: already decided with its winner, or still open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrizeProgress {
    Decided(Option<u32>),
    Open(Vec<ChainLink>),
}

/// Settles one prize of a raffle of `max_tickets` numbers under `rule`.
///
/// # Errors
/// `NotANumber` when a recorded lottery result cannot be read as its source is.
pub fn settle_prize(
    rule: Rule,
    max_tickets: u32,
    sold: &BTreeSet<u32>,
    won: &BTreeSet<u32>,
    chain: &[ChainLink],
) -> Result<Settlement, FieldError> {
    if rule == Rule::UpwardV1 {
        return settle_upward(max_tickets, sold, won, chain);
    }
    let pool = Pool::new(sold.clone(), won.clone());
    let mut steps = Vec::new();
    for (source, link) in chain.iter().enumerate() {
        let input = match &link.state {
            SourceState::Awaited => return Ok(Settlement::Awaiting { source, steps }),
            SourceState::Lapsed { deadline } => {
                steps.push(DrawStep::SourceLapsed {
                    source: u32::try_from(source).unwrap_or(u32::MAX),
                    deadline: deadline.to_rfc3339_opts(SecondsFormat::Secs, true),
                });
                continue;
            }
            SourceState::Recorded(input) => input,
        };
        let (reading, read) = match input {
            DrawInput::Lottery { result } => fair::read_lottery(result, link.digits)?,
            DrawInput::Beacon { round, randomness } => fair::read_beacon(*round, *randomness),
        };
        steps.push(read);
        let (decision, decided) = fair::decide(rule, &reading, max_tickets, &pool);
        steps.extend(decided);
        match decision {
            Decision::Winner(number) => {
                return Ok(Settlement::Decided {
                    source,
                    drawn: number,
                    winner: Some(number),
                    steps,
                });
            }
            Decision::NoWinner => {
                return Ok(Settlement::Decided {
                    source,
                    drawn: 0,
                    winner: None,
                    steps,
                });
            }
            Decision::NextSource => {}
        }
    }
    // Every chain ends in a round, which always decides; a chain without one has nothing left.
    steps.push(DrawStep::NoWinner);
    Ok(Settlement::Decided {
        source: chain.len().saturating_sub(1),
        drawn: 0,
        winner: None,
        steps,
    })
}

/// `rifa-rule-v1`: the first source's result, read upward; it has no chain.
fn settle_upward(
    max_tickets: u32,
    sold: &BTreeSet<u32>,
    won: &BTreeSet<u32>,
    chain: &[ChainLink],
) -> Result<Settlement, FieldError> {
    match chain.first().map(|link| &link.state) {
        Some(SourceState::Recorded(input)) => {
            let outcome = rule::apply(input, max_tickets, sold, won)?;
            Ok(Settlement::Decided {
                source: 0,
                drawn: outcome.drawn,
                winner: outcome.winner,
                steps: outcome.steps,
            })
        }
        _ => Ok(Settlement::Awaiting {
            source: 0,
            steps: Vec::new(),
        }),
    }
}

/// Settles the open prizes in order, each knowing the winners before it; stops after the
/// first prize still awaiting a source (the later ones cannot know who is in play). Returns
/// each open prize's index with its settlement.
///
/// # Errors
/// The index of a prize whose recorded result cannot be read, with the error.
pub fn settle_in_order(
    rule: Rule,
    max_tickets: u32,
    sold: &BTreeSet<u32>,
    prizes: &[PrizeProgress],
) -> Result<Vec<(usize, Settlement)>, (usize, FieldError)> {
    let mut won = BTreeSet::new();
    let mut settled = Vec::new();
    for (index, prize) in prizes.iter().enumerate() {
        let chain = match prize {
            PrizeProgress::Decided(winner) => {
                won.extend(*winner);
                continue;
            }
            PrizeProgress::Open(chain) => chain,
        };
        let settlement =
            settle_prize(rule, max_tickets, sold, &won, chain).map_err(|e| (index, e))?;
        let awaiting = match &settlement {
            Settlement::Decided { winner, .. } => {
                won.extend(*winner);
                false
            }
            Settlement::Awaiting { .. } => true,
        };
        settled.push((index, settlement));
        if awaiting {
            break;
        }
    }
    Ok(settled)
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone as _;

    use super::*;

    fn lottery(result: &str, digits: u32) -> ChainLink {
        ChainLink {
            digits,
            state: SourceState::Recorded(DrawInput::Lottery {
                result: result.into(),
            }),
        }
    }

    fn round(byte: u8) -> ChainLink {
        let mut randomness = [0_u8; 32];
        randomness[31] = byte;
        ChainLink {
            digits: 0,
            state: SourceState::Recorded(DrawInput::Beacon {
                round: 7,
                randomness,
            }),
        }
    }

    fn awaited() -> ChainLink {
        ChainLink {
            digits: 4,
            state: SourceState::Awaited,
        }
    }

    fn set(numbers: &[u32]) -> BTreeSet<u32> {
        numbers.iter().copied().collect()
    }

    #[test]
    fn a_result_that_names_a_sold_number_settles_the_prize_at_once() {
        let settled = settle_prize(
            Rule::NumberV2,
            9_999,
            &set(&[46, 5_678]),
            &set(&[]),
            &[lottery("12-5678", 4), awaited()],
        )
        .unwrap();
        let Settlement::Decided {
            source,
            winner,
            steps,
            ..
        } = settled
        else {
            panic!("decided")
        };
        assert_eq!((source, winner), (0, Some(5_678)));
        assert_eq!(steps.last(), Some(&DrawStep::Wins { number: 5_678 }));
    }

    #[test]
    fn an_unsold_number_or_a_lapse_waits_for_the_round_and_the_round_decides_among_the_sold() {
        let sold = set(&[46, 5_678, 9_000]);
        let waiting = settle_prize(
            Rule::NumberV2,
            9_999,
            &sold,
            &set(&[]),
            &[lottery("0047", 4), awaited()],
        )
        .unwrap();
        assert!(
            matches!(&waiting, Settlement::Awaiting { source: 1, steps } if steps.last() == Some(&DrawStep::NextSource)),
            "{waiting:?}"
        );
        // 2 in play once 46 has won: 45 mod 2 = 1, the second of 5678 and 9000.
        let settled = settle_prize(
            Rule::NumberV2,
            9_999,
            &sold,
            &set(&[46]),
            &[lottery("0047", 4), round(45)],
        )
        .unwrap();
        assert!(matches!(
            settled,
            Settlement::Decided {
                source: 1,
                winner: Some(9_000),
                ..
            }
        ));
        let deadline = Utc.with_ymd_and_hms(2030, 1, 16, 20, 0, 0).unwrap();
        let lapsed = ChainLink {
            digits: 4,
            state: SourceState::Lapsed { deadline },
        };
        let Settlement::Decided { steps, winner, .. } = settle_prize(
            Rule::AmongSoldV2,
            9_999,
            &sold,
            &set(&[]),
            &[lapsed, round(45)],
        )
        .unwrap() else {
            panic!("decided")
        };
        // 45 mod 3 = 0: the lowest.
        assert_eq!(winner, Some(46));
        assert_eq!(
            steps[0],
            DrawStep::SourceLapsed {
                source: 0,
                deadline: "2030-01-16T20:00:00Z".into()
            }
        );
    }

    #[test]
    fn prizes_settle_in_order_and_stop_at_the_first_still_waiting() {
        let sold = set(&[1, 2, 3]);
        let prizes = [
            PrizeProgress::Decided(Some(2)),
            // In play 1, 3: 4 mod 2 = 0 → 1.
            PrizeProgress::Open(vec![lottery("4", 1), awaited()]),
            PrizeProgress::Open(vec![lottery("9", 1), awaited()]),
            PrizeProgress::Open(vec![lottery("0", 1), awaited()]),
        ];
        let settled = settle_in_order(Rule::AmongSoldV2, 3, &sold, &prizes).unwrap();
        assert_eq!(settled.len(), 3, "{settled:?}");
        assert!(matches!(
            settled[0],
            (
                1,
                Settlement::Decided {
                    winner: Some(1),
                    ..
                }
            )
        ));
        // Only 3 is left in play: every value lies in a complete round of one, and 3 wins.
        assert!(matches!(
            settled[1],
            (
                2,
                Settlement::Decided {
                    winner: Some(3),
                    ..
                }
            )
        ));
        // Nothing is left in play for the fourth prize.
        assert!(matches!(
            settled[2],
            (3, Settlement::Decided { winner: None, .. })
        ));
        let waiting = [
            PrizeProgress::Open(vec![awaited()]),
            PrizeProgress::Open(vec![lottery("1", 1)]),
        ];
        let settled = settle_in_order(Rule::AmongSoldV2, 3, &sold, &waiting).unwrap();
        assert_eq!(settled.len(), 1, "the second waits for the first");
    }

    #[test]
    fn the_first_rule_reads_only_the_first_source_upward() {
        let settled = settle_prize(
            Rule::UpwardV1,
            9_999,
            &set(&[10, 51]),
            &set(&[]),
            &[lottery("0050", 4)],
        )
        .unwrap();
        assert!(matches!(
            settled,
            Settlement::Decided {
                drawn: 50,
                winner: Some(51),
                ..
            }
        ));
    }

    #[test]
    fn a_result_the_source_cannot_be_read_from_is_an_error_naming_the_prize() {
        let prizes = [PrizeProgress::Open(vec![lottery("46", 4), awaited()])];
        assert_eq!(
            settle_in_order(Rule::AmongSoldV2, 9_999, &set(&[1]), &prizes),
            Err((0, FieldError::NotANumber))
        );
    }
}
