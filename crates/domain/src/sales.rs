//! The life of a raffle's sales: how long a purchase without a proof holds its numbers, when
//! sales close, and by which keys one person's purchases count against one allowance
//! (decision 0016).

use chrono::{DateTime, Duration, Utc};

use crate::customer::Customer;
use crate::validation::FieldError;

pub const DEFAULT_HOLD_MINUTES: u32 = 30;
/// A week: the longest an operator may let a purchase hold numbers without a proof.
pub const MAX_HOLD_MINUTES: u32 = 10_080;
/// A month before the draw.
pub const MAX_CLOSE_HOURS_BEFORE_DRAW: u32 = 720;

/// A raffle's sales terms, as the operator set them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SalesTerms {
    hold_minutes: u32,
    close_hours_before_draw: u32,
}

impl Default for SalesTerms {
    fn default() -> Self {
        Self {
            hold_minutes: DEFAULT_HOLD_MINUTES,
            close_hours_before_draw: 0,
        }
    }
}

impl SalesTerms {
    /// # Errors
    /// `OutOfRange` for a hold outside 1..=10,080 minutes.
    pub fn hold_minutes_from(raw: Option<i64>) -> Result<u32, FieldError> {
        in_range(raw, DEFAULT_HOLD_MINUTES, 1, MAX_HOLD_MINUTES)
    }

    /// # Errors
    /// `OutOfRange` outside 0..=720 hours.
    pub fn close_hours_from(raw: Option<i64>) -> Result<u32, FieldError> {
        in_range(raw, 0, 0, MAX_CLOSE_HOURS_BEFORE_DRAW)
    }

    /// Terms read back from storage, where they were validated on the way in.
    #[must_use]
    pub fn stored(hold_minutes: u32, close_hours_before_draw: u32) -> Self {
        Self {
            hold_minutes,
            close_hours_before_draw,
        }
    }

    #[must_use]
    pub fn hold_minutes(self) -> u32 {
        self.hold_minutes
    }

    #[must_use]
    pub fn close_hours_before_draw(self) -> u32 {
        self.close_hours_before_draw
    }

    /// Until when a purchase made at `from` holds its numbers without a proof.
    #[must_use]
    pub fn hold_deadline(self, from: DateTime<Utc>) -> DateTime<Utc> {
        from + Duration::minutes(i64::from(self.hold_minutes))
    }

    /// When sales close: the draw date less the hours before it, or the end date when there is
    /// no draw date; `None` when neither is set (sales close only by status).
    #[must_use]
    pub fn closes_at(
        self,
        draw_date: Option<DateTime<Utc>>,
        end_date: Option<DateTime<Utc>>,
    ) -> Option<DateTime<Utc>> {
        match draw_date {
            Some(draw) => Some(draw - Duration::hours(i64::from(self.close_hours_before_draw))),
            None => end_date,
        }
    }
}

fn in_range(raw: Option<i64>, default: u32, min: u32, max: u32) -> Result<u32, FieldError> {
    let Some(raw) = raw else {
        return Ok(default);
    };
    u32::try_from(raw)
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| FieldError::OutOfRange {
            min: min.to_string(),
            max: max.to_string(),
        })
}

/// The keys by which one person's purchases of a raffle are counted against one allowance: the
/// ID document (letters and digits, upper case: `v-12.345.678` is `V12345678`), the e-mail
/// (already lower case) and the phone's last ten digits (so `0414-123-4567` and
/// `+58 414 1234567` are one phone). A purchase counts against all three.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuyerKeys {
    document: String,
    email: String,
    phone: String,
}

/// Digits of a phone that identify it whatever prefix was typed.
const PHONE_KEY_DIGITS: usize = 10;

impl BuyerKeys {
    #[must_use]
    pub fn of(customer: &Customer) -> Self {
        let digits = customer.phone.digits();
        let phone = &digits[digits.len().saturating_sub(PHONE_KEY_DIGITS)..];
        Self {
            document: customer
                .id_document
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .map(|c| c.to_ascii_uppercase())
                .collect(),
            email: customer.email.as_str().to_owned(),
            phone: phone.to_owned(),
        }
    }

    /// Keys read back from storage.
    #[must_use]
    pub fn stored(document: String, email: String, phone: String) -> Self {
        Self {
            document,
            email,
            phone,
        }
    }

    #[must_use]
    pub fn document(&self) -> &str {
        &self.document
    }

    #[must_use]
    pub fn email(&self) -> &str {
        &self.email
    }

    #[must_use]
    pub fn phone(&self) -> &str {
        &self.phone
    }

    /// The three keys as one namespace (`doc:…`, `email:…`, `phone:…`), for a single table.
    #[must_use]
    pub fn tagged(&self) -> [String; 3] {
        [
            format!("doc:{}", self.document),
            format!("email:{}", self.email),
            format!("phone:{}", self.phone),
        ]
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone as _;

    use super::*;
    use crate::customer::{Email, Phone};

    fn at(h: u32, m: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 24, h, m, 0)
            .single()
            .unwrap_or_default()
    }

    #[test]
    fn holds_last_the_raffles_minutes_and_sales_close_before_the_draw() {
        let terms = SalesTerms::stored(30, 2);
        assert_eq!(terms.hold_deadline(at(10, 0)), at(10, 30));
        assert_eq!(terms.closes_at(Some(at(20, 0)), None), Some(at(18, 0)));
        assert_eq!(terms.closes_at(None, Some(at(21, 0))), Some(at(21, 0)));
        assert_eq!(
            terms.closes_at(Some(at(20, 0)), Some(at(23, 0))),
            Some(at(18, 0))
        );
        assert_eq!(terms.closes_at(None, None), None);
    }

    #[test]
    fn the_operators_values_are_bounded_and_default_when_absent() {
        assert_eq!(SalesTerms::hold_minutes_from(None), Ok(30));
        assert_eq!(SalesTerms::hold_minutes_from(Some(10_080)), Ok(10_080));
        for bad in [0, -5, 10_081] {
            assert_eq!(
                SalesTerms::hold_minutes_from(Some(bad)),
                Err(FieldError::OutOfRange {
                    min: "1".into(),
                    max: "10080".into()
                })
            );
        }
        assert_eq!(SalesTerms::close_hours_from(None), Ok(0));
        assert!(SalesTerms::close_hours_from(Some(721)).is_err());
        assert!(SalesTerms::close_hours_from(Some(-1)).is_err());
    }

    #[test]
    fn one_person_is_known_by_a_normalised_document_email_and_phone() {
        let customer = |document: &str, phone: &str| Customer {
            name: "Ana".into(),
            id_document: document.into(),
            email: Email::parse("Ana@Correo.com").unwrap_or_else(|e| panic!("{e:?}")),
            phone: Phone::parse(phone).unwrap_or_else(|e| panic!("{e:?}")),
            country: "venezuela".into(),
        };
        let local = BuyerKeys::of(&customer("v-12.345.678", "0414-123-4567"));
        let international = BuyerKeys::of(&customer("V12345678", "+58 414 123 4567"));
        assert_eq!(local, international);
        assert_eq!(
            local.tagged(),
            ["doc:V12345678", "email:ana@correo.com", "phone:4141234567"]
        );
    }
}
