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

    #[tracing::instrument(name = "mail.transports.open", skip_all)]
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

#[cfg(test)]
mod tests {
    use super::*;

    fn server(host: &str) -> EmailSettings {
        EmailSettings {
            host: host.into(),
            from_email: "sorteos@rifa.example".into(),
            ..EmailSettings::default()
        }
    }

    fn transports(env: Option<EmailSettings>) -> ConfiguredTransports {
        ConfiguredTransports {
            env_settings: env,
            smtp: SmtpOptions::default(),
            outbox_dir: std::env::temp_dir().join("rifa-transports-test"),
        }
    }

    fn route(transports: &ConfiguredTransports, saved: &EmailSettings) -> Option<MailRoute> {
        transports.open(saved).ok().map(|(_, route)| route)
    }

    #[test]
    fn saved_settings_win_then_the_environment_then_the_file_outbox() {
        let none = EmailSettings::default();
        assert_eq!(route(&transports(None), &none), Some(MailRoute::FileOutbox));
        let env = transports(Some(server("smtp.env.example")));
        assert_eq!(route(&env, &none), Some(MailRoute::Server));
        assert_eq!(
            route(&transports(None), &server("smtp.saved.example")),
            Some(MailRoute::Server)
        );
    }

    #[test]
    fn unusable_saved_settings_say_why_instead_of_falling_back() {
        let mut saved = server("smtp.saved.example");
        saved.from_email = String::new();
        let opened = transports(Some(server("smtp.env.example"))).open(&saved);
        assert!(opened.is_err());
    }
}
