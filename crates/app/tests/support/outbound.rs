//! The mail server, receipt renderer, invoice page, object store (with its own download and
//! upload ends) and proof decoder, in memory.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use futures_util::stream::{self, LocalBoxStream, StreamExt, TryStreamExt};
use rifa_domain::draw::ledger::to_hex;
use rifa_domain::email_settings::EmailSettings;
use rifa_domain::proof::{ProofContent, ProofKind};
use rifa_domain::proof_signals::ReadFailure;
use rifa_domain::purchase::Purchase;
use rifa_ports::outbound::{
    Attachment, CertificateRenderer, DrawCertificate, InvoicePages, MailComposer, MailMessage,
    MailRoute, MailTransports, Mailer, ObjectStore, OutgoingEmail, PresignedUpload, ProofInspector,
    ReceiptContext, ReceiptRenderer, StoredObject,
};
use rifa_ports::{
    DirectTransfers, DownloadRefusal, OutgoingFile, ProofEvidence, ProofExaminer, ProofText,
    TextReader, UploadRefusal,
};

/// Keeps every message it accepts; refuses the next `failures` ones as a down server would.
#[derive(Clone, Default)]
pub struct RecordingMailer {
    state: Arc<Mutex<(Vec<OutgoingEmail>, u32)>>,
}

impl RecordingMailer {
    pub fn sent(&self) -> Vec<OutgoingEmail> {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .0
            .clone()
    }

    /// The next `failures` sends fail.
    pub fn fail_next(&self, failures: u32) {
        self.state.lock().unwrap_or_else(PoisonError::into_inner).1 = failures;
    }
}

impl Mailer for RecordingMailer {
    async fn send(&self, email: &OutgoingEmail) -> anyhow::Result<()> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.1 > 0 {
            state.1 -= 1;
            anyhow::bail!("421 mail server unavailable");
        }
        state.0.push(email.clone());
        Ok(())
    }
}

/// "Renders" a receipt as a line naming what it shows.
pub struct TextReceipts;

impl ReceiptRenderer for TextReceipts {
    fn render(&self, purchase: &Purchase, context: &ReceiptContext) -> anyhow::Result<Vec<u8>> {
        Ok(format!(
            "%PDF receipt {} {:?} {} of {} {:?}",
            purchase.reference,
            purchase.status,
            context.company_name,
            context.max_tickets,
            context.lang
        )
        .into_bytes())
    }
}

/// "Renders" a certificate as a line naming the prize, the winning number and the root.
impl CertificateRenderer for TextReceipts {
    fn render_certificate(&self, certificate: &DrawCertificate) -> anyhow::Result<Vec<u8>> {
        Ok(format!(
            "%PDF certificate {} prize {} won by {:?} root {} {:?}",
            certificate.raffle_title,
            certificate.position,
            certificate.draw.winning_number,
            to_hex(&certificate.commitment.root),
            certificate.lang
        )
        .into_bytes())
    }
}

/// Objects by key; URLs are `memory://<key>`.
#[derive(Clone, Default)]
pub struct MemoryObjects {
    objects: Arc<Mutex<BTreeMap<String, Vec<u8>>>>,
}

impl MemoryObjects {
    /// What the buyer's browser does with the URL: writes the bytes at the key.
    pub fn put(&self, key: &str, bytes: &[u8]) {
        self.objects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key.to_owned(), bytes.to_vec());
    }

    /// An object lost by the store (a bucket emptied by hand).
    pub fn remove(&self, key: &str) {
        self.objects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(key);
    }

    pub fn keys(&self) -> Vec<String> {
        self.objects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .keys()
            .cloned()
            .collect()
    }
}

/// The key a `memory://` URL was signed for.
pub fn key_of(upload: &PresignedUpload) -> &str {
    upload.url.strip_prefix("memory://").unwrap_or(&upload.url)
}

