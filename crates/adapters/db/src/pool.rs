//! The connection pool every repository uses, and how its failures are told apart.
//!
//! When the server drops pooled connections (a restart, a failover, an operator terminating
//! backends) each dead connection fails the next statement handed to it. A read is then run
//! again: the pool discards a connection that fails (it pings on release), so each retry gets
//! another one, and a `SELECT` on the pool (outside any transaction) changes nothing, so running
//! it twice is safe. Writes are never retried: [`is_unavailable`] lets the API answer them with
//! "try again later" instead of a bare failure, and their transactions guarantee nothing was
//! half written.

use std::future::Future;
use std::pin::Pin;

use sea_orm::sqlx;
use sea_orm::{
    AccessMode, ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbBackend, DbErr,
    ExecResult, IsolationLevel, QueryResult, RuntimeErr, SqliteTransactionMode, Statement,
    TransactionError, TransactionOptions, TransactionTrait,
};

/// What the pool holds now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolUsage {
    pub open: u32,
    pub idle: u32,
    pub max: u32,
}

/// The pool, retrying reads that failed on a broken connection.
#[derive(Clone, Debug)]
pub(crate) struct Pool {
    inner: DatabaseConnection,
    /// Attempts a read gets: one more than the connections the pool may hold, since each
    /// failed attempt discards one dead connection.
    read_attempts: u32,
}

impl Pool {
    pub(crate) fn new(inner: DatabaseConnection, max_connections: u32) -> Self {
        Self {
            inner,
            read_attempts: max_connections.saturating_add(1),
        }
    }

    pub(crate) fn inner(&self) -> &DatabaseConnection {
        &self.inner
    }

    /// Connections open and how many of them wait idle; matched on the backend, so the panics
    /// of sea-orm's getters for the other one cannot happen.
    pub(crate) fn usage(&self) -> PoolUsage {
        let (open, idle) = match self.inner.get_database_backend() {
            DbBackend::Postgres => {
                let pool = self.inner.get_postgres_connection_pool();
                (pool.size(), pool.num_idle())
            }
            _ => {
                let pool = self.inner.get_sqlite_connection_pool();
                (pool.size(), pool.num_idle())
            }
        };
        let idle = u32::try_from(idle).unwrap_or(u32::MAX).min(open);
        PoolUsage {
            open,
            idle,
            max: self.read_attempts - 1,
        }
    }

    /// As on sea-orm's own connection, without importing its trait.
    pub(crate) fn get_database_backend(&self) -> DbBackend {
        self.inner.get_database_backend()
    }

    async fn read<T, F, Fut>(&self, stmt: Statement, run: F) -> Result<T, DbErr>
    where
        F: Fn(Statement) -> Fut + Send + Sync,
        Fut: Future<Output = Result<T, DbErr>> + Send,
    {
        if !is_select(&stmt) {
            return run(stmt).await;
        }
        let mut attempt = 1;
        loop {
            match run(stmt.clone()).await {
                Err(error) if attempt < self.read_attempts && is_broken_connection(&error) => {
                    tracing::info!(attempt, %error, "read failed on a broken connection; retrying");
                    attempt += 1;
                }
                outcome => return outcome,
            }
        }
    }
}

/// Only a plain `SELECT` is known to write nothing (`INSERT … RETURNING` also returns rows).
fn is_select(stmt: &Statement) -> bool {
    let sql = stmt.sql.trim_start();
    sql.get(..6)
        .is_some_and(|head| head.eq_ignore_ascii_case("select"))
}

/// Whether `error` says the database could not be reached or the connection broke: nothing
/// about the statement itself.
#[must_use]
pub(crate) fn is_connection_failure(error: &DbErr) -> bool {
    matches!(error, DbErr::ConnectionAcquire(_)) || is_broken_connection(error)
}

/// Whether the connection a statement ran on broke. Not a pool that had no connection to give
/// in time: retrying that would only queue the request longer behind a busy or absent server.
fn is_broken_connection(error: &DbErr) -> bool {
    match error {
        DbErr::Conn(runtime) | DbErr::Exec(runtime) | DbErr::Query(runtime) => match runtime {
            RuntimeErr::SqlxError(error) => sqlx_broken_connection(error),
            _ => false,
        },
        _ => false,
    }
}

