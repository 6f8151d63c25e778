//! An event bus that keeps what was published.

use std::sync::{Arc, Mutex, PoisonError};

use rifa_ports::{DomainEvent, EventBus};

#[derive(Clone, Default)]
pub struct RecordingEvents {
    published: Arc<Mutex<Vec<DomainEvent>>>,
}

impl RecordingEvents {
    pub fn published(&self) -> Vec<DomainEvent> {
        self.published
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl EventBus for RecordingEvents {
    async fn publish(&self, event: DomainEvent) {
        self.published
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(event);
    }
}
