//! Ticket numbers and a buyer's selection of them.
//!
//! Numbering: a raffle of `maxTickets` = N sells the numbers 1..=N (see
//! `docs/decisions/0001-ticket-numbering.md`). They are shown zero-padded to at least four digits,
//! or to the width of N when N has more (raffle of 99,999 → `00042`).

use std::collections::BTreeSet;

use crate::raffle::PurchaseLimits;
use crate::validation::FieldError;

/// The largest raffle the product sells (the admin form's limit).
pub const MAX_TICKETS_PER_RAFFLE: u32 = 99_999;

/// A ticket number, 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TicketNumber(u32);

impl TicketNumber {
    /// # Errors
    /// `TicketOutOfRange` when not in 1..=`max_tickets`.
    pub fn new(number: u32, max_tickets: u32) -> Result<Self, FieldError> {
        if (1..=max_tickets).contains(&number) {
            Ok(Self(number))
        } else {
            Err(FieldError::TicketOutOfRange {
                number: i64::from(number),
                max: max_tickets,
            })
        }
    }

    /// A number read back from storage, where it was validated on the way in.
    #[must_use]
    pub fn from_stored(number: u32) -> Self {
        Self(number)
    }

    /// A number an admin searches for, unchecked: one no raffle has simply matches nothing.
    #[must_use]
    pub fn searched(number: u32) -> Self {
        Self(number)
    }

    #[must_use]
    pub fn get(self) -> u32 {
        self.0
    }
}

/// The plain number; [`display_number`] pads it for people.
impl std::fmt::Display for TicketNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Pads `number` for display in a raffle of `max_tickets` numbers.
#[must_use]
pub fn display_number(number: TicketNumber, max_tickets: u32) -> String {
    let width = max_tickets.to_string().len().max(4);
    format!("{:0width$}", number.get())
}

/// A validated, non-empty set of distinct in-range numbers whose count respects the raffle's
/// per-purchase limits. Kept sorted ascending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketSelection(Vec<TicketNumber>);

impl TicketSelection {
    /// # Errors
    /// The first problem found: empty, a repeated or out-of-range number, or a count outside
    /// the limits.
    pub fn new(
        numbers: &[i64],
        max_tickets: u32,
        limits: PurchaseLimits,
    ) -> Result<Self, FieldError> {
        if numbers.is_empty() {
            return Err(FieldError::TicketsEmpty);
        }
        let mut seen = BTreeSet::new();
        for &raw in numbers {
            let number = u32::try_from(raw).map_err(|_| FieldError::TicketOutOfRange {
                number: raw,
                max: max_tickets,
            })?;
            let ticket = TicketNumber::new(number, max_tickets)?;
            if !seen.insert(ticket) {
                return Err(FieldError::TicketRepeated { number });
            }
        }
        Self::check_count(u32::try_from(seen.len()).unwrap_or(u32::MAX), limits)?;
        Ok(Self(seen.into_iter().collect()))
    }

    /// Whether a purchase of `count` tickets respects the raffle's per-purchase limits: the
    /// check a selection passes, and what a purchase of random numbers asks before any is picked.
    ///
    /// # Errors
    /// Empty, or a count outside the limits.
    pub fn check_count(count: u32, limits: PurchaseLimits) -> Result<(), FieldError> {
        if count == 0 {
            return Err(FieldError::TicketsEmpty);
        }
        if count < limits.min() {
            return Err(FieldError::TicketsBelowMinimum { min: limits.min() });
        }
        if count > limits.max() {
            return Err(FieldError::TicketsAboveMaximum { max: limits.max() });
        }
        Ok(())
    }

    #[must_use]
    pub fn numbers(&self) -> &[TicketNumber] {
        &self.0
    }

