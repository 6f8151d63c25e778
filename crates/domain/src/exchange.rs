//! Currencies and exchange rates. Amounts are priced in USD; other currencies are conversions.

use chrono::{DateTime, Utc};

use crate::money::Rate;
use crate::validation::{FieldError, FieldErrors};

pub use crate::id::ExchangeRateId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "UPPERCASE")
)]
pub enum Currency {
    Usd,
    Eur,
    Ves,
    Cop,
}

impl Currency {
    pub const ALL: [Self; 4] = [Self::Usd, Self::Eur, Self::Ves, Self::Cop];

    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Self::Usd => "USD",
            Self::Eur => "EUR",
            Self::Ves => "VES",
            Self::Cop => "COP",
        }
    }

    /// # Errors
    /// `UnknownOption` listing the currencies.
    pub fn parse(raw: &str) -> Result<Self, FieldError> {
        let code = raw.trim().to_ascii_uppercase();
        Self::ALL
            .into_iter()
            .find(|c| c.code() == code)
            .ok_or_else(|| FieldError::UnknownOption {
                allowed: Self::ALL.map(Self::code).to_vec(),
            })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExchangeRate {
    pub id: ExchangeRateId,
    pub from: Currency,
    pub to: Currency,
    pub rate: Rate,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExchangeRateDraft {
    pub from: Currency,
    pub to: Currency,
    pub rate: Rate,
}

impl ExchangeRateDraft {
    /// `from` defaults to USD and `to` to VES, as in the admin form.
    ///
    /// # Errors
    /// Each bad field; the same currency on both sides is refused.
    pub fn parse(
        from: Option<&str>,
        to: Option<&str>,
        rate: Option<rust_decimal::Decimal>,
    ) -> Result<Self, FieldErrors> {
        let mut errors = FieldErrors::new();
        let from = errors.check(
            "fromCurrency",
            from.map_or(Ok(Currency::Usd), Currency::parse),
        );
        let to = errors.check("toCurrency", to.map_or(Ok(Currency::Ves), Currency::parse));
        let rate = errors.check("rate", rate.ok_or(FieldError::Required).and_then(Rate::new));
        if let (Some(from), Some(to)) = (from, to)
            && from == to
        {
            errors.add("toCurrency", FieldError::SameCurrency);
        }
        errors.into_result()?;
        match (from, to, rate) {
            (Some(from), Some(to), Some(rate)) => Ok(Self { from, to, rate }),
            _ => Err(FieldErrors::single("rate", FieldError::Required)),
        }
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    use super::*;

    #[test]
    fn a_rate_defaults_to_usd_into_ves() {
        let draft = ExchangeRateDraft::parse(None, None, Some(Decimal::new(365_012, 4)));
        assert_eq!(
            draft.map(|d| (d.from, d.to)),
            Ok((Currency::Usd, Currency::Ves))
        );
    }

    #[test]
    fn currencies_are_the_four_of_the_spec() {
        assert_eq!(Currency::parse("cop"), Ok(Currency::Cop));
        assert!(Currency::parse("BTC").is_err());
        let same = ExchangeRateDraft::parse(Some("USD"), Some("USD"), Some(Decimal::ONE));
        assert_eq!(
            same.err()
                .map(|e| e.iter().map(|(f, _)| f.to_string()).collect::<Vec<_>>()),
            Some(vec!["toCurrency".to_owned()])
        );
        let no_rate = ExchangeRateDraft::parse(None, None, None);
        assert!(no_rate.is_err());
    }
}
