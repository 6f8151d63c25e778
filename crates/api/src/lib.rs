//! Rifa's HTTP API: the actix-web server and the composition root that wires the adapters into
//! the use cases. `main.rs` only parses the command line and calls into here, so integration
//! tests start the very same server on port 0.

pub mod backup;
mod body_timeout;
pub mod config;
mod demo;
mod dto;
mod error;
mod events;
mod extract;
pub mod first_admin;
mod hold_sweeper;
mod lang;
mod mail_worker;
mod metrics;
mod openapi;
mod proof_checker;
mod rate_limit;
mod routes;
pub mod telemetry;
mod upload_sweeper;
pub mod verify_draw;

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::middleware::from_fn;
use actix_web::{App as HttpApp, HttpServer, web};
use anyhow::Context;
use rifa_app::Shared;
use rifa_app::audit::{Audit, AuditService};
use rifa_app::auth::{Auth, AuthService};
use rifa_app::buyer::{Buyer, BuyerService};
use rifa_app::catalog::{Catalog, CatalogService};
use rifa_app::draws::{DrawService, Draws};
use rifa_app::export::{Export, ExportService};
use rifa_app::holds::{Holds, HoldsService};
use rifa_app::links::SiteLinks;
use rifa_app::lookup::{Lookup, LookupService};
use rifa_app::mail::{Mail, MailService, MailSetup};
use rifa_app::payments::{Payments, PaymentsService};
use rifa_app::photos::{Photos, PhotosService};
use rifa_app::proof_checks::{ProofCheckService, ProofChecking};
use rifa_app::proof_queue::{ProofQueue, ProofQueueService};
use rifa_app::proofs::{ProofUploads, Proofs, ProofsService};
use rifa_app::purchasing::{Purchasing, PurchasingService};
use rifa_app::receipts::{Receipts, ReceiptsService};
use rifa_app::review::{Review, ReviewService};
use rifa_app::settings::{Settings, SettingsService};
use rifa_app::staff::{Staff, StaffService};
use rifa_db::Db;
use rifa_drand::HttpBeacon;
use rifa_mail::{ConfiguredTransports, MailTemplates};
use rifa_pdf::{GenPdfReceipts, HtmlInvoices};
use rifa_ports::{AdminRepository, Clock, KnownDevices};
use rifa_proofs::{DecodingInspector, FileExaminer, ProgramReader};
use rifa_security::{Argon2Hasher, HmacAccessKeys, JwtIssuer, JwtKnownDevices};
use rifa_storage::{LocalStore, ProofStore, S3Store};
use rifa_system::{RandomReferences, RandomSalts, SystemClock};
use secrecy::{ExposeSecret, SecretString};

pub use crate::config::Config;
use crate::events::Events;
use crate::first_admin::FirstAdminPassword;
use crate::rate_limit::RateLimits;

/// Sign-in and sessions over this binary's adapters.
pub type AdminAccounts = Auth<Db, Arc<Argon2Hasher>, JwtIssuer, SystemClock>;

/// Staff accounts over this binary's adapters: the one service the command line uses too.
pub type StaffAccounts = Staff<Db, Arc<Argon2Hasher>, SystemClock>;

/// What every handler can reach: the use cases, each behind its inbound trait, and the
/// server's own settings.
pub struct AppState {
    pub catalog: Arc<dyn CatalogService>,
    pub payments: Arc<dyn PaymentsService>,
    pub purchasing: Arc<dyn PurchasingService>,
    pub proofs: Arc<dyn ProofsService>,
    pub proof_uploads: Arc<dyn ProofUploads>,
    pub receipts: Arc<dyn ReceiptsService>,
    pub review: Arc<dyn ReviewService>,
    pub export: Arc<dyn ExportService>,
    pub holds: Arc<dyn HoldsService>,
    pub draws: Arc<dyn DrawService>,
    pub photos: Arc<dyn PhotosService>,
    pub proof_checks: Arc<dyn ProofCheckService>,
    pub proof_queue: Arc<dyn ProofQueueService>,
    pub buyer: Arc<dyn BuyerService>,
    pub lookup: Arc<dyn LookupService>,
    pub mail: Arc<dyn MailService>,
    pub auth: Arc<dyn AuthService>,
    pub staff: Arc<dyn StaffService>,
    pub audit: Arc<dyn AuditService>,
    pub settings: Arc<dyn SettingsService>,
    /// What live connections subscribe to.
    pub events: Events,
    /// For the readiness probe only.
    pub db: Db,
    pub limits: RateLimits,
    /// Browsers that signed in to an account before (decision 0026).
    pub known_devices: Arc<dyn KnownDevices>,
    /// Whether the site is served over HTTPS: the device cookie is then `Secure`.
    pub secure_cookies: bool,
    pub dev_mode: bool,
    pub trust_proxy: bool,
    pub live: config::LiveTimings,
    pub first_admin_password: FirstAdminPassword,
    pub body_timeouts: config::BodyTimeouts,
    /// `None`: metrics are off (no token configured).
    pub metrics: Option<metrics::MetricsEndpoint>,
}

