//! Typed configuration from the environment, with defaults that run out of the box.
//!
//! | variable | default | meaning |
//! |---|---|---|
//! | `RIFA_DATA_DIR` | `./data` | where the SQLite file and the generated token secret live |
//! | `DATABASE_URL` | `sqlite://$RIFA_DATA_DIR/rifa.db` | `postgres://…` switches to PostgreSQL |
//! | `RIFA_BIND` | `127.0.0.1:8080` | address the API listens on |
//! | `RIFA_JWT_SECRET` | generated into `$RIFA_DATA_DIR/jwt-secret` | HS256 secret, ≥ 32 bytes |
//! | `RIFA_ACCESS_SECRET` | generated into `$RIFA_DATA_DIR/access-secret` | the secret buyers' keys are derived from, ≥ 32 bytes; every instance needs the same |
//! | `RIFA_SITE_URL` | `http://127.0.0.1:3000` | the public site's address, for the links in e-mails |
//! | `RIFA_DRAND_URL` | `https://api.drand.sh` | the drand relay prizes drawn from a beacon round are fetched from (every round is verified against drand's key) |
//! | `RIFA_HOLD_SWEEP_SECONDS` | `5` | how often expired holds are looked for (1–3600) |
//! | `RIFA_PROOF_CHECK_SECONDS` | `2` | how often attached proofs waiting for their check are looked for (1–3600) |
//! | `RIFA_TOKEN_TTL_HOURS` | `12` | admin token lifetime |
//! | `RIFA_BOOTSTRAP_ADMIN` | `true` on SQLite, `false` on PostgreSQL | with no admin yet, create an owner `admin` and print its generated password once |
//! | `RIFA_DEMO_DATA` | `true` on SQLite, `false` on PostgreSQL | load demo data into an empty database |
//! | `RIFA_DEV_MODE` | `false` | what `GET /api/dev-mode` answers |
//! | `RIFA_TRUST_PROXY` | `false` | behind one proxy: take the client address from the last `X-Forwarded-For` hop (the one the proxy appended; all the header's lines are joined in order first) |
//! | `RIFA_LOOKUPS_PER_MINUTE` | `10` | ticket verifications per client address |
//! | `RIFA_LOGINS_PER_MINUTE` | `5` | failed admin sign-ins per username (across addresses); an address may fail 4 times as often. Successful sign-ins are not counted |
//! | `RIFA_PURCHASES_PER_MINUTE` | `60` | purchases per client address (many buyers can share one carrier address) |
//! | `RIFA_DB_MAX_CONNECTIONS` | `20` (PostgreSQL) / `8` (SQLite) | connection pool size |
//! | `RIFA_WORKERS` | number of cores | HTTP worker threads |
//! | `RIFA_LOG_FORMAT` | `pretty` | `json` for one JSON object per line |
//! | `RIFA_METRICS_TOKEN` | none (metrics off) | serves Prometheus metrics at `/metrics` to a scraper sending it as its bearer token (≥ 16 characters) |
//! | `RIFA_BODY_READ_TIMEOUT_SECONDS` | `10` | longest pause while a request body arrives (408 after it) |
//! | `RIFA_BODY_TOTAL_TIMEOUT_SECONDS` | `60` | longest a whole request body (a proof upload) may take (408 after it) |
//! | `RIFA_STORAGE` | `local` | where payment proofs live: `local` (`$RIFA_DATA_DIR/uploads`, served by the API through signed URLs) or `s3` |
//! | `RIFA_S3_BUCKET` | none (required for `s3`) | bucket of the proofs (private; browsers need CORS allowing `PUT` from the site) |
//! | `RIFA_S3_REGION` | `us-east-1` | its region |
//! | `RIFA_S3_ENDPOINT` | AWS | another S3-compatible endpoint (MinIO, R2, Spaces…) |
//! | `RIFA_S3_PATH_STYLE` | `false` | path-style URLs (most non-AWS stores) |
//! | `RIFA_S3_ACCESS_KEY_ID`, `RIFA_S3_SECRET_ACCESS_KEY` | none (required for `s3`) | credentials |
//! | `RIFA_SMTP_HOST` | none | SMTP server used when the admins have not saved e-mail settings; with neither, e-mails go to `$RIFA_DATA_DIR/outbox/*.eml` |
//! | `RIFA_SMTP_PORT` | `587` | its port |
//! | `RIFA_SMTP_USER`, `RIFA_SMTP_PASSWORD` | none | its login |
//! | `RIFA_SMTP_FROM` | the user | sender address |
//! | `RIFA_SMTP_SECURITY` | by port: `tls` on 465, else `starttls` | `starttls`, `tls` or `plain` (plain only for a relay on the same host) |
//! | `RIFA_SMTP_TIMEOUT_SECONDS` | `15` | how long connecting to the SMTP server, and a whole delivery, may take before the message is retried later |
//! | `RIFA_MAIL_RETRY_SECONDS` | `30` | wait after a failed delivery; doubles per attempt up to 6 hours, 12 attempts in all |
//! | `RIFA_MAIL_DELIVERY` | `true` | `false`: this instance only queues e-mails and leaves delivery to the instances that deliver (e.g. keep PDF rendering off the instances taking purchases) |
//! | `RIFA_MAIL_POLL_SECONDS` | `5` | how often the outbox is checked for retries and other instances' messages |
//! | `RIFA_MAIL_PER_RECIPIENT_HOUR` | `5` | purchase confirmations one address receives per UTC hour; more are withheld (shown in the outbox) |
//! | `RIFA_MAIL_PER_RECIPIENT_DAY` | `20` | the same per UTC day |
//! | `RIFA_MAIL_WAIT_FOR_PROOF_SECONDS` | `120` | how long a purchase's confirmation waits for the proof uploaded right after buying, so it can say whether it arrived (sent at once when it does) |

