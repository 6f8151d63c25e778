//! Payment methods: the manual ways a buyer pays, with details shown on the site.

use crate::exchange::{Currency, ExchangeRateId};
use crate::money::Rate;
use crate::payment_reference::ReferencePolicy;
use crate::validation::{self, FieldError, FieldErrors, TextKind};

pub use crate::id::PaymentMethodId;

/// Types seen in operators' data. The admin form offers digital, bank and crypto; the others are
/// accepted so existing data keeps working and pick the closest icon on the site.
pub const PAYMENT_TYPES: [&str; 9] = [
    "digital",
    "zelle",
    "binance",
    "crypto",
    "bank",
    "bank_transfer",
    "transfer",
    "mobile_payment",
    "mobile",
];
pub const CRYPTO_NETWORKS: [&str; 5] = ["bitcoin", "ethereum", "bsc", "tron", "polygon"];
pub const BANK_ACCOUNT_TYPES: [&str; 2] = ["corriente", "ahorro"];
const MAX_DETAILS: usize = 20;

/// Ordered key/value pairs shown to the buyer (order matters: the site shows the first two).
pub type Details = Vec<(String, String)>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentMethod {
    pub id: PaymentMethodId,
    pub name: String,
    pub kind: String,
    pub active: bool,
    pub details: Details,
    pub exchange_rate: Option<LinkedRate>,
    /// What purchases paid with it must say of their payment reference.
    pub reference: ReferencePolicy,
}

/// The exchange rate a method converts its total with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedRate {
    pub id: ExchangeRateId,
    pub from: Currency,
    pub to: Currency,
    pub rate: Rate,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentMethodDraft {
    pub name: String,
    pub kind: String,
    pub active: bool,
    pub details: Details,
    pub exchange_rate_id: Option<ExchangeRateId>,
    pub reference: ReferencePolicy,
}

impl PaymentMethodDraft {
    /// Checks the name, the type and the details each type needs:
    /// bank → `bankName`, `accountNumber`, `accountType` (corriente|ahorro);
    /// crypto → `walletAddress`, `network` (bitcoin|ethereum|bsc|tron|polygon);
    /// any type → at most 20 entries, non-blank keys, values up to 500 characters.
    ///
    /// # Errors
    /// Each bad field; detail problems are reported under `details.<key>`-style names
    /// collapsed to `details`.
    pub fn parse(
        name: Option<&str>,
        kind: Option<&str>,
        active: Option<bool>,
        details: Details,
        exchange_rate_id: Option<ExchangeRateId>,
        reference: (Option<bool>, Option<i64>),
    ) -> Result<Self, FieldErrors> {
        let mut errors = FieldErrors::new();
        let name = errors.check(
            "name",
            validation::required_text(name.unwrap_or(""), TextKind::SingleLine, 1, 100),
        );
        let kind = errors.check("type", parse_kind(kind.unwrap_or("")));
        let details = errors.check("details", parse_details(kind.as_deref(), details));
        let (required, min_length) = reference;
        let reference = errors.check(
            "referenceMinLength",
            u8::try_from(min_length.unwrap_or(0))
                .map_err(|_| FieldError::OutOfRange {
                    min: "0".into(),
                    max: ReferencePolicy::MAX_MIN_LENGTH.to_string(),
                })
                .and_then(|min| ReferencePolicy::new(required.unwrap_or(false), min)),
        );
        errors.into_result()?;
        match (name, kind, details, reference) {
            (Some(name), Some(kind), Some(details), Some(reference)) => Ok(Self {
                name,
                kind,
                active: active.unwrap_or(true),
                details,
                exchange_rate_id,
                reference,
            }),
            _ => Err(FieldErrors::single("name", FieldError::Required)),
        }
    }
}

