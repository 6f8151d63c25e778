//! The published rule (decision 0020): how a public result names the winning number, and what
//! happens when that number was not sold. The verifier on the site applies the same steps.
//!
//! 1. **The number.** A lottery result's last *k* digits, *k* being the digits of the raffle's
//!    size (4 for 9,999 numbers, 5 for 10,000 to 99,999): the result `12-34-5678` of a
//!    9,999-number raffle names `5678`. A result written with fewer digits is read with zeros
//!    in front (`46` is `0046`). A drand beacon's randomness names the number
//!    `(its first 8 bytes as an unsigned big-endian integer) mod size + 1`.
//! 2. **Sold?** If that number is in the frozen ledger and has not won an earlier prize of the
//!    raffle, it wins.
//! 3. **Otherwise, upward.** The next number upward that is in the ledger and has not won an
//!    earlier prize wins; past the raffle's last number the count goes on from its first.
//!    A number the raffle does not have (`0000`, or above its size) goes upward the same way.
//! 4. A ledger with no number left to win gives no winner.

use std::collections::BTreeSet;

use crate::validation::FieldError;

/// What the rule was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrawInput {
    /// A lottery's published result, as the admin typed it.
    Lottery { result: String },
    /// A drand round's randomness (already verified against its signature).
    Beacon { round: u64, randomness: [u8; 32] },
}

/// One step of the rule, for the record and the certificate. Stored and published as JSON
/// tagged by `step` (`{"step": "notSold", "number": 46, "next": 52}`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        tag = "step",
        rename_all = "camelCase",
        rename_all_fields = "camelCase"
    )
)]
pub enum DrawStep {
    /// The last `digits` digits of the result (zeros in front when it had fewer) read as `number`.
    LastDigits {
        result: String,
        digits: usize,
        used: String,
        number: u32,
    },
    /// A beacon round's randomness, reduced to a number of the raffle.
    Beacon {
        round: u64,
        randomness_hex: String,
        number: u32,
    },
    /// `number` is not one of the raffle's (zero, or above its size).
    NotInRaffle { number: u32, max_tickets: u32 },
    /// `number` was not sold; `next` is the next sold number upward.
    NotSold { number: u32, next: u32 },
    /// `number` already won an earlier prize; `next` is the next sold number upward.
    AlreadyWon { number: u32, next: u32 },
    /// The count went past the raffle's last number and on from its first.
    WrappedAround,
    /// `number` wins.
    Wins { number: u32 },
    /// Nothing in the ledger can win.
    NoWinner,
    /// The fair rules (`super::fair`): the last `digits` digits of a lottery result, `used`.
    Digits {
        result: String,
        digits: usize,
        used: String,
    },
    /// The fair rules: a beacon round's randomness, read as a number below 2^256.
    BeaconRandomness { round: u64, randomness_hex: String },
    /// `rifa-number-v2`: the result names `number`.
    Names { number: u32 },
    /// `rifa-number-v2`: `number` is not one of the raffle's (zero, or above its size); the
    /// prize goes to the next source.
    OutsideRaffle { number: u32, max_tickets: u32 },
    /// `rifa-number-v2`: `number` was not sold; the prize goes to the next source.
    NotSoldNextSource { number: u32 },
    /// `rifa-number-v2`: `number` won an earlier prize; the prize goes to the next source.
    AlreadyWonNextSource { number: u32 },
    /// The value lies in the incomplete last round of `count`: the next source decides.
    IncompleteRound { count: u32 },
    /// `rifa-among-sold-v2`: `count` sold numbers are still in play.
    InPlay { count: u32 },
    /// `rifa-among-sold-v2`: the value modulo `count` is `remainder`, the place (from 0) of
    /// `number` among those in play.
    Place {
        remainder: u32,
        count: u32,
        number: u32,
    },
    /// This source gives no winner: the next source of the prize's chain decides.
    NextSource,
    /// A beacon's randomness in the incomplete last round, replaced by its SHA-256.
    Rehashed { randomness_hex: String },
    /// Source `source` of the chain (0 the first) gave no result by its deadline: the next
    /// source decides.
    SourceLapsed { source: u32, deadline: String },
}

/// The outcome of the rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawOutcome {
    /// The number the result names (before looking at what was sold).
    pub drawn: u32,
    pub winner: Option<u32>,
    pub steps: Vec<DrawStep>,
}

/// How many digits of a result a raffle of `max_tickets` numbers uses.
#[must_use]
pub fn digits_used(max_tickets: u32) -> usize {
    max_tickets.max(1).to_string().len()
}

