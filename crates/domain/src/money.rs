//! Money in US dollars and exchange rates: exact decimals, never floating point.
//!
//! Amounts have at most two decimals and are stored as whole cents, so sums in the database are
//! exact on PostgreSQL and SQLite alike.

use std::fmt;
use std::str::FromStr;

use rust_decimal::Decimal;

use crate::validation::FieldError;

/// A non-negative amount of US dollars with at most two decimals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(i64);

/// The largest amount we accept anywhere: far above any raffle, far below overflow.
const MAX_CENTS: i64 = 100_000_000_000;

impl Money {
    pub const ZERO: Self = Self(0);

    /// # Errors
    /// `OutOfRange` for negative or absurdly large amounts.
    pub fn from_cents(cents: i64) -> Result<Self, FieldError> {
        if (0..=MAX_CENTS).contains(&cents) {
            Ok(Self(cents))
        } else {
            Err(FieldError::OutOfRange {
                min: "0".into(),
                max: Self(MAX_CENTS).to_string(),
            })
        }
    }

    /// # Errors
    /// `TooManyDecimals` beyond cents, `OutOfRange` when negative or too large.
    pub fn from_decimal(value: Decimal) -> Result<Self, FieldError> {
        let out_of_range = || FieldError::OutOfRange {
            min: "0".into(),
            max: Self(MAX_CENTS).to_string(),
        };
        let normalized = value.normalize();
        if normalized.scale() > 2 {
            return Err(FieldError::TooManyDecimals { max: 2 });
        }
        // A Decimal holds up to ~7.9e28: anything above ~7.9e26 overflows when made cents.
        let cents = normalized
            .checked_mul(Decimal::ONE_HUNDRED)
            .ok_or_else(out_of_range)?
            .trunc()
            .mantissa();
        let cents = i64::try_from(cents).map_err(|_| out_of_range())?;
        Self::from_cents(cents)
    }

    #[must_use]
    pub fn cents(self) -> i64 {
        self.0
    }

    #[must_use]
    pub fn as_decimal(self) -> Decimal {
        Decimal::new(self.0, 2)
    }

    /// The price of `count` units; saturates far beyond anything a raffle can reach.
    #[must_use]
    pub fn times(self, count: u32) -> Self {
        Self(self.0.saturating_mul(i64::from(count)))
    }

    #[must_use]
    pub fn saturating_sub(self, other: Self) -> Self {
        Self(self.0.saturating_sub(other.0).max(0))
    }

    /// `percent`% of this amount, rounded half-up to the cent.
    #[must_use]
    pub fn percent(self, percent: Decimal) -> Self {
        self.as_decimal()
            .checked_mul(percent)
            .and_then(|value| value.checked_div(Decimal::ONE_HUNDRED))
            .map(|value| {
                value
                    .round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
            })
            .and_then(|value| Self::from_decimal(value).ok())
            .unwrap_or(Self::ZERO)
    }
}

impl fmt::Display for Money {
    /// Always two decimals, as the API sends money: `"26.00"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.0 / 100, self.0 % 100)
    }
}

impl FromStr for Money {
    type Err = FieldError;

    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        let value = Decimal::from_str(raw.trim()).map_err(|_| FieldError::NotANumber)?;
        Self::from_decimal(value)
    }
}

/// The price of one ticket: at least 0.01 (the admin form's minimum and step).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TicketPrice(Money);

impl TicketPrice {
    pub const MAX_CENTS: i64 = 100_000_000;

    /// # Errors
    /// `OutOfRange` below 0.01 or above 1,000,000.00.
    pub fn new(money: Money) -> Result<Self, FieldError> {
        if (1..=Self::MAX_CENTS).contains(&money.cents()) {
            Ok(Self(money))
        } else {
            Err(FieldError::OutOfRange {
                min: "0.01".into(),
                max: "1000000.00".into(),
            })
        }
    }

    /// # Errors
    /// `TooManyDecimals` beyond cents; otherwise as [`TicketPrice::new`], whose range is the one
    /// reported for any amount out of it (negative or huge).
    pub fn from_decimal(value: Decimal) -> Result<Self, FieldError> {
        match Money::from_decimal(value) {
            Ok(money) => Self::new(money),
            Err(FieldError::OutOfRange { .. }) => Self::new(Money::ZERO),
            Err(other) => Err(other),
        }
    }