use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use rifa_app::mail::RetryPolicy;
use rifa_domain::email_settings::{DEFAULT_SMTP_PORT, EmailSettings};
use rifa_mail::{SmtpOptions, SmtpSecurity};
use rifa_ports::RecipientCaps;
use rifa_storage::S3Config;
use secrecy::SecretString;

#[derive(Clone)]
pub struct Config {
    pub data_dir: PathBuf,
    pub database_url: String,
    pub bind: SocketAddr,
    pub jwt_secret: SecretString,
    /// What buyers' access keys are derived from.
    pub access_secret: SecretString,
    /// The public site, for absolute links.
    pub site_url: String,
    /// The drand relay beacon rounds are fetched from.
    pub drand_url: String,
    /// How often expired holds are swept.
    pub hold_sweep_every: Duration,
    /// How often proofs waiting for their check are looked for.
    pub proof_check_every: Duration,
    pub token_ttl: Duration,
    pub bootstrap_admin: bool,
    pub demo_data: bool,
    pub dev_mode: bool,
    pub trust_proxy: bool,
    pub lookups_per_minute: u32,
    pub logins_per_minute: u32,
    pub purchases_per_minute: u32,
    pub db_max_connections: u32,
    pub workers: usize,
    pub mail: MailConfig,
    pub storage: StorageConfig,
    pub live: LiveTimings,
    pub upload_sweep: UploadSweep,
    pub body_timeouts: BodyTimeouts,
    /// The bearer token `/metrics` asks for; `None` turns metrics off.
    pub metrics_token: Option<SecretString>,
}

/// How long a request body may take: the longest pause between two pieces of it, and the whole
/// of it. The total is also the longest upload allowed: partial uploads older than that were
/// left by a crash. Tests shorten them to trickle in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyTimeouts {
    pub read: Duration,
    pub total: Duration,
}

impl Default for BodyTimeouts {
    /// A 5 MB proof in 60 s needs about 700 kbit/s; a pause of 10 s is a stalled client.
    fn default() -> Self {
        Self {
            read: Duration::from_secs(10),
            total: Duration::from_secs(60),
        }
    }
}

impl BodyTimeouts {
    fn from_env() -> anyhow::Result<Self> {
        let read = seconds("RIFA_BODY_READ_TIMEOUT_SECONDS", 10, 1..=3_600)?;
        let total = seconds("RIFA_BODY_TOTAL_TIMEOUT_SECONDS", 60, 1..=3_600)?;
        Ok(Self {
            read: Duration::from_secs(u64::from(read)),
            total: Duration::from_secs(u64::from(total)),
        })
    }
}

/// When proof uploads nobody attached are deleted, and how often the API looks for them. Fixed
/// in production; tests shorten them to see the sweep at work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UploadSweep {
    pub abandoned_after: Duration,
    pub every: Duration,
}

