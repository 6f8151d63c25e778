//! Per-field validation errors, collected so a form can show every problem at once.

use crate::lang::{Lang, Localized, tickets_word};

/// Why one field was refused. Each case renders the spec's Spanish text or its English twin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldError {
    Required,
    /// Control characters (NUL and the like): never meaningful in a form, and PostgreSQL text
    /// cannot even store NUL.
    InvalidCharacters,
    TooShort {
        min: usize,
    },
    TooLong {
        max: usize,
    },
    NameTooShort,
    InvalidEmail,
    PhoneTooShort,
    PaymentMethodRequired,
    PaymentMethodUnavailable,
    TermsNotAccepted,
    NotANumber,
    OutOfRange {
        min: String,
        max: String,
    },
    TooManyDecimals {
        max: u32,
    },
    UnknownOption {
        allowed: Vec<&'static str>,
    },
    InvalidDate,
    InvalidUrl,
    InvalidHsl,
    TicketsEmpty,
    TicketsBelowMinimum {
        min: u32,
    },
    TicketsAboveMaximum {
        max: u32,
    },
    TicketOutOfRange {
        number: i64,
        max: u32,
    },
    TicketRepeated {
        number: u32,
    },
    MinAboveMax,
    NotesRequiredToReject,
    LookupValueRequired,
    SameCurrency,
}

impl Localized for FieldError {
    fn localized(&self, lang: Lang) -> String {
        use FieldError as E;
        match (self, lang) {
            (E::Required, Lang::Es) => "Este campo es obligatorio".into(),
            (E::Required, Lang::En) => "This field is required".into(),
            (E::InvalidCharacters, Lang::Es) => "Contiene caracteres no permitidos".into(),
            (E::InvalidCharacters, Lang::En) => "Contains characters that are not allowed".into(),
            (E::TooShort { min }, Lang::Es) => format!("Debe tener al menos {min} caracteres"),
            (E::TooShort { min }, Lang::En) => format!("Must be at least {min} characters"),
            (E::TooLong { max }, Lang::Es) => format!("Debe tener como máximo {max} caracteres"),
            (E::TooLong { max }, Lang::En) => format!("Must be at most {max} characters"),
            (E::NameTooShort, Lang::Es) => "Nombre debe tener al menos 2 caracteres".into(),
            (E::NameTooShort, Lang::En) => "Name must be at least 2 characters".into(),
            (E::InvalidEmail, Lang::Es) => "Email inválido".into(),
            (E::InvalidEmail, Lang::En) => "Invalid email".into(),
            (E::PhoneTooShort, Lang::Es) => "El teléfono debe tener al menos 10 dígitos".into(),
            (E::PhoneTooShort, Lang::En) => "Phone number must have at least 10 digits".into(),
            (E::PaymentMethodRequired, Lang::Es) => "Método de pago requerido".into(),
            (E::PaymentMethodRequired, Lang::En) => "Payment method is required".into(),
            (E::PaymentMethodUnavailable, Lang::Es) => {
                "Este método de pago no está disponible".into()
            }
            (E::PaymentMethodUnavailable, Lang::En) => {
                "This payment method is not available".into()
            }
            (E::TermsNotAccepted, Lang::Es) => "Debes aceptar los términos".into(),
            (E::TermsNotAccepted, Lang::En) => "You must accept the terms".into(),
            (E::NotANumber, Lang::Es) => "Debe ser un número".into(),
            (E::NotANumber, Lang::En) => "Must be a number".into(),
            (E::OutOfRange { min, max }, Lang::Es) => format!("Debe estar entre {min} y {max}"),
            (E::OutOfRange { min, max }, Lang::En) => format!("Must be between {min} and {max}"),
            (E::TooManyDecimals { max }, Lang::Es) => format!("Como máximo {max} decimales"),
            (E::TooManyDecimals { max }, Lang::En) => format!("At most {max} decimal places"),
            (E::UnknownOption { allowed }, Lang::Es) => {
                format!("Valor no válido; opciones: {}", allowed.join(", "))
            }
            (E::UnknownOption { allowed }, Lang::En) => {
                format!("Invalid value; options: {}", allowed.join(", "))
            }
            (E::InvalidDate, Lang::Es) => "Fecha no válida".into(),
            (E::InvalidDate, Lang::En) => "Invalid date".into(),
            (E::InvalidUrl, Lang::Es) => "URL no válida".into(),
            (E::InvalidUrl, Lang::En) => "Invalid URL".into(),
            (E::InvalidHsl, Lang::Es) => {
                "Color no válido; usa el formato HSL \"240 9% 3.9%\"".into()
            }
            (E::InvalidHsl, Lang::En) => "Invalid colour; use the HSL form \"240 9% 3.9%\"".into(),
            (E::TicketsEmpty, Lang::Es) => "Debes seleccionar al menos 1 boleto".into(),
            (E::TicketsEmpty, Lang::En) => "You must select at least 1 ticket".into(),
            (E::TicketsBelowMinimum { min }, Lang::Es) => {
                format!("Compra Mínima: Debes seleccionar al menos {min} boleto(s).")
            }
            (E::TicketsBelowMinimum { min }, Lang::En) => format!(
                "Minimum purchase: you must select at least {}.",
                tickets_word(*min, Lang::En)
            ),
            (E::TicketsAboveMaximum { max }, Lang::Es) => format!(
                "Límite de Boletos: Solo puedes comprar máximo {max} boletos en esta compra."
            ),
            (E::TicketsAboveMaximum { max }, Lang::En) => format!(
                "Ticket limit: you can buy at most {} in this purchase.",
                tickets_word(*max, Lang::En)
            ),
            (E::TicketOutOfRange { number, max }, Lang::Es) => {
                format!("El boleto {number} no existe en este sorteo (1 a {max})")
            }
            (E::TicketOutOfRange { number, max }, Lang::En) => {
                format!("Ticket {number} does not exist in this raffle (1 to {max})")
            }
            (E::TicketRepeated { number }, Lang::Es) => {
                format!("El boleto {number} está repetido")
            }
            (E::TicketRepeated { number }, Lang::En) => {
                format!("Ticket {number} is listed twice")
            }
            (E::MinAboveMax, Lang::Es) => {
                "El mínimo por compra no puede superar el máximo por compra".into()
            }
            (E::MinAboveMax, Lang::En) => {
                "The minimum per purchase cannot exceed the maximum per purchase".into()
            }
            (E::NotesRequiredToReject, Lang::Es) => {
                "Debes indicar el motivo del rechazo en las notas".into()
            }
            (E::NotesRequiredToReject, Lang::En) => {
                "Write the reason for the rejection in the notes".into()
            }
            (E::LookupValueRequired, Lang::Es) => "Debes ingresar un valor para verificar".into(),
            (E::LookupValueRequired, Lang::En) => "Enter a value to verify".into(),
            (E::SameCurrency, Lang::Es) => {
                "Las monedas de origen y destino deben ser distintas".into()
            }
            (E::SameCurrency, Lang::En) => "The source and target currencies must differ".into(),
        }
    }
}

