//! The background delivery of the outbox: one task per instance, woken when this instance
//! queues a message and every `poll` otherwise (retries, other instances' messages).

use std::sync::Arc;
use std::time::Duration;

use rifa_app::mail::MailService;

/// Messages sent per pass before the task looks at its settings again.
const BATCH: u32 = 50;

pub fn spawn(mail: Arc<dyn MailService>, poll: Duration) {
    tokio::spawn(async move {
        loop {
            match mail.deliver_due_mail(BATCH).await {
                Ok(report) => crate::metrics::mail_delivered(report.sent, report.failed),
                Err(error) => {
                    tracing::warn!(error = format!("{error:#}"), "the outbox could not be read");
                }
            }
            mail.mail_queued_or(poll).await;
        }
    });
}
