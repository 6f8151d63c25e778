//! The buyer's e-mails: written from the outbox and delivered with retries.
//!
//! Storage puts a row in the outbox in the same transaction as the purchase or decision, so a
//! message exists even when the mail server is down. [`MailService::deliver_due_mail`] drains the rows
//! that are due: it writes the message at delivery time (the receipt PDF shows the purchase as
//! it is then), sends it, and on failure schedules another attempt with exponential backoff,
//! giving up after [`RetryPolicy::max_attempts`] so admins see it as failed and may retry it.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};
use futures_util::StreamExt as _;
use futures_util::stream::FuturesUnordered;
use html_escape::encode_text;
use rifa_domain::customer::Email;
use rifa_domain::display::format_money;
use rifa_domain::exchange::Currency;
use rifa_domain::purchase::{Purchase, PurchaseStatus};
use rifa_domain::ticket::display_number;
use rifa_domain::{FieldError, FieldErrors, Lang};
use rifa_ports::outbound::{
    Attachment, MailRoute, MailTransports, Mailer, OutgoingEmail, ReceiptContext, ReceiptRenderer,
};
use rifa_ports::{
    Clock, MailId, MailJob, MailKind, MailOutbox, MailRecord, MailStatus, PurchaseRepository,
    RaffleRepository, SettingsRepository,
};

use crate::receipts::ReceiptWriter;
use crate::shared::{MailSignal, Shared, now};

/// How long a claimed message is kept from other workers while it is being sent.
const LEASE: TimeDelta = TimeDelta::minutes(5);
/// Messages in flight at once per worker.
pub const CONCURRENT_DELIVERIES: usize = 4;
/// Numbers listed in the body; the attached receipt has every one.
const NUMBERS_IN_BODY: usize = 50;

/// When failed deliveries are tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The wait after the first failure; it doubles after each further one.
    pub first_delay: TimeDelta,
    pub max_delay: TimeDelta,
    /// Attempts before a message is given up (admins see it as failed and may retry it).
    pub max_attempts: u32,
}

impl Default for RetryPolicy {
    /// 30 s doubling up to 6 hours, 12 attempts: about 21 hours before giving up.
    fn default() -> Self {
        Self {
            first_delay: TimeDelta::seconds(30),
            max_delay: TimeDelta::hours(6),
            max_attempts: 12,
        }
    }
}

impl RetryPolicy {
    /// The wait after the `attempts`-th failure.
    #[must_use]
    pub fn backoff(&self, attempts: u32) -> TimeDelta {
        let factor = 1_i32 << attempts.saturating_sub(1).min(20);
        (self.first_delay * factor).min(self.max_delay)
    }

    /// When to try again after the `attempts`-th failure at `now`; `None` to give up.
    #[must_use]
    pub fn next_attempt(&self, now: DateTime<Utc>, attempts: u32) -> Option<DateTime<Utc>> {
        (attempts < self.max_attempts).then(|| now + self.backoff(attempts))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TestEmailError {
    #[error("invalid address")]
    Invalid(FieldErrors),
    /// The mail server's answer (never containing the password).
    #[error("{0}")]
    Failed(String),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// A test message that left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestEmailSent {
    /// The address written to.
    pub to: String,
    pub route: MailRoute,
}

/// What one pass of the worker did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeliveryReport {
    pub sent: u32,
    pub failed: u32,
}

/// The outbox: delivering the buyers' e-mails, showing and retrying them, the test message.
#[async_trait::async_trait]
pub trait MailService: Send + Sync + 'static {
    /// Sends every message due now, up to [`CONCURRENT_DELIVERIES`] at once, until none is
    /// left or `limit` were tried: a message stuck on a server that does not answer holds its
    /// own slot until the mailer's timeout, not the messages behind it.
    ///
    /// The mailer is the one the e-mail settings call for now; when they are unusable, the
    /// waiting messages are marked blocked with the reason and none is tried.
    ///
    /// # Errors
    /// Only storage failures; a message that cannot be sent is recorded, not returned.
    async fn deliver_due_mail(&self, limit: u32) -> anyhow::Result<DeliveryReport>;

    /// Notes on the waiting messages that none can be sent (the e-mail settings are unusable),
    /// so the outbox admins read says why they wait.
    ///
    /// # Errors
    /// Storage failures only.
    async fn mail_blocked(&self, reason: &str) -> anyhow::Result<()>;

    /// Returns when an e-mail was queued on this instance or after `poll` (others' messages and
    /// retries are found by polling).
    async fn mail_queued_or(&self, poll: Duration);