impl Default for UploadSweep {
    fn default() -> Self {
        Self {
            abandoned_after: rifa_app::proofs::ABANDONED_UPLOAD_AGE,
            every: Duration::from_secs(60 * 60),
        }
    }
}

/// The live connection's clock: how long a client has to authenticate, how often it is pinged,
/// and how long it may stay silent before it is dropped as dead. Fixed in production; tests
/// shorten them to see the heartbeat at work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveTimings {
    pub auth_timeout: Duration,
    pub ping_every: Duration,
    pub idle_limit: Duration,
    /// How often a connection checks that its session still lives: a revoked session's
    /// connection closes within this.
    pub session_check: Duration,
}

impl Default for LiveTimings {
    fn default() -> Self {
        Self {
            auth_timeout: Duration::from_secs(10),
            ping_every: Duration::from_secs(20),
            idle_limit: Duration::from_secs(60),
            session_check: Duration::from_secs(1),
        }
    }
}

/// Where payment proofs live.
#[derive(Clone, Debug)]
pub enum StorageConfig {
    /// A directory the API serves uploads into and proofs from, through signed URLs.
    Local(PathBuf),
    S3(S3Config),
}

impl StorageConfig {
    fn from_env(data_dir: &Path) -> anyhow::Result<Self> {
        match var("RIFA_STORAGE").as_deref().unwrap_or("local") {
            "local" => Ok(Self::Local(data_dir.join("uploads"))),
            "s3" => {
                let required = |name: &str| {
                    var(name).with_context(|| format!("{name} is required with RIFA_STORAGE=s3"))
                };
                Ok(Self::S3(S3Config {
                    bucket: required("RIFA_S3_BUCKET")?,
                    region: var("RIFA_S3_REGION").unwrap_or_else(|| "us-east-1".to_owned()),
                    endpoint_url: var("RIFA_S3_ENDPOINT"),
                    force_path_style: flag("RIFA_S3_PATH_STYLE")?.unwrap_or(false),
                    access_key_id: required("RIFA_S3_ACCESS_KEY_ID")?,
                    secret_access_key: required("RIFA_S3_SECRET_ACCESS_KEY")?.into(),
                    conditional_writes: true,
                }))
            }
            other => bail!("RIFA_STORAGE must be local or s3, not {other:?}"),
        }
    }
}

/// How the buyer's e-mails leave.
#[derive(Clone, Debug)]
pub struct MailConfig {
    /// The SMTP server from the environment; e-mail settings saved by admins take precedence.
    pub env_settings: Option<EmailSettings>,
    pub smtp: SmtpOptions,
    /// Where messages are written when no SMTP server is configured.
    pub outbox_dir: PathBuf,
    pub retry: RetryPolicy,
    pub poll: Duration,
    /// Whether this instance runs the delivery worker.
    pub deliver: bool,
    pub recipient_caps: RecipientCaps,
    /// How long a purchase's confirmation waits for the proof uploaded right after buying.
    pub received_proof_wait: chrono::TimeDelta,
}

