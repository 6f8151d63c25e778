//! Ticket verification: a buyer looks up their tickets by e-mail or phone.
//!
//! The lookup must not turn the site into a directory of buyers: the answer shows in full only
//! what the asker typed; the rest is masked (see [`mask_email`], [`mask_phone`], [`mask_name`]).

use crate::customer::{Email, Phone};
use crate::validation::FieldError;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LookupKey {
    Email(Email),
    /// Digits only: `+58 412-555 4567` and `584125554567` find the same purchases.
    Phone(String),
}

impl LookupKey {
    /// Takes the request's `email` or `phone` (e-mail first when both are sent).
    ///
    /// # Errors
    /// The field at fault with `LookupValueRequired` when both are blank, or with
    /// `InvalidEmail` / `PhoneTooShort` when the value cannot match any purchase.
    pub fn parse(
        email: Option<&str>,
        phone: Option<&str>,
    ) -> Result<Self, (&'static str, FieldError)> {
        fn present(v: Option<&str>) -> Option<&str> {
            v.map(str::trim).filter(|v| !v.is_empty())
        }
        if let Some(email) = present(email) {
            return Email::parse(email)
                .map(Self::Email)
                .map_err(|e| ("email", e));
        }
        if let Some(phone) = present(phone) {
            return Phone::parse(phone)
                .map(|p| Self::Phone(p.digits().to_owned()))
                .map_err(|e| ("phone", e));
        }
        Err(("email", FieldError::LookupValueRequired))
    }
}

/// Why a verification found nothing to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LookupMiss {
    NoPurchases,
    NoneInActiveRaffles,
}

impl LookupMiss {
    /// The stable name of this miss, the API's `code` and the key of its text.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Self::NoPurchases => "no_tickets_found",
            Self::NoneInActiveRaffles => "no_active_tickets",
        }
    }
}

/// `juan.perez@gmail.com` → `j***@gmail.com`.
#[must_use]
pub fn mask_email(email: &str) -> String {
    match email.split_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}***@{domain}")
        }
        None => "***".to_owned(),
    }
}

/// `+58 412 555 4567` → `•••• ••45 67`: only the last four digits survive.
#[must_use]
pub fn mask_phone(phone: &str) -> String {
    let digits: Vec<char> = phone.chars().filter(char::is_ascii_digit).collect();
    let tail: String = digits.iter().skip(digits.len().saturating_sub(4)).collect();
    let (a, b) = tail.split_at(tail.len().min(2));
    format!("•••• ••{a} {b}")
}

/// `María José González` → `María G.`: enough for a buyer to recognise their purchase.
#[must_use]
pub fn mask_name(name: &str) -> String {
    let mut words = name.split_whitespace();
    let first = words.next().unwrap_or("");
    match words.last().and_then(|w| w.chars().next()) {
        Some(initial) => format!("{first} {initial}."),
        None => first.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_keep_only_a_hint() {
        assert_eq!(mask_email("juan.perez@gmail.com"), "j***@gmail.com");
        assert_eq!(mask_phone("+58 412 555 4567"), "•••• ••45 67");
        assert_eq!(mask_phone("12"), "•••• ••12 ");
        assert_eq!(mask_name("María José González"), "María G.");
        assert_eq!(mask_name("Cher"), "Cher");
    }

    #[test]
    fn the_lookup_takes_email_first_and_normalises_both() {
        let by_email = LookupKey::parse(Some("  Ana@Mail.COM "), Some("04125554567"));
        assert!(matches!(by_email, Ok(LookupKey::Email(e)) if e.as_str() == "ana@mail.com"));
        assert_eq!(
            LookupKey::parse(Some("nope"), None),
            Err(("email", FieldError::InvalidEmail))
        );
        assert_eq!(
            LookupKey::parse(None, Some("123")),
            Err(("phone", FieldError::PhoneTooShort))
        );
        let by_phone = LookupKey::parse(Some("  "), Some("+58 (412) 555-4567"));
        assert_eq!(by_phone, Ok(LookupKey::Phone("584125554567".into())));
        assert_eq!(
            LookupKey::parse(None, Some("   ")),
            Err(("email", FieldError::LookupValueRequired))
        );
        assert_eq!(
            LookupKey::parse(None, None),
            Err(("email", FieldError::LookupValueRequired))
        );
    }
}
