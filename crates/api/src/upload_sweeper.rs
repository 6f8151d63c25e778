//! Deletes proof uploads nobody attached: one task per instance, every `UploadSweep::every`.
//! Instances may sweep at the same time; deleting a file twice and withdrawing a grant twice
//! are both harmless.

use std::sync::Arc;

use crate::AppState;

/// Grants looked at per query.
const BATCH: u32 = 100;

pub fn spawn(state: Arc<AppState>, sweep: crate::config::UploadSweep) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(sweep.every);
        loop {
            tick.tick().await;
            match state
                .app
                .sweep_abandoned_uploads(&state.proofs, sweep.abandoned_after, BATCH)
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
