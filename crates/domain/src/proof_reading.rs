//! What a payment proof says (issue 16): the amount, the reference, the date and the bank, read
//! from the text OCR found in it, by rules for the layouts buyers send most — Venezuelan bank
//! transfers and Pago Móvil (`Bs. 1.234,56`, `Referencia: 0123…`, `27/11/2026`), Colombian
//! Bancolombia and Nequi (`$ 120.000`), Zelle (`$52.00`, `Nov 27, 2026`) and Binance Pay
//! (`52 USDT`, `Order ID`). OCR text is noisy: every rule looks for a label or a currency mark
//! next to a value and gives up rather than guess; what is not read stays `None`.

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::exchange::Currency;

/// An amount found on a proof, with the currency its mark names (`None`: only a label, such as
/// `Monto:`, stood next to it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct ReadAmount {
    pub currency: Option<Currency>,
    pub value: Decimal,
}

/// What was read from a proof's text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProofReading {
    /// In the order they appear.
    pub amounts: Vec<ReadAmount>,
    pub reference: Option<String>,
    pub date: Option<NaiveDate>,
    /// The bank or service, by its usual name.
    pub bank: Option<&'static str>,
}

/// How a proof's amount compares with what the purchase costs in the method's currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmountCheck {
    /// An amount within [`AMOUNT_TOLERANCE`] of the expected one was read.
    Matches(ReadAmount),
    /// Amounts were read, none of them the expected one: the closest.
    Differs(ReadAmount),
    /// No amount could be read.
    Unread,
}

/// How far a read amount may be from the expected one and still match: half a percent, for
/// the rounding of rates between the site's quote and a bank's own conversion.
pub const AMOUNT_TOLERANCE: Decimal = Decimal::from_parts(5, 0, 0, false, 3);

/// Banks and services by the names their receipts print (lower case, accents removed), and how
/// to show each. Where two start at the same place the longer, listed first, is taken.
const BANKS: [(&str, &str); 24] = [
    ("banco de venezuela", "Banco de Venezuela"),
    ("venezolano de credito", "Venezolano de Crédito"),
    ("banco del tesoro", "Banco del Tesoro"),
    ("bancolombia", "Bancolombia"),
    ("davivienda", "Davivienda"),
    ("daviplata", "Daviplata"),
    ("bicentenario", "Bicentenario"),
    ("provincial", "BBVA Provincial"),
    ("mercantil", "Mercantil"),
    ("bancaribe", "Bancaribe"),
    ("bancamiga", "Bancamiga"),
    ("banesco", "Banesco"),
    ("banplus", "Banplus"),
    ("sofitasa", "Sofitasa"),
    ("exterior", "Banco Exterior"),
    ("binance", "Binance"),
    ("wells fargo", "Wells Fargo"),
    ("bank of america", "Bank of America"),
    ("chase", "Chase"),
    ("zelle", "Zelle"),
    ("nequi", "Nequi"),
    ("paypal", "PayPal"),
    ("bnc", "BNC"),
    ("bdv", "Banco de Venezuela"),
];

/// Labels a reference follows, as receipts print them (lower case, accents removed), the
/// longer first. OCR often garbles `Order ID` into `Order !ID` or `OrderID`.
const REFERENCE_LABELS: [&str; 15] = [
    "numero de referencia",
    "nro. de referencia",
    "nro de referencia",
    "n° de operacion",
    "numero de operacion",
    "confirmation number",
    "confirmation",
    "transaction id",
    "order !id",
    "order id",
    "orderid",
    "comprobante",
    "referencia",
    "operacion",
    "ref",
];

/// Labels after which a code of letters alone is still a reference: services print
/// confirmation codes without digits (Zelle's `ZLfbrcnyfz`).
const CODE_LABELS: [&str; 2] = ["confirmation", "transaction id"];

/// Labels an amount follows when no currency mark does.
const AMOUNT_LABELS: [&str; 6] = ["monto", "importe", "total", "amount", "valor", "cantidad"];

