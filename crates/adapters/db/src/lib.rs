//! SeaORM repositories for Rifa: PostgreSQL in production, embedded SQLite by default.
//!
//! One [`Db`] implements every repository port. Writes that could race are single statements or
//! transactions that write first (so SQLite takes its write lock up front and waits for it
//! instead of failing to upgrade a read lock).

mod admins;
mod alerts;
mod allowance;
mod audit;
mod convert;
mod draws;
mod entities;
mod events;
mod history;
mod holds;
mod outbox;
mod payments;
mod pool;
mod proof_checks;
mod proofs;
mod purchases;
mod raffles;
mod settings;
mod totals;

pub use events::PgEventBus;
pub use pool::{PoolUsage, is_unavailable};

use std::time::Duration;

use anyhow::Context;
use chrono::TimeDelta;
use rifa_migration::{Migrator, MigratorTrait};
use rifa_ports::RecipientCaps;
use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseBackend, Statement};

use crate::pool::Pool;

/// Creates the SQLite file of `url` readable by its owner only, unless it exists. SQLite would
/// create it with the umask's mode (world-readable by default), and it gives the WAL and
/// shared-memory files the database file's own mode, so this keeps all three private.
fn create_private_sqlite_file(url: &str) -> anyhow::Result<()> {
    let path = url
        .trim_start_matches("sqlite:")
        .trim_start_matches("//")
        .split('?')
        .next()
        .unwrap_or_default();
    if path.is_empty() || path == ":memory:" || url.contains("mode=memory") {
        return Ok(());
    }
    let mut file = std::fs::OpenOptions::new();
    file.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut file, 0o600);
    match file.open(path) {
        Ok(_) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(error) => {
            Err(anyhow::Error::new(error).context(format!("failed to create the database {path}")))
        }
    }
}

/// See [`Db::now_sql`].
pub(crate) fn now_sql(backend: DatabaseBackend) -> &'static str {
    match backend {
        DatabaseBackend::Sqlite => "strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')",
        _ => "now()",
    }
}

/// How long a purchase's confirmation waits, by default, for the proof the site uploads right
/// after the purchase: long enough for a slow phone's upload, short enough to still be news.
pub const DEFAULT_RECEIVED_PROOF_WAIT: TimeDelta = TimeDelta::minutes(2);

/// The database behind every repository port.
#[derive(Clone, Debug)]
pub struct Db {
    conn: Pool,
    /// Applied where a purchase's confirmation is written, in the purchase's own statement.
    mail_caps: RecipientCaps,
    /// How long a purchase's confirmation waits for the proof uploaded right after buying.
    received_proof_wait: TimeDelta,
}

impl Db {
    /// Connects (creating a SQLite file if needed) and brings the schema up to date.
    ///
    /// # Errors
    /// When the database is unreachable or a migration fails.
    pub async fn connect(url: &str, max_connections: u32) -> anyhow::Result<Self> {
        let sqlite = url.starts_with("sqlite:");
        let url = if sqlite && !url.contains("mode=") {
            format!("{url}{}mode=rwc", if url.contains('?') { '&' } else { '?' })
        } else {
            url.to_owned()
        };
        if sqlite {
            create_private_sqlite_file(&url)?;
        }
        let mut options = ConnectOptions::new(url);
        options
            .max_connections(max_connections)
            .min_connections(1)
            .connect_timeout(Duration::from_secs(10))
            .acquire_timeout(Duration::from_secs(10))
            // sqlx pings every connection it hands out by default: a round trip per query.
            // Only connections idle long enough to have been dropped need the check.
            .test_before_acquire_if_idle_for(Duration::from_secs(30))
            // Statements carry buyers' e-mails and phones: never log them.
            .sqlx_logging(false)
            // PostgreSQL compiles a query to machine code once its estimated cost passes
            // `jit_above_cost`, which a month of the trail's figures does: 190 ms compiling
            // for 50 ms of work at a year of data. The API's queries are short; compiling
            // never pays for itself (decision 0024).
            .map_sqlx_postgres_opts(|postgres| postgres.options([("jit", "off")]));
        let conn = Database::connect(options)
            .await
            .context("failed to connect to the database")?;
        if sqlite {
            // WAL lets readers proceed while one writer commits; the pool's busy timeout makes
            // concurrent writers queue instead of failing.
            conn.execute_unprepared(
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
            )
            .await
            .context("failed to configure SQLite")?;
        }
        Migrator::up(&conn, None)
            .await
            .context("failed to run database migrations")?;
        let db = Self {
            conn: Pool::new(conn, max_connections),
            mail_caps: RecipientCaps::default(),
            received_proof_wait: DEFAULT_RECEIVED_PROOF_WAIT,
        };
        db.refresh_planner_statistics().await?;
        Ok(db)
    }