    #[must_use]
    pub fn money(self) -> Money {
        self.0
    }
}

/// How many units of a currency one US dollar buys: positive, at most 8 decimals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate(Decimal);

impl Rate {
    /// # Errors
    /// `OutOfRange` unless strictly positive and below a trillion; `TooManyDecimals` past 8.
    pub fn new(value: Decimal) -> Result<Self, FieldError> {
        let value = value.normalize();
        if value.scale() > 8 {
            return Err(FieldError::TooManyDecimals { max: 8 });
        }
        if value <= Decimal::ZERO || value >= Decimal::from(1_000_000_000_000_i64) {
            return Err(FieldError::OutOfRange {
                min: "0.00000001".into(),
                max: "999999999999".into(),
            });
        }
        Ok(Self(value))
    }

    #[must_use]
    pub fn value(self) -> Decimal {
        self.0
    }

    /// `amount` converted at this rate, kept exact (the display decides the decimals).
    #[must_use]
    pub fn convert(self, amount: Money) -> Decimal {
        // At most 1e9 dollars times a rate under 1e12: far inside a Decimal, so never saturates.
        amount.as_decimal().saturating_mul(self.0).normalize()
    }
}

impl FromStr for Rate {
    type Err = FieldError;

    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        Self::new(Decimal::from_str(raw.trim()).map_err(|_| FieldError::NotANumber)?)
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_parses_exact_cents_and_prints_two_decimals() {
        let cases = [
            ("13", 1300, "13.00"),
            ("13.5", 1350, "13.50"),
            ("0.01", 1, "0.01"),
            (" 26.00 ", 2600, "26.00"),
            ("1.10", 110, "1.10"),
        ];
        for (raw, cents, shown) in cases {
            let money: Money = raw.parse().unwrap_or_else(|e| panic!("{raw}: {e:?}"));
            assert_eq!(money.cents(), cents);
            assert_eq!(money.to_string(), shown);
        }
    }

    #[test]
    fn money_refuses_fractions_of_cents_negatives_and_text() {
        assert_eq!(
            "1.001".parse::<Money>(),
            Err(FieldError::TooManyDecimals { max: 2 })
        );
        assert!(matches!(
            "-1".parse::<Money>(),
            Err(FieldError::OutOfRange { .. })
        ));
        assert_eq!("abc".parse::<Money>(), Err(FieldError::NotANumber));
        assert_eq!("NaN".parse::<Money>(), Err(FieldError::NotANumber));
        assert!("1e30".parse::<Money>().is_err());
    }

    #[test]
    fn ticket_price_has_a_floor_of_one_cent_and_names_its_own_range() {
        let range = FieldError::OutOfRange {
            min: "0.01".into(),
            max: "1000000.00".into(),
        };
        assert_eq!(
            TicketPrice::from_decimal(Decimal::from(-5)),
            Err(range.clone())
        );
        assert_eq!(
            TicketPrice::from_decimal(Decimal::from(10_000_000_000_i64)),
            Err(range)
        );
        assert!(TicketPrice::new(Money::ZERO).is_err());
        assert!(TicketPrice::new(Money::from_cents(1).unwrap_or_default()).is_ok());
    }

    #[test]
    fn multiplying_and_discounting_stays_exact() {
        let price: Money = "13.10".parse().unwrap_or_default();
        assert_eq!(price.times(3).to_string(), "39.30");
        assert_eq!(
            price.times(3).percent(Decimal::from(10)).to_string(),
            "3.93"
        );
        assert_eq!(
            "0.05"
                .parse::<Money>()
                .unwrap_or_default()
                .percent(Decimal::from(50))
                .to_string(),
            "0.03"
        );
    }

    #[test]
    fn rates_are_positive_and_convert_exactly() {
        let rate: Rate = "36.5012".parse().unwrap_or_else(|_| panic!("valid rate"));
        let amount: Money = "26.00".parse().unwrap_or_default();
        assert_eq!(rate.convert(amount).to_string(), "949.0312");
        assert!("0".parse::<Rate>().is_err());
        assert!("-2".parse::<Rate>().is_err());
        assert_eq!(
            "1.123456789".parse::<Rate>(),
            Err(FieldError::TooManyDecimals { max: 8 })
        );
    }
}
