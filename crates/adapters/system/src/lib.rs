//! The machine's clock, random purchase references and ledger salts, and the in-process event bus.

use chrono::{DateTime, Utc};
use rand::{Rng, RngCore};
use rifa_ports::{Clock, DomainEvent, EventBus, ReferenceGenerator, SaltGenerator};
use tokio::sync::broadcast;

pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// `RF-` and eight characters of Crockford's base 32 (no I, L, O or U to misread): about
/// 10^12 references, easy to read over the phone.
pub struct RandomReferences;

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

impl ReferenceGenerator for RandomReferences {
    fn next_reference(&self) -> String {
        let mut rng = rand::rng();
        let code: String = (0..8)
            .map(|_| char::from(CROCKFORD[rng.random_range(0..32)]))
            .collect();
        format!("RF-{code}")
    }
}

/// Ledger salts from the operating system's generator.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomSalts;

impl SaltGenerator for RandomSalts {
    fn salt(&self) -> [u8; 32] {
        let mut salt = [0; 32];
        rand::rng().fill_bytes(&mut salt);
        salt
    }
}

/// Fans events out to every subscriber of this process. Slow subscribers miss old events
/// rather than slowing publishers.
#[derive(Clone)]
pub struct LocalEventBus {
    sender: broadcast::Sender<DomainEvent>,
}

impl LocalEventBus {
    #[must_use]
    pub fn new(capacity: usize) -> Self {
        Self {
            sender: broadcast::channel(capacity).0,
        }
    }

    #[must_use]
    pub fn subscribe(&self) -> broadcast::Receiver<DomainEvent> {
        self.sender.subscribe()
    }
}

impl EventBus for LocalEventBus {
    async fn publish(&self, event: DomainEvent) {
        // An error only means nobody is listening right now.
        let _ = self.sender.send(event);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use rifa_domain::purchase::PurchaseId;
    use rifa_domain::raffle::RaffleId;

    #[test]
    fn references_are_readable_and_do_not_repeat() {
        let refs: HashSet<String> = (0..10_000)
            .map(|_| RandomReferences.next_reference())
            .collect();
        assert_eq!(refs.len(), 10_000);
        for r in refs.iter().take(100) {
            assert_eq!(r.len(), 11);
            assert!(r.starts_with("RF-"));
            assert!(
                r[3..]
                    .chars()
                    .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
            );
            assert!(!r[3..].contains(['I', 'L', 'O', 'U']));
        }
    }

    #[tokio::test]
    async fn every_subscriber_receives_a_published_event() {
        let bus = LocalEventBus::new(8);
        let (mut a, mut b) = (bus.subscribe(), bus.subscribe());
        let event = DomainEvent::NewPurchase {
            purchase_id: PurchaseId::new(1),
            reference: "RF-1".into(),
            raffle_id: RaffleId::new(2),
            customer_name: "Ana".into(),
            ticket_count: 3,
            total_amount: "39.00".into(),
            created_at: Utc::now(),
        };
        bus.publish(event.clone()).await;
        assert_eq!(a.recv().await.ok(), Some(event.clone()));
        assert_eq!(b.recv().await.ok(), Some(event));
    }
}
