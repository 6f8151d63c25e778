//! Fresh databases for tests: a SQLite file in a scratch directory, or a PostgreSQL database
//! cloned from a template migrated once per test run.
//!
//! PostgreSQL comes from `TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/test`).
//! When it cannot be reached, [`postgres_database`] returns `None` and each test that asked says
//! it was skipped, on the terminal (past the harness's output capture, which would hide it in a
//! passing test), unless `REQUIRE_POSTGRES=1` (as in CI), where the test fails.

#![allow(clippy::unwrap_used, clippy::expect_used)]

pub mod files;
pub mod pdf;
mod python;
pub mod s3;
pub mod smtp;

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use rifa_migration::{Migrator, MigratorTrait};
use sea_orm::{ConnectOptions, ConnectionTrait, Database, Statement};
use tokio::sync::{Mutex, OnceCell};

/// A new empty directory under the system's temporary directory.
#[must_use]
pub fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rifa-test-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).expect("failed to create a scratch directory");
    dir
}

/// A new PostgreSQL database with nothing in it (not even the schema), for a restore to fill.
///
/// # Panics
/// When the server cannot be reached: only PostgreSQL tests that got a database already ask.
pub async fn empty_postgres_database() -> String {
    let url = server_url();
    let name = database_name(&uuid::Uuid::new_v4().simple().to_string());
    let conn = Database::connect(&url).await.unwrap();
    conn.execute_unprepared(&format!("CREATE DATABASE \"{name}\" TEMPLATE template0"))
        .await
        .unwrap();
    conn.close().await.unwrap();
    with_database(&url, &name)
}

/// The URL of a SQLite database file in a new scratch directory, and that directory.
#[must_use]
pub fn sqlite_database() -> (String, PathBuf) {
    let dir = scratch_dir();
    (format!("sqlite://{}", dir.join("rifa.db").display()), dir)
}

fn server_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

fn with_database(url: &str, database: &str) -> String {
    let (base, _) = url
        .rsplit_once('/')
        .expect("TEST_DATABASE_URL must end with /database");
    format!("{base}/{database}")
}

/// Databases of earlier runs older than this are dropped; younger ones may belong to a run
/// still going on the same server (another developer, CI).
const STALE_AFTER_SECS: u64 = 6 * 3600;

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `rifa_t_<created, unix seconds>_<unique>`: the age is readable from the name.
fn database_name(unique: &str) -> String {
    format!("rifa_t_{}_{unique}", unix_now())
}

fn is_stale(name: &str) -> bool {
    name.strip_prefix("rifa_t_")
        .and_then(|rest| rest.split('_').next())
        .and_then(|secs| secs.parse::<u64>().ok())
        .is_some_and(|created| unix_now().saturating_sub(created) > STALE_AFTER_SECS)
}

/// The template's name, or why PostgreSQL could not be reached.
static TEMPLATE: OnceCell<Result<String, String>> = OnceCell::const_new();
/// PostgreSQL refuses to clone a template while another clone of it is being made.
static CLONING: Mutex<()> = Mutex::const_new(());

/// Creates (once per run) a migrated template database, dropping what earlier runs left.
async fn template() -> Result<String, String> {
    TEMPLATE
        .get_or_init(|| async {
            let url = server_url();
            // A server that is not there is known in seconds, not after the pool's 30 s.
            let probe = ConnectOptions::new(&url)
                .connect_timeout(Duration::from_secs(5))
                .acquire_timeout(Duration::from_secs(5))
                .to_owned();
            let conn = match Database::connect(probe).await {
                Ok(conn) => conn,
                Err(error) => return Err(error.to_string()),
            };
            let stale = conn
                .query_all_raw(Statement::from_string(
                    conn.get_database_backend(),
                    "SELECT datname FROM pg_database WHERE datname LIKE 'rifa\\_t\\_%'",
                ))
                .await
                .unwrap();
            for row in stale {
                let name: String = row.try_get("", "datname").unwrap();
                if is_stale(&name) {
                    // Best effort: a database still in use is left for a later run.
                    let _ = conn
                        .execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\""))
                        .await;
                }
            }
            let name = database_name(&format!("tmpl{}", std::process::id()));
            conn.execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
                .await
                .unwrap();
            let template = Database::connect(&with_database(&url, &name))
                .await
                .unwrap();
            Migrator::up(&template, None).await.unwrap();
            template.close().await.unwrap();
            Ok(name)
        })
        .await
        .clone()
}

