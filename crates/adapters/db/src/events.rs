//! Events across API instances through PostgreSQL's LISTEN/NOTIFY.
//!
//! Every instance LISTENs on one channel; publishing is a NOTIFY, which PostgreSQL delivers to
//! every listener, the publisher included, so one path serves local and remote subscribers
//! alike. NOTIFY is fire-and-forget: an instance whose listening connection is down misses what
//! happens meanwhile (admins' live notices are a convenience; the purchase list is the truth).

use std::time::Duration;

use anyhow::Context;
use rifa_ports::{DomainEvent, EventBus};
use sea_orm::sqlx::postgres::{PgListener, PgPool};
use tokio::sync::broadcast;

use crate::Db;

const CHANNEL: &str = "rifa_events";

/// Fans events out to the subscribers of every instance on the same PostgreSQL database.
#[derive(Clone)]
pub struct PgEventBus {
    pool: PgPool,
    local: broadcast::Sender<DomainEvent>,
}

impl PgEventBus {
    /// Starts listening (on a connection of its own) and forwarding to local subscribers.
    ///
    /// # Errors
    /// When `db` is not PostgreSQL or the first LISTEN fails.
    pub async fn start(db: &Db, capacity: usize) -> anyhow::Result<Self> {
        anyhow::ensure!(db.is_postgres(), "LISTEN/NOTIFY needs PostgreSQL");
        let pool = db.conn.get_postgres_connection_pool().clone();
        let mut listener = PgListener::connect_with(&pool)
            .await
            .context("failed to open the events connection")?;
        listener
            .listen(CHANNEL)
            .await
            .context("failed to LISTEN for events")?;
        let local = broadcast::channel(capacity).0;
        tokio::spawn(forward(listener, local.clone()));
        Ok(Self { pool, local })
    }

    #[must_use]
    pub fn subscribe(&self) -> broadcast::Receiver<DomainEvent> {
        self.local.subscribe()
    }
}

async fn forward(mut listener: PgListener, local: broadcast::Sender<DomainEvent>) {
    loop {
        match listener.recv().await {
            Ok(notification) => match serde_json::from_str::<DomainEvent>(notification.payload()) {
                // An error only means nobody is listening on this instance right now.
                Ok(event) => drop(local.send(event)),
                Err(error) => tracing::warn!(%error, "ignored an unreadable event"),
            },
            Err(error) => {
                // The listener reconnects (and LISTENs again) on the next `recv`.
                tracing::warn!(%error, "events connection lost; reconnecting");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

impl EventBus for PgEventBus {
    async fn publish(&self, event: DomainEvent) {
        // A NOTIFY payload holds at most 8000 bytes; a purchase notice is about 300.
        let payload = match serde_json::to_string(&event) {
            Ok(payload) => payload,
            Err(error) => {
                tracing::warn!(%error, "failed to encode an event");
                return;
            }
        };
        if let Err(error) = sea_orm::sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(payload)
            .execute(&self.pool)
            .await
        {
            tracing::warn!(%error, "failed to publish an event");
        }
    }
}