/// Every field error of one request, in the order the fields were checked.
/// Field names are the API's camelCase names so a form can place each message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldErrors(Vec<(&'static str, FieldError)>);

impl FieldErrors {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    #[must_use]
    pub fn single(field: &'static str, error: FieldError) -> Self {
        Self(vec![(field, error)])
    }

    pub fn add(&mut self, field: &'static str, error: FieldError) {
        self.0.push((field, error));
    }

    /// Records the error of a fallible parse and yields its value when it succeeded.
    pub fn check<T>(&mut self, field: &'static str, parsed: Result<T, FieldError>) -> Option<T> {
        match parsed {
            Ok(value) => Some(value),
            Err(error) => {
                self.add(field, error);
                None
            }
        }
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &(&'static str, FieldError)> {
        self.0.iter()
    }

    /// `Ok(())` when nothing was recorded, so callers can `?` out of a validation.
    ///
    /// # Errors
    /// The collected errors when at least one was recorded.
    pub fn into_result(self) -> Result<(), Self> {
        if self.0.is_empty() { Ok(()) } else { Err(self) }
    }
}

/// Whether `text` holds a control character other than line breaks and tabs.
#[must_use]
pub fn has_control_chars(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
}

/// Trims an optional text (blank is allowed) and bounds its length in characters.
///
/// # Errors
/// `InvalidCharacters` for control characters, `TooLong` past `max`.
pub fn free_text(raw: &str, max: usize) -> Result<String, FieldError> {
    let trimmed = raw.trim();
    if has_control_chars(trimmed) {
        return Err(FieldError::InvalidCharacters);
    }
    if trimmed.chars().count() > max {
        return Err(FieldError::TooLong { max });
    }
    Ok(trimmed.to_owned())
}

/// Trims a required text and bounds its length in characters (not bytes).
///
/// # Errors
/// `Required` when blank, `InvalidCharacters`, `TooShort`/`TooLong` outside the bounds.
pub fn required_text(raw: &str, min: usize, max: usize) -> Result<String, FieldError> {
    let trimmed = raw.trim();
    if has_control_chars(trimmed) {
        return Err(FieldError::InvalidCharacters);
    }
    let len = trimmed.chars().count();
    if len == 0 {
        return Err(FieldError::Required);
    }
    if len < min {
        return Err(FieldError::TooShort { min });
    }
    if len > max {
        return Err(FieldError::TooLong { max });
    }
    Ok(trimmed.to_owned())
}

/// A URL a browser can load: absolute http(s) or a path on this site.
///
/// # Errors
/// `InvalidUrl` for anything else (`javascript:`, `data:`, relative paths, spaces).
pub fn web_url(raw: &str, max: usize) -> Result<String, FieldError> {
    let url = raw.trim();
    if has_control_chars(url) {
        return Err(FieldError::InvalidCharacters);
    }
    if url.chars().count() > max {
        return Err(FieldError::TooLong { max });
    }
    let lower = url.to_ascii_lowercase();
    let has_host = |rest: &str| !rest.is_empty() && !rest.starts_with('/');
    let ok = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
        .map_or_else(|| url.starts_with('/') && !url.starts_with("//"), has_host);
    if ok && !url.chars().any(char::is_whitespace) {
        Ok(url.to_owned())
    } else {
        Err(FieldError::InvalidUrl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_text_trims_and_counts_characters_not_bytes() {
        assert_eq!(required_text("  Ñu  ", 2, 10), Ok("Ñu".to_owned()));
        assert_eq!(required_text("   ", 1, 10), Err(FieldError::Required));
        assert_eq!(
            required_text("a", 2, 10),
            Err(FieldError::TooShort { min: 2 })
        );
        assert_eq!(
            required_text("ááá", 1, 2),
            Err(FieldError::TooLong { max: 2 })
        );
        assert_eq!(
            required_text("Ana\0", 1, 10),
            Err(FieldError::InvalidCharacters)
        );
        assert_eq!(
            free_text("línea 1\nlínea 2 ", 50),
            Ok("línea 1\nlínea 2".to_owned())
        );
        assert_eq!(free_text("\u{7}", 50), Err(FieldError::InvalidCharacters));
        assert_eq!(free_text("", 50), Ok(String::new()));
    }

    #[test]
    fn web_urls_are_http_or_site_paths() {
        for good in ["https://x.com/a.jpg", "http://x.io", "/images/a.png"] {
            assert!(web_url(good, 200).is_ok(), "{good}");
        }
        for bad in [
            "javascript:alert(1)",
            "data:image/png;base64,AA",
            "//evil.com/x",
            "a b",
            "https://",
            "ftp://x",
        ] {
            assert_eq!(web_url(bad, 200), Err(FieldError::InvalidUrl), "{bad}");
        }
    }

    #[test]
    fn messages_match_the_spec_in_spanish_and_read_well_in_english() {
        let cases = [
            (
                FieldError::NameTooShort,
                "Nombre debe tener al menos 2 caracteres",
                "Name must be at least 2 characters",
            ),
            (FieldError::InvalidEmail, "Email inválido", "Invalid email"),
            (
                FieldError::PaymentMethodRequired,
                "Método de pago requerido",
                "Payment method is required",
            ),
            (
                FieldError::TermsNotAccepted,
                "Debes aceptar los términos",
                "You must accept the terms",
            ),
            (
                FieldError::LookupValueRequired,
                "Debes ingresar un valor para verificar",
                "Enter a value to verify",
            ),
            (
                FieldError::TicketsBelowMinimum { min: 2 },
                "Compra Mínima: Debes seleccionar al menos 2 boleto(s).",
                "Minimum purchase: you must select at least 2 tickets.",
            ),
            (
                FieldError::TicketsAboveMaximum { max: 1 },
                "Límite de Boletos: Solo puedes comprar máximo 1 boletos en esta compra.",
                "Ticket limit: you can buy at most 1 ticket in this purchase.",
            ),
        ];
        for (error, es, en) in cases {
            assert_eq!(error.localized(Lang::Es), es);
            assert_eq!(error.localized(Lang::En), en);
        }
    }
}
