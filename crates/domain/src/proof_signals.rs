//! What the panel tells a reviewer about a payment proof (issue 16): the signals computed from
//! the file, and the light they add up to — green (read and matching, nothing reused or
//! edited), amber (something unread or unusual), red (reused, edited, or the amount off).
//! Each signal is a reason the panel words in both languages, with its evidence.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use sha2::{Digest, Sha256};

use crate::exchange::Currency;
use crate::payment_reference::PaymentReference;
use crate::proof_reading::{AmountCheck, ReadAmount};
use crate::purchase::PurchaseId;

/// Bits (of 256) at or under which two pictures' hashes are taken for the same picture saved
/// again (re-encoded, recompressed, scaled, sent through a messaging app). Measured on the proof
/// corpus (BENCHMARKS.md): the same picture saved again moves at most 6 bits, two different
/// receipts of the same bank's app stand 38 bits apart or more. A crop moves the whole picture
/// (up to 92 bits): crops are found by the reference they show instead
/// ([`Signal::ReferenceReused`]).
pub const NEAR_REUSE_DISTANCE: u32 = 15;

/// A picture's 256-bit perceptual hash: the DCT of its grey thumbnail, each of the 16×16
/// lowest frequencies above or below their median.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PictureHash(pub [u8; 32]);

impl PictureHash {
    /// Bands a hash is filed under: two hashes within [`NEAR_REUSE_DISTANCE`] bits share at
    /// least one band (16 bands, 15 differing bits cannot touch them all), so a lookup by band
    /// finds every candidate without comparing with every proof.
    pub const BANDS: usize = 16;

    /// The number of bits two hashes differ in.
    #[must_use]
    pub fn distance(&self, other: &Self) -> u32 {
        self.0
            .iter()
            .zip(other.0)
            .map(|(a, b)| (a ^ b).count_ones())
            .sum()
    }

    /// The hash cut in [`Self::BANDS`] bands of 16 bits.
    #[must_use]
    pub fn bands(&self) -> [u16; Self::BANDS] {
        std::array::from_fn(|band| u16::from_be_bytes([self.0[band * 2], self.0[band * 2 + 1]]))
    }

    #[must_use]
    pub fn to_hex(&self) -> String {
        crate::draw::ledger::to_hex(&self.0)
    }

    #[must_use]
    pub fn from_hex(hex: &str) -> Option<Self> {
        crate::draw::ledger::bytes_from_hex(hex)
            .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
            .map(Self)
    }
}

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
    /// The reference this proof shows was shown by, or typed with, another purchase: the same
    /// payment sent again, even cropped or retouched.
    ReferenceReused { other: PurchaseId },
    /// Metadata names editing software (`Adobe Photoshop`, `Canva`…).
    EditedWith { software: String },
    /// Metadata dates the picture more than an hour after the purchase: a proof made later,
    /// or a device whose clock is wrong.
    DatedAfterPurchase { taken_at: DateTime<Utc> },
    /// Metadata dates the picture long before the purchase: an old payment shown again.
    DatedBeforePurchase { taken_at: DateTime<Utc> },
    /// The amount read matches what the purchase costs in the method's currency.
    AmountMatches { read: ReadAmount },
    /// Amounts were read; none is what the purchase costs (`expected`): the closest.
    AmountDiffers {
        read: ReadAmount,
        expected: ReadAmount,
    },
    /// No amount could be read.
    AmountUnread,
    /// The reference read is the one the buyer typed (or ends with it: buyers often type a
    /// bank reference's last digits).
    ReferenceMatches { reference: String },
    /// A reference was read; the buyer typed none to compare it with.
    ReferenceRead { reference: String },
    /// The reference read is not the one the buyer typed.
    ReferenceDiffers { read: String, given: String },
    /// No reference could be read.
    ReferenceUnread,
    /// This server cannot read text from pictures (no OCR installed): the reviewer reads it.
    NoTextReader,
    /// No text could be read from the proof.
    Unreadable,
    /// A PDF whose page is larger than any receipt: not rendered, so not read.
    PageTooLarge { width_mm: u32, height_mm: u32 },
    /// Reading the proof took more than its time or CPU budget, `seconds`: given up.
    ReadTooSlow { seconds: u32 },
    /// A reader stopped with an error on this file (malformed, or past its memory budget).
    ReaderFailed,
}

