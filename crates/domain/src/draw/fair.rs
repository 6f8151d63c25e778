//! The fair rules (issue 32, decisions 0025 and 0027): every number still in play has exactly
//! the same chance to win each prize, whatever the raffle's size and whatever was sold.
//!
//! A public result is first *read* as a whole number below a known range: a lottery result's
//! last `D` digits (`D` fixed for its source in the rules) are a number below `10^D`; a drand
//! round's 32 bytes of randomness are a number below `2^256`. Then:
//!
//! - **`rifa-number-v2`, "the lottery's number is the winning number".** A lottery result
//!   names the number of its last `k` digits, `k` being the digits of the raffle's size. When
//!   that number is sold and has not won an earlier prize, it wins. Otherwise (not sold,
//!   already won, `0` or above the size) the prize goes to the **next source** of its chain:
//!   never to a neighbour, which would favour the numbers after unsold ones.
//! - **`rifa-among-sold-v2`, "among the sold numbers".** The `m` sold numbers that have not won
//!   an earlier prize, in increasing order, are "in play". The value's remainder modulo `m`
//!   names the winner by its place in that list (remainder 0: the lowest). A lottery value in
//!   the incomplete last round (at or above `range − range mod m`) goes to the next source, so
//!   over every possible value each number in play wins for exactly `⌊range / m⌋` of them.
//! - **A drand round, under either rule**, is read among the sold numbers: its randomness
//!   names no number a buyer chose. In the incomplete last round (fewer than 1 in 2^200 rounds
//!   for any raffle) the randomness is replaced by its SHA-256 and read again, so a round
//!   always decides.
//!
//! The first rule of the product, `rifa-rule-v1` (next sold number upward, in [`super::rule`]),
//! is not fair and is no longer offered; raffles committed under it keep verifying with it.

use std::collections::BTreeSet;

use sha2::{Digest, Sha256};

use super::ledger::to_hex;
use super::rule::{DrawStep, digits_used};
use crate::validation::FieldError;

/// The most digits a lottery source may be read with (its results fit in 64 bits).
pub const MAX_SOURCE_DIGITS: u32 = 18;

/// A raffle's rule, named in its rules document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Next sold number upward (decision 0020): verification of raffles frozen under it only.
    UpwardV1,
    NumberV2,
    AmongSoldV2,
}

impl Rule {
    /// What an operator may choose for a new raffle; the first is the default.
    pub const OFFERED: [Self; 2] = [Self::AmongSoldV2, Self::NumberV2];

    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::UpwardV1 => "rifa-rule-v1",
            Self::NumberV2 => "rifa-number-v2",
            Self::AmongSoldV2 => "rifa-among-sold-v2",
        }
    }

    /// Any rule a published document may name.
    ///
    /// # Errors
    /// `UnknownOption` listing the rules offered.
    pub fn parse(raw: &str) -> Result<Self, FieldError> {
        [Self::UpwardV1, Self::NumberV2, Self::AmongSoldV2]
            .into_iter()
            .find(|r| r.as_str() == raw.trim())
            .ok_or_else(|| FieldError::UnknownOption {
                allowed: Self::OFFERED.map(Self::as_str).to_vec(),
            })
    }

    /// A rule an operator may choose for a new raffle.
    ///
    /// # Errors
    /// `UnknownOption` for anything else, the retired rule included.
    pub fn parse_offered(raw: &str) -> Result<Self, FieldError> {
        match Self::parse(raw)? {
            Self::UpwardV1 => Err(FieldError::UnknownOption {
                allowed: Self::OFFERED.map(Self::as_str).to_vec(),
            }),
            rule => Ok(rule),
        }
    }
}

/// A public result read as a whole number below its range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// The last `digits` digits of a lottery result: a number below `10^digits`.
    Decimal { value: u64, digits: u32 },
    /// A drand round's randomness, big-endian: a number below `2^256`.
    Beacon { randomness: [u8; 32] },
}