    /// The outbox, newest first, for admins.
    ///
    /// # Errors
    /// Storage failures only.
    async fn outbox(
        &self,
        status: Option<MailStatus>,
        limit: u32,
    ) -> anyhow::Result<Vec<MailRecord>>;

    /// Puts a failed or withheld message back in line. `false` when it is neither.
    ///
    /// # Errors
    /// Storage failures only.
    async fn retry_mail(&self, id: MailId) -> anyhow::Result<bool>;

    /// Sends a short message through the current mailer so an admin can check the e-mail settings;
    /// `to` defaults to the saved sender address. Returns the address written to and the route the message took.
    ///
    /// # Errors
    /// `Invalid` for a bad or missing address, `Failed` with the mail server's answer (or why
    /// the settings make no mailer).
    async fn send_test_email(
        &self,
        to: Option<&str>,
        lang: Lang,
    ) -> Result<TestEmailSent, TestEmailError>;
}

/// The outbox over its ports: messages, purchases and settings from `S`, the mailer from `T`,
/// the attached receipt written by a [`ReceiptWriter`] (over `R`), the time from `C`.
pub struct Mail<S, T, R, C> {
    store: S,
    transports: T,
    receipts: ReceiptWriter<S, R, C>,
    clock: C,
    retry: RetryPolicy,
    mail_signal: Arc<MailSignal>,
}

impl<S, T, R, C> Mail<S, T, R, C>
where
    S: MailOutbox + PurchaseRepository + SettingsRepository + RaffleRepository + Clone,
    T: MailTransports,
    R: ReceiptRenderer,
    C: Clock + Clone,
{
    pub fn new(
        store: S,
        transports: T,
        renderer: Arc<R>,
        clock: C,
        retry: RetryPolicy,
        shared: &Shared,
    ) -> Self {
        Self {
            receipts: ReceiptWriter::new(store.clone(), renderer, clock.clone(), shared),
            store,
            transports,
            clock,
            retry,
            mail_signal: Arc::clone(&shared.mail_signal),
        }
    }

    /// Sends one claimed message and records the outcome: whether it was sent.
    async fn deliver_one(&self, job: MailJob, mailer: &impl Mailer) -> anyhow::Result<bool> {
        match self.send_one(&job, mailer).await {
            Ok(()) => {
                self.store.mail_sent(job.id, now(&self.clock)).await?;
                tracing::info!(
                    mail.id = job.id,
                    purchase.id = job.purchase_id,
                    kind = job.kind.as_str(),
                    "e-mail sent"
                );
                Ok(true)
            }
            Err(error) => {
                let retry_at = self.retry.next_attempt(now(&self.clock), job.attempts);
                let reason = format!("{error:#}");
                self.store.mail_failed(job.id, &reason, retry_at).await?;
                tracing::warn!(mail.id = job.id, attempts = job.attempts, gave_up = retry_at.is_none(), error = %reason, "e-mail not sent");
                Ok(false)
            }
        }
    }

    async fn send_one(&self, job: &MailJob, mailer: &impl Mailer) -> anyhow::Result<()> {
        let purchase = self
            .store
            .get_purchase(job.purchase_id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("purchase {} no longer exists", job.purchase_id))?;
        let purchase = as_when_queued(job.kind, purchase);
        let context = self.receipts.receipt_context(&purchase, job.lang).await?;
        let (purchase, context, pdf) = self.receipts.render_receipt(purchase, context).await?;
        let email = compose(job, &purchase, &context, pdf);
        mailer.send(&email).await
    }
}