/// The proof store the configuration names.
///
/// # Errors
/// When the local directory cannot be created.
fn proof_store(config: &Config) -> anyhow::Result<ProofStore> {
    Ok(match &config.storage {
        config::StorageConfig::Local(dir) => {
            LocalStore::new(dir, config.jwt_secret.expose_secret().as_bytes())?.into()
        }
        config::StorageConfig::S3(s3) => S3Store::new(s3.clone()).into(),
    })
}

/// Partial uploads older than the longest upload allowed were left by a crash: nothing else
/// would ever delete them.
fn remove_stale_partial_uploads(proofs: &ProofStore, longest_upload: std::time::Duration) {
    let Some(local) = proofs.local() else {
        return;
    };
    match local.remove_stale_partial_uploads(longest_upload) {
        Ok(0) => {}
        Ok(removed) => tracing::info!(removed, "partial uploads left by a crash deleted"),
        Err(error) => tracing::warn!(%error, "partial uploads could not be listed"),
    }
}

/// A connected, migrated database.
///
/// # Errors
/// When the database is unreachable.
pub(crate) async fn database(config: &Config) -> anyhow::Result<Db> {
    Ok(Db::connect(&config.database_url, config.db_max_connections)
        .await?
        .with_mail_caps(config.mail.recipient_caps)
        .with_received_proof_wait(config.mail.received_proof_wait))
}

/// Keeps SQLite's planner statistics fresh as purchases accumulate (a no-op on PostgreSQL).
fn spawn_planner_statistics(db: Db) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(3600));
        tick.tick().await;
        loop {
            tick.tick().await;
            if let Err(error) = db.refresh_planner_statistics().await {
                tracing::warn!(
                    error = format!("{error:#}"),
                    "planner statistics not refreshed"
                );
            }
        }
    });
}

fn admin_accounts_on(
    db: Db,
    hasher: &Arc<Argon2Hasher>,
    config: &Config,
    shared: &Shared,
) -> anyhow::Result<AdminAccounts> {
    Ok(Auth::new(
        db,
        Arc::clone(hasher),
        JwtIssuer::new(
            config.jwt_secret.expose_secret().as_bytes(),
            config.token_ttl,
        )?,
        SystemClock,
        shared,
    ))
}

/// Passwords an owner hands over (and the first admin's): 18 random characters, 108 bits.
fn generated_password() -> String {
    rifa_security::random_token(18)
}

fn staff_accounts_on(db: Db, hasher: &Arc<Argon2Hasher>, shared: &Shared) -> StaffAccounts {
    Staff::new(
        db,
        Arc::clone(hasher),
        SystemClock,
        shared,
        generated_password,
    )
}

/// The audit trail on the configured database, for the command line.
///
/// # Errors
/// When the database is unreachable.
pub async fn audit_trail(config: &Config) -> anyhow::Result<Audit<Db>> {
    Ok(Audit::new(database(config).await?))
}

/// Staff accounts on the configured database, for the command line.
///
/// # Errors
/// When the database is unreachable or the password hasher cannot be set up.
pub async fn staff_accounts(config: &Config) -> anyhow::Result<StaffAccounts> {
    let hasher = Arc::new(Argon2Hasher::new()?);
    Ok(staff_accounts_on(
        database(config).await?,
        &hasher,
        &Shared::default(),
    ))
}

