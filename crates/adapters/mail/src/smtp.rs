//! Delivery through an SMTP server with lettre (tokio, rustls with the webpki roots).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use rifa_domain::email_settings::EmailSettings;
use rifa_ports::outbound::{Mailer, OutgoingEmail};
use secrecy::{ExposeSecret, SecretString};

use crate::ConfigError;
use crate::message::{self, mailbox};

/// How the connection to the SMTP server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpSecurity {
    /// Connect in clear, then upgrade with `STARTTLS`, which the server must offer: a server
    /// (or a man in the middle) that does not is refused before any password or message is
    /// sent. The submission port, 587, and anything but 465.
    StartTls,
    /// TLS from the first byte ("SMTPS", implicit TLS): port 465.
    Tls,
    /// No encryption at all. Only for test servers on this machine; never chosen by default.
    Plain,
}

impl SmtpSecurity {
    /// What a port implies: 465 is implicit TLS, every other port STARTTLS (required).
    #[must_use]
    pub const fn for_port(port: u16) -> Self {
        match port {
            465 => Self::Tls,
            _ => Self::StartTls,
        }
    }
}

impl fmt::Display for SmtpSecurity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::StartTls => "STARTTLS",
            Self::Tls => "implicit TLS",
            Self::Plain => "no TLS",
        })
    }
}

/// Parses `starttls`, `tls` (or `smtps`) and `plain` (or `none`), in any case: the values a
/// configuration variable such as `RIFA_SMTP_SECURITY` would take.
impl FromStr for SmtpSecurity {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "starttls" => Ok(Self::StartTls),
            "tls" | "smtps" | "ssl" => Ok(Self::Tls),
            "plain" | "none" => Ok(Self::Plain),
            _ => Err(ConfigError::UnknownSecurity(s.to_owned())),
        }
    }
}

/// What the stored [`EmailSettings`] do not say: deployment-level choices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmtpOptions {
    /// `None`: by port ([`SmtpSecurity::for_port`]).
    pub security: Option<SmtpSecurity>,
    /// How long to wait for the TCP connection (and the TLS handshake on port 465).
    pub connect_timeout: Duration,
    /// How long a whole delivery (connect, TLS, login, message) or check may take. lettre's
    /// async client has no timeout per command, so this is what bounds a server that accepts
    /// the connection and then never answers.
    pub send_timeout: Duration,
    /// Certificates (PEM) to trust besides the public web PKI roots: a relay with a private CA
    /// or a self-signed certificate, a test server.
    pub extra_root_certificates: Vec<Vec<u8>>,
}

impl SmtpOptions {
    /// A receipt e-mail is tens of kilobytes: a server that has not taken it within 15 s is
    /// stuck, and the message is better retried later than left holding a delivery slot.
    pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
    pub const DEFAULT_SEND_TIMEOUT: Duration = Duration::from_secs(15);

    /// The defaults with both timeouts set to `timeout`.
    #[must_use]
    pub fn with_timeout(timeout: Duration) -> Self {
        Self {
            connect_timeout: timeout,
            send_timeout: timeout,
            ..Self::default()
        }
    }
}

impl Default for SmtpOptions {
    fn default() -> Self {
        Self {
            security: None,
            connect_timeout: Self::DEFAULT_CONNECT_TIMEOUT,
            send_timeout: Self::DEFAULT_SEND_TIMEOUT,
            extra_root_certificates: Vec::new(),
        }
    }
}

/// What went wrong talking to the SMTP server, for the admin's "send a test e-mail" and the
/// outbox worker's retry decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpErrorKind {
    /// No connection: wrong host or port, server down, firewall.
    Connect,
    /// The server did not answer in time.
    Timeout,
    /// TLS failed: no `STARTTLS` offered, a bad certificate, the wrong security for the port.
    Tls,
    /// The server refused the user name or password, or offers no way to log in.
    Auth,
    /// The server refused the sender, the recipient or the message (a 4xx or 5xx reply).
    Rejected,
    /// The message could not be built (an invalid recipient or attachment type).
    Message,
    /// Anything else (a malformed reply).
    Other,
}

