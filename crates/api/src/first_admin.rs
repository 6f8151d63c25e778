//! The generated password of the first admin, kept where the operator can find it again.
//!
//! Printed once, a password is easily lost (the terminal scrolls, the process exits). So it is
//! also written to a file only the API's user can read, under the data directory, and every start
//! says where that file is until the admin signs in for the first time; then it is deleted. It
//! never goes to the log stream, which is often shipped elsewhere.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

const FILE_NAME: &str = "first-admin-password";

/// Where the first admin's password waits for its first sign-in.
#[derive(Clone, Debug)]
pub struct FirstAdminPassword {
    path: PathBuf,
}

impl FirstAdminPassword {
    #[must_use]
    pub(crate) fn in_dir(data_dir: &Path) -> Self {
        Self {
            path: data_dir.join(FILE_NAME),
        }
    }

    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file is still waiting for the admin's first sign-in.
    #[must_use]
    pub fn exists(&self) -> bool {
        self.path.is_file()
    }

    /// Writes the login, readable by the owner only (0600 from the moment it exists).
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn keep(&self, username: &str, password: &str) -> anyhow::Result<()> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options
            .open(&self.path)
            .with_context(|| format!("failed to write {}", self.path.display()))?;
        // A file left by an earlier install keeps its old mode when opened: narrow it too.
        #[cfg(unix)]
        file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
        writeln!(file, "username: {username}\npassword: {password}")?;
        file.sync_all()?;
        Ok(())
    }

    /// Deletes the file once the admin it names has signed in.
    pub async fn signed_in(&self, username: &str) {
        let Ok(content) = tokio::fs::read_to_string(&self.path).await else {
            return;
        };
        let named = content
            .lines()
            .any(|line| line.strip_prefix("username: ") == Some(username));
        if named {
            match tokio::fs::remove_file(&self.path).await {
                Ok(()) => tracing::info!(
                    path = %self.path.display(),
                    "the first admin signed in: deleted the file with their generated password"
                ),
                Err(error) => tracing::warn!(
                    path = %self.path.display(),
                    %error,
                    "the first admin signed in, but the file with their password could not be deleted"
                ),
            }
        }
    }
}
