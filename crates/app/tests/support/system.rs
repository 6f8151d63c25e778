//! Time and references the tests control.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use chrono::{DateTime, TimeDelta, Utc};
use rifa_ports::{BeaconFetchError, BeaconSource, Clock, ReferenceGenerator, SaltGenerator};

/// A clock that stands still until a test moves it.
#[derive(Clone)]
pub struct SettableClock {
    now: Arc<Mutex<DateTime<Utc>>>,
}

impl SettableClock {
    pub fn at(now: DateTime<Utc>) -> Self {
        Self {
            now: Arc::new(Mutex::new(now)),
        }
    }

    pub fn set(&self, now: DateTime<Utc>) {
        *self.now.lock().unwrap_or_else(PoisonError::into_inner) = now;
    }

    pub fn advance(&self, by: TimeDelta) {
        let now = self.now();
        self.set(now + by);
    }
}

impl Clock for SettableClock {
    fn now(&self) -> DateTime<Utc> {
        *self.now.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// `RF-000001`, `RF-000002`, …, after any references a test queued first (to force a clash).
#[derive(Clone, Default)]
pub struct SequentialReferences {
    state: Arc<Mutex<(u32, VecDeque<String>)>>,
}

impl SequentialReferences {
    /// The next references handed out, before the sequence resumes.
    pub fn queue(&self, references: &[&str]) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.1.extend(references.iter().map(|r| (*r).to_owned()));
    }
}

impl ReferenceGenerator for SequentialReferences {
    fn next_reference(&self) -> String {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(queued) = state.1.pop_front() {
            return queued;
        }
        state.0 += 1;
        format!("RF-{:06}", state.0)
    }
}

/// The same salt every time, so a test can recompute the ledger.
#[derive(Clone, Copy, Default)]
pub struct FixedSalts;

pub const SALT: [u8; 32] = [7; 32];

impl SaltGenerator for FixedSalts {
    fn salt(&self) -> [u8; 32] {
        SALT
    }
}

/// drand rounds a test recorded, by round; any other round is unavailable, as a relay that
/// cannot be reached.
#[derive(Clone, Default)]
pub struct RecordedBeacon {
    rounds: Arc<Mutex<HashMap<u64, Vec<u8>>>>,
}

impl RecordedBeacon {
    pub fn record(&self, round: u64, signature: Vec<u8>) {
        self.rounds
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(round, signature);
    }
}

impl BeaconSource for RecordedBeacon {
    async fn signature_of(&self, round: u64) -> Result<Vec<u8>, BeaconFetchError> {
        self.rounds
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&round)
            .cloned()
            .ok_or_else(|| {
                BeaconFetchError::Unavailable(anyhow::anyhow!("round {round} not recorded"))
            })
    }
}
