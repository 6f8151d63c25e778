//! The Fluent bundles, loaded once from the files compiled in.

use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use rifa_domain::Lang;
use unic_langid::LanguageIdentifier;

use crate::{Arg, Message};

pub(crate) const SPANISH: &str = include_str!("../locales/es.ftl");
pub(crate) const ENGLISH: &str = include_str!("../locales/en.ftl");

/// Why a text could not be rendered exactly as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    #[error("no text {key:?} in {lang}")]
    Missing { key: String, lang: &'static str },
    /// A parameter the text names was not given: `partial` shows it as `{$name}`.
    #[error("text {key:?} in {lang}: {detail}")]
    Unresolved {
        key: String,
        lang: &'static str,
        detail: String,
        partial: String,
    },
}

struct Catalogue {
    spanish: FluentBundle<FluentResource>,
    english: FluentBundle<FluentResource>,
}

static CATALOGUE: LazyLock<Catalogue> = LazyLock::new(|| {
    let mut problems = Vec::new();
    let spanish = bundle(Lang::Es, SPANISH, &mut problems);
    let english = bundle(Lang::En, ENGLISH, &mut problems);
    // A syntax error or a key twice; the tests allow none.
    for problem in &problems {
        tracing::error!(%problem, "the text catalogue does not load whole");
    }
    Catalogue { spanish, english }
});

/// A bundle of `source`, keeping whatever parses: a broken entry loses only itself.
fn bundle(lang: Lang, source: &str, problems: &mut Vec<String>) -> FluentBundle<FluentResource> {
    let resource =
        FluentResource::try_new(source.to_owned()).unwrap_or_else(|(partial, errors)| {
            problems.extend(errors.iter().map(|e| format!("{}.ftl: {e:?}", lang.code())));
            partial
        });
    let locale = lang
        .code()
        .parse::<LanguageIdentifier>()
        .unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![locale]);
    // Texts go into JSON, e-mails and PDFs, never next to right-to-left text they would need
    // isolating from; the marks would only be invisible noise in them.
    bundle.set_use_isolating(false);
    if let Err(errors) = bundle.add_resource(resource) {
        problems.extend(errors.iter().map(|e| format!("{}.ftl: {e:?}", lang.code())));
    }
    bundle
}

fn bundle_of(lang: Lang) -> &'static FluentBundle<FluentResource> {
    match lang {
        Lang::Es => &CATALOGUE.spanish,
        Lang::En => &CATALOGUE.english,
    }
}

pub(crate) fn try_render(message: &Message, lang: Lang) -> Result<String, TextError> {
    let bundle = bundle_of(lang);
    let key = message.key();
    let pattern = bundle
        .get_message(key)
        .and_then(|m| m.value())
        .ok_or_else(|| TextError::Missing {
            key: key.to_owned(),
            lang: lang.code(),
        })?;
    let mut args = FluentArgs::with_capacity(message.args().len());
    for (name, value) in message.args() {
        match value {
            Arg::Text(text) => args.set(*name, FluentValue::from(text.as_str())),
            Arg::Count(count) => args.set(*name, FluentValue::from(*count)),
        }
    }
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&args), &mut errors);
    if errors.is_empty() {
        Ok(text.into_owned())
    } else {
        Err(TextError::Unresolved {
            key: key.to_owned(),
            lang: lang.code(),
            detail: format!("{errors:?}"),
            partial: text.into_owned(),
        })
    }
}

pub(crate) fn render(message: &Message, lang: Lang) -> String {
    let error = match try_render(message, lang) {
        Ok(text) => return text,
        Err(error) => error,
    };
    tracing::error!(%error, "a text is not in the catalogue as used");
    match error {
        TextError::Unresolved { partial, .. } => partial,
        TextError::Missing { .. } => match try_render(message, Lang::default()) {
            Ok(text) | Err(TextError::Unresolved { partial: text, .. }) => text,
            Err(TextError::Missing { .. }) => message.key().to_owned(),
        },
    }
}

pub(crate) fn has(key: &str) -> bool {
    CATALOGUE.spanish.has_message(key) && CATALOGUE.english.has_message(key)
}

pub(crate) fn keys() -> Vec<&'static str> {
    key_list(SPANISH)
}

/// The message ids of a file, read off its lines (`id = …`).
pub(crate) fn key_list(source: &'static str) -> Vec<&'static str> {
    source
        .lines()
        .filter(|line| line.starts_with(|c: char| c.is_ascii_alphabetic()))
        .filter_map(|line| line.split_once(" =").map(|(id, _)| id.trim()))
        .collect()
}