/// A failed delivery or check. Its text is for people (the admin panel shows it): it names the
/// server and security mode and carries the server's own reply, and never the password.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct SmtpError {
    kind: SmtpErrorKind,
    /// A 4xx reply or a lost connection: the same message may go through later.
    transient: bool,
    message: String,
}

impl SmtpError {
    #[must_use]
    pub const fn kind(&self) -> SmtpErrorKind {
        self.kind
    }

    /// Whether trying the same message again later may succeed.
    #[must_use]
    pub const fn is_transient(&self) -> bool {
        self.transient
    }
}

/// Delivers through one SMTP server. Building one does no I/O (it only parses the addresses
/// and prepares the TLS configuration), so the caller can build one per delivery batch from the
/// settings stored at that moment; each message opens its own connection and closes it.
#[derive(Clone)]
pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    /// `host:port (security)`, for error messages and logs.
    server: String,
    security: SmtpSecurity,
    password: Option<SecretString>,
    connect_timeout: Duration,
    send_timeout: Duration,
}

impl fmt::Debug for SmtpMailer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpMailer")
            .field("server", &self.server)
            .field("security", &self.security)
            .finish_non_exhaustive()
    }
}

impl SmtpMailer {
    /// A mailer for `settings` with the security its port implies and the default timeouts.
    ///
    /// # Errors
    /// See [`SmtpMailer::with_options`].
    pub fn new(settings: &EmailSettings) -> Result<Self, ConfigError> {
        Self::with_options(settings, &SmtpOptions::default())
    }