/// Why a proof's text was not read: the file's own doing, within the bounds each proof is read
/// in, so the check records it once and does not try again (decision 0021).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadFailure {
    /// A PDF page larger than any receipt (in millimetres, as shown): refused before rendering.
    PageTooLarge { width_mm: u32, height_mm: u32 },
    /// A reader went past its time or CPU budget (`seconds`) on this file.
    TooSlow { seconds: u32 },
    /// A reader stopped with an error on this file.
    ReaderFailed,
}

impl From<ReadFailure> for Signal {
    fn from(failure: ReadFailure) -> Self {
        match failure {
            ReadFailure::PageTooLarge {
                width_mm,
                height_mm,
            } => Self::PageTooLarge {
                width_mm,
                height_mm,
            },
            ReadFailure::TooSlow { seconds } => Self::ReadTooSlow { seconds },
            ReadFailure::ReaderFailed => Self::ReaderFailed,
        }
    }
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
            | Self::ReferenceReused { .. }
            | Self::EditedWith { .. }
            | Self::AmountDiffers { .. } => Light::Red,
            Self::DatedAfterPurchase { .. }
            | Self::DatedBeforePurchase { .. }
            | Self::AmountUnread
            | Self::ReferenceDiffers { .. }
            | Self::ReferenceUnread
            | Self::NoTextReader
            | Self::Unreadable
            | Self::PageTooLarge { .. }
            | Self::ReadTooSlow { .. }
            | Self::ReaderFailed => Light::Amber,
            Self::AmountMatches { .. }
            | Self::ReferenceMatches { .. }
            | Self::ReferenceRead { .. } => Light::Green,
        }
    }
}

/// The amount's signal from how the reading compared with `expected` (in `currency`).
#[must_use]
pub fn amount_signal(check: AmountCheck, currency: Currency, expected: Decimal) -> Signal {
    match check {
        AmountCheck::Matches(read) => Signal::AmountMatches { read },
        AmountCheck::Differs(read) => Signal::AmountDiffers {
            read,
            expected: ReadAmount {
                currency: Some(currency),
                value: expected,
            },
        },
        AmountCheck::Unread => Signal::AmountUnread,
    }
}

/// The reference's signal: what was read against what the buyer typed.
#[must_use]
pub fn reference_signal(read: Option<&str>, given: Option<&PaymentReference>) -> Signal {
    match (read, given) {
        (None, _) => Signal::ReferenceUnread,
        (Some(read), None) => Signal::ReferenceRead {
            reference: read.to_owned(),
        },
        (Some(read), Some(given)) if given.matches_printed(read) => Signal::ReferenceMatches {
            reference: read.to_owned(),
        },
        (Some(read), Some(given)) => Signal::ReferenceDiffers {
            read: read.to_owned(),
            given: given.as_str().to_owned(),
        },
    }
}

/// The proof's light: the worst of its signals; green only when both the amount and the
/// reference were read and match (a proof about which nothing is known is not cleared).
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
    let reference_read = signals.iter().any(|s| {
        matches!(
            s,
            Signal::ReferenceMatches { .. } | Signal::ReferenceRead { .. }
        )
    });
    if worst == Light::Green && !(amount_matches && reference_read) {
        Light::Amber
    } else {
        worst
    }
}

/// Software that makes or retouches pictures and documents, as metadata names it (lower
/// case): a proof it touched was not simply captured from a bank's app or downloaded from the
/// bank. Word processors count: a receipt is not typed.
const EDITORS: [&str; 18] = [
    "photoshop",
    "lightroom",
    "illustrator",
    "gimp",
    "canva",
    "picsart",
    "snapseed",
    "pixlr",
    "photopea",
    "fotor",
    "photoscape",
    "paint.net",
    "affinity",
    "krita",
    "inkscape",
    "coreldraw",
    "microsoft word",
    "libreoffice",
];

