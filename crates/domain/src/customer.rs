//! The buyer's details on a purchase form (SPEC §5), parsed once.

use crate::validation::{self, FieldError, FieldErrors};

/// The countries the purchase form offers.
pub const COUNTRIES: [&str; 8] = [
    "venezuela",
    "colombia",
    "mexico",
    "argentina",
    "peru",
    "ecuador",
    "estados-unidos",
    "other",
];

/// An e-mail address, trimmed and lower-cased (the verification lookup compares it that way).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

impl Email {
    /// A deliberately plain structural check: one `@`, a non-empty local part, a dotted domain
    /// without spaces. Deliverability is the mail server's business.
    ///
    /// # Errors
    /// `InvalidEmail`.
    pub fn parse(raw: &str) -> Result<Self, FieldError> {
        let email = raw.trim().to_lowercase();
        let valid = email.len() <= 254
            && !email.chars().any(|c| c.is_whitespace() || c.is_control())
            && email.split_once('@').is_some_and(|(local, domain)| {
                !local.is_empty()
                    && local.len() <= 64
                    && !domain.contains('@')
                    && domain.split('.').count() >= 2
                    && domain.split('.').all(|label| {
                        !label.is_empty() && !label.starts_with('-') && !label.ends_with('-')
                    })
            });
        if valid {
            Ok(Self(email))
        } else {
            Err(FieldError::InvalidEmail)
        }
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A phone number as typed (trimmed), with its digits kept apart for lookups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone {
    display: String,
    digits: String,
}

impl Phone {
    /// # Errors
    /// `PhoneTooShort` under 10 digits; `TooLong` past 15 digits (E.164) or 30 characters;
    /// `NotANumber` for letters.
    pub fn parse(raw: &str) -> Result<Self, FieldError> {
        let display = raw.trim();
        if display.is_empty() {
            return Err(FieldError::Required);
        }
        if !display
            .chars()
            .all(|c| c.is_ascii_digit() || " +-().".contains(c))
        {
            return Err(FieldError::NotANumber);
        }
        let digits: String = display.chars().filter(char::is_ascii_digit).collect();
        if digits.len() < 10 {
            return Err(FieldError::PhoneTooShort);
        }
        if digits.len() > 15 || display.chars().count() > 30 {
            return Err(FieldError::TooLong { max: 15 });
        }
        Ok(Self {
            display: display.to_owned(),
            digits,
        })
    }

    #[must_use]
    pub fn display(&self) -> &str {
        &self.display
    }

    #[must_use]
    pub fn digits(&self) -> &str {
        &self.digits
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Customer {
    pub name: String,
    /// National ID or passport number.
    pub id_document: String,
    pub email: Email,
    pub phone: Phone,
    pub country: String,
}

/// The form's raw text, as it arrives.
#[derive(Debug, Clone, Default)]
pub struct CustomerInput {
    pub name: Option<String>,
    pub id_document: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub country: Option<String>,
}

impl Customer {
    /// # Errors
    /// One entry per bad field, with the spec's messages.
    pub fn parse(input: &CustomerInput, errors: &mut FieldErrors) -> Option<Self> {
        let name = errors.check(
            "customerName",
            validation::required_text(input.name.as_deref().unwrap_or(""), 2, 120).map_err(|e| {
                match e {
                    FieldError::Required | FieldError::TooShort { .. } => FieldError::NameTooShort,
                    other => other,
                }
            }),
        );
        let id_document = errors.check(
            "customerId",
            validation::required_text(input.id_document.as_deref().unwrap_or(""), 5, 30),
        );
        let email = errors.check(
            "customerEmail",
            Email::parse(input.email.as_deref().unwrap_or("")),
        );
        let phone = errors.check(
            "customerPhone",
            Phone::parse(input.phone.as_deref().unwrap_or("")),
        );
        let country = errors.check(
            "customerCountry",
            parse_country(input.country.as_deref().unwrap_or("")),
        );
        Some(Self {
            name: name?,
            id_document: id_document?,
            email: email?,
            phone: phone?,
            country: country?,
        })
    }
}

fn parse_country(raw: &str) -> Result<String, FieldError> {
    let country = raw.trim().to_lowercase();
    if country.is_empty() {
        Err(FieldError::Required)
    } else if COUNTRIES.contains(&country.as_str()) {
        Ok(country)
    } else {
        Err(FieldError::UnknownOption {
            allowed: COUNTRIES.to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_trimmed_lowercased_and_structurally_checked() {
        assert_eq!(
            Email::parse("  Ana.Perez@Gmail.COM ").map(|e| e.as_str().to_owned()),
            Ok("ana.perez@gmail.com".into())
        );
        for bad in [
            "",
            "ana",
            "ana@",
            "@gmail.com",
            "ana@gmail",
            "ana@@gmail.com",
            "a na@gmail.com",
            "ana@-x.com",
            "ana@x..com",
        ] {
            assert_eq!(Email::parse(bad), Err(FieldError::InvalidEmail), "{bad}");
        }
    }

    #[test]
    fn phones_need_ten_digits_and_keep_their_digits_for_lookups() {
        let phone = Phone::parse(" +58 (412) 555-4567 ").unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(phone.display(), "+58 (412) 555-4567");
        assert_eq!(phone.digits(), "584125554567");
        assert_eq!(Phone::parse("412 555 45"), Err(FieldError::PhoneTooShort));
        assert_eq!(Phone::parse("call me"), Err(FieldError::NotANumber));
        assert_eq!(Phone::parse(""), Err(FieldError::Required));
        assert!(Phone::parse("1234567890123456").is_err());
    }

    #[test]
    fn every_customer_field_reports_its_own_message() {
        let mut errors = FieldErrors::new();
        let input = CustomerInput {
            name: Some("A".into()),
            id_document: Some("123".into()),
            email: Some("nope".into()),
            phone: Some("123".into()),
            country: Some("narnia".into()),
        };
        assert!(Customer::parse(&input, &mut errors).is_none());
        let got: Vec<_> = errors.iter().map(|(f, e)| (*f, e.clone())).collect();
        assert_eq!(
            got,
            vec![
                ("customerName", FieldError::NameTooShort),
                ("customerId", FieldError::TooShort { min: 5 }),
                ("customerEmail", FieldError::InvalidEmail),
                ("customerPhone", FieldError::PhoneTooShort),
                (
                    "customerCountry",
                    FieldError::UnknownOption {
                        allowed: COUNTRIES.to_vec()
                    }
                ),
            ]
        );
    }
}

/// A name as searches compare it: lower-case, without accents (`"Pérez"` and `"PEREZ"` both
/// become `"perez"`), so operators find a buyer however they type the name.
#[must_use]
pub fn fold_for_search(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    text.nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .collect::<String>()
        .to_lowercase()
}

#[cfg(test)]
mod fold_tests {
    use super::fold_for_search;

    #[test]
    fn folding_ignores_case_and_accents() {
        assert_eq!(
            fold_for_search("María José PÉREZ Ñuñez"),
            "maria jose perez nunez"
        );
        assert_eq!(fold_for_search("perez"), fold_for_search("Pérez"));
    }
}
