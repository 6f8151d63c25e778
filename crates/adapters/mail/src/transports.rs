//! [`MailTransports`]: the mailer for the e-mail settings of the moment.

use std::path::PathBuf;

use rifa_domain::email_settings::EmailSettings;
use rifa_ports::outbound::{MailRoute, MailTransports};

use crate::{AnyMailer, SmtpOptions};

/// Opens [`AnyMailer`]s: the settings admins saved when they name a server, else the
/// environment's, else the file outbox.
#[derive(Debug, Clone)]
pub struct ConfiguredTransports {
    /// The SMTP server from the environment; settings saved by admins take precedence.
    pub env_settings: Option<EmailSettings>,
    pub smtp: SmtpOptions,
    /// Where messages are written when no SMTP server is configured.
    pub outbox_dir: PathBuf,
}

impl MailTransports for ConfiguredTransports {
    type Mailer = AnyMailer;

    fn open(&self, saved: &EmailSettings) -> anyhow::Result<(AnyMailer, MailRoute)> {
        let settings = match &self.env_settings {
            Some(env) if saved.host.trim().is_empty() => env,
            _ => saved,
        };
        let mailer = AnyMailer::from_settings(settings, &self.smtp, &self.outbox_dir)?;
        let route = match mailer {
            AnyMailer::Smtp(_) => MailRoute::Server,
            AnyMailer::Outbox(_) => MailRoute::FileOutbox,
        };
        Ok((mailer, route))
    }
}