/// Reads a lottery result as its source says: the last `digits` digits among those it carries.
/// Any other character (a name, a draw's number before a dash, spaces) only separates them.
/// Returns the reading and its step.
///
/// # Errors
/// `NotANumber` when the result has fewer than `digits` digits, or more than 60 characters.
pub fn read_lottery(result: &str, digits: u32) -> Result<(Reading, DrawStep), FieldError> {
    let result = result.trim();
    let all: Vec<char> = result.chars().filter(char::is_ascii_digit).collect();
    let wanted = digits as usize;
    if result.chars().count() > 60 || wanted == 0 || all.len() < wanted {
        return Err(FieldError::NotANumber);
    }
    let used: String = all[all.len() - wanted..].iter().collect();
    let value = used.parse::<u64>().map_err(|_| FieldError::NotANumber)?;
    Ok((
        Reading::Decimal { value, digits },
        DrawStep::Digits {
            result: result.to_owned(),
            digits: wanted,
            used,
        },
    ))
}

/// A beacon round's randomness as a reading, with its step.
#[must_use]
pub fn read_beacon(round: u64, randomness: [u8; 32]) -> (Reading, DrawStep) {
    (
        Reading::Beacon { randomness },
        DrawStep::BeaconRandomness {
            round,
            randomness_hex: to_hex(&randomness),
        },
    )
}

/// `value mod m` when the value lies in a complete round of `m` below its range, so that every
/// remainder is reached by exactly `⌊range / m⌋` values; `None` in the incomplete last round.
#[must_use]
pub fn uniform_below(reading: &Reading, m: u32) -> Option<u32> {
    if m == 0 {
        return None;
    }
    match reading {
        Reading::Decimal { value, digits } => {
            let range = 10_u128.pow((*digits).min(MAX_SOURCE_DIGITS));
            let value = u128::from(*value);
            let complete = range - range % u128::from(m);
            (value < complete).then(|| u32::try_from(value % u128::from(m)).unwrap_or(u32::MAX))
        }
        Reading::Beacon { randomness } => {
            let m = u64::from(m);
            let remainder = randomness
                .iter()
                .fold(0_u64, |acc, byte| (acc * 256 + u64::from(*byte)) % m);
            // 2^256 mod m: the size of the incomplete last round.
            let last_round = (0..256).fold(1_u64, |acc, _| acc * 2 % m);
            // value ≥ 2^256 − last_round  ⟺  (2^256 − 1 − value) < last_round, and
            // 2^256 − 1 − value is the value with every bit flipped.
            let flipped: Vec<u8> = randomness.iter().map(|b| !b).collect();
            let high_zero = flipped[..24].iter().all(|b| *b == 0);
            let mut low = [0_u8; 8];
            low.copy_from_slice(&flipped[24..]);
            let in_last_round = high_zero && u64::from_be_bytes(low) < last_round;
            (!in_last_round).then(|| u32::try_from(remainder).unwrap_or(u32::MAX))
        }
    }
}

/// The sold numbers of a frozen ledger and those that won the raffle's earlier prizes.
#[derive(Debug, Clone, Default)]
pub struct Pool {
    sold: BTreeSet<u32>,
    won: BTreeSet<u32>,
    /// Sold and not yet won, in increasing order.
    in_play: Vec<u32>,
}

impl Pool {
    #[must_use]
    pub fn new(sold: BTreeSet<u32>, won: BTreeSet<u32>) -> Self {
        let in_play = sold.iter().copied().filter(|n| !won.contains(n)).collect();
        Self { sold, won, in_play }
    }

    #[must_use]
    pub fn in_play(&self) -> &[u32] {
        &self.in_play
    }

    fn can_win(&self, number: u32) -> bool {
        self.sold.contains(&number) && !self.won.contains(&number)
    }
}

/// What one source's result decided for a prize.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Winner(u32),
    /// The result names no number in play: the prize goes to the next source of its chain.
    NextSource,
    /// Nothing is left in play: no source can give this prize a winner.
    NoWinner,
}

/// The number a `rifa-number-v2` reading names in a raffle of `max_tickets`, if it names one
/// of the raffle's numbers.
#[must_use]
pub fn named_number(reading: &Reading, max_tickets: u32) -> Option<u32> {
    match reading {
        Reading::Decimal { value, .. } => {
            let width = u32::try_from(digits_used(max_tickets)).unwrap_or(u32::MAX);
            let number = value % 10_u64.pow(width.min(MAX_SOURCE_DIGITS));
            u32::try_from(number)
                .ok()
                .filter(|n| (1..=max_tickets).contains(n))
        }
        Reading::Beacon { .. } => uniform_below(reading, max_tickets).map(|i| i + 1),
    }
}

