//! The payment reference a buyer types with a purchase (issue 16): the bank's number for their
//! transfer. A reference pays for one purchase: the same one used twice with the same method is
//! refused, so references are compared by a key that ignores how they were typed.

use crate::validation::FieldError;

/// The longest reference accepted, in characters.
pub const MAX_REFERENCE_CHARS: usize = 40;

/// A reference as the buyer typed it (trimmed), with its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentReference {
    typed: String,
    key: String,
}

/// A reference's key: its letters (upper case) and digits, so `bac-a1 b2` and `BACA1B2` are one
/// reference. Leading zeros count: banks print fixed widths.
#[must_use]
pub fn reference_key(raw: &str) -> String {
    raw.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

impl PaymentReference {
    /// A blank reference is none; otherwise letters, digits, spaces and `- . / # _` only, up to
    /// [`MAX_REFERENCE_CHARS`], with at least one letter or digit.
    ///
    /// # Errors
    /// `InvalidCharacters` or `TooLong`.
    pub fn parse(raw: &str) -> Result<Option<Self>, FieldError> {
        let typed = raw.trim();
        if typed.is_empty() {
            return Ok(None);
        }
        if typed.chars().count() > MAX_REFERENCE_CHARS {
            return Err(FieldError::TooLong {
                max: MAX_REFERENCE_CHARS,
            });
        }
        let plain = typed
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '.' | '/' | '#' | '_'));
        let key = reference_key(typed);
        if !plain || key.is_empty() {
            return Err(FieldError::InvalidCharacters);
        }
        Ok(Some(Self {
            typed: typed.to_owned(),
            key,
        }))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.typed
    }

    #[must_use]
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Whether a reference printed on a proof is this one: the same key, or one ending with it
    /// (buyers often type only a long reference's last digits; four at least).
    #[must_use]
    pub fn matches_printed(&self, printed: &str) -> bool {
        let printed = reference_key(printed);
        printed == self.key || (self.key.len() >= 4 && printed.ends_with(&self.key))
    }
}

/// What a payment method asks of the reference, set by the admin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReferencePolicy {
    pub required: bool,
    /// Letters and digits at least (0: any length).
    pub min_length: u8,
}

impl ReferencePolicy {
    /// The longest minimum an admin may set.
    pub const MAX_MIN_LENGTH: u8 = 30;

    /// # Errors
    /// `OutOfRange` when the minimum is above [`Self::MAX_MIN_LENGTH`].
    pub fn new(required: bool, min_length: u8) -> Result<Self, FieldError> {
        if min_length > Self::MAX_MIN_LENGTH {
            return Err(FieldError::OutOfRange {
                min: "0".into(),
                max: Self::MAX_MIN_LENGTH.to_string(),
            });
        }
        Ok(Self {
            required,
            min_length,
        })
    }

    /// Whether a purchase's reference meets the policy.
    ///
    /// # Errors
    /// `Required` when the method asks for one and none was typed; `TooShort` when it has fewer
    /// letters and digits than the minimum.
    pub fn check(self, reference: Option<&PaymentReference>) -> Result<(), FieldError> {
        match reference {
            None if self.required => Err(FieldError::Required),
            Some(reference) if reference.key.len() < usize::from(self.min_length) => {
                Err(FieldError::TooShort {
                    min: usize::from(self.min_length),
                })
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(raw: &str) -> PaymentReference {
        PaymentReference::parse(raw).unwrap().unwrap()
    }

    #[test]
    fn a_reference_is_keyed_by_its_letters_and_digits() {
        assert_eq!(typed(" bac-a1 b2 ").as_str(), "bac-a1 b2");
        assert_eq!(typed(" bac-a1 b2 ").key(), "BACA1B2");
        assert_eq!(typed("0046").key(), "0046", "leading zeros are kept");
        assert_eq!(PaymentReference::parse("   "), Ok(None));
        assert_eq!(
            PaymentReference::parse("--"),
            Err(FieldError::InvalidCharacters)
        );
        assert_eq!(
            PaymentReference::parse("12<script>"),
            Err(FieldError::InvalidCharacters)
        );
        assert_eq!(
            PaymentReference::parse(&"1".repeat(41)),
            Err(FieldError::TooLong { max: 40 })
        );
    }

    #[test]
    fn a_printed_reference_matches_the_typed_one_or_ends_with_it() {
        assert!(typed("5678901").matches_printed("0123-45678901"));
        assert!(typed("BACA1B2").matches_printed("bac a1b2"));
        assert!(
            !typed("901").matches_printed("012345678901"),
            "too short to tell"
        );
        assert!(!typed("99887766").matches_printed("012345678901"));
    }

    #[test]
    fn a_method_may_require_a_reference_of_some_length() {
        let policy = ReferencePolicy::new(true, 6).unwrap();
        assert_eq!(policy.check(None), Err(FieldError::Required));
        assert_eq!(
            policy.check(Some(&typed("12-34"))),
            Err(FieldError::TooShort { min: 6 })
        );
        assert_eq!(policy.check(Some(&typed("123-456"))), Ok(()));
        assert_eq!(ReferencePolicy::default().check(None), Ok(()));
        assert!(ReferencePolicy::new(false, 31).is_err());
    }
}