/// The composition root: every service over this binary's adapters, sharing one set of caches.
///
/// # Errors
/// When the proof store, the PDF renderer or the token issuer cannot be set up.
fn state(
    config: &Config,
    shared: &Shared,
    db: Db,
    events: Events,
    accounts: (Arc<AdminAccounts>, Arc<StaffAccounts>),
    first_admin_password: FirstAdminPassword,
    clock: Arc<dyn Clock>,
) -> anyhow::Result<AppState> {
    let (auth, staff) = accounts;
    let access_keys = Arc::new(HmacAccessKeys::new(
        config.access_secret.expose_secret().as_bytes(),
    )?);
    let proof_store = Arc::new(proof_store(config)?);
    remove_stale_partial_uploads(&proof_store, config.body_timeouts.total);
    let pdf = Arc::new(GenPdfReceipts::new()?);
    let proof_checks = Arc::new(ProofChecking::new(
        db.clone(),
        Arc::clone(&proof_store),
        FileExaminer,
        ProgramReader::detect(),
        Arc::clone(&clock),
    ));
    // Photos share the proofs' store, under their own prefix.
    let photos = Arc::new(Photos::new(
        Arc::clone(&proof_store),
        rifa_photos::Photos,
        shared.cpu.clone(),
    ));
    let proofs = Arc::new(Proofs::new(
        db.clone(),
        Arc::clone(&proof_store),
        DecodingInspector,
        proof_store,
        Arc::clone(&access_keys),
        Arc::clone(&clock),
        shared,
    ));
    let transports = ConfiguredTransports {
        env_settings: config.mail.env_settings.clone(),
        smtp: config.mail.smtp.clone(),
        outbox_dir: config.mail.outbox_dir.clone(),
    };
    Ok(AppState {
        catalog: Arc::new(Catalog::new(db.clone(), Arc::clone(&clock), shared)),
        payments: Arc::new(Payments::new(db.clone(), Arc::clone(&clock), shared)),
        purchasing: Arc::new(Purchasing::new(
            db.clone(),
            events.clone(),
            Arc::clone(&access_keys),
            RandomReferences,
            Arc::clone(&clock),
            shared,
        )),
        proof_uploads: proofs.clone(),
        proofs,
        receipts: Arc::new(Receipts::new(
            db.clone(),
            Arc::clone(&pdf),
            HtmlInvoices,
            Arc::clone(&access_keys),
            Arc::clone(&clock),
            shared,
        )),
        review: Arc::new(Review::new(db.clone(), Arc::clone(&clock), shared)),
        export: Arc::new(Export::new(db.clone(), shared)),
        holds: Arc::new(Holds::new(db.clone(), Arc::clone(&clock), shared)),
        proof_checks,
        photos,
        proof_queue: Arc::new(ProofQueue::new(db.clone(), Arc::clone(&clock), shared)),
        audit: Arc::new(Audit::new(db.clone())),
        draws: Arc::new(Draws::new(
            db.clone(),
            RandomSalts,
            HttpBeacon::new(&config.drand_url)?,
            Arc::clone(&pdf),
            Arc::clone(&clock),
            SiteLinks::new(&config.site_url),
            shared,
        )),
        buyer: Arc::new(Buyer::new(
            db.clone(),
            Arc::clone(&access_keys),
            Arc::clone(&clock),
            shared,
        )),
        lookup: Arc::new(Lookup::new(db.clone(), shared)),
        mail: Arc::new(Mail::new(
            db.clone(),
            transports,
            pdf,
            MailTemplates,
            access_keys,
            Arc::clone(&clock),
            MailSetup {
                retry: config.mail.retry,
                links: SiteLinks::new(&config.site_url),
            },
            shared,
        )),
        auth,
        staff,
        settings: Arc::new(Settings::new(db.clone(), Arc::clone(&clock), shared)),
        events,
        db,
        known_devices: Arc::new(JwtKnownDevices::new(
            config.access_secret.expose_secret().as_bytes(),
            KNOWN_DEVICE_LIFE,
        )?),
        secure_cookies: config.site_url.starts_with("https://"),
        limits: RateLimits::new(
            config.lookups_per_minute,
            config.logins_per_minute,
            config.purchases_per_minute,
        ),
        dev_mode: config.dev_mode,
        trust_proxy: config.trust_proxy,
        live: config.live,
        first_admin_password,
        body_timeouts: config.body_timeouts,
        metrics: metrics::install(config.metrics_token.as_ref())?,
    })
}

/// How long a browser stays known to an account after it signed in (decision 0026).
const KNOWN_DEVICE_LIFE: std::time::Duration = std::time::Duration::from_secs(180 * 24 * 3600);