    #[must_use]
    pub fn count(&self) -> u32 {
        u32::try_from(self.0.len()).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(min: u32, max: u32) -> PurchaseLimits {
        PurchaseLimits::new(Some(min), Some(max)).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn numbers_pad_to_four_digits_or_the_raffle_width() {
        assert_eq!(display_number(TicketNumber(7), 100), "0007");
        assert_eq!(display_number(TicketNumber(42), 9_999), "0042");
        assert_eq!(display_number(TicketNumber(42), 99_999), "00042");
        assert_eq!(display_number(TicketNumber(99_999), 99_999), "99999");
    }

    #[test]
    fn a_selection_is_sorted_distinct_in_range_and_within_limits() {
        type Case<'a> = (&'a [i64], u32, (u32, u32), Result<Vec<u32>, FieldError>);
        let table: [Case<'_>; 8] = [
            (&[3, 1, 2], 10, (1, 5), Ok(vec![1, 2, 3])),
            (&[], 10, (1, 5), Err(FieldError::TicketsEmpty)),
            (
                &[0],
                10,
                (1, 5),
                Err(FieldError::TicketOutOfRange { number: 0, max: 10 }),
            ),
            (
                &[11],
                10,
                (1, 5),
                Err(FieldError::TicketOutOfRange {
                    number: 11,
                    max: 10,
                }),
            ),
            (
                &[-4],
                10,
                (1, 5),
                Err(FieldError::TicketOutOfRange {
                    number: -4,
                    max: 10,
                }),
            ),
            (
                &[2, 2],
                10,
                (1, 5),
                Err(FieldError::TicketRepeated { number: 2 }),
            ),
            (
                &[1],
                10,
                (2, 5),
                Err(FieldError::TicketsBelowMinimum { min: 2 }),
            ),
            (
                &[1, 2, 3],
                10,
                (1, 2),
                Err(FieldError::TicketsAboveMaximum { max: 2 }),
            ),
        ];
        for (numbers, max_tickets, (min, max), expected) in table {
            let got = TicketSelection::new(numbers, max_tickets, limits(min, max))
                .map(|s| s.numbers().iter().map(|n| n.get()).collect::<Vec<_>>());
            assert_eq!(got, expected, "{numbers:?}");
        }
    }
}

/// The compact availability of a raffle: bit `n - 1` (most significant bit first within each
/// byte) is set when number `n` is still available. A 99,999-number raffle fits in 12.5 KB.
#[must_use]
pub fn availability_bitmap(max_tickets: u32, held: &[TicketNumber]) -> Vec<u8> {
    let len = usize::try_from(max_tickets.div_ceil(8)).unwrap_or(0);
    let mut bits = vec![0xFF_u8; len];
    if let Some(last) = bits.last_mut() {
        let used = max_tickets % 8;
        if used != 0 {
            *last = 0xFF << (8 - used);
        }
    }
    for number in held
        .iter()
        .map(|n| n.get())
        .filter(|n| (1..=max_tickets).contains(n))
    {
        let index = usize::try_from((number - 1) / 8).unwrap_or(usize::MAX);
        if let Some(byte) = bits.get_mut(index) {
            *byte &= !(0x80 >> ((number - 1) % 8));
        }
    }
    bits
}

/// Marks `numbers` held in a bitmap of [`availability_bitmap`]; answers how many of them it
/// showed available until now (numbers outside the raffle are ignored).
pub fn mark_held(bitmap: &mut [u8], max_tickets: u32, numbers: &[TicketNumber]) -> u32 {
    mark(bitmap, max_tickets, numbers, false)
}

/// Marks `numbers` available again in a bitmap of [`availability_bitmap`]; answers how many of
/// them it showed held until now (numbers outside the raffle are ignored).
pub fn mark_free(bitmap: &mut [u8], max_tickets: u32, numbers: &[TicketNumber]) -> u32 {
    mark(bitmap, max_tickets, numbers, true)
}

/// Sets the bits of `numbers` to `available`; answers how many changed.
fn mark(bitmap: &mut [u8], max_tickets: u32, numbers: &[TicketNumber], available: bool) -> u32 {
    let mut changed = 0;
    for number in numbers
        .iter()
        .map(|n| n.get())
        .filter(|n| (1..=max_tickets).contains(n))
    {
        let mask = 0x80 >> ((number - 1) % 8);
        let index = usize::try_from((number - 1) / 8).unwrap_or(usize::MAX);
        if let Some(byte) = bitmap
            .get_mut(index)
            .filter(|byte| (**byte & mask != 0) != available)
        {
            *byte ^= mask;
            changed += 1;
        }
    }
    changed
}

/// The numbers a bitmap of [`availability_bitmap`] marks available, ascending.
pub fn available_numbers(bitmap: &[u8], max_tickets: u32) -> impl Iterator<Item = u32> + '_ {
    (1..=max_tickets).filter(move |n| {
        let bit = n - 1;
        usize::try_from(bit / 8)
            .ok()
            .and_then(|i| bitmap.get(i))
            .is_some_and(|byte| byte & (0x80 >> (bit % 8)) != 0)
    })
}