    /// SQLite: a consistent copy of the whole database at `path` (`VACUUM INTO`: one read
    /// transaction, so writers carry on), compacted. `path` must not exist.
    ///
    /// # Errors
    /// On PostgreSQL (`pg_dump` is its tool), or when SQLite cannot write `path`.
    pub async fn copy_sqlite_into(&self, path: &std::path::Path) -> anyhow::Result<()> {
        if self.conn.get_database_backend() != DatabaseBackend::Sqlite {
            anyhow::bail!("VACUUM INTO is SQLite's; back PostgreSQL up with pg_dump");
        }
        let path = path
            .to_str()
            .context("the backup's path is not valid UTF-8")?;
        self.conn
            .inner()
            .execute_raw(Statement::from_sql_and_values(
                DatabaseBackend::Sqlite,
                "VACUUM INTO ?",
                [path.into()],
            ))
            .await
            .with_context(|| format!("failed to copy the database into {path}"))?;
        Ok(())
    }

    /// The connection pool's use now, for `/metrics`.
    #[must_use]
    pub fn pool_usage(&self) -> PoolUsage {
        self.conn.usage()
    }

    /// SQLite: gathers the query planner's statistics (`ANALYZE` over a sample of each index:
    /// half a second at a year of purchases). Without them SQLite guesses, and at a year of
    /// purchases it guessed the status index for a search by raffle, status and name, 100×
    /// slower than the raffle's. PostgreSQL's autovacuum keeps its own; there this does
    /// nothing. Run at start and hourly.
    ///
    /// # Errors
    /// When SQLite refuses the statement.
    pub async fn refresh_planner_statistics(&self) -> anyhow::Result<()> {
        if self.conn.get_database_backend() == DatabaseBackend::Sqlite {
            self.conn
                .execute_unprepared("PRAGMA analysis_limit=1000; ANALYZE;")
                .await
                .context("failed to refresh SQLite's planner statistics")?;
        }
        Ok(())
    }

    /// The same database, capping purchase confirmations per recipient at `caps` (default
    /// [`RecipientCaps::default`]).
    #[must_use]
    pub fn with_mail_caps(mut self, caps: RecipientCaps) -> Self {
        self.mail_caps = caps;
        self
    }

    /// The same database, holding a purchase's confirmation `wait` for the proof the buyer
    /// uploads right after buying (default two minutes; attaching or refusing the proof, or a
    /// decision, sends it at once).
    #[must_use]
    pub fn with_received_proof_wait(mut self, wait: TimeDelta) -> Self {
        self.received_proof_wait = wait;
        self
    }

    /// The database's clock as SQL, in the form its timestamps are stored in (SQLite keeps
    /// them as RFC 3339 text with milliseconds), so holds are judged by one clock whichever
    /// instance asks.
    pub(crate) fn now_sql(&self) -> &'static str {
        now_sql(self.conn.get_database_backend())
    }

    #[must_use]
    pub fn is_postgres(&self) -> bool {
        self.conn.get_database_backend() == DatabaseBackend::Postgres
    }

    /// A round trip to the database, for readiness checks.
    ///
    /// # Errors
    /// When the database does not answer.
    pub async fn ping(&self) -> anyhow::Result<()> {
        self.conn
            .inner()
            .ping()
            .await
            .context("database ping failed")
    }

    /// Whether nothing has been created yet, so demo data may be loaded.
    ///
    /// # Errors
    /// Storage failures only.
    pub async fn is_empty(&self) -> anyhow::Result<bool> {
        use sea_orm::{EntityTrait, PaginatorTrait};
        let raffles = entities::raffles::Entity::find().count(&self.conn).await?;
        let methods = entities::payment_methods::Entity::find()
            .count(&self.conn)
            .await?;
        Ok(raffles == 0 && methods == 0)
    }

    /// Adds a promotion line to a raffle (demo data and operators' scripts).
    ///
    /// # Errors
    /// Storage failures only.
    pub async fn add_promotion(&self, raffle_id: i64, description: &str) -> anyhow::Result<()> {
        raffles::add_promotion(&self.conn, raffle_id, description).await
    }
}

#[cfg(test)]
mod tests {
    use sea_orm::{ConnectionTrait, Statement};

    use super::Db;

    #[tokio::test]
    async fn the_api_s_postgresql_sessions_never_compile_queries() {
        let Some(url) = rifa_test_support::postgres_database().await else {
            return;
        };
        let db = Db::connect(&url, 2).await.unwrap();
        let backend = db.conn.get_database_backend();
        let jit = db
            .conn
            .query_one_raw(Statement::from_string(backend, "SHOW jit"))
            .await
            .unwrap()
            .unwrap()
            .try_get::<String>("", "jit")
            .unwrap();
        assert_eq!(jit, "off");
    }
}
