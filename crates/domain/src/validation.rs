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
    /// A buyer's name with a link, markup or characters no name has.
    NameNotPlain,
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
    /// A password an estimator guesses too easily; the estimator's own words, in English.
    WeakPassword {
        warning: Option<String>,
        suggestions: Vec<String>,
    },
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
            (E::NameNotPlain, Lang::Es) => {
                "El nombre solo puede tener letras, números, espacios y . , ' -, sin enlaces ni etiquetas"
                    .into()
            }
            (E::NameNotPlain, Lang::En) => {
                "The name may only hold letters, digits, spaces and . , ' -, with no links or markup"
                    .into()
            }
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
            (E::WeakPassword { .. }, Lang::Es) => {
                "Contraseña demasiado fácil de adivinar: usa una frase larga de palabras poco \
                 comunes, sin nombres, fechas, repeticiones ni secuencias de teclado"
                    .into()
            }
            (
                E::WeakPassword {
                    warning,
                    suggestions,
                },
                Lang::En,
            ) => {
                let reasons: Vec<&str> = warning
                    .iter()
                    .chain(suggestions)
                    .map(String::as_str)
                    .collect();
                if reasons.is_empty() {
                    "Password too easy to guess; use a longer phrase of uncommon words".into()
                } else {
                    format!("Password too easy to guess: {}", reasons.join(" "))
                }
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

/// What a text field may hold. Every text field is one or the other, so a line break can only
/// reach a field that is shown as a block (a description, notes), never a name, a title or a
/// header value (see `docs/decisions/0007-input-hardening.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// Names, titles, hosts, keys: no control character at all, tabs and line breaks included.
    SingleLine,
    /// Descriptions and notes: line breaks and tabs allowed, other control characters not.
    MultiLine,
}

impl TextKind {
    /// Whether `c` may appear in a field of this kind.
    #[must_use]
    pub fn allows(self, c: char) -> bool {
        if disguises_text(c) {
            return false;
        }
        match self {
            Self::SingleLine => !c.is_control(),
            Self::MultiLine => !c.is_control() || matches!(c, '\n' | '\r' | '\t'),
        }
    }

    fn allows_all(self, text: &str) -> bool {
        text.chars().all(|c| self.allows(c))
    }
}

