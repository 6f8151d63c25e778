//! How amounts, counts and instants are written for people. Money is the product's one format
//! (`docs/formats/money-cases.json`, which the site's formatter follows too): the currency's
//! symbol, a space, the amount with the currency's decimals, grouped thousands and the decimal
//! mark of the reader's language (`US$ 1.234,56` in Spanish, `US$ 1,234.56` in English).

use chrono::{DateTime, Utc};
use rifa_domain::Lang;
use rifa_domain::exchange::Currency;
use rust_decimal::{Decimal, RoundingStrategy};

/// The decimals the spec shows for each currency: bolívares and euros with 2, pesos with none.
fn decimals(currency: Currency) -> u32 {
    match currency {
        Currency::Cop => 0,
        Currency::Usd | Currency::Eur | Currency::Ves => 2,
    }
}

fn symbol(currency: Currency) -> &'static str {
    match currency {
        Currency::Usd => "US$",
        Currency::Eur => "€",
        Currency::Ves => "Bs",
        Currency::Cop => "COP",
    }
}

/// `US$ 1.234,56` (Spanish) or `US$ 1,234.56` (English), rounded half away from zero.
#[must_use]
pub fn format_money(currency: Currency, amount: Decimal, lang: Lang) -> String {
    format!(
        "{} {}",
        symbol(currency),
        format_decimal(amount, decimals(currency), lang)
    )
}

/// `value` with exactly `places` decimals and grouped thousands in the language's convention.
#[must_use]
pub fn format_decimal(value: Decimal, places: u32, lang: Lang) -> String {
    let mut rounded = value.round_dp_with_strategy(places, RoundingStrategy::MidpointAwayFromZero);
    rounded.rescale(places);
    let text = rounded.abs().to_string();
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let sign = if rounded.is_sign_negative() && !rounded.is_zero() {
        "-"
    } else {
        ""
    };
    let grouped = group_digits(whole, lang);
    if fraction.is_empty() {
        format!("{sign}{grouped}")
    } else {
        let point = match lang {
            Lang::Es => ',',
            Lang::En => '.',
        };
        format!("{sign}{grouped}{point}{fraction}")
    }
}

/// `5000` → `5.000` (Spanish) or `5,000` (English).
#[must_use]
pub fn group_digits(digits: &str, lang: Lang) -> String {
    let separator = match lang {
        Lang::Es => '.',
        Lang::En => ',',
    };
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(separator);
        }
        out.push(c);
    }
    out
}

/// `05/01/2026 14:03 UTC` in Spanish, `Jan 5, 2026 14:03 UTC` in English. Instants are stored
/// in UTC and the reader's zone is unknown, so the zone is named rather than guessed.
#[must_use]
pub fn format_instant(instant: DateTime<Utc>, lang: Lang) -> String {
    let pattern = match lang {
        Lang::Es => "%d/%m/%Y %H:%M UTC",
        Lang::En => "%b %-d, %Y %H:%M UTC",
    };
    instant.format(pattern).to_string()
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn dec(raw: &str) -> Decimal {
        Decimal::from_str(raw).unwrap_or_else(|e| panic!("{raw}: {e}"))
    }

    #[test]
    fn amounts_use_each_currency_s_decimals_and_the_language_s_separators() {
        let cases = [
            (Currency::Usd, "26", Lang::Es, "US$ 26,00"),
            (Currency::Usd, "65000", Lang::Es, "US$ 65.000,00"),
            (Currency::Usd, "65000", Lang::En, "US$ 65,000.00"),
            (Currency::Ves, "949.0312", Lang::Es, "Bs 949,03"),
            (Currency::Ves, "1234567.005", Lang::Es, "Bs 1.234.567,01"),
            (Currency::Cop, "104000.5", Lang::Es, "COP 104.001"),
            (Currency::Cop, "999.4", Lang::En, "COP 999"),
            (Currency::Eur, "24", Lang::En, "€ 24.00"),
        ];
        for (currency, raw, lang, expected) in cases {
            assert_eq!(format_money(currency, dec(raw), lang), expected, "{raw}");
        }
    }

    /// The product's money format, shared with the site's formatter.
    #[test]
    fn every_shared_money_case_is_written_as_the_product_writes_money() {
        let raw = include_str!("../../../docs/formats/money-cases.json");
        let cases: serde_json::Value =
            serde_json::from_str(raw).unwrap_or_else(|e| panic!("money-cases.json: {e}"));
        let cases = cases["cases"].as_array().cloned().unwrap_or_default();
        assert!(cases.len() >= 10, "{} cases", cases.len());
        for case in cases {
            let field = |name: &str| case[name].as_str().unwrap_or_default().to_owned();
            let currency =
                Currency::parse(&field("currency")).unwrap_or_else(|e| panic!("{case}: {e:?}"));
            let lang = match field("lang").as_str() {
                "es" => Lang::Es,
                "en" => Lang::En,
                other => panic!("{case}: language {other:?}"),
            };
            assert_eq!(
                format_money(currency, dec(&field("amount")), lang),
                field("text"),
                "{case}"
            );
        }
    }

    #[test]
    fn instants_name_their_zone() {
        let instant = DateTime::parse_from_rfc3339("2026-01-05T14:03:59Z")
            .unwrap_or_else(|e| panic!("{e}"))
            .with_timezone(&Utc);
        assert_eq!(format_instant(instant, Lang::Es), "05/01/2026 14:03 UTC");
        assert_eq!(format_instant(instant, Lang::En), "Jan 5, 2026 14:03 UTC");
    }

    #[test]
    fn digits_group_by_thousands() {
        assert_eq!(group_digits("1", Lang::Es), "1");
        assert_eq!(group_digits("999", Lang::Es), "999");
        assert_eq!(group_digits("1000", Lang::Es), "1.000");
        assert_eq!(group_digits("99999", Lang::En), "99,999");
        assert_eq!(group_digits("1234567", Lang::En), "1,234,567");
    }
}