impl ObjectStore for MemoryObjects {
    async fn presign_upload(
        &self,
        key: &str,
        content_type: &str,
        size: u64,
        _ttl: Duration,
    ) -> anyhow::Result<PresignedUpload> {
        Ok(PresignedUpload {
            url: format!("memory://{key}"),
            headers: vec![
                ("Content-Type".to_owned(), content_type.to_owned()),
                ("Content-Length".to_owned(), size.to_string()),
            ],
        })
    }

    async fn presign_download(&self, key: &str, _ttl: Duration) -> anyhow::Result<String> {
        Ok(format!("memory://{key}?signed"))
    }

    async fn read(&self, key: &str, max_bytes: usize) -> anyhow::Result<Option<StoredObject>> {
        Ok(self
            .objects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .map(|bytes| StoredObject {
                size: bytes.len() as u64,
                first_bytes: bytes.iter().copied().take(max_bytes).collect(),
            }))
    }

    async fn put(&self, key: &str, bytes: Vec<u8>, _content_type: &str) -> anyhow::Result<()> {
        self.objects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(key.to_owned())
            .or_insert(bytes);
        Ok(())
    }

    async fn delete(&self, key: &str) -> anyhow::Result<()> {
        self.objects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(key);
        Ok(())
    }
}

/// Reads every file as a readable one-page document or 800×600 image, unless a test says the
/// decoder finds something else.
#[derive(Clone, Default)]
pub struct ScriptedInspector {
    verdict: Arc<Mutex<Option<ProofContent>>>,
}

impl ScriptedInspector {
    pub fn finds(&self, content: ProofContent) {
        *self.verdict.lock().unwrap_or_else(PoisonError::into_inner) = Some(content);
    }
}

impl ProofInspector for ScriptedInspector {
    async fn inspect(
        &self,
        kind: ProofKind,
        _bytes: Vec<u8>,
        _max_pixels: u64,
    ) -> anyhow::Result<ProofContent> {
        let scripted = *self.verdict.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(scripted.unwrap_or(match kind {
            ProofKind::Pdf => ProofContent::Pdf { pages: 1 },
            ProofKind::Jpeg | ProofKind::Png | ProofKind::Gif | ProofKind::Webp => {
                ProofContent::Image {
                    width: 800,
                    height: 600,
                }
            }
        }))
    }
}

/// What a test said of each file, by its bytes.
type ByFile<T> = Arc<Mutex<Vec<(Vec<u8>, T)>>>;

/// What a test says each proof file carries (by its bytes); nothing otherwise.
#[derive(Clone, Default)]
pub struct ScriptedExaminer {
    evidence: ByFile<ProofEvidence>,
}

impl ScriptedExaminer {
    pub fn finds(&self, file: &[u8], evidence: ProofEvidence) {
        self.evidence
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((file.to_vec(), evidence));
    }
}

impl ProofExaminer for ScriptedExaminer {
    async fn examine(&self, _kind: ProofKind, bytes: Vec<u8>) -> anyhow::Result<ProofEvidence> {
        Ok(self
            .evidence
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .find(|(file, _)| *file == bytes)
            .map(|(_, evidence)| evidence.clone())
            .unwrap_or_default())
    }
}

