//! The event bus this instance uses: in-process on SQLite (one instance), PostgreSQL
//! LISTEN/NOTIFY on PostgreSQL so every instance behind a load balancer hears every purchase.

use rifa_db::{Db, PgEventBus};
use rifa_ports::{DomainEvent, EventBus};
use rifa_system::LocalEventBus;
use tokio::sync::broadcast;

/// Events waiting for a slow live connection before it starts missing them.
const CAPACITY: usize = 1_024;

#[derive(Clone)]
pub enum Events {
    Local(LocalEventBus),
    Postgres(PgEventBus),
}

impl Events {
    /// # Errors
    /// When PostgreSQL refuses to LISTEN.
    pub async fn for_database(db: &Db) -> anyhow::Result<Self> {
        Ok(if db.is_postgres() {
            Self::Postgres(PgEventBus::start(db, CAPACITY).await?)
        } else {
            Self::Local(LocalEventBus::new(CAPACITY))
        })
    }

    #[must_use]
    pub fn subscribe(&self) -> broadcast::Receiver<DomainEvent> {
        match self {
            Self::Local(bus) => bus.subscribe(),
            Self::Postgres(bus) => bus.subscribe(),
        }
    }
}

impl EventBus for Events {
    async fn publish(&self, event: DomainEvent) {
        match self {
            Self::Local(bus) => bus.publish(event).await,
            Self::Postgres(bus) => bus.publish(event).await,
        }
    }
}
