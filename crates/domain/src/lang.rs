//! The two languages of the product and the trait every user-facing message implements.

/// A language the product speaks. Spanish is the default everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Lang {
    #[default]
    Es,
    En,
}

impl Lang {
    /// Picks the language from an `Accept-Language` value: English only when the caller's first
    /// preference is English; anything else (missing, unknown, Spanish) falls back to Spanish.
    #[must_use]
    pub fn from_accept_language(header: Option<&str>) -> Self {
        let first = header.and_then(|h| h.split(',').next()).map(|tag| {
            tag.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        });
        match first.as_deref() {
            Some(tag) if tag == "en" || tag.starts_with("en-") => Self::En,
            _ => Self::Es,
        }
    }

    /// The language of a stored code; anything unknown is Spanish, the default.
    #[must_use]
    pub fn from_code(code: &str) -> Self {
        if code == "en" { Self::En } else { Self::Es }
    }

    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Self::Es => "es",
            Self::En => "en",
        }
    }
}

/// A message shown to a person, in either language.
pub trait Localized {
    fn localized(&self, lang: Lang) -> String;
}

/// "N boleto(s)" / "N ticket(s)", the plural form the spec's limit messages use.
pub(crate) fn tickets_word(count: u32, lang: Lang) -> String {
    match (lang, count) {
        (Lang::Es, 1) => "1 boleto".to_owned(),
        (Lang::Es, n) => format!("{n} boletos"),
        (Lang::En, 1) => "1 ticket".to_owned(),
        (Lang::En, n) => format!("{n} tickets"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_language_prefers_the_first_tag_and_defaults_to_spanish() {
        let cases = [
            (None, Lang::Es),
            (Some(""), Lang::Es),
            (Some("en"), Lang::En),
            (Some("en-US,en;q=0.9"), Lang::En),
            (Some("EN-gb"), Lang::En),
            (Some("es-VE,en;q=0.8"), Lang::Es),
            (Some("fr"), Lang::Es),
            (Some("eng"), Lang::Es),
        ];
        for (header, expected) in cases {
            assert_eq!(Lang::from_accept_language(header), expected, "{header:?}");
        }
    }
}