/// The editor among the software a proof's metadata names, if any.
#[must_use]
pub fn editing_software(software: &[String]) -> Option<&str> {
    software.iter().map(String::as_str).find(|name| {
        let name = name.to_lowercase();
        EDITORS.iter().any(|editor| name.contains(editor))
    })
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
    fn the_light_is_the_worst_signal_and_green_needs_the_amount_and_the_reference() {
        let matches = Signal::AmountMatches { read: read("10") };
        let reference = Signal::ReferenceRead {
            reference: "0001234".into(),
        };
        assert_eq!(
            light_of(&[matches.clone(), reference.clone()]),
            Light::Green
        );
        assert_eq!(
            light_of(std::slice::from_ref(&reference)),
            Light::Amber,
            "nothing about the amount"
        );
        assert_eq!(
            light_of(std::slice::from_ref(&matches)),
            Light::Amber,
            "no reference read"
        );
        assert_eq!(light_of(&[]), Light::Amber);
        assert_eq!(
            light_of(&[matches.clone(), reference, Signal::AmountUnread]),
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
    fn a_proof_not_read_for_its_own_reasons_is_amber_and_says_why() {
        let page = ReadFailure::PageTooLarge {
            width_mm: 5_080,
            height_mm: 5_080,
        };
        assert_eq!(
            Signal::from(page),
            Signal::PageTooLarge {
                width_mm: 5_080,
                height_mm: 5_080
            }
        );
        assert_eq!(
            Signal::from(ReadFailure::TooSlow { seconds: 15 }),
            Signal::ReadTooSlow { seconds: 15 }
        );
        for failure in [
            page,
            ReadFailure::TooSlow { seconds: 15 },
            ReadFailure::ReaderFailed,
        ] {
            assert_eq!(light_of(&[Signal::from(failure)]), Light::Amber);
        }
    }

    #[test]
    fn the_reference_read_is_compared_with_the_one_typed() {
        let typed = |raw: &str| PaymentReference::parse(raw).unwrap().unwrap();
        assert_eq!(reference_signal(None, None), Signal::ReferenceUnread);
        assert!(matches!(
            reference_signal(Some("012345678901"), None),
            Signal::ReferenceRead { .. }
        ));
        assert!(matches!(
            reference_signal(Some("012345678901"), Some(&typed("5678901"))),
            Signal::ReferenceMatches { .. }
        ));
        assert!(matches!(
            reference_signal(Some("BAC-a1b2c3"), Some(&typed("bac a1b2c3"))),
            Signal::ReferenceMatches { .. }
        ));
        assert_eq!(
            reference_signal(Some("012345678901"), Some(&typed("99887766"))),
            Signal::ReferenceDiffers {
                read: "012345678901".into(),
                given: "99887766".into()
            }
        );
    }

    #[test]
    fn editors_are_named_in_metadata_whatever_their_case_and_version() {
        let names = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            editing_software(&names(&["iText 7.1.16", "Adobe Photoshop 25.0 (Windows)"])),
            Some("Adobe Photoshop 25.0 (Windows)")
        );
        assert_eq!(editing_software(&names(&["Canva"])), Some("Canva"));
        assert_eq!(
            editing_software(&names(&["JasperReports Library version 6.20.0"])),
            None
        );
        assert_eq!(editing_software(&names(&["Android"])), None);
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
    fn hashes_within_the_distance_share_a_band() {
        let zero = PictureHash([0; 32]);
        assert_eq!(zero.distance(&zero), 0);
        assert_eq!(zero.distance(&PictureHash([0xFF; 32])), 256);
        // The worst case for the bands: the differing bits spread one per band.
        let mut spread = [0u8; 32];
        for band in 0..15 {
            spread[band * 2] = 0x80;
        }
        let spread = PictureHash(spread);
        assert_eq!(zero.distance(&spread), NEAR_REUSE_DISTANCE);
        let shared = zero
            .bands()
            .iter()
            .zip(spread.bands())
            .filter(|(a, b)| **a == *b)
            .count();
        assert_eq!(shared, 1);
        assert_eq!(PictureHash::from_hex(&spread.to_hex()), Some(spread));
        assert_eq!(PictureHash::from_hex("zz"), None);
    }
}