/// `count` distinct numbers drawn uniformly among those a bitmap of [`availability_bitmap`]
/// marks available, ascending; `None` when fewer are available. `below(n)` must answer a
/// uniform draw in `0..n` (the caller's source of randomness).
///
/// Floyd's sampling of ranks among the available numbers, then one pass over the bitmap that
/// skips whole bytes by their bit count: the cost is the same whether the raffle is empty or
/// has a handful of numbers left, where drawing numbers until a free one comes up is not.
pub fn pick_available(
    bitmap: &[u8],
    max_tickets: u32,
    count: u32,
    mut below: impl FnMut(u32) -> u32,
) -> Option<Vec<TicketNumber>> {
    let free: u32 = bitmap.iter().map(|byte| byte.count_ones()).sum();
    if count > free {
        return None;
    }
    let mut ranks = BTreeSet::new();
    for upper in (free - count)..free {
        let rank = below(upper + 1);
        if !ranks.insert(rank) {
            ranks.insert(upper);
        }
    }
    let mut picked = Vec::with_capacity(ranks.len());
    let mut wanted = ranks.into_iter().peekable();
    let mut seen = 0_u32;
    for (index, &byte) in (0_u32..).zip(bitmap) {
        let Some(&rank) = wanted.peek() else { break };
        let ones = byte.count_ones();
        if rank >= seen + ones {
            seen += ones;
            continue;
        }
        for bit in 0..8 {
            if byte & (0x80 >> bit) == 0 {
                continue;
            }
            if wanted.peek() == Some(&seen) {
                wanted.next();
                let number = index * 8 + bit + 1;
                if number <= max_tickets {
                    picked.push(TicketNumber(number));
                }
            }
            seen += 1;
        }
    }
    (u32::try_from(picked.len()).ok() == Some(count)).then_some(picked)
}

#[cfg(test)]
mod bitmap_tests {
    use proptest::prelude::*;

    use super::{
        TicketNumber, availability_bitmap, available_numbers, mark_free, mark_held, pick_available,
    };

    fn stored(numbers: &[u32]) -> Vec<TicketNumber> {
        numbers
            .iter()
            .copied()
            .map(TicketNumber::from_stored)
            .collect()
    }

    #[test]
    fn decoding_a_bitmap_gives_back_the_numbers_not_held() {
        let bitmap = availability_bitmap(12, &stored(&[2, 9, 12]));
        let free: Vec<u32> = available_numbers(&bitmap, 12).collect();
        assert_eq!(free, [1, 3, 4, 5, 6, 7, 8, 10, 11]);
    }

    #[test]
    fn marking_numbers_held_gives_the_bitmap_of_all_of_them_and_counts_the_new_ones() {
        let mut bitmap = availability_bitmap(20, &stored(&[3, 17]));

        let first = mark_held(&mut bitmap, 20, &stored(&[1, 3, 20, 21]));
        let again = mark_held(&mut bitmap, 20, &stored(&[1, 9]));

        assert_eq!(
            (first, again),
            (2, 1),
            "3 was held already; 21 is not in the raffle"
        );
        assert_eq!(bitmap, availability_bitmap(20, &stored(&[1, 3, 9, 17, 20])));
    }

    #[test]
    fn freeing_numbers_undoes_marking_them_and_counts_only_those_held() {
        let before = availability_bitmap(20, &stored(&[3, 17]));
        let mut bitmap = before.clone();
        mark_held(&mut bitmap, 20, &stored(&[1, 9]));

        let freed = mark_free(&mut bitmap, 20, &stored(&[1, 9, 2, 21]));

        assert_eq!(freed, 2, "2 was free already; 21 is not in the raffle");
        assert_eq!(bitmap, before);
    }