impl MailConfig {
    fn from_env(data_dir: &Path) -> anyhow::Result<Self> {
        let env_settings = var("RIFA_SMTP_HOST")
            .map(|host| -> anyhow::Result<EmailSettings> {
                let user = var("RIFA_SMTP_USER").unwrap_or_default();
                Ok(EmailSettings {
                    host,
                    port: number("RIFA_SMTP_PORT")?.unwrap_or(DEFAULT_SMTP_PORT),
                    from_email: var("RIFA_SMTP_FROM").unwrap_or_else(|| user.clone()),
                    user,
                    password: var("RIFA_SMTP_PASSWORD").map(SecretString::from),
                })
            })
            .transpose()?;
        let security = var("RIFA_SMTP_SECURITY")
            .map(|v| {
                v.parse::<SmtpSecurity>().map_err(|_| {
                    anyhow::anyhow!("RIFA_SMTP_SECURITY must be starttls, tls or plain, not {v:?}")
                })
            })
            .transpose()?;
        let timeout = seconds("RIFA_SMTP_TIMEOUT_SECONDS", 15, 1..=600)?;
        Ok(Self {
            env_settings,
            smtp: SmtpOptions {
                security,
                ..SmtpOptions::with_timeout(Duration::from_secs(u64::from(timeout)))
            },
            outbox_dir: data_dir.join("outbox"),
            retry: RetryPolicy {
                first_delay: chrono::TimeDelta::seconds(i64::from(seconds(
                    "RIFA_MAIL_RETRY_SECONDS",
                    30,
                    1..=21_600,
                )?)),
                ..RetryPolicy::default()
            },
            poll: Duration::from_secs(u64::from(seconds("RIFA_MAIL_POLL_SECONDS", 5, 1..=3_600)?)),
            deliver: flag("RIFA_MAIL_DELIVERY")?.unwrap_or(true),
            recipient_caps: RecipientCaps {
                per_hour: cap(
                    "RIFA_MAIL_PER_RECIPIENT_HOUR",
                    RecipientCaps::default().per_hour,
                )?,
                per_day: cap(
                    "RIFA_MAIL_PER_RECIPIENT_DAY",
                    RecipientCaps::default().per_day,
                )?,
            },
            received_proof_wait: chrono::TimeDelta::seconds(i64::from(seconds(
                "RIFA_MAIL_WAIT_FOR_PROOF_SECONDS",
                120,
                0..=3_600,
            )?)),
        })
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("data_dir", &self.data_dir)
            .field("database", &redact_url(&self.database_url))
            .field("bind", &self.bind)
            .field("jwt_secret", &self.jwt_secret)
            .field("access_secret", &self.access_secret)
            .field("bootstrap_admin", &self.bootstrap_admin)
            .field("demo_data", &self.demo_data)
            .field("dev_mode", &self.dev_mode)
            .field("mail", &self.mail)
            .field("storage", &self.storage)
            .finish_non_exhaustive()
    }
}

/// `postgres://user:pass@host/db` → `postgres://user:***@host/db`, for logs.
fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            let user = credentials.split(':').next().unwrap_or("");
            format!("{}{user}:***{}", &url[..scheme + 3], &url[at..])
        }
        _ => url.to_owned(),
    }
}

fn metrics_token() -> anyhow::Result<Option<SecretString>> {
    match var("RIFA_METRICS_TOKEN") {
        Some(token) if token.chars().count() < 16 => {
            bail!("RIFA_METRICS_TOKEN must be at least 16 characters")
        }
        token => Ok(token.map(SecretString::from)),
    }
}

fn var(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

fn flag(name: &str) -> anyhow::Result<Option<bool>> {
    var(name)
        .map(|v| match v.to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" | "on" => Ok(true),
            "0" | "false" | "no" | "off" => Ok(false),
            other => bail!("{name} must be true or false, not {other:?}"),
        })
        .transpose()
}

fn number<T: std::str::FromStr>(name: &str) -> anyhow::Result<Option<T>> {
    var(name)
        .map(|v| {
            v.parse::<T>()
                .map_err(|_| anyhow::anyhow!("{name} must be a number, not {v:?}"))
        })
        .transpose()
}

/// A cap on e-mails from the environment, `default` when unset: at least 1 (a buyer is always
/// told of their first purchase).
fn cap(name: &str, default: u32) -> anyhow::Result<u32> {
    match number::<u32>(name)? {
        Some(0) => bail!("{name} must be at least 1"),
        value => Ok(value.unwrap_or(default)),
    }
}

/// A number of seconds from the environment, `default` when unset, refused outside `range`
/// (a zero poll would spin; a huge delay would overflow the clock).
fn seconds(name: &str, default: u32, range: RangeInclusive<u32>) -> anyhow::Result<u32> {
    seconds_from(name, var(name).as_deref(), default, range)
}

fn seconds_from(
    name: &str,
    raw: Option<&str>,
    default: u32,
    range: RangeInclusive<u32>,
) -> anyhow::Result<u32> {
    let Some(raw) = raw else {
        return Ok(default);
    };
    raw.parse::<u32>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            anyhow::anyhow!(
                "{name} must be a whole number of seconds from {} to {}, not {raw:?}",
                range.start(),
                range.end()
            )
        })
}