fn sqlx_connection_failure(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed)
        || sqlx_broken_connection(error)
}

fn sqlx_broken_connection(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::WorkerCrashed => true,
        // SQLSTATE class 08 (connection exception), and the server shutting the backend down
        // (57P01 admin, 57P02 crash, 57P03 cannot connect now).
        sqlx::Error::Database(error) => error.code().is_some_and(|code| {
            code.starts_with("08") || matches!(code.as_ref(), "57P01" | "57P02" | "57P03")
        }),
        _ => false,
    }
}

/// Whether a failure anywhere in `error`'s chain is the database being unreachable: the request
/// may succeed if tried again shortly.
#[must_use]
pub fn is_unavailable(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<DbErr>()
            .is_some_and(is_connection_failure)
            || cause
                .downcast_ref::<sqlx::Error>()
                .is_some_and(sqlx_connection_failure)
    })
}

#[async_trait::async_trait]
impl ConnectionTrait for Pool {
    fn get_database_backend(&self) -> DbBackend {
        self.inner.get_database_backend()
    }

    async fn execute_raw(&self, stmt: Statement) -> Result<ExecResult, DbErr> {
        self.inner.execute_raw(stmt).await
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        self.inner.execute_unprepared(sql).await
    }

    async fn query_one_raw(&self, stmt: Statement) -> Result<Option<QueryResult>, DbErr> {
        self.read(stmt, |stmt| self.inner.query_one_raw(stmt)).await
    }

    async fn query_all_raw(&self, stmt: Statement) -> Result<Vec<QueryResult>, DbErr> {
        self.read(stmt, |stmt| self.inner.query_all_raw(stmt)).await
    }

    fn support_returning(&self) -> bool {
        self.inner.support_returning()
    }
}

#[async_trait::async_trait]
impl TransactionTrait for Pool {
    type Transaction = DatabaseTransaction;

    /// On SQLite, `BEGIN IMMEDIATE`: every transaction here writes, and one that read first
    /// (deferred) fails at once with "database is locked" when another writer committed since
    /// its read — the busy timeout cannot help a snapshot that is already stale. Taking the
    /// write lock at the start makes writers queue on the busy timeout instead.
    async fn begin(&self) -> Result<DatabaseTransaction, DbErr> {
        match self.inner.get_database_backend() {
            DbBackend::Sqlite => {
                self.inner
                    .begin_with_options(TransactionOptions {
                        sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
                        ..TransactionOptions::default()
                    })
                    .await
            }
            _ => self.inner.begin().await,
        }
    }

    async fn begin_with_config(
        &self,
        isolation_level: Option<IsolationLevel>,
        access_mode: Option<AccessMode>,
    ) -> Result<DatabaseTransaction, DbErr> {
        self.inner
            .begin_with_config(isolation_level, access_mode)
            .await
    }

    async fn begin_with_options(
        &self,
        options: TransactionOptions,
    ) -> Result<DatabaseTransaction, DbErr> {
        self.inner.begin_with_options(options).await
    }

    async fn transaction<F, T, E>(&self, callback: F) -> Result<T, TransactionError<E>>
    where
        F: for<'c> FnOnce(
                &'c DatabaseTransaction,
            ) -> Pin<Box<dyn Future<Output = Result<T, E>> + Send + 'c>>
            + Send,
        T: Send,
        E: std::fmt::Display + std::fmt::Debug + Send,
    {
        self.inner.transaction(callback).await
    }

    async fn transaction_with_config<F, T, E>(
        &self,
        callback: F,
        isolation_level: Option<IsolationLevel>,
        access_mode: Option<AccessMode>,
    ) -> Result<T, TransactionError<E>>
    where
        F: for<'c> FnOnce(
                &'c DatabaseTransaction,
            ) -> Pin<Box<dyn Future<Output = Result<T, E>> + Send + 'c>>
            + Send,
        T: Send,
        E: std::fmt::Display + std::fmt::Debug + Send,
    {
        self.inner
            .transaction_with_config(callback, isolation_level, access_mode)
            .await
    }
}