    /// A mailer for `settings`. The sender is `from_email`, or the user name when that is
    /// blank and is itself an address (as with Gmail). It logs in only when a user name is set.
    ///
    /// # Errors
    /// No host; no usable sender address; a host TLS cannot be set up for.
    pub fn with_options(
        settings: &EmailSettings,
        options: &SmtpOptions,
    ) -> Result<Self, ConfigError> {
        let host = settings.host.trim();
        if host.is_empty() {
            return Err(ConfigError::MissingHost);
        }
        let from = sender(settings)?;
        let security = options
            .security
            .unwrap_or_else(|| SmtpSecurity::for_port(settings.port));
        let tls = match security {
            SmtpSecurity::Plain => Tls::None,
            SmtpSecurity::StartTls => Tls::Required(tls_parameters(host, options)?),
            SmtpSecurity::Tls => Tls::Wrapper(tls_parameters(host, options)?),
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
            .port(settings.port)
            .tls(tls)
            .timeout(Some(options.connect_timeout));
        let user = settings.user.trim();
        if !user.is_empty() {
            let password = settings
                .password
                .as_ref()
                .map(|p| p.expose_secret().to_owned())
                .unwrap_or_default();
            builder = builder.credentials(Credentials::new(user.to_owned(), password));
        }
        Ok(Self {
            transport: builder.build(),
            from,
            server: format!("{host}:{} ({security})", settings.port),
            security,
            password: settings.password.clone(),
            connect_timeout: options.connect_timeout,
            send_timeout: options.send_timeout,
        })
    }

    #[must_use]
    pub const fn security(&self) -> SmtpSecurity {
        self.security
    }

    /// Connects, secures the connection, logs in and says `NOOP`, sending nothing: what the
    /// admin panel can run before saving settings.
    ///
    /// # Errors
    /// Whatever stopped it, in words an admin can act on.
    #[tracing::instrument(name = "smtp.check", skip_all, fields(smtp.server = %self.server))]
    pub async fn check(&self) -> Result<(), SmtpError> {
        match tokio::time::timeout(self.send_timeout, self.transport.test_connection()).await {
            Err(_) => Err(self.timed_out(self.send_timeout)),
            Ok(Err(error)) => Err(self.translate(&error)),
            Ok(Ok(true)) => Ok(()),
            Ok(Ok(false)) => Err(SmtpError {
                kind: SmtpErrorKind::Other,
                transient: true,
                message: format!("{} did not answer NOOP", self.server),
            }),
        }
    }

    /// Sends one message: the port's `send`, with an error that says what kind of failure it
    /// was (and the text for a "send a test e-mail" button).
    ///
    /// # Errors
    /// An unbuildable message, or the server not taking it.
    #[tracing::instrument(name = "smtp.deliver", skip_all, fields(smtp.server = %self.server))]
    pub async fn deliver(&self, email: &OutgoingEmail) -> Result<(), SmtpError> {
        let message = message::build(&self.from, email).map_err(|error| SmtpError {
            kind: SmtpErrorKind::Message,
            transient: false,
            message: error.to_string(),
        })?;
        match tokio::time::timeout(self.send_timeout, self.transport.send(message)).await {
            Err(_) => Err(self.timed_out(self.send_timeout)),
            Ok(Err(error)) => Err(self.translate(&error)),
            Ok(Ok(response)) => {
                tracing::debug!(smtp.code = %response.code(), "message accepted");
                Ok(())
            }
        }
    }

    fn timed_out(&self, after: Duration) -> SmtpError {
        SmtpError {
            kind: SmtpErrorKind::Timeout,
            transient: true,
            message: format!(
                "{} did not answer within {} s",
                self.server,
                after.as_secs()
            ),
        }
    }

    fn translate(&self, error: &lettre::transport::smtp::Error) -> SmtpError {
        if error.is_timeout() {
            return self.timed_out(self.connect_timeout);
        }
        // lettre repeats the kind when an I/O error is wrapped twice.
        let detail = error
            .to_string()
            .replace("Connection error: Connection error: ", "Connection error: ");
        let code = error.status().map(|code| code.to_string());
        let (kind, transient, what) =
            if error.is_tls() || detail.contains("STARTTLS") || handshake_failed(error) {
                (
                    SmtpErrorKind::Tls,
                    false,
                    "could not secure the connection to",
                )
            } else if matches!(code.as_deref(), Some("530" | "534" | "535" | "538" | "454"))
                || (error.is_client() && detail.contains("authentication"))
            {
                (SmtpErrorKind::Auth, false, "could not log in to")
            } else if error.is_permanent() {
                (SmtpErrorKind::Rejected, false, "the message was refused by")
            } else if error.is_transient() {
                (SmtpErrorKind::Rejected, true, "the message was deferred by")
            } else if error.is_response() || error.is_client() {
                (SmtpErrorKind::Other, true, "unexpected reply from")
            } else {
                (SmtpErrorKind::Connect, true, "could not connect to")
            };
        SmtpError {
            kind,
            transient,
            message: redact(
                &format!("{what} {}: {detail}", self.server),
                self.password.as_ref(),
            ),
        }
    }
}

impl Mailer for SmtpMailer {
    #[tracing::instrument(name = "mail.smtp.send", skip_all)]
    async fn send(&self, email: &OutgoingEmail) -> anyhow::Result<()> {
        Ok(self.deliver(email).await?)
    }
}

/// The `From:` mailbox: `from_email`, else the user name if it is an address.
fn sender(settings: &EmailSettings) -> Result<Mailbox, ConfigError> {
    let from = settings.from_email.trim();
    if from.is_empty() {
        let user = settings.user.trim();
        if user.contains('@') {
            return mailbox(user).ok_or(ConfigError::MissingSender);
        }
        return Err(ConfigError::MissingSender);
    }
    mailbox(from).ok_or(ConfigError::InvalidSender)
}

fn tls_parameters(host: &str, options: &SmtpOptions) -> Result<TlsParameters, ConfigError> {
    let failed = |detail: String| ConfigError::Tls {
        host: host.to_owned(),
        detail,
    };
    let mut builder = TlsParameters::builder(host.to_owned());
    for pem in &options.extra_root_certificates {
        let certificate = Certificate::from_pem(pem).map_err(|e| failed(e.to_string()))?;
        builder = builder.add_root_certificate(certificate);
    }
    builder.build().map_err(|e| failed(e.to_string()))
}

/// Whether a connection error is a failed TLS handshake: tokio-rustls reports those as I/O
/// errors of kind `InvalidData` (e.g. implicit TLS against a server speaking plain SMTP).
fn handshake_failed(error: &lettre::transport::smtp::Error) -> bool {
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        if cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::InvalidData)
        {
            return true;
        }
        source = cause.source();
    }
    false
}