const MONTHS: [(&str, u32); 24] = [
    ("enero", 1),
    ("febrero", 2),
    ("marzo", 3),
    ("abril", 4),
    ("mayo", 5),
    ("junio", 6),
    ("julio", 7),
    ("agosto", 8),
    ("septiembre", 9),
    ("setiembre", 9),
    ("octubre", 10),
    ("noviembre", 11),
    ("diciembre", 12),
    ("january", 1),
    ("february", 2),
    ("march", 3),
    ("april", 4),
    ("june", 6),
    ("july", 7),
    ("august", 8),
    ("september", 9),
    ("october", 10),
    ("november", 11),
    ("december", 12),
];

/// Lower case without accents, so `Operación` and `OPERACION` read alike.
fn fold(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'á' | 'Á' => 'a',
            'é' | 'É' => 'e',
            'í' | 'Í' => 'i',
            'ó' | 'Ó' => 'o',
            'ú' | 'Ú' | 'ü' | 'Ü' => 'u',
            'ñ' | 'Ñ' => 'n',
            other => other.to_ascii_lowercase(),
        })
        .collect()
}

/// Reads what a proof says from the text OCR found in it.
#[must_use]
pub fn read_proof(text: &str) -> ProofReading {
    let folded = fold(text);
    let us_layout = [
        "zelle",
        "sent on",
        "amount",
        "wells fargo",
        "chase",
        "bank of america",
    ]
    .iter()
    .any(|marker| folded.contains(marker));
    ProofReading {
        amounts: amounts(&folded),
        reference: reference(text, &folded),
        date: date(&folded, us_layout),
        bank: bank(&folded),
    }
}

