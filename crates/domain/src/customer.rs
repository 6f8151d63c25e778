//! The buyer's details on a purchase form (SPEC §5), parsed once.

use crate::validation::{self, FieldError, FieldErrors, TextKind};

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
    /// A plain mailbox, `local@domain.tld`, and nothing a mail header or a `mailto:` link could
    /// read as more: no display name, no comment, no quoted local part, no `?query`, no second
    /// address. The syntax is the RFC 5322 parser's (`email_address`); on top of it the local part
    /// is restricted to letters, digits and `. _ + -`, which every real mailbox fits.
    /// Deliverability is the mail server's business.
    ///
    /// # Errors
    /// `InvalidEmail`.
    pub fn parse(raw: &str) -> Result<Self, FieldError> {
        let email = raw.trim().to_lowercase();
        let options = email_address::Options::default()
            .with_required_tld()
            .without_display_text()
            .without_domain_literal();
        let parsed = email_address::EmailAddress::parse_with_options(&email, options)
            .map_err(|_| FieldError::InvalidEmail)?;
        let plain_local = parsed
            .local_part()
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '+' | '-'));
        let plain_domain = parsed.domain().split('.').all(|label| {
            !label.is_empty() && label.chars().all(|c| c.is_alphanumeric() || c == '-')
        });
        if plain_local && plain_domain && parsed.as_str() == email {
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
            parse_customer_name(input.name.as_deref().unwrap_or("")),
        );
        let id_document = errors.check(
            "customerId",
            validation::required_text(
                input.id_document.as_deref().unwrap_or(""),
                TextKind::SingleLine,
                5,
                30,
            ),
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

/// The buyer's name, which the e-mails sent to any typed address greet: a person's name, not a
/// vehicle for a link or markup. Letters of any script (with their accents), digits, spaces and
/// `. , ' ’ -` only, so `<`, `>`, `:`, `/`, `@` and `&` never get in; and no word that reads as a
/// domain (`evil.com`, `bit.ly`: a dot followed by two letters or more), which mail clients
/// would turn into a link. Initials (`J.R.R. Tolkien`, `Ana M. Pérez`) pass.
///
/// # Errors
/// `NameTooShort` under 2 characters, `TooLong` past 120, `InvalidCharacters` for control
/// characters, `NameNotPlain` for anything else.
pub fn parse_customer_name(raw: &str) -> Result<String, FieldError> {
    let name =
        validation::required_text(raw, TextKind::SingleLine, 2, 120).map_err(|e| match e {
            FieldError::Required | FieldError::TooShort { .. } => FieldError::NameTooShort,
            other => other,
        })?;
    let plain_chars = name.chars().all(|c| {
        c.is_alphanumeric()
            || unicode_normalization::char::is_combining_mark(c)
            || matches!(c, ' ' | '.' | ',' | '\'' | '’' | '-')
    });
    if plain_chars && !name.split_whitespace().any(reads_as_domain) {
        Ok(name)
    } else {
        Err(FieldError::NameNotPlain)
    }
}

/// `evil.com`, `www.x.io`: a dot followed by two letters or more inside a word.
fn reads_as_domain(word: &str) -> bool {
    word.split('.')
        .skip(1)
        .any(|after_dot| after_dot.chars().filter(|c| c.is_alphabetic()).count() >= 2)
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
    fn an_email_is_one_plain_mailbox_and_nothing_more() {
        for good in [
            "ana.perez+rifa@gmail.com",
            "ana_perez-2@mail.example.co.ve",
            "josé@correo.es",
        ] {
            assert_eq!(
                Email::parse(good).map(|e| e.as_str().to_owned()),
                Ok(good.to_owned()),
                "{good}"
            );
        }
        for bad in [
            "ana@example.com?bcc=everyone@example.com",
            "ana?bcc=x@example.com",
            "ana@example.com&cc=x@example.com",
            "ana%40x@example.com",
            "Ana Pérez <ana@example.com>",
            "<ana@example.com>",
            "ana(comentario)@example.com",
            "(comentario)ana@example.com",
            "\"ana perez\"@example.com",
            "\"a@b\"@example.com",
            "ana@example.com,otro@example.com",
            "ana@example.com;otro@example.com",
            "ana@example.com otro@example.com",
            "ana@example.com\r\nbcc: x@y.z",
            "ana@[127.0.0.1]",
            "ana/x@example.com",
            "mailto:ana@example.com",
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
    fn a_customer_name_carries_no_link_and_no_markup() {
        for good in [
            "María José González",
            "J.R.R. Tolkien",
            "Ana M. Pérez",
            "O'Connor, Seán",
            "Jean-Luc Picard",
            "Nguyễn Văn An",
            "Cliente 3",
        ] {
            assert_eq!(parse_customer_name(good), Ok(good.to_owned()), "{good}");
        }
        for bad in [
            "Ana http://evil.example/x",
            "https://evil.example",
            "Visita www.evil.example",
            "Ana evil.com",
            "Gana en bit.ly",
            "Ana EVIL.COM/premio",
            "<b>Ana</b>",
            "Ana <script>",
            "Ana > Luis",
            "ana@example.com",
            "Ana\\Luis",
            "Ana & Luis",
        ] {
            assert_eq!(
                parse_customer_name(bad),
                Err(FieldError::NameNotPlain),
                "{bad}"
            );
        }
        assert_eq!(
            parse_customer_name("Ana\r\nBcc: x@y.z"),
            Err(FieldError::InvalidCharacters)
        );
        assert_eq!(parse_customer_name("A"), Err(FieldError::NameTooShort));
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
        let got: Vec<_> = errors
            .iter()
            .map(|(f, e)| (f.as_ref(), e.clone()))
            .collect();
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