/// The URL of a new, migrated PostgreSQL database, or `None` (after saying this test is
/// skipped) when no server can be reached.
///
/// # Panics
/// When no server can be reached and `REQUIRE_POSTGRES=1`.
pub async fn postgres_database() -> Option<String> {
    let url = server_url();
    let template = match template().await {
        Ok(template) => template,
        Err(error) => {
            let required = std::env::var("REQUIRE_POSTGRES").as_deref() == Ok("1");
            let test = std::thread::current().name().unwrap_or("a test").to_owned();
            match unreachable(&test, &url, &error, required) {
                Ok(notice) => {
                    // Straight to the terminal: `eprintln!` is captured, and shown only on failure.
                    let _ = writeln!(std::io::stderr(), "{notice}");
                    return None;
                }
                Err(failure) => panic!("{failure}"),
            }
        }
    };
    let name = database_name(&uuid::Uuid::new_v4().simple().to_string());
    let _guard = CLONING.lock().await;
    let conn = Database::connect(&url).await.unwrap();
    conn.execute_unprepared(&format!(
        "CREATE DATABASE \"{name}\" TEMPLATE \"{template}\""
    ))
    .await
    .unwrap();
    conn.close().await.unwrap();
    Some(with_database(&url, &name))
}

/// When no PostgreSQL answers: the skip notice to print, or the failure when it is required.
fn unreachable(test: &str, url: &str, error: &str, required: bool) -> Result<String, String> {
    let url = without_password(url);
    if required {
        Err(format!(
            "PostgreSQL is required (REQUIRE_POSTGRES=1) but unreachable at {url}: {error}"
        ))
    } else {
        Ok(format!(
            "SKIPPED {test}: PostgreSQL unreachable at {url} ({error}); REQUIRE_POSTGRES=1 makes this a failure"
        ))
    }
}

/// `postgres://user:pass@host/db` → `postgres://user@host/db`.
fn without_password(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user = url[scheme + 3..at].split(':').next().unwrap_or("");
            format!("{}{user}{}", &url[..scheme + 3], &url[at..])
        }
        _ => url.to_owned(),
    }
}

/// Drops every other connection to the database at `url`, as a restart or an operator would:
/// `pg_terminate_backend` on each. Returns how many were dropped.
pub async fn terminate_other_connections(url: &str) -> usize {
    let conn = Database::connect(url).await.unwrap();
    let rows = conn
        .query_all_raw(Statement::from_string(
            conn.get_database_backend(),
            "SELECT pg_terminate_backend(pid) AS dropped FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        ))
        .await
        .unwrap();
    conn.close().await.unwrap();
    rows.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreachable_server_skips_the_test_out_loud_or_fails_it_when_required() {
        let url = "postgres://rifa:hunter2@127.0.0.1:1/test";

        let skipped = unreachable("catalog::x::postgres", url, "connection refused", false);
        let failed = unreachable("catalog::x::postgres", url, "connection refused", true);

        let notice = skipped.unwrap();
        assert!(
            notice.starts_with("SKIPPED catalog::x::postgres: "),
            "{notice}"
        );
        assert!(
            notice.contains("postgres://rifa@127.0.0.1:1/test"),
            "{notice}"
        );
        assert!(!notice.contains("hunter2"), "{notice}");
        let failure = failed.unwrap_err();
        assert!(failure.contains("REQUIRE_POSTGRES=1"), "{failure}");
        assert!(!failure.contains("hunter2"), "{failure}");
    }
}
