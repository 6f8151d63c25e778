//! Expires holds whose deadline passed: one task per instance, every `RIFA_HOLD_SWEEP_SECONDS`.
//! Instances may sweep at the same time; the database decides which purchases each one expires,
//! and none is expired or released twice (decision 0016).

use std::sync::Arc;
use std::time::Duration;

use rifa_app::holds::HoldsService;

pub fn spawn(holds: Arc<dyn HoldsService>, every: Duration) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match holds.expire_due_holds().await {
                Ok(expired) => crate::metrics::holds_expired(expired),
                Err(error) => tracing::warn!(
                    error = format!("{error:#}"),
                    "expired holds could not be swept"
                ),
            }
        }
    });
}