/// The bank the receipt is from: the first one named (receipts open with their own), outside
/// the lines about the receiving side (`Banco destino: 0134 - Banesco`); a bank named on a
/// Zelle receipt rather than Zelle, the network it sends through.
fn bank(folded: &str) -> Option<&'static str> {
    let own: String = folded
        .lines()
        .filter(|line| !line.contains("destino") && !line.contains("beneficiario"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut named: Vec<(usize, &'static str)> = BANKS
        .iter()
        .filter_map(|(name, shown)| word_at(&own, name).map(|at| (at, *shown)))
        .collect();
    named.sort_unstable();
    let first = named.first().map(|(_, shown)| *shown)?;
    if first == "Zelle" {
        let banks = ["Bank of America", "Chase", "Wells Fargo"];
        if let Some((_, bank)) = named.iter().find(|(_, shown)| banks.contains(shown)) {
            return Some(bank);
        }
    }
    Some(first)
}

/// Where `word` first stands in `text` on its own (not inside another word).
fn word_at(text: &str, word: &str) -> Option<usize> {
    text.match_indices(word).map(|(at, _)| at).find(|&at| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// A number as receipts print it: `1.234,56` and `1,234.56` (the last separator followed by one
/// or two digits is the decimal one), `120.000` (three digits after a separator: thousands).
fn parse_number(raw: &str) -> Option<Decimal> {
    let raw = raw.trim_matches(|c: char| c == '.' || c == ',');
    if raw.is_empty() || !raw.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let last = raw.rfind(['.', ',']);
    let (whole, decimals) = match last {
        Some(at) if (1..=2).contains(&(raw.len() - at - 1)) => (&raw[..at], &raw[at + 1..]),
        _ => (raw, ""),
    };
    let whole: String = whole.chars().filter(char::is_ascii_digit).collect();
    let number = if decimals.is_empty() {
        whole
    } else {
        format!("{whole}.{decimals}")
    };
    number.parse().ok()
}

/// The number starting at `text`'s first digit (within a few characters), if any.
fn number_after(text: &str) -> Option<Decimal> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    if start > 3 {
        return None;
    }
    let digits: String = text[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',' || *c == ' ')
        .collect();
    // A space may separate thousands (`1 234,56`) but not two amounts: stop at a space not
    // followed by exactly three digits.
    let mut kept = String::new();
    let mut parts = digits.split(' ').peekable();
    while let Some(part) = parts.next() {
        kept.push_str(part);
        match parts.peek() {
            Some(next) if next.len() >= 3 && next[..3].chars().all(|c| c.is_ascii_digit()) => {}
            _ => break,
        }
    }
    parse_number(&kept)
}

/// Currency marks, as folded text prints them, with the currency each names.
const MARKS: [(&str, Currency); 11] = [
    ("us$", Currency::Usd),
    ("usdt", Currency::Usd),
    ("usd", Currency::Usd),
    ("ves", Currency::Ves),
    ("bs.s", Currency::Ves),
    ("bs.", Currency::Ves),
    ("bs", Currency::Ves),
    ("cop", Currency::Cop),
    ("eur", Currency::Eur),
    ("€", Currency::Eur),
    ("$", Currency::Usd),
];

fn amounts(folded: &str) -> Vec<ReadAmount> {
    let mut found: Vec<(usize, ReadAmount)> = Vec::new();
    let mut taken: Vec<std::ops::Range<usize>> = Vec::new();
    let free = |taken: &[std::ops::Range<usize>], at: usize| !taken.iter().any(|r| r.contains(&at));
    for (mark, currency) in MARKS {
        for (at, _) in folded.match_indices(mark) {
            if !free(&taken, at) {
                continue;
            }
            let alphabetic = mark.chars().all(char::is_alphabetic);
            let before = folded[..at].chars().next_back();
            let after_mark = &folded[at + mark.len()..];
            if alphabetic
                && (before.is_some_and(char::is_alphanumeric)
                    || after_mark.starts_with(|c: char| c.is_alphabetic()))
            {
                continue;
            }
            // `$` alone in a Colombian receipt is pesos: the text names the country's banks.
            let currency = if mark == "$"
                && ["bancolombia", "nequi", "daviplata", "cop"]
                    .iter()
                    .any(|m| folded.contains(m))
            {
                Currency::Cop
            } else {
                currency
            };
            // The mark before the amount (`Bs. 1.234,56`), or after it (`52 USDT`).
            let value = number_after(after_mark).or_else(|| {
                let head = folded[..at].trim_end();
                let start = head
                    .char_indices()
                    .rev()
                    .find(|(_, c)| !(c.is_ascii_digit() || *c == '.' || *c == ','))
                    .map_or(0, |(i, c)| i + c.len_utf8());
                (start < head.len())
                    .then(|| parse_number(&head[start..]))
                    .flatten()
            });
            if let Some(value) = value {
                taken.push(at..at + mark.len());
                found.push((
                    at,
                    ReadAmount {
                        currency: Some(currency),
                        value,
                    },
                ));
            }
        }
    }
    for label in AMOUNT_LABELS {
        for (at, _) in folded.match_indices(label) {
            let rest = folded[at + label.len()..].trim_start_matches([':', ' ']);
            if let Some(value) = number_after(rest) {
                let already = found.iter().any(|(_, a)| a.value == value);
                if !already {
                    found.push((
                        at,
                        ReadAmount {
                            currency: None,
                            value,
                        },
                    ));
                }
            }
        }
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, amount)| amount).collect()
}

fn reference(text: &str, folded: &str) -> Option<String> {
    REFERENCE_LABELS.iter().find_map(|label| {
        folded.match_indices(label).find_map(|(at, _)| {
            let after = at + label.len();
            if folded[after..].starts_with(|c: char| c.is_alphabetic()) {
                return None;
            }
            // The same span of the original text: folding keeps one character per character.
            let offset = folded[..after].chars().count();
            let rest: String = text.chars().skip(offset).collect();
            // Receipts print the value beside its label or on the next line.
            let rest = rest.trim_start_matches(|c: char| {
                matches!(c, ':' | '#' | '.' | '°' | 'º')
                    || c.is_whitespace()
                    || c == 'N'
                    || c == 'o'
            });
            let token: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            let digits = token.chars().filter(char::is_ascii_digit).count();
            // Mostly digits, or a long code with some (Zelle's `BACte9vhqsr`): not a word.
            let code = (token.len() >= 4 && digits >= 3)
                || (token.len() >= 8 && digits >= 1)
                || (token.len() >= 8 && CODE_LABELS.contains(label));
            code.then(|| token.to_ascii_uppercase())
        })
    })
}

fn date(folded: &str, us_layout: bool) -> Option<NaiveDate> {
    numeric_date(folded, us_layout).or_else(|| worded_date(folded))
}

/// `27/11/2026`, `27-11-2026`, `2026-11-27`, `11/27/2026` (US layouts, or when the first part
/// cannot be a month).
fn numeric_date(folded: &str, us_layout: bool) -> Option<NaiveDate> {
    let bytes = folded.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        if !bytes[at].is_ascii_digit() || (at > 0 && bytes[at - 1].is_ascii_digit()) {
            at += 1;
            continue;
        }
        let candidate: String = folded[at..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '/' || *c == '-' || *c == '.')
            .collect();
        let parts: Vec<&str> = candidate.split(['/', '-', '.']).collect();
        if let [a, b, c] = parts.as_slice() {
            let n = |s: &str| s.parse::<u32>().ok();
            let found = match (a.len(), b.len(), c.len()) {
                (4, 1..=2, 1..=2) => {
                    NaiveDate::from_ymd_opt(i32::try_from(n(a)?).ok()?, n(b)?, n(c)?)
                }
                (1..=2, 1..=2, 4) => {
                    let (first, second, year) = (n(a)?, n(b)?, i32::try_from(n(c)?).ok()?);
                    let month_first = second > 12 || (us_layout && first <= 12);
                    if month_first {
                        NaiveDate::from_ymd_opt(year, first, second)
                    } else {
                        NaiveDate::from_ymd_opt(year, second, first)
                    }
                }
                _ => None,
            };
            if found.is_some() {
                return found;
            }
        }
        at += candidate.len().max(1);
    }
    None
}

/// `27 de noviembre de 2026`, `27 nov 2026`, `Nov 27, 2026`.
fn worded_date(folded: &str) -> Option<NaiveDate> {
    let words: Vec<&str> = folded
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty() && *w != "de" && *w != "del")
        .collect();
    let month_of = |word: &str| {
        let word = word.trim_end_matches('.');
        (word.len() >= 3)
            .then(|| {
                MONTHS
                    .iter()
                    .find(|(name, _)| name.starts_with(word))
                    .map(|(_, month)| *month)
            })
            .flatten()
    };
    let number = |word: &str| word.parse::<u32>().ok();
    words.windows(3).find_map(|w| {
        let (day, month, year) = match (number(w[0]), month_of(w[1]), number(w[2])) {
            (Some(day), Some(month), Some(year)) => (day, month, year),
            _ => match (month_of(w[0]), number(w[1]), number(w[2])) {
                (Some(month), Some(day), Some(year)) => (day, month, year),
                _ => return None,
            },
        };
        (1_000..=9_999)
            .contains(&year)
            .then(|| NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, month, day))
            .flatten()
    })
}