/// A bound, not yet running, server.
pub struct Application {
    port: u16,
    server: Server,
    first_admin: Option<(String, SecretString)>,
    first_admin_password: FirstAdminPassword,
}

impl Application {
    /// Binds the listener, then connects, migrates, and creates the first admin (its password
    /// kept in a file until it signs in) and the demo data when the database is new.
    ///
    /// # Errors
    /// Any failure to bind the address or reach the database.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        // First: a port in use must stop the start before a first admin is created.
        let listener = TcpListener::bind(config.bind)
            .with_context(|| format!("failed to bind {}", config.bind))?;
        let port = listener
            .local_addr()
            .context("failed to read the bound address")?
            .port();
        let db = database(&config).await?;
        let events = Events::for_database(&db).await?;
        let shared = Shared::default();
        let hasher = Arc::new(Argon2Hasher::new()?);
        let auth = Arc::new(admin_accounts_on(db.clone(), &hasher, &config, &shared)?);
        let staff = Arc::new(staff_accounts_on(db.clone(), &hasher, &shared));
        let first_admin_password = FirstAdminPassword::in_dir(&config.data_dir);
        let first_admin = if config.bootstrap_admin {
            staff
                .ensure_first_admin()
                .await?
                .map(|(admin, password)| (admin.username, SecretString::from(password)))
        } else {
            None
        };
        if let Some((username, password)) = &first_admin {
            first_admin_password.keep(username, password.expose_secret())?;
        }
        if db.count_admins().await? == 0 {
            tracing::warn!(
                "no admin exists yet: create one with `rifa-api create-admin --username NAME --role owner`"
            );
        }
        // The demo tells a finished raffle's past: its clock can be turned back while it seeds.
        let seeding = (config.demo_data && db.is_empty().await?)
            .then(|| Arc::new(demo::SeedingClock::default()));
        let clock: Arc<dyn Clock> = match &seeding {
            Some(seeding) => Arc::clone(seeding) as Arc<dyn Clock>,
            None => Arc::new(SystemClock),
        };
        let state = state(
            &config,
            &shared,
            db.clone(),
            events,
            (auth, staff),
            first_admin_password.clone(),
            clock,
        )?;
        if let Some(clock) = seeding {
            demo::load(&state, &db, &clock)
                .await
                .context("failed to load demo data")?;
            tracing::info!("demo data loaded");
        }
        let state = web::Data::new(state);
        rate_limit::spawn_cleanup(state.clone().into_inner());
        upload_sweeper::spawn(Arc::clone(&state.proofs), config.upload_sweep);
        hold_sweeper::spawn(Arc::clone(&state.holds), config.hold_sweep_every);
        proof_checker::spawn(Arc::clone(&state.proof_checks), config.proof_check_every);
        spawn_planner_statistics(db.clone());
        if config.mail.deliver {
            mail_worker::spawn(Arc::clone(&state.mail), config.mail.poll);
        }
        let server = HttpServer::new(move || {
            HttpApp::new()
                .app_data(state.clone())
                .configure(routes::configure)
                .wrap(from_fn(body_timeout::enforce))
                .wrap(from_fn(metrics::record))
                .wrap(from_fn(error::localize))
                .wrap(actix_web::middleware::Compress::default())
                .wrap(from_fn(telemetry::request_id_header))
                .wrap(telemetry::request_logger())
        })
        .workers(config.workers)
        // Answers go out at once: with Nagle's algorithm a body written in pieces (the gzip
        // encoder's chunks) waited ~40 ms for the client's delayed ACK.
        .tcp_nodelay(true)
        // Longer than the idle timeout of whatever sits in front (Next's proxy, a load balancer
        // at 60 s): otherwise the API may close a kept-alive connection just as the proxy reuses
        // it, and that request fails with a reset (seen with actix's 5 s default).
        .keep_alive(std::time::Duration::from_secs(75))
        .listen(listener)
        .context("failed to start listening")?
        .run();
        Ok(Self {
            port,
            server,
            first_admin,
            first_admin_password,
        })
    }

    #[must_use]
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The username and generated password of the admin created on this first run, if any.
    #[must_use]
    pub fn first_admin(&self) -> Option<&(String, SecretString)> {
        self.first_admin.as_ref()
    }

    /// The file holding the first admin's password until its first sign-in.
    #[must_use]
    pub fn first_admin_password(&self) -> &FirstAdminPassword {
        &self.first_admin_password
    }

    /// # Errors
    /// When the server fails while running.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}