    #[test]
    fn held_numbers_clear_their_bit_and_padding_stays_clear() {
        assert_eq!(availability_bitmap(10, &[]), vec![0xFF, 0b1100_0000]);
        assert_eq!(
            availability_bitmap(10, &stored(&[1, 10])),
            vec![0b0111_1111, 0b1000_0000]
        );
        assert_eq!(availability_bitmap(8, &stored(&[8, 99])), vec![0b1111_1110]);
        assert_eq!(availability_bitmap(99_999, &[]).len(), 12_500);
    }

    /// A deterministic stand-in for randomness: a linear congruential sequence.
    fn sequence(seed: u64) -> impl FnMut(u32) -> u32 {
        let mut state = seed;
        move |n| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            u32::try_from((state >> 33) % u64::from(n)).unwrap_or(0)
        }
    }

    #[test]
    fn the_last_free_numbers_are_all_picked_and_no_more_can_be() {
        let held: Vec<u32> = (1..=99_999)
            .filter(|n| ![7, 50_000, 99_999].contains(n))
            .collect();
        let bitmap = availability_bitmap(99_999, &stored(&held));

        let picked = pick_available(&bitmap, 99_999, 3, sequence(1));
        let too_many = pick_available(&bitmap, 99_999, 4, sequence(1));

        assert_eq!(picked, Some(stored(&[7, 50_000, 99_999])));
        assert_eq!(too_many, None);
    }

    #[test]
    fn nothing_is_picked_from_a_sold_out_raffle_and_zero_numbers_is_no_numbers() {
        let bitmap = availability_bitmap(10, &stored(&(1..=10).collect::<Vec<_>>()));
        assert_eq!(pick_available(&bitmap, 10, 1, sequence(3)), None);
        assert_eq!(pick_available(&bitmap, 10, 0, sequence(3)), Some(vec![]));
    }

    #[test]
    fn every_free_number_comes_up_about_as_often() {
        let bitmap = availability_bitmap(20, &stored(&[1, 2, 3, 10, 20]));
        let mut tally = [0_u32; 21];
        let mut draw = sequence(42);
        for _ in 0..15_000 {
            for number in pick_available(&bitmap, 20, 2, &mut draw).unwrap_or_default() {
                tally[usize::try_from(number.get()).unwrap_or(0)] += 1;
            }
        }
        let free: Vec<u32> = available_numbers(&bitmap, 20).collect();
        // 30,000 picks over 15 free numbers: 2,000 each, give or take a few percent.
        for n in free {
            let seen = tally[usize::try_from(n).unwrap_or(0)];
            assert!((1_800..=2_200).contains(&seen), "{n} came up {seen} times");
        }
        assert_eq!(tally[1] + tally[2] + tally[3] + tally[10] + tally[20], 0);
    }

    proptest! {
        #[test]
        fn picks_are_distinct_available_ascending_and_as_many_as_asked(
            max_tickets in 1_u32..3_000,
            held_share in 0_u32..=100,
            count in 0_u32..60,
            seed in any::<u64>(),
        ) {
            let held: Vec<u32> = (1..=max_tickets)
                .filter(|n| (n.wrapping_mul(2_654_435_761) % 100) < held_share)
                .collect();
            let bitmap = availability_bitmap(max_tickets, &stored(&held));
            let free: Vec<u32> = available_numbers(&bitmap, max_tickets).collect();

            let picked = pick_available(&bitmap, max_tickets, count, sequence(seed));

            match picked {
                None => prop_assert!(free.len() < count as usize),
                Some(picked) => {
                    let numbers: Vec<u32> = picked.iter().map(|n| n.get()).collect();
                    prop_assert_eq!(numbers.len(), count as usize);
                    prop_assert!(numbers.windows(2).all(|w| w[0] < w[1]));
                    prop_assert!(numbers.iter().all(|n| free.binary_search(n).is_ok()));
                }
            }
        }
    }
}
