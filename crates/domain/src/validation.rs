//! Per-field validation errors, collected so a form can show every problem at once.

/// Why one field was refused, with the values its message names (worded by `rifa-text`).
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
    /// A date (or time) not after `min` (`YYYY-MM-DD HH:MM`), which it must follow.
    DateBefore {
        min: String,
    },
    InvalidUrl,
    InvalidHsl,
    TicketsEmpty,
    TicketsBelowMinimum {
        min: u32,
    },
    TicketsAboveMaximum {
        max: u32,
    },
    /// One person would hold more than `max` tickets of the raffle across their purchases;
    /// they hold `used` already.
    PerPersonLimit {
        max: u32,
        used: u32,
    },
    TicketOutOfRange {
        number: i64,
        max: u32,
    },
    TicketRepeated {
        number: u32,
    },
    /// A purchase form naming numbers and asking for random ones at once.
    NumbersAndRandomCount,
    MinAboveMax,
    /// A password an estimator guesses too easily; the estimator's own words, in English.
    WeakPassword {
        warning: Option<String>,
        suggestions: Vec<String>,
    },
    NotesRequiredToReject,
    LookupValueRequired,
    SameCurrency,
    /// A password change naming a current password that is not the account's.
    WrongCurrentPassword,
    /// A new password equal to the one it replaces.
    SameAsCurrentPassword,
}

impl FieldError {
    /// The stable name of this refusal: its text in the catalogue is `field-<code>`.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Self::Required => "required",
            Self::InvalidCharacters => "invalid_characters",
            Self::TooShort { .. } => "too_short",
            Self::TooLong { .. } => "too_long",
            Self::NameTooShort => "name_too_short",
            Self::NameNotPlain => "name_not_plain",
            Self::InvalidEmail => "invalid_email",
            Self::PhoneTooShort => "phone_too_short",
            Self::PaymentMethodRequired => "payment_method_required",
            Self::PaymentMethodUnavailable => "payment_method_unavailable",
            Self::TermsNotAccepted => "terms_not_accepted",
            Self::NotANumber => "not_a_number",
            Self::OutOfRange { .. } => "out_of_range",
            Self::TooManyDecimals { .. } => "too_many_decimals",
            Self::UnknownOption { .. } => "unknown_option",
            Self::InvalidDate => "invalid_date",
            Self::DateBefore { .. } => "date_before",
            Self::InvalidUrl => "invalid_url",
            Self::InvalidHsl => "invalid_hsl",
            Self::TicketsEmpty => "tickets_empty",
            Self::TicketsBelowMinimum { .. } => "tickets_below_minimum",
            Self::TicketsAboveMaximum { .. } => "tickets_above_maximum",
            Self::PerPersonLimit { .. } => "per_person_limit",
            Self::TicketOutOfRange { .. } => "ticket_out_of_range",
            Self::TicketRepeated { .. } => "ticket_repeated",
            Self::NumbersAndRandomCount => "numbers_and_random_count",
            Self::MinAboveMax => "min_above_max",
            Self::WeakPassword { .. } => "weak_password",
            Self::NotesRequiredToReject => "notes_required_to_reject",
            Self::LookupValueRequired => "lookup_value_required",
            Self::SameCurrency => "same_currency",
            Self::WrongCurrentPassword => "wrong_current_password",
            Self::SameAsCurrentPassword => "same_as_current_password",
        }
    }
}

/// The name of a field with an error: the API's camelCase name, or a path into a list built
/// from one (`prizes[0].title`).
pub type FieldName = std::borrow::Cow<'static, str>;

/// Every field error of one request, in the order the fields were checked.
/// Field names are the API's camelCase names so a form can place each message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldErrors(Vec<(FieldName, FieldError)>);

impl FieldErrors {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    #[must_use]
    pub fn single(field: impl Into<FieldName>, error: FieldError) -> Self {
        Self(vec![(field.into(), error)])
    }

    pub fn add(&mut self, field: impl Into<FieldName>, error: FieldError) {
        self.0.push((field.into(), error));
    }

    /// Takes in the errors of one item of a list, each field named under `prefix`
    /// (`prizes[0]` + `title` = `prizes[0].title`).
    /// Adds another parse's errors, under their own names.
    pub fn merge(&mut self, other: Self) {
        self.0.extend(other.0);
    }

    pub fn nest(&mut self, prefix: &str, item: Self) {
        self.0.extend(
            item.0
                .into_iter()
                .map(|(field, error)| (format!("{prefix}.{field}").into(), error)),
        );
    }

    /// Records the error of a fallible parse and yields its value when it succeeded.
    pub fn check<T>(
        &mut self,
        field: impl Into<FieldName>,
        parsed: Result<T, FieldError>,
    ) -> Option<T> {
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

    pub fn iter(&self) -> impl Iterator<Item = &(FieldName, FieldError)> {
        self.0.iter()
    }

    /// Each field's name and error, in order: what a test or a log compares.
    #[must_use]
    pub fn named(&self) -> Vec<(&str, FieldError)> {
        self.0
            .iter()
            .map(|(field, error)| (field.as_ref(), error.clone()))
            .collect()
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
}
