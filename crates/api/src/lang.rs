//! Language negotiation: which of the product's languages a request asks for.

use actix_web::HttpRequest;
use actix_web::http::header::ACCEPT_LANGUAGE;
use rifa_domain::Lang;

/// The language a request asks for.
pub fn request_lang(req: &HttpRequest) -> Lang {
    from_accept_language(
        req.headers()
            .get(ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    )
}

/// English only when the caller's first preference is English; anything else (missing, unknown,
/// Spanish) falls back to Spanish, the product's language.
fn from_accept_language(header: Option<&str>) -> Lang {
    let first = header.and_then(|h| h.split(',').next()).map(|tag| {
        tag.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    });
    match first.as_deref() {
        Some(tag) if tag == "en" || tag.starts_with("en-") => Lang::En,
        _ => Lang::Es,
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
            (Some(",en"), Lang::Es),
            (Some(";q=1,en"), Lang::Es),
            (Some("en;;;q=x"), Lang::En),
            (Some(" \u{0}ñ-EN "), Lang::Es),
        ];
        for (header, expected) in cases {
            assert_eq!(from_accept_language(header), expected, "{header:?}");
        }
    }
}