#[async_trait::async_trait]
impl<S, T, R, C> MailService for Mail<S, T, R, C>
where
    S: MailOutbox + PurchaseRepository + SettingsRepository + RaffleRepository + Clone,
    T: MailTransports,
    R: ReceiptRenderer,
    C: Clock + Clone,
{
    async fn deliver_due_mail(&self, limit: u32) -> anyhow::Result<DeliveryReport> {
        let mut report = DeliveryReport::default();
        let settings = self.store.email_settings().await?.unwrap_or_default();
        let mailer = match self.transports.open(&settings) {
            Ok((mailer, _)) => mailer,
            Err(error) => {
                // Messages wait in the outbox until the settings are fixed; admins see why.
                let reason = format!("e-mail settings are unusable: {error:#}");
                tracing::warn!(error = %reason, "no e-mail can be sent");
                self.mail_blocked(&reason).await?;
                return Ok(report);
            }
        };
        let mut sending = FuturesUnordered::new();
        let (mut claimed, mut none_due) = (0, false);
        loop {
            while !none_due && claimed < limit && sending.len() < CONCURRENT_DELIVERIES {
                let now = now(&self.clock);
                match self.store.claim_due_mail(now, now + LEASE).await? {
                    Some(job) => {
                        claimed += 1;
                        sending.push(self.deliver_one(job, &mailer));
                    }
                    None => none_due = true,
                }
            }
            if sending.is_empty() {
                break;
            }
            tokio::select! {
                Some(sent) = sending.next() => {
                    if sent? {
                        report.sent += 1;
                    } else {
                        report.failed += 1;
                    }
                }
                // A message queued meanwhile takes a free slot now, not after the slowest
                // delivery in flight.
                () = self.mail_signal.notified() => none_due = false,
            }
        }
        Ok(report)
    }

    async fn mail_blocked(&self, reason: &str) -> anyhow::Result<()> {
        self.store.mail_blocked(reason, now(&self.clock)).await
    }

    async fn mail_queued_or(&self, poll: Duration) {
        let _ = tokio::time::timeout(poll, self.mail_signal.notified()).await;
    }

    async fn outbox(
        &self,
        status: Option<MailStatus>,
        limit: u32,
    ) -> anyhow::Result<Vec<MailRecord>> {
        self.store.list_mail(status, limit).await
    }

    async fn retry_mail(&self, id: MailId) -> anyhow::Result<bool> {
        let retried = self.store.retry_mail(id, now(&self.clock)).await?;
        if retried {
            self.mail_signal.queued();
        }
        Ok(retried)
    }

    async fn send_test_email(
        &self,
        to: Option<&str>,
        lang: Lang,
    ) -> Result<TestEmailSent, TestEmailError> {
        let settings = self.store.email_settings().await?.unwrap_or_default();
        let (mailer, route) = self
            .transports
            .open(&settings)
            .map_err(|e| TestEmailError::Failed(format!("{e:#}")))?;
        let fallback = settings.from_email;
        let raw = to
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .unwrap_or(fallback.trim());
        if raw.is_empty() {
            // No address given and no sender saved to fall back on.
            return Err(TestEmailError::Invalid(FieldErrors::single(
                "to",
                FieldError::Required,
            )));
        }
        let to =
            Email::parse(raw).map_err(|e| TestEmailError::Invalid(FieldErrors::single("to", e)))?;
        let company = self
            .store
            .branding()
            .await?
            .unwrap_or_default()
            .company_name;
        let (subject, body) = match lang {
            Lang::Es => (
                format!("Correo de prueba de {company}"),
                "Si lees esto, la configuración de correo funciona: los compradores recibirán sus confirmaciones.",
            ),
            Lang::En => (
                format!("Test e-mail from {company}"),
                "If you can read this, the e-mail settings work: buyers will receive their confirmations.",
            ),
        };
        let email = OutgoingEmail {
            sender_name: company.clone(),
            to: to.as_str().to_owned(),
            html_body: format!(
                "<!doctype html><html lang=\"{}\"><body><p>{}</p></body></html>",
                lang.code(),
                encode_text(body)
            ),
            text_body: body.to_owned(),
            subject,
            attachments: Vec::new(),
        };
        mailer
            .send(&email)
            .await
            .map_err(|e| TestEmailError::Failed(format!("{e:#}")))?;
        Ok(TestEmailSent {
            to: email.to,
            route,
        })
    }
}

/// The purchase as it stood when the message was queued: a "received" message delivered after
/// the decision (the mail server was down meanwhile) still shows a pending purchase, not a
/// verdict the buyer has not been told of yet.
fn as_when_queued(kind: MailKind, mut purchase: Purchase) -> Purchase {
    if kind == MailKind::Received {
        purchase.status = PurchaseStatus::Pending;
        purchase.decided_at = None;
        purchase.admin_notes = None;
    }
    purchase
}