/// Reads the text a test gave each proof file (by its bytes); a server without OCR until a
/// test installs one, and an empty page for a file it was told nothing about. A file may
/// instead be scripted to be refused ([`ProofText::NotRead`]) or to find the reader unable to
/// run (an error).
#[derive(Clone, Default)]
pub struct ScriptedReader {
    texts: ByFile<Result<ProofText, String>>,
    /// The files read, in order.
    read: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl ScriptedReader {
    pub fn reads(&self, file: &[u8], text: &str) {
        self.script(file, Ok(ProofText::Read(text.to_owned())));
    }

    /// `file` is not read, for its own reason.
    pub fn refuses(&self, file: &[u8], failure: ReadFailure) {
        self.script(file, Ok(ProofText::NotRead(failure)));
    }

    /// The reader cannot be run on `file` (`error`), as when a program does not start.
    pub fn breaks_on(&self, file: &[u8], error: &str) {
        self.script(file, Err(error.to_owned()));
    }

    /// The files read so far, in order.
    pub fn files_read(&self) -> Vec<Vec<u8>> {
        self.read
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// What reading `file` comes to from now on.
    fn script(&self, file: &[u8], outcome: Result<ProofText, String>) {
        let mut texts = self.texts.lock().unwrap_or_else(PoisonError::into_inner);
        texts.retain(|(scripted, _)| scripted != file);
        texts.push((file.to_vec(), outcome));
    }
}

impl TextReader for ScriptedReader {
    async fn read_text(&self, _kind: ProofKind, bytes: Vec<u8>) -> anyhow::Result<ProofText> {
        self.read
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(bytes.clone());
        let texts = self.texts.lock().unwrap_or_else(PoisonError::into_inner);
        // No OCR on this server until a test scripts a file.
        if texts.is_empty() {
            return Ok(ProofText::NoReader);
        }
        match texts.iter().find(|(file, _)| *file == bytes) {
            Some((_, Ok(text))) => Ok(text.clone()),
            Some((_, Err(error))) => Err(anyhow::anyhow!("{error}")),
            None => Ok(ProofText::Read(String::new())),
        }
    }
}

/// Opens the one recording mailer for any settings: through a server when they name a host,
/// into the file outbox otherwise (as the SMTP adapter falls back), or refuses with the reason
/// a test scripted.
#[derive(Clone, Default)]
pub struct ScriptedTransports {
    mailer: RecordingMailer,
    refusal: Arc<Mutex<Option<String>>>,
}

impl ScriptedTransports {
    pub fn over(mailer: RecordingMailer) -> Self {
        Self {
            mailer,
            refusal: Arc::default(),
        }
    }

    /// Makes every later `open` fail with `reason` (settings no mailer can be made of).
    pub fn refuse(&self, reason: &str) {
        *self.refusal.lock().unwrap_or_else(PoisonError::into_inner) = Some(reason.to_owned());
    }
}

impl MailTransports for ScriptedTransports {
    type Mailer = RecordingMailer;

    fn open(&self, saved: &EmailSettings) -> anyhow::Result<(RecordingMailer, MailRoute)> {
        if let Some(reason) = self
            .refusal
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
        {
            anyhow::bail!(reason);
        }
        let route = if saved.host.trim().is_empty() {
            MailRoute::FileOutbox
        } else {
            MailRoute::Server
        };
        Ok((self.mailer.clone(), route))
    }
}

/// The invoice page as one line naming what it shows.
pub struct TextPages;

pub const INVOICE_POLICY: &str = "default-src 'none'";

impl InvoicePages for TextPages {
    fn render(&self, purchase: &Purchase, context: &ReceiptContext) -> String {
        format!(
            "<invoice {} {:?} {} {:?}>",
            purchase.reference, purchase.status, context.company_name, context.lang
        )
    }

    fn content_security_policy(&self) -> &'static str {
        INVOICE_POLICY
    }
}

/// The memory store serves its own links: a download token is what follows `memory://` in the
/// signed link, an upload token the granted key.
impl DirectTransfers for MemoryObjects {
    async fn receive(
        &self,
        token: &str,
        _content_type: &str,
        body: LocalBoxStream<'_, std::io::Result<Bytes>>,
    ) -> Result<u64, UploadRefusal> {
        let chunks: Vec<Bytes> = body.try_collect().await.map_err(UploadRefusal::Body)?;
        let bytes = chunks.concat();
        self.put(token, &bytes);
        Ok(bytes.len() as u64)
    }

