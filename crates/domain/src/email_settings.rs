//! The SMTP settings an owner keeps. The password is write-only: it is stored for the
//! mailer and never leaves the server.

use secrecy::{ExposeSecret, SecretString};

use crate::customer::Email;
use crate::validation::{self, FieldError, FieldErrors, TextKind};

pub const DEFAULT_SMTP_PORT: u16 = 587;

#[derive(Debug, Clone)]
pub struct EmailSettings {
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: Option<SecretString>,
    pub from_email: String,
}

/// Equal when every field is, the password included: compared, never shown.
impl PartialEq for EmailSettings {
    fn eq(&self, other: &Self) -> bool {
        let password = |s: &Self| {
            s.password
                .as_ref()
                .map(ExposeSecret::expose_secret)
                .map(str::to_owned)
        };
        self.host == other.host
            && self.port == other.port
            && self.user == other.user
            && self.from_email == other.from_email
            && password(self) == password(other)
    }
}

impl Eq for EmailSettings {}

impl Default for EmailSettings {
    fn default() -> Self {
        Self {
            host: String::new(),
            port: DEFAULT_SMTP_PORT,
            user: String::new(),
            password: None,
            from_email: String::new(),
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct EmailSettingsInput {
    pub host: Option<String>,
    pub port: Option<i64>,
    pub user: Option<String>,
    /// `None` or blank keeps the stored password; the form never gets it back to resend.
    pub password: Option<String>,
    /// Deletes the stored password (a new `password` sent with it is stored instead).
    pub clear_password: bool,
    pub from_email: Option<String>,
}

impl EmailSettings {
    /// Whether buyers' e-mails would come from an address nobody reads or that mail servers
    /// refuse: none set (messages then come from `rifa@localhost`), or one at a reserved or
    /// local domain (`localhost`, `example.com`/`.org`/`.net`, `*.example`, `*.test`,
    /// `*.invalid`, `*.local`, `*.localhost`; RFC 2606 and 6761) or at a dotless host.
    #[must_use]
    pub fn sender_is_placeholder(&self) -> bool {
        let from = self.from_email.trim();
        let Some((_, domain)) = from.rsplit_once('@') else {
            return true;
        };
        let domain = domain
            .trim_end_matches('>')
            .trim_end_matches('.')
            .to_ascii_lowercase();
        let reserved_names = ["localhost", "example.com", "example.org", "example.net"];
        let reserved_tlds = [".example", ".test", ".invalid", ".local", ".localhost"];
        // A name without a dot (`localhost`, `mailhost`) only resolves inside one network.
        !domain.contains('.')
            || reserved_names
                .iter()
                .any(|name| domain == *name || domain.ends_with(&format!(".{name}")))
            || reserved_tlds.iter().any(|tld| domain.ends_with(tld))
    }

    /// # Errors
    /// Each bad field.
    pub fn apply(&self, input: EmailSettingsInput) -> Result<Self, FieldErrors> {
        let mut errors = FieldErrors::new();
        let text =
            |raw: Option<String>, max: usize, errors: &mut FieldErrors, field: &'static str| {
                errors
                    .check(
                        field,
                        validation::free_text(&raw.unwrap_or_default(), TextKind::SingleLine, max),
                    )
                    .unwrap_or_default()
            };
        let host = text(input.host, 253, &mut errors, "emailHost");
        let user = text(input.user, 254, &mut errors, "emailUser");
        let port = match input.port {
            None => DEFAULT_SMTP_PORT,
            Some(p) => u16::try_from(p).ok().filter(|p| *p > 0).unwrap_or_else(|| {
                errors.add(
                    "emailPort",
                    FieldError::OutOfRange {
                        min: "1".into(),
                        max: "65535".into(),
                    },
                );
                DEFAULT_SMTP_PORT
            }),
        };
        let from_raw = text(input.from_email, 254, &mut errors, "fromEmail");
        let from_email = if from_raw.is_empty() {
            String::new()
        } else {
            errors
                .check("fromEmail", Email::parse(&from_raw))
                .map(|e| e.as_str().to_owned())
                .unwrap_or_default()
        };
        let password = match input.password.filter(|p| !p.is_empty()) {
            Some(p) if p.len() > 512 => {
                errors.add("emailPass", FieldError::TooLong { max: 512 });
                None
            }
            Some(p) => Some(SecretString::from(p)),
            None if input.clear_password => None,
            None => self.password.clone(),
        };
        errors.into_result().map(|()| Self {
            host,
            port,
            user,
            password,
            from_email,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_is_kept_when_not_resent_and_never_printed() {
        let stored = EmailSettings {
            password: Some(SecretString::from("s3cret")),
            ..EmailSettings::default()
        };
        let next = stored
            .apply(EmailSettingsInput {
                host: Some(" smtp.gmail.com ".into()),
                password: Some(String::new()),
                ..Default::default()
            })
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(next.host, "smtp.gmail.com");
        assert_eq!(next.port, 587);
        assert_eq!(
            next.password.as_ref().map(ExposeSecret::expose_secret),
            Some("s3cret")
        );
        let printed = format!("{next:?}");
        assert!(!printed.contains("s3cret"), "{printed}");
        assert!(printed.contains("[REDACTED]"), "{printed}");
    }

    #[test]
    fn the_stored_password_is_deleted_only_when_asked() {
        let stored = EmailSettings {
            password: Some(SecretString::from("s3cret")),
            ..EmailSettings::default()
        };
        let clear = |password: Option<&str>| EmailSettingsInput {
            password: password.map(str::to_owned),
            clear_password: true,
            ..Default::default()
        };

        let password = |input| {
            stored
                .apply(input)
                .map(|s| s.password.map(|p| p.expose_secret().to_owned()))
        };

        assert_eq!(password(clear(None)), Ok(None));
        assert_eq!(password(clear(Some(""))), Ok(None));
        assert_eq!(password(clear(Some("nueva"))), Ok(Some("nueva".to_owned())));
    }

    #[test]
    fn placeholder_senders_are_told_apart_from_real_ones() {
        let sender = |from: &str| EmailSettings {
            from_email: from.to_owned(),
            ..EmailSettings::default()
        };
        for placeholder in [
            "",
            "  ",
            "rifa@localhost",
            "no-reply@example.com",
            "a@mail.example.org",
            "a@EXAMPLE.NET",
            "pagos@rifa.test",
            "x@empresa.local",
            "x@demo.example",
        ] {
            assert!(
                sender(placeholder).sender_is_placeholder(),
                "{placeholder:?}"
            );
        }
        for real in [
            "pagos@rifasve.com",
            "no-reply@mail.sorteos.com.ve",
            "a@gmail.com",
        ] {
            assert!(!sender(real).sender_is_placeholder(), "{real:?}");
        }
    }

    #[test]
    fn bad_ports_and_senders_are_refused() {
        let input = EmailSettingsInput {
            port: Some(70_000),
            from_email: Some("nope".into()),
            ..Default::default()
        };
        let errors = EmailSettings::default()
            .apply(input)
            .err()
            .unwrap_or_default();
        let fields: Vec<_> = errors.iter().map(|(f, _)| f.as_ref()).collect();
        assert_eq!(fields, ["emailPort", "fromEmail"]);
    }
}