/// Writes the message of `job` in the buyer's language, text and HTML, with the receipt.
#[must_use]
pub fn compose(
    job: &MailJob,
    purchase: &Purchase,
    context: &ReceiptContext,
    receipt_pdf: Vec<u8>,
) -> OutgoingEmail {
    let lang = job.lang;
    let es = lang == Lang::Es;
    let company = &context.company_name;
    let title = &purchase.raffle_title;
    let reference = &purchase.reference;
    let subject = match (job.kind, es) {
        (MailKind::Received, true) => format!("Recibimos tu compra {reference} – {title}"),
        (MailKind::Received, false) => format!("We received your purchase {reference} – {title}"),
        (MailKind::Approved, true) => format!("¡Compra aprobada! {reference} – {title}"),
        (MailKind::Approved, false) => format!("Purchase approved: {reference} – {title}"),
        (MailKind::Rejected, true) => format!("Compra rechazada {reference} – {title}"),
        (MailKind::Rejected, false) => format!("Purchase rejected: {reference} – {title}"),
    };
    let lead = match (job.kind, es) {
        (MailKind::Received, true) => {
            "Recibimos tu compra. Verificaremos tu pago y te avisaremos por este medio cuando sea aprobada."
        }
        (MailKind::Received, false) => {
            "We received your purchase. We will verify your payment and let you know here once it is approved."
        }
        (MailKind::Approved, true) => {
            "¡Tu pago fue verificado y tu compra está aprobada! Tus boletos ya participan en el sorteo. ¡Mucha suerte!"
        }
        (MailKind::Approved, false) => {
            "Your payment was verified and your purchase is approved! Your tickets are in the draw. Good luck!"
        }
        (MailKind::Rejected, true) => {
            "No pudimos aprobar tu compra y los números quedaron liberados. Si crees que es un error, responde a este correo con tu referencia."
        }
        (MailKind::Rejected, false) => {
            "We could not approve your purchase and its numbers were released. If you think this is a mistake, reply to this e-mail with your reference."
        }
    };
    let greeting = if es {
        format!("Hola, {}:", purchase.customer_name)
    } else {
        format!("Hello {},", purchase.customer_name)
    };
    let numbers: Vec<String> = purchase
        .ticket_numbers
        .iter()
        .take(NUMBERS_IN_BODY)
        .map(|n| display_number(*n, context.max_tickets))
        .collect();
    let more = purchase
        .ticket_numbers
        .len()
        .saturating_sub(NUMBERS_IN_BODY);
    let mut numbers_line = numbers.join(", ");
    if more > 0 {
        numbers_line.push_str(&if es {
            format!(" y {more} más (todos en el recibo adjunto)")
        } else {
            format!(" and {more} more (all in the attached receipt)")
        });
    }
    let usd = format_money(Currency::Usd, purchase.total_amount.as_decimal(), lang);
    let total = match purchase.conversion {
        Some((currency, rate)) => format!(
            "{usd} ({})",
            format_money(currency, rate.convert(purchase.total_amount), lang)
        ),
        None => usd,
    };
    let labels = if es {
        [
            "Sorteo",
            "Referencia",
            "Boletos",
            "Total",
            "Método de pago",
            "Nota del equipo",
        ]
    } else {
        [
            "Raffle",
            "Reference",
            "Tickets",
            "Total",
            "Payment method",
            "Note from the team",
        ]
    };
    // A decision's message carries the admin's note; the purchase's own does not.
    let notes = matches!(job.kind, MailKind::Approved | MailKind::Rejected)
        .then_some(purchase.admin_notes.as_deref())
        .flatten();
    let mut rows = vec![
        (labels[0], title.clone()),
        (labels[1], reference.clone()),
        (labels[2], numbers_line),
        (labels[3], total),
        (labels[4], purchase.payment_method.clone()),
    ];
    if let Some(notes) = notes {
        rows.push((labels[5], notes.to_owned()));
    }
    let closing = if es {
        format!("Adjuntamos tu recibo en PDF.\n\n— {company}")
    } else {
        format!("Your PDF receipt is attached.\n\n— {company}")
    };

    let text_rows: String = rows
        .iter()
        .map(|(label, value)| format!("{label}: {value}\n"))
        .collect();
    let text_body = format!("{greeting}\n\n{lead}\n\n{text_rows}\n{closing}\n");

    let html_rows: String = rows
        .iter()
        .map(|(label, value)| {
            format!(
                "<tr><th align=\"left\" style=\"padding:4px 12px 4px 0;color:#555;font-weight:600;vertical-align:top\">{}</th><td style=\"padding:4px 0\">{}</td></tr>",
                encode_text(label),
                encode_text(value)
            )
        })
        .collect();
    let html_body = format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\"><title>{subject}</title></head>\
         <body style=\"font-family:Arial,Helvetica,sans-serif;color:#111;line-height:1.5;max-width:560px;margin:0 auto;padding:16px\">\
         <h1 style=\"font-size:20px;margin:0 0 16px\">{company}</h1><p>{greeting}</p><p>{lead}</p>\
         <table role=\"presentation\" style=\"border-collapse:collapse;margin:16px 0\">{html_rows}</table>\
         <p>{closing}</p></body></html>",
        lang = lang.code(),
        subject = encode_text(&subject),
        company = encode_text(company),
        greeting = encode_text(&greeting),
        lead = encode_text(lead),
        closing = encode_text(&closing).replace('\n', "<br>"),
    );
    let filename = if es {
        format!("recibo-{reference}.pdf")
    } else {
        format!("receipt-{reference}.pdf")
    };
    OutgoingEmail {
        // Branding read now, at delivery: a renamed company signs its next message.
        sender_name: company.clone(),
        to: job.recipient.clone(),
        subject,
        text_body,
        html_body,
        attachments: vec![Attachment {
            filename,
            content_type: "application/pdf".to_owned(),
            bytes: receipt_pdf,
        }],
    }
}