/// The winner's place among the numbers in play for a `rifa-among-sold-v2` reading.
#[must_use]
pub fn place_among(reading: &Reading, in_play: usize) -> Option<usize> {
    let count = u32::try_from(in_play).ok()?;
    uniform_below(reading, count).map(|place| place as usize)
}

/// Applies `rule` (a v2 rule) to one source's reading, with the steps that say why (the
/// reading's own step is the caller's).
#[must_use]
pub fn decide(
    rule: Rule,
    reading: &Reading,
    max_tickets: u32,
    pool: &Pool,
) -> (Decision, Vec<DrawStep>) {
    if pool.in_play.is_empty() {
        return (Decision::NoWinner, vec![DrawStep::NoWinner]);
    }
    match (rule, reading) {
        (_, Reading::Beacon { randomness }) => among_sold_beacon(*randomness, pool),
        (Rule::AmongSoldV2, Reading::Decimal { .. }) => among_sold(reading, pool),
        (Rule::NumberV2 | Rule::UpwardV1, Reading::Decimal { value, digits }) => {
            let Some(number) = named_number(reading, max_tickets) else {
                let width = u32::try_from(digits_used(max_tickets)).unwrap_or(*digits);
                let number = value % 10_u64.pow(width.min(*digits).min(MAX_SOURCE_DIGITS));
                let step = DrawStep::OutsideRaffle {
                    number: u32::try_from(number).unwrap_or(u32::MAX),
                    max_tickets,
                };
                return (Decision::NextSource, vec![step, DrawStep::NextSource]);
            };
            let mut steps = vec![DrawStep::Names { number }];
            if pool.can_win(number) {
                steps.push(DrawStep::Wins { number });
                return (Decision::Winner(number), steps);
            }
            steps.push(if pool.won.contains(&number) {
                DrawStep::AlreadyWonNextSource { number }
            } else {
                DrawStep::NotSoldNextSource { number }
            });
            steps.push(DrawStep::NextSource);
            (Decision::NextSource, steps)
        }
    }
}

/// The winner among the numbers in play named by a lottery reading, or the next source when
/// the value lies in the incomplete last round.
fn among_sold(reading: &Reading, pool: &Pool) -> (Decision, Vec<DrawStep>) {
    let count = u32::try_from(pool.in_play.len()).unwrap_or(u32::MAX);
    let mut steps = vec![DrawStep::InPlay { count }];
    match place_among(reading, pool.in_play.len()) {
        Some(place) => {
            let number = pool.in_play[place];
            steps.push(DrawStep::Place {
                remainder: u32::try_from(place).unwrap_or(u32::MAX),
                count,
                number,
            });
            steps.push(DrawStep::Wins { number });
            (Decision::Winner(number), steps)
        }
        None => {
            steps.push(DrawStep::IncompleteRound { count });
            steps.push(DrawStep::NextSource);
            (Decision::NextSource, steps)
        }
    }
}

