//! Rifa's HTTP API: the actix-web server and the composition root that wires the adapters into
//! the use cases. `main.rs` only parses the command line and calls into here, so integration
//! tests start the very same server on port 0.

mod body_timeout;
pub mod config;
mod demo;
mod dto;
mod error;
mod events;
mod extract;
pub mod first_admin;
mod mail_worker;
mod openapi;
mod rate_limit;
mod routes;
pub mod telemetry;
mod upload_sweeper;

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::middleware::from_fn;
use actix_web::{App as HttpApp, HttpServer, web};
use anyhow::Context;
use rifa_db::Db;
use rifa_pdf::GenPdfReceipts;
use rifa_ports::AdminRepository;
use rifa_ports::outbound::ReceiptRenderer;
use rifa_security::{Argon2Hasher, JwtIssuer, Sha256AccessKeys};
use rifa_storage::{LocalStore, ProofStore, S3Store};
use rifa_system::{RandomReferences, SystemClock};
use secrecy::{ExposeSecret, SecretString};

pub use crate::config::Config;
use crate::events::Events;
use crate::first_admin::FirstAdminPassword;
use crate::rate_limit::RateLimits;

/// The use cases with this binary's adapters plugged in.
pub type Rifa = rifa_app::App<Db, Events>;

/// What every handler can reach.
pub struct AppState {
    pub app: Rifa,
    pub limits: RateLimits,
    pub dev_mode: bool,
    pub trust_proxy: bool,
    pub mail: config::MailConfig,
    pub receipts: Arc<dyn ReceiptRenderer>,
    /// Purchases whose PDF receipt is being rendered for a request right now.
    pub receipts_rendering: routes::proofs::invoice::RendersInFlight,
    pub proofs: ProofStore,
    pub live: config::LiveTimings,
    pub first_admin_password: FirstAdminPassword,
    pub body_timeouts: config::BodyTimeouts,
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

/// Builds the use cases on top of a connected, migrated database.
///
/// # Errors
/// When the database is unreachable or the token secret is too short.
pub async fn connect(config: &Config) -> anyhow::Result<Rifa> {
    let db = Db::connect(&config.database_url, config.db_max_connections)
        .await?
        .with_mail_caps(config.mail.recipient_caps);
    let events = Events::for_database(&db).await?;
    let services = rifa_app::Services {
        clock: Arc::new(SystemClock),
        references: Arc::new(RandomReferences),
        hasher: Arc::new(Argon2Hasher::new()?),
        tokens: Arc::new(JwtIssuer::new(
            config.jwt_secret.expose_secret().as_bytes(),
            config.token_ttl,
        )?),
        access_keys: Arc::new(Sha256AccessKeys),
    };
    Ok(rifa_app::App::new(db, events, services))
}

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
        let app = connect(&config).await?;
        let first_admin_password = FirstAdminPassword::in_dir(&config.data_dir);
        let first_admin = if config.bootstrap_admin {
            app.ensure_first_admin(|| rifa_security::random_token(18))
                .await?
                .map(|(admin, password)| (admin.username, SecretString::from(password)))
        } else {
            None
        };
        if let Some((username, password)) = &first_admin {
            first_admin_password.keep(username, password.expose_secret())?;
        }
        if app.store().count_admins().await? == 0 {
            tracing::warn!(
                "no admin exists yet: create one with `rifa-api create-admin --username NAME --privileged`"
            );
        }
        if config.demo_data && app.store().is_empty().await? {
            demo::load(&app).await.context("failed to load demo data")?;
            tracing::info!("demo data loaded");
        }
        let state = web::Data::new(AppState {
            app,
            limits: RateLimits::new(
                config.lookups_per_minute,
                config.logins_per_minute,
                config.purchases_per_minute,
            ),
            dev_mode: config.dev_mode,
            trust_proxy: config.trust_proxy,
            mail: config.mail.clone(),
            receipts: Arc::new(GenPdfReceipts::new()?),
            receipts_rendering: routes::proofs::invoice::RendersInFlight::default(),
            proofs: proof_store(&config)?,
            live: config.live,
            first_admin_password: first_admin_password.clone(),
            body_timeouts: config.body_timeouts,
        });
        remove_stale_partial_uploads(&state.proofs, config.body_timeouts.total);
        rate_limit::spawn_cleanup(state.clone().into_inner());
        upload_sweeper::spawn(state.clone().into_inner(), config.upload_sweep);
        if config.mail.deliver {
            mail_worker::spawn(state.clone().into_inner());
        }
        let server = HttpServer::new(move || {
            HttpApp::new()
                .app_data(state.clone())
                .configure(routes::configure)
                .wrap(from_fn(body_timeout::enforce))
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