#[cfg(test)]
mod tests {
    use rifa_domain::money::Money;

    use super::*;

    #[test]
    fn backoff_doubles_from_thirty_seconds_up_to_six_hours() {
        let policy = RetryPolicy::default();
        assert_eq!(policy.backoff(1), TimeDelta::seconds(30));
        assert_eq!(policy.backoff(2), TimeDelta::seconds(60));
        assert_eq!(policy.backoff(5), TimeDelta::seconds(480));
        assert_eq!(policy.backoff(11), TimeDelta::hours(6));
        assert_eq!(policy.backoff(40), TimeDelta::hours(6));
    }

    fn purchase(status: PurchaseStatus) -> Purchase {
        Purchase {
            id: 1,
            reference: "RF-ABC123".into(),
            raffle_id: 1,
            raffle_title: "RX-7".into(),
            ticket_numbers: (1..=60).collect(),
            customer_name: "Ana Ruiz".into(),
            customer_id_document: "V12345678".into(),
            customer_email: "ana@correo.com".into(),
            customer_phone: "04141234567".into(),
            customer_country: "ve".into(),
            payment_method: "Zelle".into(),
            payment_method_id: None,
            conversion: None,
            total_amount: Money::from_cents(6_000).unwrap(),
            discount_applied: Money::ZERO,
            status,
            created_at: Utc::now(),
            decided_at: None,
            payment_proof: None,
            admin_notes: Some("ID 42".into()),
        }
    }

    /// The words a message in the other language would give itself away by.
    fn tell_tale_words(lang: Lang) -> &'static [&'static str] {
        match lang {
            Lang::Es => &[
                "hello",
                "purchase",
                "received",
                "approved",
                "rejected",
                "tickets",
                "reference",
                "payment",
                "raffle",
                "receipt",
                "attached",
                "more",
                "team",
            ],
            Lang::En => &[
                "hola",
                "compra",
                "recibimos",
                "aprobada",
                "rechazada",
                "boletos",
                "referencia",
                "método",
                "sorteo",
                "recibo",
                "adjuntamos",
                "más",
                "equipo",
            ],
        }
    }

    fn visible_words(email: &OutgoingEmail) -> Vec<String> {
        let mut html_text = String::new();
        let mut in_tag = false;
        for c in email.html_body.chars() {
            match c {
                '<' => in_tag = true,
                '>' => {
                    in_tag = false;
                    html_text.push(' ');
                }
                c if !in_tag => html_text.push(c),
                _ => {}
            }
        }
        [&email.subject, &email.text_body, &html_text]
            .iter()
            .flat_map(|text| text.split(|c: char| !c.is_alphanumeric() && c != 'é'))
            .map(str::to_lowercase)
            .collect()
    }

    #[test]
    fn every_message_speaks_only_the_buyers_language() {
        for lang in [Lang::Es, Lang::En] {
            for (kind, status) in [
                (MailKind::Received, PurchaseStatus::Pending),
                (MailKind::Approved, PurchaseStatus::Approved),
                (MailKind::Rejected, PurchaseStatus::Rejected),
            ] {
                let job = MailJob {
                    id: 1,
                    purchase_id: 1,
                    kind,
                    recipient: "ana@correo.com".into(),
                    lang,
                    attempts: 1,
                };
                let context = ReceiptContext {
                    company_name: "Acme".into(),
                    max_tickets: 100,
                    lang,
                    generated_at: Utc::now(),
                };
                let email = compose(&job, &purchase(status), &context, Vec::new());
                let words = visible_words(&email);
                for word in tell_tale_words(lang) {
                    assert!(
                        !words.iter().any(|w| w == word),
                        "{kind:?} in {lang:?} says {word:?}: {}\n{}",
                        email.subject,
                        email.text_body
                    );
                }
            }
        }
    }

    #[test]
    fn the_last_attempt_gives_up() {
        let policy = RetryPolicy::default();
        let now = Utc::now();
        assert!(policy.next_attempt(now, policy.max_attempts - 1).is_some());
        assert_eq!(policy.next_attempt(now, policy.max_attempts), None);
    }
}