fn parse_kind(raw: &str) -> Result<String, FieldError> {
    let kind = raw.trim().to_ascii_lowercase();
    if kind.is_empty() {
        return Err(FieldError::Required);
    }
    PAYMENT_TYPES
        .contains(&kind.as_str())
        .then_some(kind)
        .ok_or_else(|| FieldError::UnknownOption {
            allowed: PAYMENT_TYPES.to_vec(),
        })
}

fn parse_details(kind: Option<&str>, raw: Details) -> Result<Details, FieldError> {
    if raw.len() > MAX_DETAILS {
        return Err(FieldError::TooLong { max: MAX_DETAILS });
    }
    let mut details = Details::with_capacity(raw.len());
    for (key, value) in raw {
        let key = validation::required_text(&key, TextKind::SingleLine, 1, 60)?;
        let value = validation::free_text(&value, TextKind::SingleLine, 500)?;
        if !value.is_empty() {
            details.push((key, value));
        }
    }
    let get = |k: &str| {
        details
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    let required: &[(&str, Option<&[&'static str]>)] = match kind {
        Some("bank") => &[
            ("bankName", None),
            ("accountNumber", None),
            ("accountType", Some(&BANK_ACCOUNT_TYPES)),
        ],
        Some("crypto") => &[("walletAddress", None), ("network", Some(&CRYPTO_NETWORKS))],
        _ => &[],
    };
    for (key, options) in required {
        let value = get(key).ok_or(FieldError::Required)?;
        if let Some(options) = options
            && !options.contains(&value)
        {
            return Err(FieldError::UnknownOption {
                allowed: options.to_vec(),
            });
        }
    }
    Ok(details)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(items: &[(&str, &str)]) -> Details {
        items
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn details_follow_the_type() {
        let table: [(&str, Details, bool); 7] = [
            ("digital", pairs(&[("email", "pagos@rifa.com")]), true),
            ("digital", pairs(&[]), true),
            (
                "bank",
                pairs(&[
                    ("bankName", "Banesco"),
                    ("accountNumber", "0134"),
                    ("accountType", "ahorro"),
                ]),
                true,
            ),
            (
                "bank",
                pairs(&[
                    ("bankName", "Banesco"),
                    ("accountNumber", "0134"),
                    ("accountType", "plazo"),
                ]),
                false,
            ),
            ("bank", pairs(&[("bankName", "Banesco")]), false),
            (
                "crypto",
                pairs(&[("walletAddress", "TXk9"), ("network", "tron")]),
                true,
            ),
            (
                "crypto",
                pairs(&[("walletAddress", "TXk9"), ("network", "solana")]),
                false,
            ),
        ];
        for (kind, details, ok) in table {
            let parsed = PaymentMethodDraft::parse(
                Some("Método"),
                Some(kind),
                None,
                details.clone(),
                None,
                (None, None),
            );
            assert_eq!(parsed.is_ok(), ok, "{kind} {details:?}");
        }
    }

    #[test]
    fn methods_are_created_active_and_keep_detail_order() {
        let draft = PaymentMethodDraft::parse(
            Some(" Zelle "),
            Some("Zelle"),
            None,
            pairs(&[("phone", "+1 555"), ("email", "z@x.com"), ("note", "  ")]),
            Some(ExchangeRateId::new(3)),
            (Some(true), Some(6)),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(draft.name, "Zelle");
        assert_eq!(draft.kind, "zelle");
        assert!(draft.active);
        assert_eq!(
            draft.details,
            pairs(&[("phone", "+1 555"), ("email", "z@x.com")])
        );
        assert_eq!(draft.reference, ReferencePolicy::new(true, 6).unwrap());
    }

    #[test]
    fn unknown_types_and_blank_names_are_refused() {
        let errors = PaymentMethodDraft::parse(
            Some(" "),
            Some("cash"),
            None,
            vec![],
            None,
            (None, Some(31)),
        )
        .err()
        .unwrap_or_default();
        let fields: Vec<_> = errors.iter().map(|(f, _)| f.as_ref()).collect();
        assert_eq!(fields, ["name", "type", "referenceMinLength"]);
    }
}