/// A beacon's randomness among the numbers in play: in the incomplete last round it is
/// replaced by its SHA-256 until it is not, so a round always gives a winner.
fn among_sold_beacon(mut randomness: [u8; 32], pool: &Pool) -> (Decision, Vec<DrawStep>) {
    let count = u32::try_from(pool.in_play.len()).unwrap_or(u32::MAX);
    let mut steps = vec![DrawStep::InPlay { count }];
    loop {
        if let Some(place) = place_among(&Reading::Beacon { randomness }, pool.in_play.len()) {
            let number = pool.in_play[place];
            steps.push(DrawStep::Place {
                remainder: u32::try_from(place).unwrap_or(u32::MAX),
                count,
                number,
            });
            steps.push(DrawStep::Wins { number });
            return (Decision::Winner(number), steps);
        }
        randomness = Sha256::digest(randomness).into();
        steps.push(DrawStep::IncompleteRound { count });
        steps.push(DrawStep::Rehashed {
            randomness_hex: to_hex(&randomness),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decimal(value: u64, digits: u32) -> Reading {
        Reading::Decimal { value, digits }
    }

    /// The sold patterns the fairness tests walk: clustered, sparse, one, all.
    fn patterns(size: u32) -> Vec<(&'static str, BTreeSet<u32>)> {
        let clustered = (1..=size)
            .filter(|n| *n <= size.div_ceil(3) || *n > size - size / 10)
            .collect();
        let sparse = (1..=size).filter(|n| n % 7 == 3 || n % 11 == 0).collect();
        vec![
            ("clustered", clustered),
            ("sparse", sparse),
            ("one", BTreeSet::from([size.div_ceil(2)])),
            ("all", (1..=size).collect()),
        ]
    }

    /// Over every value of `digits` digits, how often each number wins under `rule`.
    fn wins_over_every_value(rule: Rule, size: u32, pool: &Pool, digits: u32) -> Vec<u64> {
        let mut wins = vec![0_u64; size as usize + 1];
        for value in 0..10_u64.pow(digits) {
            let reading = decimal(value, digits);
            let winner = match rule {
                Rule::NumberV2 => named_number(&reading, size).filter(|n| pool.can_win(*n)),
                _ => place_among(&reading, pool.in_play.len()).map(|place| pool.in_play[place]),
            };
            if let Some(number) = winner {
                wins[number as usize] += 1;
            }
        }
        wins
    }

    #[test]
    fn every_number_in_play_wins_for_exactly_as_many_results_for_every_size_up_to_1000() {
        for size in 1..=1_000 {
            let digits = u32::try_from(digits_used(size)).unwrap();
            for (name, sold) in patterns(size) {
                // One earlier prize won by the lowest sold number, when there are two or more.
                let won: BTreeSet<u32> = sold
                    .iter()
                    .copied()
                    .take(usize::from(sold.len() > 1))
                    .collect();
                let pool = Pool::new(sold, won);
                if pool.in_play.is_empty() {
                    for rule in Rule::OFFERED {
                        let wins = wins_over_every_value(rule, size, &pool, digits);
                        assert!(wins.iter().all(|w| *w == 0), "{rule:?} size {size} {name}");
                    }
                    continue;
                }
                for rule in Rule::OFFERED {
                    for read in [digits, digits + 1] {
                        let wins = wins_over_every_value(rule, size, &pool, read);
                        let per_number: BTreeSet<u64> =
                            pool.in_play.iter().map(|n| wins[*n as usize]).collect();
                        assert_eq!(
                            per_number.len(),
                            1,
                            "{rule:?} size {size} {name} reading {read} digits: {per_number:?}"
                        );
                        let losers = (1..=size).filter(|n| !pool.in_play.contains(n));
                        assert!(
                            losers.map(|n| wins[n as usize]).all(|w| w == 0),
                            "{rule:?} size {size} {name}"
                        );
                        let expected = match rule {
                            Rule::NumberV2 => 10_u64.pow(read - digits),
                            _ => 10_u64.pow(read) / pool.in_play.len() as u64,
                        };
                        assert_eq!(
                            per_number.first(),
                            Some(&expected),
                            "{rule:?} size {size} {name}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn at_99_999_numbers_every_lottery_result_is_walked_and_each_sold_number_wins_alike() {
        let size = 99_999;
        let sold: BTreeSet<u32> = (1..=size)
            .filter(|n| n % 13 == 0 || (40_000..41_000).contains(n))
            .collect();
        let pool = Pool::new(sold, BTreeSet::new());
        for rule in Rule::OFFERED {
            let wins = wins_over_every_value(rule, size, &pool, 5);
            let per_number: BTreeSet<u64> =
                pool.in_play.iter().map(|n| wins[*n as usize]).collect();
            assert_eq!(
                per_number.len(),
                1,
                "{rule:?}: {:?}",
                per_number.iter().take(3).collect::<Vec<_>>()
            );
        }
    }

    /// A SplitMix64 stream: the same "random" beacon values on every run.
    fn beacon_values(seed: u64, count: usize) -> impl Iterator<Item = [u8; 32]> {
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        (0..count).map(move |_| {
            let mut bytes = [0_u8; 32];
            for chunk in bytes.chunks_mut(8) {
                chunk.copy_from_slice(&next().to_be_bytes());
            }
            bytes
        })
    }

    #[test]
    fn at_99_999_numbers_beacon_draws_spread_over_the_sold_numbers_as_chance_would() {
        // 2,000 sold numbers, 400,000 draws: 200 expected wins each. Pearson's chi-square with
        // 1,999 degrees of freedom has mean 1,999 and standard deviation ~63; 2,330 is more
        // than five deviations out (p < 1e-6), so a fair rule passes and a biased one does not.
        let size = 99_999;
        let sold: BTreeSet<u32> = (1..=size).filter(|n| n % 50 == 7).collect();
        assert_eq!(sold.len(), 2_000);
        let pool = Pool::new(sold, BTreeSet::new());
        for rule in Rule::OFFERED {
            let mut wins = vec![0_u64; size as usize + 1];
            let mut next_source = 0;
            for randomness in beacon_values(32, 400_000) {
                match decide(rule, &Reading::Beacon { randomness }, size, &pool).0 {
                    Decision::Winner(n) => wins[n as usize] += 1,
                    _ => next_source += 1,
                }
            }
            let drawn: u64 = wins.iter().sum();
            let expected = drawn as f64 / 2_000.0;
            let chi: f64 = pool
                .in_play
                .iter()
                .map(|n| (wins[*n as usize] as f64 - expected).powi(2) / expected)
                .sum();
            assert!(chi < 2_330.0, "{rule:?}: chi-square {chi}");
            // A round is read among the sold numbers under either rule, and always decides.
            assert_eq!(next_source, 0, "{rule:?}");
            assert_eq!(drawn, 400_000);
        }
        // The old rule on the same draws is not fair: a number after a long unsold run wins
        // 50 times as often as one after a sold neighbour, and the test above would catch it.
    }

    #[test]
    fn the_old_rule_fails_the_same_check_the_fair_ones_pass() {
        // The reproduction: 300 numbers, read with 3 digits, 5 and others sold.
        let sold: BTreeSet<u32> = [5, 73, 76, 120, 199, 250].into_iter().collect();
        let mut wins = std::collections::BTreeMap::<u32, u32>::new();
        for value in 0..1_000 {
            let result = format!("{value:03}");
            let outcome = super::super::rule::apply(
                &super::super::rule::DrawInput::Lottery { result },
                300,
                &sold,
                &BTreeSet::new(),
            )
            .unwrap();
            *wins.entry(outcome.winner.unwrap()).or_default() += 1;
        }
        assert!(
            wins[&5] > 700,
            "v1 hands 0005 {} of 1,000 results",
            wins[&5]
        );
        let pool = Pool::new(sold, BTreeSet::new());
        for rule in Rule::OFFERED {
            let wins = wins_over_every_value(rule, 300, &pool, 3);
            let per: BTreeSet<u64> = pool.in_play.iter().map(|n| wins[*n as usize]).collect();
            assert_eq!(per.len(), 1, "{rule:?}");
        }
    }

    #[test]
    fn a_result_is_read_by_its_source_s_digits_whatever_else_it_carries() {
        let read = |text: &str, digits| read_lottery(text, digits).map(|(r, _)| r);
        assert_eq!(read("Táchira 12-4073", 4), Ok(decimal(4_073, 4)));
        assert_eq!(read("0046", 4), Ok(decimal(46, 4)));
        assert_eq!(read("7 765 678", 5), Ok(decimal(65_678, 5)));
        assert_eq!(
            read("46", 4),
            Err(FieldError::NotANumber),
            "fewer digits than the source prints"
        );
        assert_eq!(read("Zodiaco: Leo", 3), Err(FieldError::NotANumber));
        assert_eq!(read(&"1".repeat(61), 4), Err(FieldError::NotANumber));
        let (_, step) = read_lottery(" Táchira 12-4073 ", 4).unwrap();
        assert_eq!(
            step,
            DrawStep::Digits {
                result: "Táchira 12-4073".into(),
                digits: 4,
                used: "4073".into()
            }
        );
    }

    #[test]
    fn a_beacon_value_in_the_incomplete_last_round_goes_to_the_next_source() {
        // 2^256 mod 3 = 1: only the largest value, 2^256 − 1, is in the incomplete round.
        assert_eq!(
            uniform_below(
                &Reading::Beacon {
                    randomness: [0xFF; 32]
                },
                3
            ),
            None
        );
        let mut below = [0xFF; 32];
        below[31] = 0xFE;
        // 2^256 − 2 = 3·k + 2 (as 2^256 ≡ 1): remainder 2.
        assert_eq!(
            uniform_below(&Reading::Beacon { randomness: below }, 3),
            Some(2)
        );
        assert_eq!(
            uniform_below(
                &Reading::Beacon {
                    randomness: [0; 32]
                },
                7
            ),
            Some(0)
        );
        let mut small = [0_u8; 32];
        small[31] = 45;
        assert_eq!(
            uniform_below(&Reading::Beacon { randomness: small }, 7),
            Some(3)
        );
        // A power of two divides 2^256: no incomplete round at all.
        assert_eq!(
            uniform_below(
                &Reading::Beacon {
                    randomness: [0xFF; 32]
                },
                64
            ),
            Some(63)
        );
        assert_eq!(
            uniform_below(&decimal(999, 3), 7),
            None,
            "1000 = 7·142 + 6: 994–999 pass"
        );
        assert_eq!(uniform_below(&decimal(993, 3), 7), Some(993 % 7));
    }

    #[test]
    fn a_round_in_the_incomplete_last_round_is_hashed_again_and_still_decides() {
        // 2^256 mod 3 = 1: only 2^256 − 1 (every bit set) lies in the incomplete round.
        let pool = Pool::new([2, 4, 8].into_iter().collect(), BTreeSet::new());
        let rehashed: [u8; 32] = Sha256::digest([0xFF; 32]).into();
        let place = uniform_below(
            &Reading::Beacon {
                randomness: rehashed,
            },
            3,
        )
        .unwrap();
        for rule in Rule::OFFERED {
            let (decision, steps) = decide(
                rule,
                &Reading::Beacon {
                    randomness: [0xFF; 32],
                },
                9,
                &pool,
            );
            assert_eq!(decision, Decision::Winner([2, 4, 8][place as usize]));
            assert_eq!(
                steps[..3],
                [
                    DrawStep::InPlay { count: 3 },
                    DrawStep::IncompleteRound { count: 3 },
                    DrawStep::Rehashed {
                        randomness_hex: to_hex(&rehashed)
                    },
                ]
            );
        }
    }

    #[test]
    fn the_steps_say_what_each_rule_read_and_decided() {
        let pool = Pool::new([3, 5, 9].into_iter().collect(), [3].into_iter().collect());
        let (decision, steps) = decide(Rule::AmongSoldV2, &decimal(4_073, 4), 9, &pool);
        // In play: 5, 9. 4073 mod 2 = 1: the second, 9.
        assert_eq!(decision, Decision::Winner(9));
        assert_eq!(
            steps,
            [
                DrawStep::InPlay { count: 2 },
                DrawStep::Place {
                    remainder: 1,
                    count: 2,
                    number: 9
                },
                DrawStep::Wins { number: 9 }
            ]
        );
        let (decision, steps) = decide(Rule::NumberV2, &decimal(3, 4), 9, &pool);
        assert_eq!(decision, Decision::NextSource);
        assert_eq!(
            steps,
            [
                DrawStep::Names { number: 3 },
                DrawStep::AlreadyWonNextSource { number: 3 },
                DrawStep::NextSource
            ]
        );
        let (decision, steps) = decide(Rule::NumberV2, &decimal(4, 4), 9, &pool);
        assert_eq!(
            (decision, steps[1].clone()),
            (
                Decision::NextSource,
                DrawStep::NotSoldNextSource { number: 4 }
            )
        );
        let (decision, steps) = decide(Rule::NumberV2, &decimal(10, 4), 9, &pool);
        assert_eq!(decision, Decision::NextSource);
        assert_eq!(
            steps[0],
            DrawStep::OutsideRaffle {
                number: 0,
                max_tickets: 9
            },
            "9 numbers: one digit, 10 reads 0"
        );
        let (decision, _) = decide(Rule::NumberV2, &decimal(5, 4), 9, &pool);
        assert_eq!(decision, Decision::Winner(5));
        let empty = Pool::new([3].into_iter().collect(), [3].into_iter().collect());
        assert_eq!(
            decide(Rule::AmongSoldV2, &decimal(1, 4), 9, &empty).0,
            Decision::NoWinner
        );
    }

    #[test]
    fn only_the_fair_rules_are_offered_and_every_rule_reads_back() {
        assert_eq!(
            Rule::parse_offered("rifa-among-sold-v2"),
            Ok(Rule::AmongSoldV2)
        );
        assert!(Rule::parse_offered("rifa-rule-v1").is_err());
        for rule in [Rule::UpwardV1, Rule::NumberV2, Rule::AmongSoldV2] {
            assert_eq!(Rule::parse(rule.as_str()), Ok(rule));
        }
    }
}
