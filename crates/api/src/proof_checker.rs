//! Checks attached proofs off the request path: one task per instance, every
//! `RIFA_PROOF_CHECK_SECONDS`. Instances claim checks with a lease, so each proof is checked
//! once however many run (issue 16).

use std::sync::Arc;
use std::time::Duration;

use rifa_app::proof_checks::ProofCheckService;

pub fn spawn(checks: Arc<dyn ProofCheckService>, every: Duration) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match checks.check_due_proofs().await {
                Ok(checked) => crate::metrics::proofs_checked(checked),
                Err(error) => {
                    tracing::warn!(error = format!("{error:#}"), "proofs could not be checked");
                }
            }
        }
    });
}
