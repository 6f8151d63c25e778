//! E-mail delivery: the [`Mailer`] port over SMTP ([`SmtpMailer`], lettre) or into a directory
//! of `.eml` files ([`FileOutbox`], the zero-setup default), and [`AnyMailer`] to hold either;
//! and the e-mails' wording: [`MailTemplates`] (the `MailComposer` port) turns the message the
//! use cases chose into subject, text and HTML, from the `rifa-text` catalogue and the askama
//! templates in `templates/`.
//!
//! # Choosing a mailer
//! The SMTP settings live in the database and an owner may change them at any time,
//! so nothing here is built once at start-up: [`AnyMailer::from_settings`] takes the settings
//! read for a delivery batch and returns SMTP when they name a host, the file outbox when the
//! host is blank. Building either does no I/O.
//!
//! # Messages
//! Every message has `From`, `To`, `Subject`, `Date` and a `Message-ID` in the sender's domain;
//! its body is `multipart/alternative` (text, then HTML), inside `multipart/mixed` with the
//! attachments and their content types when there are any. The same bytes go over SMTP and
//! into the outbox, so an outbox file shows exactly what a buyer would get.
//!
//! # TLS by port
//! Port 465 speaks TLS from the first byte; every other port (587, the default, and 25)
//! connects in clear and must be upgraded with `STARTTLS` before the login: a server that does
//! not offer it is refused, so a man in the middle cannot strip TLS to read the password.
//! [`SmtpSecurity::Plain`] exists for local test servers only and is chosen solely by explicit
//! configuration ([`SmtpOptions::security`]). Certificates are checked against the webpki
//! roots (rustls; no OpenSSL), plus any in [`SmtpOptions::extra_root_certificates`] (a relay
//! with a private CA; the tests' self-signed aiosmtpd).
//!
//! # Timeouts
//! The TCP connection (and the TLS handshake on 465) must succeed within 10 s, so a dead or
//! firewalled server fails fast; a whole delivery or check is cut off after 60 s, since lettre
//! has no per-command timeout and a server that accepts the connection and then says nothing
//! would otherwise hold a worker forever. Both are in [`SmtpOptions`].
//!
//! # Errors
//! [`SmtpError`] is written for the admin who typed the settings: it names the server and the
//! security mode, says what failed ([`SmtpErrorKind`]: connect, timeout, TLS, login, refused)
//! with the server's own reply, and never contains the password. No error names an e-mail
//! address, since errors are logged.
//!
//! # The file outbox
//! `<dir>/<UTC time>-<random>.eml` (e.g. `20261123T101502.123456Z-1a2b3c4d.eml`): names sort by
//! time, files appear whole (written under a temporary name, then renamed) and open in any mail
//! client.

mod compose;
mod draw;
mod message;
mod outbox;
mod smtp;
mod transports;

use std::path::Path;

use rifa_domain::email_settings::EmailSettings;
use rifa_ports::outbound::{Mailer, OutgoingEmail};

pub use compose::MailTemplates;
pub use message::MessageError;
pub use outbox::FileOutbox;
pub use smtp::{SmtpError, SmtpErrorKind, SmtpMailer, SmtpOptions, SmtpSecurity};
pub use transports::ConfiguredTransports;

/// Settings a mailer cannot be built from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("no SMTP host is configured")]
    MissingHost,
    #[error("no sender address is configured")]
    MissingSender,
    #[error("the sender address is not a valid e-mail address")]
    InvalidSender,
    #[error("TLS cannot be set up for {host}: {detail}")]
    Tls { host: String, detail: String },
    #[error("unknown SMTP security {0:?} (expected starttls, tls or plain)")]
    UnknownSecurity(String),
}

/// One mailer or the other, chosen at run time. The port's `send` returns `impl Future`, so
/// `dyn Mailer` is not possible; this enum is the composition root's single concrete type.
#[derive(Debug, Clone)]
#[allow(
    clippy::large_enum_variant,
    reason = "one per delivery batch; boxing would only add an allocation"
)]
pub enum AnyMailer {
    Smtp(SmtpMailer),
    Outbox(FileOutbox),
}

impl AnyMailer {
    /// SMTP when `settings` name a host; otherwise the file outbox in `outbox_dir` (sending as
    /// `settings.from_email` when that is an address).
    ///
    /// # Errors
    /// A host is set but the rest cannot make a mailer (see [`SmtpMailer::with_options`]).
    pub fn from_settings(
        settings: &EmailSettings,
        options: &SmtpOptions,
        outbox_dir: &Path,
    ) -> Result<Self, ConfigError> {
        if settings.host.trim().is_empty() {
            let outbox = FileOutbox::new(outbox_dir);
            let outbox = outbox
                .clone()
                .with_sender(&settings.from_email)
                .unwrap_or(outbox);
            return Ok(Self::Outbox(outbox));
        }
        SmtpMailer::with_options(settings, options).map(Self::Smtp)
    }
}

impl From<SmtpMailer> for AnyMailer {
    fn from(mailer: SmtpMailer) -> Self {
        Self::Smtp(mailer)
    }
}

impl From<FileOutbox> for AnyMailer {
    fn from(outbox: FileOutbox) -> Self {
        Self::Outbox(outbox)
    }
}

impl Mailer for AnyMailer {
    #[tracing::instrument(name = "mail.send", skip_all)]
    async fn send(&self, email: &OutgoingEmail) -> anyhow::Result<()> {
        match self {
            Self::Smtp(mailer) => mailer.send(email).await,
            Self::Outbox(outbox) => outbox.send(email).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blank_host_chooses_the_outbox_and_a_host_chooses_smtp() {
        let dir = Path::new("/tmp/rifa-outbox");
        let mut settings = EmailSettings {
            from_email: "no-reply@example.com".into(),
            ..EmailSettings::default()
        };
        let chosen = AnyMailer::from_settings(&settings, &SmtpOptions::default(), dir).unwrap();
        assert!(matches!(chosen, AnyMailer::Outbox(ref o) if o.dir() == dir));

        settings.host = "smtp.example.com".into();
        let chosen = AnyMailer::from_settings(&settings, &SmtpOptions::default(), dir).unwrap();
        assert!(matches!(chosen, AnyMailer::Smtp(ref s) if s.security() == SmtpSecurity::StartTls));

        settings.from_email.clear();
        assert_eq!(
            AnyMailer::from_settings(&settings, &SmtpOptions::default(), dir).err(),
            Some(ConfigError::MissingSender)
        );
    }
}