/// The number a lottery result names in a raffle of `max_tickets` numbers, with its step.
///
/// # Errors
/// `NotANumber` when the result has no digit, or a character other than digits, spaces and the
/// separators lotteries print (`-`, `.`, `/`).
pub fn number_from_lottery(result: &str, max_tickets: u32) -> Result<(u32, DrawStep), FieldError> {
    let result = result.trim();
    if result.is_empty()
        || !result
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '-' | '.' | '/'))
    {
        return Err(FieldError::NotANumber);
    }
    let all: String = result.chars().filter(char::is_ascii_digit).collect();
    if all.is_empty() {
        return Err(FieldError::NotANumber);
    }
    let digits = digits_used(max_tickets);
    let used = if all.len() >= digits {
        all[all.len() - digits..].to_owned()
    } else {
        format!("{all:0>digits$}")
    };
    let number = used.parse::<u32>().map_err(|_| FieldError::NotANumber)?;
    Ok((
        number,
        DrawStep::LastDigits {
            result: result.to_owned(),
            digits,
            used,
            number,
        },
    ))
}

/// The number a beacon's randomness names in a raffle of `max_tickets` numbers, with its step.
#[must_use]
pub fn number_from_beacon(round: u64, randomness: &[u8; 32], max_tickets: u32) -> (u32, DrawStep) {
    let mut first = [0_u8; 8];
    first.copy_from_slice(&randomness[..8]);
    let value = u64::from_be_bytes(first) % u64::from(max_tickets.max(1));
    let number = u32::try_from(value).unwrap_or(0) + 1;
    (
        number,
        DrawStep::Beacon {
            round,
            randomness_hex: super::ledger::to_hex(randomness),
            number,
        },
    )
}