impl Config {
    /// Reads the environment.
    ///
    /// # Errors
    /// A malformed variable, or a data directory that cannot be created.
    pub fn from_env() -> anyhow::Result<Self> {
        let data_dir = PathBuf::from(var("RIFA_DATA_DIR").unwrap_or_else(|| "data".to_owned()));
        create_private_dir(&data_dir).with_context(|| {
            format!("failed to create the data directory {}", data_dir.display())
        })?;
        let database_url = var("DATABASE_URL").unwrap_or_else(|| sqlite_url(&data_dir));
        let postgres = database_url.starts_with("postgres");
        let jwt_secret = match var("RIFA_JWT_SECRET") {
            Some(secret) => SecretString::from(secret),
            None => persisted_secret(&data_dir, "jwt-secret")?,
        };
        let access_secret = match var("RIFA_ACCESS_SECRET") {
            Some(secret) if secret.len() >= 32 => SecretString::from(secret),
            Some(_) => bail!("RIFA_ACCESS_SECRET must be at least 32 bytes"),
            None => persisted_secret(&data_dir, "access-secret")?,
        };
        Ok(Self {
            bind: var("RIFA_BIND")
                .unwrap_or_else(|| "127.0.0.1:8080".to_owned())
                .parse()
                .context("RIFA_BIND must be an address like 127.0.0.1:8080")?,
            token_ttl: Duration::from_secs(
                number::<u64>("RIFA_TOKEN_TTL_HOURS")?.unwrap_or(12) * 3600,
            ),
            bootstrap_admin: flag("RIFA_BOOTSTRAP_ADMIN")?.unwrap_or(!postgres),
            demo_data: flag("RIFA_DEMO_DATA")?.unwrap_or(!postgres),
            dev_mode: flag("RIFA_DEV_MODE")?.unwrap_or(false),
            trust_proxy: flag("RIFA_TRUST_PROXY")?.unwrap_or(false),
            metrics_token: metrics_token()?,
            lookups_per_minute: number("RIFA_LOOKUPS_PER_MINUTE")?.unwrap_or(10),
            logins_per_minute: number("RIFA_LOGINS_PER_MINUTE")?.unwrap_or(5),
            purchases_per_minute: number("RIFA_PURCHASES_PER_MINUTE")?.unwrap_or(60),
            db_max_connections: number("RIFA_DB_MAX_CONNECTIONS")?.unwrap_or(if postgres {
                20
            } else {
                8
            }),
            workers: number("RIFA_WORKERS")?
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, usize::from)),
            mail: MailConfig::from_env(&data_dir)?,
            storage: StorageConfig::from_env(&data_dir)?,
            live: LiveTimings::default(),
            upload_sweep: UploadSweep::default(),
            body_timeouts: BodyTimeouts::from_env()?,
            site_url: var("RIFA_SITE_URL").unwrap_or_else(|| "http://127.0.0.1:3000".to_owned()),
            drand_url: var("RIFA_DRAND_URL").unwrap_or_else(|| "https://api.drand.sh".to_owned()),
            hold_sweep_every: Duration::from_secs(u64::from(seconds(
                "RIFA_HOLD_SWEEP_SECONDS",
                5,
                1..=3_600,
            )?)),
            proof_check_every: Duration::from_secs(u64::from(seconds(
                "RIFA_PROOF_CHECK_SECONDS",
                2,
                1..=3_600,
            )?)),
            data_dir,
            database_url,
            jwt_secret,
            access_secret,
        })
    }

    /// A configuration for tests: port 0, the given database, a fixed secret, no demo data and
    /// generous rate limits and e-mail caps (tests that exercise the limits lower them).
    #[must_use]
    pub fn for_tests(database_url: String, data_dir: PathBuf) -> Self {
        Self {
            database_url,
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            jwt_secret: SecretString::from("test-secret-test-secret-test-secret!"),
            access_secret: SecretString::from("test-access-secret-test-access-secret"),
            site_url: "http://site.test".to_owned(),
            // Nothing listens there: a test that fetches a round starts its own relay.
            drand_url: "http://127.0.0.1:9".to_owned(),
            hold_sweep_every: Duration::from_millis(200),
            proof_check_every: Duration::from_millis(200),
            token_ttl: Duration::from_secs(3600),
            bootstrap_admin: true,
            demo_data: false,
            dev_mode: false,
            trust_proxy: false,
            metrics_token: None,
            lookups_per_minute: 10_000,
            logins_per_minute: 10_000,
            purchases_per_minute: 10_000,
            db_max_connections: 8,
            workers: 2,
            mail: MailConfig {
                env_settings: None,
                smtp: SmtpOptions::default(),
                outbox_dir: data_dir.join("outbox"),
                retry: RetryPolicy {
                    first_delay: chrono::TimeDelta::milliseconds(200),
                    ..RetryPolicy::default()
                },
                poll: Duration::from_millis(200),
                deliver: true,
                recipient_caps: RecipientCaps {
                    per_hour: 10_000,
                    per_day: 10_000,
                },
                // Tests that mean to wait for a proof say so.
                received_proof_wait: chrono::TimeDelta::zero(),
            },
            storage: StorageConfig::Local(data_dir.join("uploads")),
            live: LiveTimings::default(),
            upload_sweep: UploadSweep::default(),
            body_timeouts: BodyTimeouts::default(),
            data_dir,
        }
    }
}