/// Characters that make text read other than it is: Unicode line and paragraph separators
/// (line breaks a single-line check would miss) and the bidirectional overrides and isolates
/// that reorder what is displayed ("Trojan Source").
fn disguises_text(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether `text` holds anything a single-line field refuses (control characters, line breaks
/// included).
#[must_use]
pub fn has_control_chars(text: &str) -> bool {
    !TextKind::SingleLine.allows_all(text)
}

/// Trims an optional text (blank is allowed) and bounds its length in characters.
///
/// # Errors
/// `InvalidCharacters` for characters `kind` refuses, `TooLong` past `max`.
pub fn free_text(raw: &str, kind: TextKind, max: usize) -> Result<String, FieldError> {
    let trimmed = raw.trim();
    if !kind.allows_all(trimmed) {
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
/// `Required` when blank, `InvalidCharacters` for characters `kind` refuses, `TooShort`/`TooLong`
/// outside the bounds.
pub fn required_text(
    raw: &str,
    kind: TextKind,
    min: usize,
    max: usize,
) -> Result<String, FieldError> {
    let trimmed = free_text(raw, kind, usize::MAX)?;
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
    Ok(trimmed)
}

/// A URL a browser can load without surprise: an absolute `http:`/`https:` URL with a host, or a
/// path on this site (one leading `/`). Parsed with a real URL parser, so what is stored is what
/// a browser would load; backslashes (which browsers read as `/`, turning `/\evil.example` into
/// another host) and quotes (which break out of HTML attributes and CSS `url()`) are refused
/// outright.
///
/// # Errors
/// `InvalidCharacters` for control characters, `TooLong` past `max`, `InvalidUrl` for anything
/// else (`javascript:`, `data:`, `//host`, relative paths, spaces, credentials).
pub fn web_url(raw: &str, max: usize) -> Result<String, FieldError> {
    let text = free_text(raw, TextKind::SingleLine, max)?;
    if text.is_empty()
        || text
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '\\' | '"' | '\'' | '`' | '<' | '>'))
    {
        return Err(FieldError::InvalidUrl);
    }
    if text.starts_with('/') {
        return site_path(&text);
    }
    // The parser forgives `https:host` (no slashes); a stored value must read as what it is.
    let lower = text.to_ascii_lowercase();
    if !(lower.starts_with("https://") || lower.starts_with("http://")) {
        return Err(FieldError::InvalidUrl);
    }
    let url = url::Url::parse(&text).map_err(|_| FieldError::InvalidUrl)?;
    let plain_web = matches!(url.scheme(), "http" | "https")
        && url.host_str().is_some_and(|h| !h.is_empty())
        && url.username().is_empty()
        && url.password().is_none();
    if plain_web {
        Ok(text)
    } else {
        Err(FieldError::InvalidUrl)
    }
}

/// A same-site path: resolved against a placeholder origin it must stay on that origin, which
/// refuses `//host/…` and anything a parser would read as another site.
fn site_path(text: &str) -> Result<String, FieldError> {
    const PLACEHOLDER: &str = "https://site.invalid/";
    if text.starts_with("//") {
        return Err(FieldError::InvalidUrl);
    }
    let base = url::Url::parse(PLACEHOLDER).map_err(|_| FieldError::InvalidUrl)?;
    let resolved = base.join(text).map_err(|_| FieldError::InvalidUrl)?;
    if resolved.origin() == base.origin() {
        Ok(text.to_owned())
    } else {
        Err(FieldError::InvalidUrl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_text_trims_and_counts_characters_not_bytes() {
        use TextKind::{MultiLine, SingleLine};
        assert_eq!(
            required_text("  Ñu  ", SingleLine, 2, 10),
            Ok("Ñu".to_owned())
        );
        assert_eq!(
            required_text("   ", SingleLine, 1, 10),
            Err(FieldError::Required)
        );
        assert_eq!(
            required_text("a", SingleLine, 2, 10),
            Err(FieldError::TooShort { min: 2 })
        );
        assert_eq!(
            required_text("ááá", SingleLine, 1, 2),
            Err(FieldError::TooLong { max: 2 })
        );
        assert_eq!(
            required_text("Ana\0", SingleLine, 1, 10),
            Err(FieldError::InvalidCharacters)
        );
        assert_eq!(
            free_text("línea 1\nlínea 2 ", MultiLine, 50),
            Ok("línea 1\nlínea 2".to_owned())
        );
        assert_eq!(
            free_text("\u{7}", MultiLine, 50),
            Err(FieldError::InvalidCharacters)
        );
        assert_eq!(free_text("", MultiLine, 50), Ok(String::new()));
    }

    #[test]
    fn single_line_fields_refuse_line_breaks_tabs_and_disguising_characters() {
        for bad in [
            "Ana\r\nBcc: x@y.z",
            "Ana\nPérez",
            "Ana\rPérez",
            "Ana\tPérez",
            "Ana\u{2028}Pérez",
            "Ana\u{202E}zereP",
            "Ana\u{85}Pérez",
        ] {
            assert_eq!(
                required_text(bad, TextKind::SingleLine, 1, 100),
                Err(FieldError::InvalidCharacters),
                "{bad:?}"
            );
            assert!(has_control_chars(bad), "{bad:?}");
        }
        assert!(!has_control_chars("Ana Pérez-Núñez"));
    }

    #[test]
    fn multi_line_fields_keep_line_breaks_and_tabs_but_nothing_else_invisible() {
        assert_eq!(
            free_text("uno\r\ndos\n\ttres", TextKind::MultiLine, 100),
            Ok("uno\r\ndos\n\ttres".to_owned())
        );
        for bad in ["uno\0dos", "uno\u{1b}[31mdos", "uno\u{202E}dos"] {
            assert_eq!(
                free_text(bad, TextKind::MultiLine, 100),
                Err(FieldError::InvalidCharacters),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn web_urls_are_http_or_site_paths() {
        for good in [
            "https://x.com/a.jpg",
            "http://x.io",
            "/images/a.png",
            "https://cdn.example.com/a%20b.png?v=2#top",
            "/uploads/a.png?size=2",
        ] {
            assert_eq!(web_url(good, 200), Ok(good.to_owned()), "{good}");
        }
        for bad in [
            "javascript:alert(1)",
            "data:image/png;base64,AA",
            "//evil.com/x",
            "/\\evil.example/x.png",
            "\\\\evil.example/x.png",
            "https:\\\\evil.example/x.png",
            "https://x.com/a.png\"onerror=\"alert(1)",
            "https://x.com/a'.png",
            "https://x.com/a<b>.png",
            "https://user:pass@x.com/a.png",
            "a b",
            "images/a.png",
            "https://",
            "https:x.com",
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