/// Applies the rule to `input` for a raffle of `max_tickets` numbers whose frozen ledger holds
/// `sold` (any order), where `already_won` are the winners of the raffle's earlier prizes.
///
/// # Errors
/// As [`number_from_lottery`].
pub fn apply(
    input: &DrawInput,
    max_tickets: u32,
    sold: &BTreeSet<u32>,
    already_won: &BTreeSet<u32>,
) -> Result<DrawOutcome, FieldError> {
    let (drawn, first) = match input {
        DrawInput::Lottery { result } => number_from_lottery(result, max_tickets)?,
        DrawInput::Beacon { round, randomness } => {
            number_from_beacon(*round, randomness, max_tickets)
        }
    };
    let mut steps = vec![first];
    let in_raffle = (1..=max_tickets).contains(&drawn);
    let can_win = |n: &u32| !already_won.contains(n);
    if in_raffle && sold.contains(&drawn) && can_win(&drawn) {
        steps.push(DrawStep::Wins { number: drawn });
        return Ok(DrawOutcome {
            drawn,
            winner: Some(drawn),
            steps,
        });
    }
    let upward = sold.range(drawn.saturating_add(1)..).copied().find(can_win);
    let winner = upward.or_else(|| sold.iter().copied().find(can_win));
    let Some(winner) = winner else {
        steps.push(DrawStep::NoWinner);
        return Ok(DrawOutcome {
            drawn,
            winner: None,
            steps,
        });
    };
    steps.push(if !in_raffle {
        DrawStep::NotInRaffle {
            number: drawn,
            max_tickets,
        }
    } else if sold.contains(&drawn) {
        DrawStep::AlreadyWon {
            number: drawn,
            next: winner,
        }
    } else {
        DrawStep::NotSold {
            number: drawn,
            next: winner,
        }
    });
    if upward.is_none() {
        steps.push(DrawStep::WrappedAround);
    }
    steps.push(DrawStep::Wins { number: winner });
    Ok(DrawOutcome {
        drawn,
        winner: Some(winner),
        steps,
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn set(numbers: &[u32]) -> BTreeSet<u32> {
        numbers.iter().copied().collect()
    }

    fn lottery(result: &str) -> DrawInput {
        DrawInput::Lottery {
            result: result.into(),
        }
    }

    fn winner_of(result: &str, max: u32, sold: &[u32], won: &[u32]) -> Option<u32> {
        apply(&lottery(result), max, &set(sold), &set(won))
            .unwrap()
            .winner
    }

    #[test]
    fn a_raffle_uses_as_many_digits_as_its_size_has() {
        assert_eq!(digits_used(100), 3);
        assert_eq!(digits_used(9_999), 4);
        assert_eq!(digits_used(10_000), 5);
        assert_eq!(digits_used(99_999), 5);
    }

    #[test]
    fn a_sold_number_named_by_the_result_wins_whatever_its_leading_zeros() {
        let sold = [46, 5_678, 9_999];
        assert_eq!(winner_of("0046", 9_999, &sold, &[]), Some(46));
        assert_eq!(winner_of("46", 9_999, &sold, &[]), Some(46), "read as 0046");
        assert_eq!(winner_of("12-34-5678", 9_999, &sold, &[]), Some(5_678));
        assert_eq!(
            winner_of("7 765 678", 9_999, &sold, &[]),
            Some(5_678),
            "more digits than needed"
        );
        assert_eq!(winner_of("9999", 9_999, &sold, &[]), Some(9_999));
    }

    #[test]
    fn the_steps_say_which_digits_were_read() {
        let outcome = apply(&lottery("46"), 99_999, &set(&[46]), &set(&[])).unwrap();
        assert_eq!(
            outcome.steps,
            [
                DrawStep::LastDigits {
                    result: "46".into(),
                    digits: 5,
                    used: "00046".into(),
                    number: 46
                },
                DrawStep::Wins { number: 46 },
            ]
        );
    }

    #[test]
    fn an_unsold_number_passes_to_the_next_sold_one_upward() {
        let outcome = apply(&lottery("0050"), 9_999, &set(&[10, 51, 70]), &set(&[])).unwrap();
        assert_eq!(outcome.winner, Some(51));
        assert_eq!(
            outcome.steps[1],
            DrawStep::NotSold {
                number: 50,
                next: 51
            }
        );
        assert_eq!(winner_of("0052", 9_999, &[10, 51, 70], &[]), Some(70));
    }

    #[test]
    fn past_the_last_number_the_count_goes_on_from_the_first() {
        let outcome = apply(&lottery("9990"), 9_999, &set(&[3, 20]), &set(&[])).unwrap();
        assert_eq!(outcome.winner, Some(3));
        assert_eq!(
            outcome.steps[1..],
            [
                DrawStep::NotSold {
                    number: 9_990,
                    next: 3
                },
                DrawStep::WrappedAround,
                DrawStep::Wins { number: 3 }
            ]
        );
    }

    #[test]
    fn numbers_the_raffle_does_not_have_go_upward_too() {
        // A 500-number raffle reads 3 digits: 000 and 501–999 are not its numbers.
        let outcome = apply(&lottery("000"), 500, &set(&[1, 2]), &set(&[])).unwrap();
        assert_eq!(outcome.winner, Some(1));
        assert_eq!(
            outcome.steps[1],
            DrawStep::NotInRaffle {
                number: 0,
                max_tickets: 500
            }
        );
        assert_eq!(winner_of("777", 500, &[1, 300], &[]), Some(1));
        assert_eq!(winner_of("250", 500, &[1, 300], &[]), Some(300));
    }

    #[test]
    fn a_number_that_won_an_earlier_prize_passes_on() {
        let outcome = apply(&lottery("0051"), 9_999, &set(&[51, 60]), &set(&[51])).unwrap();
        assert_eq!(outcome.winner, Some(60));
        assert_eq!(
            outcome.steps[1],
            DrawStep::AlreadyWon {
                number: 51,
                next: 60
            }
        );
        assert_eq!(
            winner_of("0061", 9_999, &[51, 60], &[60]),
            Some(51),
            "wraps past the winner"
        );
    }

    #[test]
    fn nothing_left_to_win_is_no_winner() {
        assert_eq!(winner_of("0001", 9_999, &[], &[]), None);
        assert_eq!(winner_of("0001", 9_999, &[1], &[1]), None);
    }

    #[test]
    fn results_that_are_not_numbers_are_refused() {
        for bad in ["", "   ", "12a4", "--", "½", "1e5"] {
            assert_eq!(
                apply(&lottery(bad), 9_999, &set(&[1]), &set(&[])),
                Err(FieldError::NotANumber),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn a_beacon_names_a_number_of_the_raffle_from_its_first_eight_bytes() {
        let mut randomness = [0_u8; 32];
        randomness[7] = 100;
        let (number, _) = number_from_beacon(1, &randomness, 99_999);
        assert_eq!(number, 101);
        randomness[..8].copy_from_slice(&99_999_u64.to_be_bytes());
        assert_eq!(
            number_from_beacon(1, &randomness, 99_999).0,
            1,
            "wraps at the size"
        );
        assert_eq!(
            number_from_beacon(1, &[0xff; 32], 99_999).0,
            (u64::MAX % 99_999) as u32 + 1
        );
    }

    proptest! {
        #[test]
        fn the_winner_is_sold_has_not_won_and_nothing_sold_lies_between(
            max in 1_u32..99_999,
            sold in prop::collection::btree_set(1_u32..99_999, 0..60),
            result in "[0-9]{1,9}",
            won_share in 0_u32..3,
        ) {
            let sold: BTreeSet<u32> = sold.into_iter().filter(|n| *n <= max).collect();
            let won: BTreeSet<u32> = sold.iter().copied().filter(|n| n % 3 < won_share).collect();
            let outcome = apply(&lottery(&result), max, &sold, &won).unwrap();
            let open: Vec<u32> = sold.difference(&won).copied().collect();
            match outcome.winner {
                None => prop_assert!(open.is_empty()),
                Some(winner) => {
                    prop_assert!(open.contains(&winner));
                    // No open number sits between the drawn one and the winner, going upward
                    // and around.
                    let d = outcome.drawn;
                    let distance = |n: u32| if n >= d { n - d } else { n + max + 1 - d };
                    prop_assert!(d > max || open.iter().all(|n| distance(*n) >= distance(winner)));
                }
            }
        }
    }
}