    async fn send(&self, token: &str) -> Result<OutgoingFile, DownloadRefusal> {
        let key = token
            .strip_suffix("?signed")
            .ok_or(DownloadRefusal::NotFound)?;
        let bytes = self
            .objects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .cloned()
            .ok_or(DownloadRefusal::NotFound)?;
        let content_type = if bytes.starts_with(b"%PDF") {
            "application/pdf"
        } else if bytes.starts_with(b"\x89PNG") {
            "image/png"
        } else {
            "application/octet-stream"
        };
        Ok(OutgoingFile {
            size: bytes.len() as u64,
            content_type,
            body: stream::once(async move { Ok(Bytes::from(bytes)) }).boxed(),
        })
    }
}

/// Words a message plainly: the kind, language, reference and title in the subject, the buyer
/// in the body, the receipt attached — enough for the use cases' choices to show, without the
/// mail adapter's templates (tested in rifa-mail).
#[derive(Clone, Copy, Default)]
pub struct PlainComposer;

impl MailComposer for PlainComposer {
    fn compose(&self, message: MailMessage) -> anyhow::Result<OutgoingEmail> {
        Ok(match message {
            MailMessage::Purchase {
                kind,
                to,
                purchase,
                context,
                receipt_pdf,
                buyer_link,
                proof_missing,
            } => OutgoingEmail {
                sender_name: context.company_name,
                to,
                subject: format!(
                    "{} [{}] {} – {}",
                    kind.as_str(),
                    context.lang.code(),
                    purchase.reference,
                    purchase.raffle_title
                ),
                text_body: format!(
                    "{}\n{}\n{}",
                    purchase.customer_name,
                    buyer_link.unwrap_or_default(),
                    if proof_missing { "proof missing\n" } else { "" }
                ),
                html_body: format!("<p>{}</p>", purchase.customer_name),
                attachments: vec![Attachment {
                    filename: format!("{}.pdf", purchase.reference),
                    content_type: "application/pdf".to_owned(),
                    bytes: receipt_pdf,
                }],
            },
            MailMessage::NumbersReleased {
                to,
                company_name,
                raffle_title,
                raffle_link,
                lang,
            } => OutgoingEmail {
                sender_name: company_name,
                to,
                subject: format!("numbers_released [{}] {raffle_title}", lang.code()),
                text_body: format!("{raffle_link}\n"),
                html_body: String::new(),
                attachments: Vec::new(),
            },
            MailMessage::LedgerFrozen {
                to,
                lang,
                company_name,
                raffle_title,
                reference,
                commitment,
                proofs,
                verify_link,
                ..
            } => OutgoingEmail {
                sender_name: company_name,
                to,
                subject: format!(
                    "ledger_frozen [{}] {reference} – {raffle_title}",
                    lang.code()
                ),
                text_body: format!(
                    "{}\n{}\n{verify_link}\n",
                    to_hex(&commitment.root),
                    proofs
                        .iter()
                        .map(|p| format!("{}@{}:{}", p.number, p.index, p.path.len()))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                html_body: String::new(),
                attachments: Vec::new(),
            },
            MailMessage::PrizeWon {
                to,
                customer_name,
                reference,
                certificate,
                certificate_pdf,
                ..
            } => OutgoingEmail {
                sender_name: certificate.company_name.clone(),
                to,
                subject: format!(
                    "prize_won [{}] {reference} – {}",
                    certificate.lang.code(),
                    certificate.raffle_title
                ),
                text_body: format!("{customer_name}\n"),
                html_body: String::new(),
                attachments: vec![Attachment {
                    filename: format!("acta-{}.pdf", certificate.position),
                    content_type: "application/pdf".to_owned(),
                    bytes: certificate_pdf,
                }],
            },
            MailMessage::SettingsTest {
                to,
                company_name,
                lang,
            } => OutgoingEmail {
                sender_name: company_name.clone(),
                to,
                subject: format!("test [{}] {company_name}", lang.code()),
                text_body: String::new(),
                html_body: String::new(),
                attachments: Vec::new(),
            },
        })
    }
}
