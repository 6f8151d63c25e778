//! The price quote of SPEC §3: what a number of tickets costs, with any volume discount.
//!
//! The discount table is a real part of the model, configurable by an owner; the
//! product ships it empty (SPEC §9: "Discounts: none"), so by default no discount applies.

use rust_decimal::Decimal;

use crate::money::{Money, TicketPrice};
use crate::raffle::PurchaseLimits;
use crate::validation::{self, FieldError, TextKind};

/// "From `min_tickets` tickets on, `percentage`% off", labelled for the summary line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscountTier {
    pub min_tickets: u32,
    pub percentage: Decimal,
    pub label: String,
}

/// Tiers sorted by threshold; the highest threshold reached applies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DiscountTable(Vec<DiscountTier>);

impl DiscountTable {
    /// # Errors
    /// `OutOfRange` for a percentage outside (0, 100) or a zero threshold, `Required` for a blank
    /// label.
    pub fn new(mut tiers: Vec<DiscountTier>) -> Result<Self, FieldError> {
        for tier in &tiers {
            if tier.percentage <= Decimal::ZERO
                || tier.percentage >= Decimal::ONE_HUNDRED
                || tier.min_tickets == 0
            {
                return Err(FieldError::OutOfRange {
                    min: "0".into(),
                    max: "100".into(),
                });
            }
            validation::required_text(&tier.label, TextKind::SingleLine, 1, 100)?;
        }
        tiers.sort_by_key(|t| t.min_tickets);
        tiers.dedup_by_key(|t| t.min_tickets);
        Ok(Self(tiers))
    }

    #[must_use]
    pub fn tiers(&self) -> &[DiscountTier] {
        &self.0
    }

    fn best_for(&self, count: u32) -> Option<&DiscountTier> {
        self.0.iter().rev().find(|t| count >= t.min_tickets)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedDiscount {
    pub label: String,
    pub percentage: Decimal,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceQuote {
    pub ticket_count: u32,
    /// The raffle's own price per ticket.
    pub base_price: Money,
    pub subtotal: Money,
    pub discount: Money,
    pub discount_percentage: Decimal,
    pub total: Money,
    pub applied_discount: Option<AppliedDiscount>,
    pub meets_minimum: bool,
}

/// Prices `count` tickets of a raffle.
#[must_use]
pub fn quote(
    price: TicketPrice,
    count: u32,
    limits: PurchaseLimits,
    discounts: &DiscountTable,
) -> PriceQuote {
    let subtotal = price.money().times(count);
    let tier = discounts.best_for(count);
    let discount_percentage = tier.map_or(Decimal::ZERO, |t| t.percentage);
    let discount = subtotal.percent(discount_percentage);
    PriceQuote {
        ticket_count: count,
        base_price: price.money(),
        subtotal,
        discount,
        discount_percentage,
        total: subtotal.saturating_sub(discount),
        applied_discount: tier.map(|t| AppliedDiscount {
            label: t.label.clone(),
            percentage: t.percentage,
        }),
        meets_minimum: count >= limits.min(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn price(raw: &str) -> TicketPrice {
        TicketPrice::new(raw.parse().unwrap_or_default()).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn limits(min: u32) -> PurchaseLimits {
        PurchaseLimits::new(Some(min), Some(100)).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn tier(min_tickets: u32, percentage: i64, label: &str) -> DiscountTier {
        DiscountTier {
            min_tickets,
            percentage: Decimal::from(percentage),
            label: label.into(),
        }
    }

    #[test]
    fn without_discounts_the_total_is_price_times_count() {
        let table = [
            ("13", 1, "13.00"),
            ("13", 3, "39.00"),
            ("2.50", 4, "10.00"),
            ("0.01", 99_999, "999.99"),
        ];
        for (unit, count, total) in table {
            let q = quote(price(unit), count, limits(1), &DiscountTable::default());
            assert_eq!(q.total.to_string(), total);
            assert_eq!(q.subtotal, q.total);
            assert_eq!(q.discount, Money::ZERO);
            assert_eq!(q.applied_discount, None);
            assert_eq!(q.base_price, price(unit).money());
        }
    }

    #[test]
    fn the_highest_tier_reached_applies() {
        let discounts =
            DiscountTable::new(vec![tier(10, 10, "10+"), tier(5, 5, "5+")]).unwrap_or_default();
        let table = [
            (4, "0.00", "52.00"),
            (5, "3.25", "61.75"),
            (12, "15.60", "140.40"),
        ];
        for (count, discount, total) in table {
            let q = quote(price("13"), count, limits(1), &discounts);
            assert_eq!(
                (
                    q.discount.to_string().as_str(),
                    q.total.to_string().as_str()
                ),
                (discount, total),
                "{count}"
            );
        }
    }

    #[test]
    fn meets_minimum_follows_the_raffle_limit() {
        assert!(!quote(price("13"), 1, limits(2), &DiscountTable::default()).meets_minimum);
        assert!(quote(price("13"), 2, limits(2), &DiscountTable::default()).meets_minimum);
    }

    #[test]
    fn tiers_outside_zero_to_a_hundred_are_refused() {
        assert!(DiscountTable::new(vec![tier(2, 100, "x")]).is_err());
        assert!(DiscountTable::new(vec![tier(2, 0, "x")]).is_err());
        assert!(DiscountTable::new(vec![tier(0, 5, "x")]).is_err());
        assert!(DiscountTable::new(vec![tier(2, 5, " ")]).is_err());
    }
}
