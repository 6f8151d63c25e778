//! Every text the server shows people, in Spanish (the product's language) and English, and the
//! formats of amounts and dates.
//!
//! The words live in one catalogue, `locales/es.ftl` and `locales/en.ftl` (Fluent), keyed by the
//! stable `code` the API returns: an error's code (`raffle_not_found`), `field-<code>` for a
//! field's error (`field-invalid_email`), `receipt-…`, `mail-…` and `country-…` for what receipts
//! and e-mails say. A [`Message`] names a key and its parameters; the domain's errors become one
//! through `From` ([`FieldError`](rifa_domain::FieldError) and the others), so the domain names
//! what went wrong and never words it. Both files are compiled in; a key or variable a file lacks
//! is caught by this crate's tests, and at run time renders as the Spanish text, or the key,
//! never a panic.

mod catalogue;
pub mod format;
mod messages;

use std::borrow::Cow;

pub use catalogue::TextError;
pub use messages::{draw_finding, draw_step};
pub use rifa_domain::Lang;

/// A text of the catalogue with its parameters, worded only when rendered in a language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    key: Cow<'static, str>,
    args: Vec<(&'static str, Arg)>,
}

/// A parameter's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// Shown as given (already formatted: an amount, a list, a name).
    Text(String),
    /// A count the text may choose its words by (`1 segundo`, `2 segundos`).
    Count(u64),
}

impl Message {
    #[must_use]
    pub fn new(key: impl Into<Cow<'static, str>>) -> Self {
        Self {
            key: key.into(),
            args: Vec::new(),
        }
    }

    /// Adds a parameter shown as given.
    #[must_use]
    pub fn text(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.args.push((name, Arg::Text(value.into())));
        self
    }

    /// Adds a count the text may choose its plural by.
    #[must_use]
    pub fn count(mut self, name: &'static str, value: impl Into<u64>) -> Self {
        self.args.push((name, Arg::Count(value.into())));
        self
    }

    #[must_use]
    pub fn key(&self) -> &str {
        &self.key
    }

    #[must_use]
    pub fn args(&self) -> &[(&'static str, Arg)] {
        &self.args
    }

    /// The text in `lang`. A key or parameter the catalogue lacks (which the tests rule out) is
    /// logged and rendered as well as possible: the Spanish text, else the key itself.
    #[must_use]
    pub fn render(&self, lang: Lang) -> String {
        catalogue::render(self, lang)
    }

    /// The text in `lang`, or why it cannot be rendered exactly.
    ///
    /// # Errors
    /// The key is missing in `lang`, or the text refers to a parameter not given.
    pub fn try_render(&self, lang: Lang) -> Result<String, TextError> {
        catalogue::try_render(self, lang)
    }
}

/// The text of a key without parameters, in `lang`.
#[must_use]
pub fn text(key: &'static str, lang: Lang) -> String {
    Message::new(key).render(lang)
}

/// Whether the catalogue has `key` (for texts by a stored value, such as a country's slug).
#[must_use]
pub fn has(key: &str) -> bool {
    catalogue::has(key)
}

/// Every key of the Spanish catalogue (the English one has the same, as this crate's tests
/// check): for the tests of the crates that return codes.
#[must_use]
pub fn keys() -> Vec<&'static str> {
    catalogue::keys()
}

#[cfg(test)]
mod tests;