fn sqlite_url(data_dir: &Path) -> String {
    format!("sqlite://{}", data_dir.join("rifa.db").display())
}

/// Reads a generated secret (the token secret, the access secret), creating it (readable by the
/// owner only) on first run, so sessions and buyers' links survive restarts without any setup.
fn persisted_secret(data_dir: &Path, name: &str) -> anyhow::Result<SecretString> {
    let path = data_dir.join(name);
    if let Ok(existing) = std::fs::read_to_string(&path) {
        let existing = existing.trim();
        if existing.len() >= 32 {
            return Ok(SecretString::from(existing));
        }
    }
    let secret = rifa_security::random_token(48);
    let mut file = std::fs::OpenOptions::new();
    file.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut file, 0o600);
    std::io::Write::write_all(
        &mut file
            .open(&path)
            .with_context(|| format!("failed to create {}", path.display()))?,
        secret.as_bytes(),
    )
    .with_context(|| format!("failed to write {}", path.display()))?;
    #[cfg(unix)]
    {
        // A file left by an older version may be readable by others.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
            .with_context(|| format!("failed to restrict {}", path.display()))?;
    }
    Ok(SecretString::from(secret))
}

/// Creates `dir` and any missing parent readable by the owner only, whatever the umask: it
/// holds the database, the token secret, e-mails and payment proofs. A directory that exists
/// is left as the operator made it.
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_counts_are_whole_and_in_range() {
        let read = |raw| seconds_from("RIFA_MAIL_RETRY_SECONDS", raw, 30, 1..=21_600);
        assert_eq!(read(None).unwrap(), 30);
        assert_eq!(read(Some("90")).unwrap(), 90);
        for bad in ["0", "-5", "21601", "99999999999999999999", "1.5", "soon"] {
            let error = read(Some(bad)).unwrap_err().to_string();
            assert!(
                error.contains(
                    "RIFA_MAIL_RETRY_SECONDS must be a whole number of seconds from 1 to 21600"
                ),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn database_passwords_never_reach_the_logs() {
        assert_eq!(
            redact_url("postgres://rifa:hunter2@db:5432/rifa"),
            "postgres://rifa:***@db:5432/rifa"
        );
        assert_eq!(redact_url("sqlite://data/rifa.db"), "sqlite://data/rifa.db");
    }

    #[test]
    fn secrets_in_the_configuration_print_as_redacted() {
        let mut config = Config::for_tests(
            "postgres://rifa:db-pass@db:5432/rifa".to_owned(),
            PathBuf::from("data"),
        );
        config.mail.env_settings = Some(EmailSettings {
            password: Some(SecretString::from("smtp-pass")),
            ..EmailSettings::default()
        });
        config.storage = StorageConfig::S3(S3Config {
            bucket: "proofs".to_owned(),
            region: "us-east-1".to_owned(),
            endpoint_url: None,
            force_path_style: true,
            access_key_id: "AKIDEXAMPLE".to_owned(),
            secret_access_key: SecretString::from("s3-secret"),
            conditional_writes: true,
        });

        let printed = format!("{config:?}");

        for secret in [
            "db-pass",
            "test-secret-test-secret",
            "test-access-secret",
            "smtp-pass",
            "s3-secret",
        ] {
            assert!(!printed.contains(secret), "{secret} in {printed}");
        }
        assert_eq!(printed.matches("[REDACTED]").count(), 4, "{printed}");
    }
}
