//! `rifa-api backup DIR`: everything a SQLite install needs to come back, in one directory
//! (infra/README.md, "Backups"). On PostgreSQL the database is `pg_dump`'s job; this command
//! says so and copies nothing, so no one mistakes half a backup for a whole one.
//!
//! The order makes the copy consistent while the API keeps serving: first the database
//! (`VACUUM INTO`, a snapshot of one read transaction), then the proofs. A proof is written
//! before the purchase that names it commits, so every proof the snapshot names is already on
//! disk when the proofs are copied; a proof attached in between is copied too, unnamed and
//! harmless.

use std::fs;
use std::io;
use std::path::Path;

use anyhow::{Context, bail};

use crate::config::{Config, StorageConfig};

/// The secrets generated into the data directory when not given by the environment. Without
/// `access-secret` every buyer's link and key stops working; without `jwt-secret` admins only
/// sign in again.
const SECRETS: [&str; 2] = ["access-secret", "jwt-secret"];

/// Where a local proof store keeps uploads still arriving (never part of a backup).
const PARTIAL_UPLOADS: &str = ".tmp";

/// What a backup holds.
#[derive(Debug)]
pub struct Backup {
    pub database_bytes: u64,
    pub proofs: u64,
    pub secrets: Vec<&'static str>,
}

/// Copies the SQLite database, the local proofs and the generated secrets into `to`, a new
/// directory only the API's user may read.
///
/// # Errors
/// On PostgreSQL; when `to` exists; when any copy fails.
pub async fn backup(config: &Config, to: &Path) -> anyhow::Result<Backup> {
    if !config.database_url.starts_with("sqlite:") {
        bail!(
            "on PostgreSQL, back up the database with pg_dump (infra/README.md, \"Backups\"); \
             this command copies the embedded SQLite database"
        );
    }
    if to.exists() {
        bail!("{} exists: back up into a new directory", to.display());
    }
    private_dir(to)?;

    let database = to.join("rifa.db");
    // `VACUUM INTO` writes into an empty file as it finds it: made owner-only first, the copy
    // is never readable by others, not even while it is written.
    private_file(&database)?;
    let db = crate::database(config).await?;
    db.copy_sqlite_into(&database).await?;
    let database_bytes = fs::metadata(&database)?.len();

    let proofs = match &config.storage {
        StorageConfig::Local(dir) if dir.exists() => copy_tree(dir, &to.join("uploads"))?,
        _ => 0,
    };
    let mut secrets = Vec::new();
    for name in SECRETS {
        let from = config.data_dir.join(name);
        if from.is_file() {
            copy_private(&from, &to.join(name))?;
            secrets.push(name);
        }
    }
    Ok(Backup {
        database_bytes,
        proofs,
        secrets,
    })
}

/// Copies the files under `from` into `to`, leaving out partial uploads; the number copied.
fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<u64> {
    private_dir(to)?;
    let mut copied = 0;
    for entry in fs::read_dir(from).with_context(|| format!("failed to read {}", from.display()))? {
        let entry = entry?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type()?;
        if kind.is_dir() && entry.file_name() != PARTIAL_UPLOADS {
            copied += copy_tree(&source, &target)?;
        } else if kind.is_file() {
            copy_private(&source, &target)?;
            copied += 1;
        }
    }
    Ok(copied)
}

/// A directory (and its missing parents) only its owner may open, as the data directory.
fn private_dir(path: &Path) -> anyhow::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(path)
        .with_context(|| format!("failed to create {}", path.display()))
}

/// A new, empty file only its owner may read, from the moment it exists.
fn private_file(path: &Path) -> anyhow::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
        .open(path)
        .with_context(|| format!("failed to create {}", path.display()))
}

/// Copies one file, readable by its owner only from the moment it exists.
fn copy_private(from: &Path, to: &Path) -> anyhow::Result<()> {
    let mut target = private_file(to)?;
    let mut source =
        fs::File::open(from).with_context(|| format!("failed to read {}", from.display()))?;
    io::copy(&mut source, &mut target)
        .with_context(|| format!("failed to copy {}", from.display()))?;
    target.sync_all()?;
    Ok(())
}
