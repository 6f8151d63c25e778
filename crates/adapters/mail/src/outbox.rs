//! The zero-setup mailer: every message becomes an `.eml` file in a directory.

use std::path::{Path, PathBuf};

use anyhow::Context;
use chrono::Utc;
use lettre::message::Mailbox;
use rifa_ports::outbound::{Mailer, OutgoingEmail};
use tokio::io::AsyncWriteExt as _;

use crate::ConfigError;
use crate::message::{self, mailbox};

/// Writes each message, exactly as it would go over SMTP, to
/// `<dir>/<UTC time to the microsecond>-<random>.eml`, e.g.
/// `20261123T101502.123456Z-1a2b3c4d.eml`: names sort by the time they were written, and any
/// mail client opens the files. A file appears whole or not at all (written under a hidden
/// temporary name, then renamed). The directory is created on the first message.
#[derive(Debug, Clone)]
pub struct FileOutbox {
    dir: PathBuf,
    /// `None`: [`FileOutbox::DEFAULT_SENDER`].
    from: Option<Mailbox>,
}

impl FileOutbox {
    /// The `From:` of messages when no sender is configured.
    pub const DEFAULT_SENDER: &str = "Rifa <rifa@localhost>";

    /// An outbox in `dir`, sending as [`FileOutbox::DEFAULT_SENDER`].
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            from: None,
        }
    }

    /// The same outbox with `from` (an address or `Name <address>`) as the sender.
    ///
    /// # Errors
    /// When `from` is not an address.
    pub fn with_sender(mut self, from: &str) -> Result<Self, ConfigError> {
        self.from = Some(mailbox(from).ok_or(ConfigError::InvalidSender)?);
        Ok(self)
    }

    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes one message and returns the path of its file.
    ///
    /// # Errors
    /// An unbuildable message, or a directory that cannot be written.
    #[tracing::instrument(name = "outbox.write", skip_all)]
    pub async fn write(&self, email: &OutgoingEmail) -> anyhow::Result<PathBuf> {
        let from = match &self.from {
            Some(from) => from.clone(),
            None => {
                mailbox(Self::DEFAULT_SENDER).context("the default sender is not an address")?
            }
        };
        let message = message::build(&from, email)?;
        // Buyers' names, addresses and receipts: readable by the owner only, whatever the umask.
        let mut dir = tokio::fs::DirBuilder::new();
        dir.recursive(true);
        #[cfg(unix)]
        dir.mode(0o700);
        dir.create(&self.dir)
            .await
            .with_context(|| format!("failed to create the mail outbox {}", self.dir.display()))?;
        let name = format!(
            "{}-{}.eml",
            Utc::now().format("%Y%m%dT%H%M%S%.6fZ"),
            &uuid::Uuid::new_v4().simple().to_string()[..8]
        );
        let path = self.dir.join(&name);
        let partial = self.dir.join(format!(".{name}.tmp"));
        let mut file = tokio::fs::OpenOptions::new();
        file.write(true).create_new(true);
        #[cfg(unix)]
        file.mode(0o600);
        file.open(&partial)
            .await
            .with_context(|| format!("failed to create {}", partial.display()))?
            .write_all(&message.formatted())
            .await
            .with_context(|| format!("failed to write {}", partial.display()))?;
        tokio::fs::rename(&partial, &path)
            .await
            .with_context(|| format!("failed to move the message into {}", path.display()))?;
        tracing::info!(outbox.file = %path.display(), "e-mail written to the outbox");
        Ok(path)
    }
}

impl Mailer for FileOutbox {
    #[tracing::instrument(name = "mail.outbox.send", skip_all)]
    async fn send(&self, email: &OutgoingEmail) -> anyhow::Result<()> {
        self.write(email).await.map(drop)
    }
}
