//! Events across API instances through PostgreSQL's LISTEN/NOTIFY.
//!
//! Every instance LISTENs on one channel; publishing is a NOTIFY, which PostgreSQL delivers to
//! every listener, the publisher included, so one path serves local and remote subscribers
//! alike. NOTIFY is fire-and-forget: an instance whose listening connection is down misses what
//! happens meanwhile (admins' live notices are a convenience; the purchase list is the truth).
//!
//! Events are sent in batches, by a task of their own: a NOTIFY is a transaction that commits
//! (a WAL flush) under a database-wide lock, so one per purchase would double the commits of a
//! hot sale and serialise them. A batch is what arrived within [`BATCH_WINDOW`], as a JSON array
//! in as many NOTIFYs as PostgreSQL's 8,000-byte payload limit requires; the purchase itself
//! never waits for it.

use std::time::Duration;

use anyhow::Context;
use rifa_ports::{DomainEvent, EventBus};
use sea_orm::sqlx::postgres::{PgListener, PgPool};
use tokio::sync::{broadcast, mpsc};

use crate::Db;

const CHANNEL: &str = "rifa_events";
/// How long the first event of a batch waits for others: the live notice's added delay.
const BATCH_WINDOW: Duration = Duration::from_millis(50);
/// Below PostgreSQL's 8,000-byte NOTIFY payload limit.
const MAX_PAYLOAD: usize = 7_900;

/// Fans events out to the subscribers of every instance on the same PostgreSQL database.
#[derive(Clone)]
pub struct PgEventBus {
    outgoing: mpsc::Sender<String>,
    local: broadcast::Sender<DomainEvent>,
}

impl PgEventBus {
    /// Starts listening (on a connection of its own) and forwarding to local subscribers.
    ///
    /// # Errors
    /// When `db` is not PostgreSQL or the first LISTEN fails.
    pub async fn start(db: &Db, capacity: usize) -> anyhow::Result<Self> {
        anyhow::ensure!(db.is_postgres(), "LISTEN/NOTIFY needs PostgreSQL");
        let pool = db.conn.inner().get_postgres_connection_pool().clone();
        let mut listener = PgListener::connect_with(&pool)
            .await
            .context("failed to open the events connection")?;
        listener
            .listen(CHANNEL)
            .await
            .context("failed to LISTEN for events")?;
        let local = broadcast::channel(capacity).0;
        tokio::spawn(forward(listener, local.clone()));
        let (outgoing, queued) = mpsc::channel(capacity);
        tokio::spawn(notify_in_batches(pool, queued));
        Ok(Self { outgoing, local })
    }

    #[must_use]
    pub fn subscribe(&self) -> broadcast::Receiver<DomainEvent> {
        self.local.subscribe()
    }
}

async fn forward(mut listener: PgListener, local: broadcast::Sender<DomainEvent>) {
    loop {
        match listener.recv().await {
            Ok(notification) => {
                match serde_json::from_str::<Vec<DomainEvent>>(notification.payload()) {
                    Ok(events) => {
                        for event in events {
                            // An error only means nobody is listening on this instance right now.
                            drop(local.send(event));
                        }
                    }
                    Err(error) => tracing::warn!(%error, "ignored an unreadable event"),
                }
            }
            Err(error) => {
                // The listener reconnects (and LISTENs again) on the next `recv`.
                tracing::warn!(%error, "events connection lost; reconnecting");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// Joins encoded events into JSON arrays of at most [`MAX_PAYLOAD`] bytes (an event larger than
/// that travels alone, and PostgreSQL refuses it).
fn payloads(events: &[String]) -> Vec<String> {
    let mut batches = Vec::new();
    let mut current = String::from("[");
    for event in events {
        if current.len() > 1 && current.len() + event.len() + 2 > MAX_PAYLOAD {
            current.push(']');
            batches.push(std::mem::replace(&mut current, String::from("[")));
        }
        if current.len() > 1 {
            current.push(',');
        }
        current.push_str(event);
    }
    if current.len() > 1 {
        current.push(']');
        batches.push(current);
    }
    batches
}

async fn notify_in_batches(pool: PgPool, mut queued: mpsc::Receiver<String>) {
    let mut events = Vec::new();
    while let Some(first) = queued.recv().await {
        events.push(first);
        tokio::time::sleep(BATCH_WINDOW).await;
        while let Ok(event) = queued.try_recv() {
            events.push(event);
        }
        for payload in payloads(&events) {
            if let Err(error) = sea_orm::sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(payload)
                .execute(&pool)
                .await
            {
                tracing::warn!(%error, "failed to publish events");
            }
        }
        events.clear();
    }
}

impl EventBus for PgEventBus {
    #[tracing::instrument(name = "db.pg_event_bus.publish", skip_all)]
    async fn publish(&self, event: DomainEvent) {
        match serde_json::to_string(&event) {
            // Full only while PostgreSQL cannot take NOTIFYs; the notice is dropped, not queued
            // without bound.
            Ok(encoded) => {
                if let Err(error) = self.outgoing.try_send(encoded) {
                    tracing::warn!(%error, "dropped a live notice");
                }
            }
            Err(error) => tracing::warn!(%error, "failed to encode an event"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_travel_as_json_arrays_that_fit_a_notify() {
        let event = format!("{{\"pad\":\"{}\"}}", "x".repeat(990));
        let batches = payloads(&std::iter::repeat_n(event, 20).collect::<Vec<_>>());

        assert!(batches.len() > 1);
        assert!(batches.iter().all(|b| b.len() <= MAX_PAYLOAD));
        let count: usize = batches
            .iter()
            .map(|b| {
                serde_json::from_str::<Vec<serde_json::Value>>(b)
                    .unwrap()
                    .len()
            })
            .sum();
        assert_eq!(count, 20);
        assert!(payloads(&[]).is_empty());
    }
}
