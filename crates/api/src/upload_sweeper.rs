//! Deletes proof uploads nobody attached: one task per instance, every `UploadSweep::every`.
//! Instances may sweep at the same time; deleting a file twice and withdrawing a grant twice
//! are both harmless.

use std::sync::Arc;

use rifa_app::proofs::ProofsService;

/// Grants looked at per query.
const BATCH: u32 = 100;

pub fn spawn(proofs: Arc<dyn ProofsService>, sweep: crate::config::UploadSweep) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(sweep.every);
        loop {
            tick.tick().await;
            match proofs
                .sweep_abandoned_uploads(sweep.abandoned_after, BATCH)
                .await
            {
                Ok(0) => {}
                Ok(swept) => tracing::info!(swept, "abandoned proof uploads deleted"),
                Err(error) => tracing::warn!(
                    error = format!("{error:#}"),
                    "abandoned proof uploads could not be swept"
                ),
            }
        }
    });
}