/// Compares what was read with the `expected` amount in `currency`: an amount of that currency
/// (or of none named) within [`AMOUNT_TOLERANCE`] matches.
#[must_use]
pub fn check_amount(reading: &ProofReading, currency: Currency, expected: Decimal) -> AmountCheck {
    let candidates: Vec<ReadAmount> = reading
        .amounts
        .iter()
        .copied()
        .filter(|a| a.currency.is_none_or(|c| c == currency))
        .collect();
    // Far apart when the difference does not even fit a Decimal.
    let off = |a: &ReadAmount| {
        a.value
            .checked_sub(expected)
            .map_or(Decimal::MAX, |d| d.abs())
    };
    let allowed = (expected * AMOUNT_TOLERANCE).max(Decimal::new(1, 2));
    if let Some(close) = candidates.iter().copied().find(|a| off(a) <= allowed) {
        return AmountCheck::Matches(close);
    }
    candidates
        .iter()
        .copied()
        .min_by_key(off)
        .map_or(AmountCheck::Unread, AmountCheck::Differs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u32, d: u32) -> Option<NaiveDate> {
        NaiveDate::from_ymd_opt(y, m, d)
    }

    fn amount(currency: Option<Currency>, value: &str) -> ReadAmount {
        ReadAmount {
            currency,
            value: value.parse().unwrap(),
        }
    }

    #[test]
    fn a_venezuelan_pago_movil_receipt() {
        let text = "Banesco\nOperación exitosa\nPago Móvil\nMonto: Bs. 1.234,56\n\
                    Referencia: 000123456789\nFecha: 27/11/2026 10:42 a.m.\nBanco receptor: Mercantil";
        let read = read_proof(text);
        assert_eq!(read.amounts, [amount(Some(Currency::Ves), "1234.56")]);
        assert_eq!(read.reference.as_deref(), Some("000123456789"));
        assert_eq!(read.date, day(2026, 11, 27));
        assert_eq!(read.bank, Some("Banesco"));
        assert_eq!(
            check_amount(&read, Currency::Ves, "1234.56".parse().unwrap()),
            AmountCheck::Matches(amount(Some(Currency::Ves), "1234.56"))
        );
    }

    #[test]
    fn a_colombian_nequi_transfer_in_pesos() {
        let text = "Nequi\n¡Envío exitoso!\nCuánto: $ 120.000,00\nReferencia M1234567\n27 de noviembre de 2026";
        let read = read_proof(text);
        assert_eq!(read.amounts, [amount(Some(Currency::Cop), "120000.00")]);
        assert_eq!(read.reference.as_deref(), Some("M1234567"));
        assert_eq!(read.date, day(2026, 11, 27));
        assert_eq!(read.bank, Some("Nequi"));
    }

    #[test]
    fn a_zelle_payment_reads_the_us_way() {
        let text = "Zelle\nYou sent $52.00 to RIFA LLC\nSent on 11/03/2026\nConfirmation: QK7R2M9X1\nBank of America";
        let read = read_proof(text);
        assert_eq!(read.amounts, [amount(Some(Currency::Usd), "52.00")]);
        assert_eq!(read.reference.as_deref(), Some("QK7R2M9X1"));
        assert_eq!(read.date, day(2026, 11, 3), "month first in a US layout");
        assert_eq!(
            read.bank,
            Some("Bank of America"),
            "the bank rather than the network it sends through"
        );
        assert_eq!(read_proof("Zelle\nYou sent $52.00").bank, Some("Zelle"));
        assert_eq!(
            read_proof("Pago Móvil\nBanco destino: 0134 - Banesco").bank,
            None,
            "the receiving bank is not the receipt's"
        );
        assert!(matches!(
            check_amount(&read, Currency::Usd, "65.00".parse().unwrap()),
            AmountCheck::Differs(a) if a.value == "52.00".parse::<Decimal>().unwrap()
        ));
    }

    #[test]
    fn a_binance_pay_receipt_in_usdt() {
        let text = "Binance Pay\nPayment successful\n-52 USDT\nOrder ID 285614973002\nDate 2026-11-27 12:01:33";
        let read = read_proof(text);
        assert_eq!(read.amounts, [amount(Some(Currency::Usd), "52")]);
        assert_eq!(read.reference.as_deref(), Some("285614973002"));
        assert_eq!(read.date, day(2026, 11, 27));
        assert_eq!(read.bank, Some("Binance"));
    }

    #[test]
    fn numbers_are_read_in_both_conventions() {
        for (raw, expected) in [
            ("1.234,56", "1234.56"),
            ("1,234.56", "1234.56"),
            ("120.000", "120000"),
            ("52.5", "52.5"),
            ("7", "7"),
            ("1.234.567,8", "1234567.8"),
        ] {
            assert_eq!(parse_number(raw), expected.parse().ok(), "{raw}");
        }
        assert_eq!(parse_number("abc"), None);
    }

    #[test]
    fn nothing_read_is_unread_rather_than_guessed() {
        let read = read_proof("foto borrosa de un gato");
        assert_eq!(read, ProofReading::default());
        assert_eq!(
            check_amount(&read, Currency::Usd, Decimal::ONE),
            AmountCheck::Unread
        );
        // A word that merely contains a bank's name is not that bank.
        assert_eq!(read_proof("exteriormente bonito").bank, None);
    }

    #[test]
    fn an_amount_too_far_to_subtract_is_simply_different() {
        let read = read_proof("Monto: 9.999.999.999.999.999.999.999.999,99");
        assert!(matches!(
            check_amount(&read, Currency::Ves, Decimal::MIN),
            AmountCheck::Differs(_)
        ));
    }

    #[test]
    fn a_rate_rounded_differently_still_matches() {
        let read = read_proof("Monto Bs 949,10");
        assert!(matches!(
            check_amount(&read, Currency::Ves, "949.03".parse().unwrap()),
            AmountCheck::Matches(_)
        ));
        assert!(matches!(
            check_amount(&read, Currency::Ves, "900.00".parse().unwrap()),
            AmountCheck::Differs(_)
        ));
    }
}
