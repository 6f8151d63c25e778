//! The background delivery of the outbox: one task per instance, woken when this instance
//! queues a message and every `poll` otherwise (retries, other instances' messages).

use std::sync::Arc;

use rifa_mail::AnyMailer;

use crate::AppState;

/// Messages sent per pass before the task looks at its settings again.
const BATCH: u32 = 50;

/// The mailer to use now: the settings admins saved when they name a server, else the
/// environment's, else the file outbox.
pub async fn current_mailer(state: &AppState) -> anyhow::Result<AnyMailer> {
    let saved = state.app.email_settings().await?;
    let settings = if saved.host.trim().is_empty() {
        state.mail.env_settings.clone().unwrap_or(saved)
    } else {
        saved
    };
    Ok(AnyMailer::from_settings(
        &settings,
        &state.mail.smtp,
        &state.mail.outbox_dir,
    )?)
}

pub fn spawn(state: Arc<AppState>) {
    tokio::spawn(async move {
        loop {
            match current_mailer(&state).await {
                Ok(mailer) => {
                    if let Err(error) = state
                        .app
                        .deliver_due_mail(&mailer, &state.receipts, &state.mail.retry, BATCH)
                        .await
                    {
                        tracing::warn!(
                            error = format!("{error:#}"),
                            "the outbox could not be read"
                        );
                    }
                }
                Err(error) => {
                    // Messages wait in the outbox until the settings are fixed; admins see why.
                    let reason = format!("e-mail settings are unusable: {error:#}");
                    tracing::warn!(error = %reason, "no e-mail can be sent");
                    if let Err(error) = state.app.mail_blocked(&reason).await {
                        tracing::warn!(
                            error = format!("{error:#}"),
                            "the outbox could not be updated"
                        );
                    }
                }
            }
            state.app.mail_queued_or(state.mail.poll).await;
        }
    });
}