/// The text with every occurrence of the password masked: a server is free to echo what it got.
fn redact(text: &str, password: Option<&SecretString>) -> String {
    match password.map(ExposeSecret::expose_secret) {
        Some(p) if !p.is_empty() => text.replace(p, "***"),
        _ => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(port: u16) -> EmailSettings {
        EmailSettings {
            host: "smtp.example.com".into(),
            port,
            user: "rifa@example.com".into(),
            password: Some(SecretString::from("hunter2-very-secret")),
            from_email: "Rifa <no-reply@example.com>".into(),
        }
    }

    #[test]
    fn port_587_requires_starttls_465_is_implicit_tls_and_plain_is_never_a_default() {
        assert_eq!(SmtpSecurity::for_port(587), SmtpSecurity::StartTls);
        assert_eq!(SmtpSecurity::for_port(465), SmtpSecurity::Tls);
        assert_eq!(SmtpSecurity::for_port(25), SmtpSecurity::StartTls);
        assert_eq!(SmtpSecurity::for_port(2525), SmtpSecurity::StartTls);
        assert_eq!(
            SmtpMailer::new(&settings(587)).unwrap().security(),
            SmtpSecurity::StartTls
        );
        assert_eq!(
            SmtpMailer::new(&settings(465)).unwrap().security(),
            SmtpSecurity::Tls
        );
    }

    #[test]
    fn an_explicit_security_overrides_the_port() {
        let options = SmtpOptions {
            security: Some(SmtpSecurity::Plain),
            ..SmtpOptions::default()
        };
        let mailer = SmtpMailer::with_options(&settings(587), &options).unwrap();
        assert_eq!(mailer.security(), SmtpSecurity::Plain);
    }

    #[test]
    fn security_names_parse_in_any_case() {
        assert_eq!(
            "STARTTLS".parse::<SmtpSecurity>().unwrap(),
            SmtpSecurity::StartTls
        );
        assert_eq!("smtps".parse::<SmtpSecurity>().unwrap(), SmtpSecurity::Tls);
        assert_eq!(
            " Plain ".parse::<SmtpSecurity>().unwrap(),
            SmtpSecurity::Plain
        );
        assert!("ssl3".parse::<SmtpSecurity>().is_err());
    }

    #[test]
    fn the_sender_falls_back_to_an_address_like_user_name() {
        let mut settings = settings(587);
        settings.from_email.clear();
        assert!(SmtpMailer::new(&settings).is_ok());
        settings.user = "rifa".into();
        assert!(matches!(
            SmtpMailer::new(&settings),
            Err(ConfigError::MissingSender)
        ));
        settings.from_email = "not an address".into();
        assert!(matches!(
            SmtpMailer::new(&settings),
            Err(ConfigError::InvalidSender)
        ));
    }

    #[test]
    fn a_blank_host_is_refused() {
        let mut settings = settings(587);
        settings.host = "  ".into();
        assert!(matches!(
            SmtpMailer::new(&settings),
            Err(ConfigError::MissingHost)
        ));
    }

    #[test]
    fn debug_output_and_redacted_errors_never_show_the_password() {
        let mailer = SmtpMailer::new(&settings(587)).unwrap();
        let debug = format!("{mailer:?}");
        assert!(debug.contains("smtp.example.com:587 (STARTTLS)"), "{debug}");
        assert!(!debug.contains("hunter2"), "{debug}");
        let secret = SecretString::from("hunter2");
        assert_eq!(
            redact("535 bad hunter2 here", Some(&secret)),
            "535 bad *** here"
        );
        assert_eq!(redact("535 bad", None), "535 bad");
    }
}
