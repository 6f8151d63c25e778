//! What the panel tells a reviewer about a payment proof (issue 16): the signals computed from
//! the file, and the light they add up to — green (read and matching, nothing reused or
//! edited), amber (something unread or unusual), red (reused, edited, or the amount off).
//! Each signal is a reason the panel words in both languages, with its evidence.

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use crate::proof_reading::{AmountCheck, ReadAmount};
use crate::purchase::PurchaseId;

/// Hamming distance between two 64-bit perceptual hashes at or under which two proofs are
/// taken for the same picture re-saved, cropped a little or recompressed. A starting value, to
/// be set by the proof corpus's precision and recall (issue 16) before the panel relies on it.
pub const NEAR_REUSE_DISTANCE: u32 = 6;

/// One thing found about a proof. Stored as JSON tagged by `kind`
/// (`{"kind": "exactReuse", "other": 7}`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        tag = "kind",
        rename_all = "camelCase",
        rename_all_fields = "camelCase"
    )
)]
pub enum Signal {
    /// The very same file is attached to another purchase.
    ExactReuse { other: PurchaseId },
    /// A picture too close to another purchase's proof to be another payment.
    NearReuse { other: PurchaseId, distance: u32 },
    /// Metadata names editing software (`Adobe Photoshop`, `Canva`…).
    EditedWith { software: String },
    /// Metadata dates the picture more than an hour after the purchase: a proof made later,
    /// or a device whose clock is wrong.
    DatedAfterPurchase { taken_at: DateTime<Utc> },
    /// Metadata dates the picture long before the purchase: an old payment shown again.
    DatedBeforePurchase { taken_at: DateTime<Utc> },
    /// The amount read matches what the purchase costs in the method's currency.
    AmountMatches { read: ReadAmount },
    /// Amounts were read; none is what the purchase costs.
    AmountDiffers { read: ReadAmount },
    /// No amount could be read.
    AmountUnread,
    /// The reference read is the one the buyer gave, or none was given.
    ReferenceRead { reference: String },
    /// No text could be read at all (no OCR on this server, or a picture without text).
    Unreadable,
}

/// The light a proof gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Light {
    Green,
    Amber,
    Red,
}

impl Light {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Green => "green",
            Self::Amber => "amber",
            Self::Red => "red",
        }
    }

    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        [Self::Green, Self::Amber, Self::Red]
            .into_iter()
            .find(|light| light.as_str() == raw)
    }
}

impl Signal {
    /// What this signal alone says.
    #[must_use]
    pub fn light(&self) -> Light {
        match self {
            Self::ExactReuse { .. }
            | Self::NearReuse { .. }
            | Self::EditedWith { .. }
            | Self::AmountDiffers { .. } => Light::Red,
            Self::DatedAfterPurchase { .. }
            | Self::DatedBeforePurchase { .. }
            | Self::AmountUnread
            | Self::Unreadable => Light::Amber,
            Self::AmountMatches { .. } | Self::ReferenceRead { .. } => Light::Green,
        }
    }
}

/// The amount's signal from how the reading compared.
#[must_use]
pub fn amount_signal(check: AmountCheck) -> Signal {
    match check {
        AmountCheck::Matches(read) => Signal::AmountMatches { read },
        AmountCheck::Differs(read) => Signal::AmountDiffers { read },
        AmountCheck::Unread => Signal::AmountUnread,
    }
}

/// The proof's light: the worst of its signals; green only when the amount was read and
/// matches (a proof about which nothing is known is not cleared).
#[must_use]
pub fn light_of(signals: &[Signal]) -> Light {
    let worst = signals
        .iter()
        .map(Signal::light)
        .max()
        .unwrap_or(Light::Amber);
    let amount_matches = signals
        .iter()
        .any(|s| matches!(s, Signal::AmountMatches { .. }));
    if worst == Light::Green && !amount_matches {
        Light::Amber
    } else {
        worst
    }
}

/// Whether metadata's `taken_at` is suspicious for a purchase made at `purchased_at`: after it
/// by more than an hour (the buyer's clock may be off), or before it by more than a day.
#[must_use]
pub fn date_signal(taken_at: DateTime<Utc>, purchased_at: DateTime<Utc>) -> Option<Signal> {
    if taken_at > purchased_at + chrono::TimeDelta::hours(1) {
        Some(Signal::DatedAfterPurchase { taken_at })
    } else if taken_at < purchased_at - chrono::TimeDelta::days(1) {
        Some(Signal::DatedBeforePurchase { taken_at })
    } else {
        None
    }
}

/// A proof file's fingerprint: the same file attached twice has the same one.
#[must_use]
pub fn fingerprint(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// The number of bits two perceptual hashes differ in.
#[must_use]
pub fn hamming(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    use super::*;
    use crate::exchange::Currency;

    fn read(value: &str) -> ReadAmount {
        ReadAmount {
            currency: Some(Currency::Ves),
            value: value.parse::<Decimal>().unwrap(),
        }
    }

    #[test]
    fn the_light_is_the_worst_signal_and_green_needs_the_amount() {
        let matches = Signal::AmountMatches { read: read("10") };
        let reference = Signal::ReferenceRead {
            reference: "0001234".into(),
        };
        assert_eq!(
            light_of(&[matches.clone(), reference.clone()]),
            Light::Green
        );
        assert_eq!(
            light_of(&[reference]),
            Light::Amber,
            "nothing about the amount"
        );
        assert_eq!(light_of(&[]), Light::Amber);
        assert_eq!(
            light_of(&[matches.clone(), Signal::AmountUnread]),
            Light::Amber
        );
        assert_eq!(
            light_of(&[
                matches,
                Signal::ExactReuse {
                    other: PurchaseId::new(7)
                }
            ]),
            Light::Red
        );
    }

    #[test]
    fn metadata_dates_far_from_the_purchase_are_flagged() {
        let bought: DateTime<Utc> = "2026-11-27T12:00:00Z".parse().unwrap();
        let at = |text: &str| text.parse::<DateTime<Utc>>().unwrap();
        assert_eq!(date_signal(at("2026-11-27T12:20:00Z"), bought), None);
        assert_eq!(date_signal(at("2026-11-27T08:00:00Z"), bought), None);
        assert!(matches!(
            date_signal(at("2026-11-27T15:00:00Z"), bought),
            Some(Signal::DatedAfterPurchase { .. })
        ));
        assert!(matches!(
            date_signal(at("2026-10-01T12:00:00Z"), bought),
            Some(Signal::DatedBeforePurchase { .. })
        ));
    }

    #[test]
    fn hashes_differ_by_their_bits() {
        assert_eq!(hamming(0, 0), 0);
        assert_eq!(hamming(0b1011, 0b0010), 2);
        assert_eq!(hamming(u64::MAX, 0), 64);
        assert!(hamming(0xFF00, 0xFF01) <= NEAR_REUSE_DISTANCE);
    }
}
