//! Ports to the world beyond the database, implemented by the storage, mail and PDF adapters.

use std::time::Duration;

use chrono::{DateTime, Utc};
use rifa_domain::Lang;
use rifa_domain::photo::PhotoFormat;
use rifa_domain::proof::{ProofContent, ProofKind};
use rifa_domain::purchase::Purchase;

use rifa_domain::draw::ledger::Hash;
use rifa_domain::draw::prize::PrizeSource;
use rifa_domain::raffle::RaffleId;

use crate::{Commitment, MailKind, PrizeDraw};

/// Where payment proofs and the staff's photos live. Objects are private: admins read proofs
/// through URLs this store signs for a short time, and the API serves photos itself. Buyers
/// write proofs once, through a URL this store signs for one key and one content type; the API
/// writes the photos it encoded.
pub trait ObjectStore: Send + Sync + 'static {
    /// A URL the buyer's browser can `PUT` one file of `content_type` and exactly `size` bytes
    /// to, bound to `key` and valid for `ttl`, with the headers the `PUT` must carry (the
    /// signature covers them, and the length too: a body of another size is refused). The URL
    /// may be relative to the API (the local store serves uploads itself). Where the store can,
    /// a second `PUT` to the same URL fails: the object is written once.
    ///
    /// What arrives is still to be judged by its bytes: read it with [`ObjectStore::head`]
    /// after the upload and [`ObjectStore::delete`] it when refused.
    ///
    /// # Errors
    /// When the key is not a valid object key or the store cannot sign (misconfigured
    /// credentials).
    fn presign_upload(
        &self,
        key: &str,
        content_type: &str,
        size: u64,
        ttl: Duration,
    ) -> impl Future<Output = anyhow::Result<PresignedUpload>> + Send;

    /// A short-lived URL an admin's browser can `GET` the object at (possibly relative to the
    /// API).
    ///
    /// # Errors
    /// When the key is not a valid object key or the store cannot sign.
    fn presign_download(
        &self,
        key: &str,
        ttl: Duration,
    ) -> impl Future<Output = anyhow::Result<String>> + Send;

    /// A stored object's size and up to its first `max_bytes` bytes: the magic numbers, or the
    /// whole file to decode it.
    ///
    /// # Errors
    /// `Ok(None)` when no object has that key; `Err` when the key is invalid or the store is
    /// unreachable.
    fn read(
        &self,
        key: &str,
        max_bytes: usize,
    ) -> impl Future<Output = anyhow::Result<Option<StoredObject>>> + Send;

    /// [`ObjectStore::read`] of the first 16 bytes: enough to judge a type by its magic number.
    ///
    /// # Errors
    /// Those of [`ObjectStore::read`].
    fn head(&self, key: &str) -> impl Future<Output = anyhow::Result<Option<StoredObject>>> + Send {
        self.read(key, 16)
    }

    /// Writes an object the API made itself (a photo it encoded), whole or not at all. An
    /// object already under `key` is kept: keys of what we write name their content.
    ///
    /// # Errors
    /// When the key is invalid or the store is unreachable.
    fn put(
        &self,
        key: &str,
        bytes: Vec<u8>,
        content_type: &str,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// Removes an object (a refused upload). Removing an object that is not there succeeds.
    ///
    /// # Errors
    /// When the key is invalid or the store is unreachable.
    fn delete(&self, key: &str) -> impl Future<Output = anyhow::Result<()>> + Send;
}

/// Where and how a browser uploads one file: `PUT` the file's bytes to `url` with every header
/// in `headers` (`Content-Type` among them), exactly as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresignedUpload {
    pub url: String,
    pub headers: Vec<(String, String)>,
}

/// What [`ObjectStore::read`] reads of an object: its size and up to its first bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredObject {
    pub size: u64,
    pub first_bytes: Vec<u8>,
}

/// Turns an uploaded photo into the one we serve: decoded within
/// [`rifa_domain::photo::MAX_PHOTO_PIXELS`], turned upright, fitted within
/// [`rifa_domain::photo::SERVED_SIDE`] pixels a side and encoded again, with no metadata.
///
/// CPU work on untrusted input, synchronous: callers run it off the async workers.
pub trait PhotoEncoder: Send + Sync + 'static {
    /// # Errors
    /// See [`PhotoRefusal`].
    fn encode(&self, bytes: &[u8]) -> Result<EncodedPhoto, PhotoRefusal>;
}

/// A photo as it will be served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedPhoto {
    pub bytes: Vec<u8>,
    pub format: PhotoFormat,
    pub width: u32,
    pub height: u32,
}

/// Why an uploaded file is not a photo we can serve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhotoRefusal {
    /// Not a JPG, PNG, GIF or WEBP by its first bytes.
    #[error("not a JPG, PNG, GIF or WEBP picture")]
    NotAPicture,
    /// An iPhone's HEIC/HEIF photo, which browsers do not show.
    #[error("a HEIC/HEIF photo")]
    Heif,
    #[error("more than {max_pixels} pixels")]
    TooManyPixels { max_pixels: u64 },
    /// Its header promised a picture its data did not hold.
    #[error("the picture cannot be decoded")]
    Unreadable,
}

/// Decodes payment proofs, so a file is judged by what it is and not only by its first bytes.
///
/// Decoding is CPU work on untrusted input: implementations run it off the async workers, with
/// bounded concurrency and memory, and treat a decoder's panic as an unreadable file.
pub trait ProofInspector: Send + Sync + 'static {
    /// Decodes `bytes` as `kind`: an image's dimensions from its header, then (within
    /// `max_pixels`) its pixels; a PDF's structure and pages. Never decodes an image whose
    /// header claims more than `max_pixels`.
    ///
    /// # Errors
    /// Only when decoding could not be run (the blocking pool is gone); a file that does not
    /// decode is [`ProofContent::Unreadable`].
    fn inspect(
        &self,
        kind: ProofKind,
        bytes: Vec<u8>,
        max_pixels: u64,
    ) -> impl Future<Output = anyhow::Result<ProofContent>> + Send;
}

/// One e-mail to a buyer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingEmail {
    /// The sender's display name (the company's, read from branding when the message is
    /// written); blank keeps the name of the configured sender address.
    pub sender_name: String,
    pub to: String,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub attachments: Vec<Attachment>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub filename: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

pub trait Mailer: Send + Sync + 'static {
    /// # Errors
    /// When the message was not accepted by the server (the outbox worker retries it).
    fn send(&self, email: &OutgoingEmail) -> impl Future<Output = anyhow::Result<()>> + Send;
}

/// A message the use cases decided to send, before it is worded: which one, to whom, with what.
#[derive(Debug, Clone, PartialEq)]
#[allow(
    clippy::large_enum_variant,
    reason = "one per e-mail sent, moved into the composer; boxing would only add an allocation"
)]
pub enum MailMessage {
    /// A purchase's message in the buyer's language (`context.lang`), with its PDF receipt.
    Purchase {
        kind: MailKind,
        to: String,
        purchase: Purchase,
        context: ReceiptContext,
        receipt_pdf: Vec<u8>,
        /// The buyer's private page of the purchase (absolute URL), when its key can be
        /// given.
        buyer_link: Option<String>,
        /// A `received` message of a pending purchase whose proof has not arrived: it asks
        /// the buyer to send it from their page.
        proof_missing: bool,
    },
    /// Numbers of a raffle the recipient wanted are on sale again.
    NumbersReleased {
        to: String,
        company_name: String,
        raffle_title: String,
        /// The raffle's public page (absolute URL).
        raffle_link: String,
        lang: Lang,
    },
    /// To a buyer of a raffle whose ledger was frozen: the commitment, their numbers, and the
    /// proof of each (attached as JSON, checkable offline).
    LedgerFrozen {
        to: String,
        lang: Lang,
        company_name: String,
        raffle_id: RaffleId,
        raffle_title: String,
        max_tickets: u32,
        reference: String,
        commitment: Commitment,
        /// The purchase's tag in the ledger.
        tag: Hash,
        /// Each of the purchase's numbers with its place in the ledger and its proof.
        proofs: Vec<InclusionProof>,
        /// The public verification page, with the reference filled in.
        verify_link: String,
    },
    /// To the winner of a prize, with its certificate.
    PrizeWon {
        to: String,
        customer_name: String,
        reference: String,
        claim_deadline: DateTime<Utc>,
        certificate: DrawCertificate,
        certificate_pdf: Vec<u8>,
    },
    /// A short message by which an admin checks the e-mail settings.
    SettingsTest {
        to: String,
        company_name: String,
        lang: Lang,
    },
}

/// A number's place in a frozen ledger and the sibling hashes from its leaf to the root
/// (RFC 9162 §2.1.3), nearest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InclusionProof {
    pub number: u32,
    pub index: u64,
    pub path: Vec<Hash>,
}

/// The "Acta de sorteo" of one prize: what was committed to, the public result, the rule's
/// steps and the winning number, in the reader's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawCertificate {
    pub company_name: String,
    pub lang: Lang,
    pub raffle_title: String,
    pub max_tickets: u32,
    pub commitment: Commitment,
    pub position: u32,
    pub prize_title: String,
    pub source: PrizeSource,
    pub draw: PrizeDraw,
    /// The winner as the public sees them (`María P.`, country), when there is one.
    pub winner: Option<(String, String)>,
    /// The public verification page.
    pub verify_link: String,
}

pub trait CertificateRenderer: Send + Sync + 'static {
    /// The certificate as a PDF.
    ///
    /// # Errors
    /// When rendering fails.
    fn render_certificate(&self, certificate: &DrawCertificate) -> anyhow::Result<Vec<u8>>;
}

/// Words a [`MailMessage`] as an e-mail: subject, text and HTML bodies, attachments.
pub trait MailComposer: Send + Sync + 'static {
    /// # Errors
    /// When a template cannot be rendered.
    fn compose(&self, message: MailMessage) -> anyhow::Result<OutgoingEmail>;
}

/// What a receipt shows besides the purchase itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptContext {
    pub company_name: String,
    pub max_tickets: u32,
    pub lang: Lang,
    pub generated_at: DateTime<Utc>,
}

pub trait ReceiptRenderer: Send + Sync + 'static {
    /// A PDF receipt of `purchase`.
    ///
    /// # Errors
    /// When rendering fails (missing font, layout overflow).
    fn render(&self, purchase: &Purchase, context: &ReceiptContext) -> anyhow::Result<Vec<u8>>;
}

/// The printable HTML invoice of a purchase.
pub trait InvoicePages: Send + Sync + 'static {
    /// A self-contained page (no external asset).
    fn render(&self, purchase: &Purchase, context: &ReceiptContext) -> String;

    /// The `Content-Security-Policy` that lets exactly the page's own script and style run.
    fn content_security_policy(&self) -> &'static str;
}

/// How a message left: through a mail server, or into the file outbox (no server configured).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailRoute {
    Server,
    FileOutbox,
}

/// Opens the mailer the settings call for, at delivery time (admins change the settings while
/// the server runs).
pub trait MailTransports: Send + Sync + 'static {
    type Mailer: Mailer;

    /// The mailer for the settings admins saved (the adapter may fall back on its own
    /// configuration when they name no server), and the route its messages take.
    ///
    /// # Errors
    /// When the settings cannot make a mailer (the message says why, without secrets).
    fn open(
        &self,
        saved: &rifa_domain::email_settings::EmailSettings,
    ) -> anyhow::Result<(Self::Mailer, MailRoute)>;
}

// One store shared by the services that read, write and serve its files.
impl<T: ObjectStore> ObjectStore for std::sync::Arc<T> {
    fn presign_upload(
        &self,
        key: &str,
        content_type: &str,
        size: u64,
        ttl: Duration,
    ) -> impl Future<Output = anyhow::Result<PresignedUpload>> + Send {
        (**self).presign_upload(key, content_type, size, ttl)
    }

    fn presign_download(
        &self,
        key: &str,
        ttl: Duration,
    ) -> impl Future<Output = anyhow::Result<String>> + Send {
        (**self).presign_download(key, ttl)
    }

    fn read(
        &self,
        key: &str,
        max_bytes: usize,
    ) -> impl Future<Output = anyhow::Result<Option<StoredObject>>> + Send {
        (**self).read(key, max_bytes)
    }

    fn put(
        &self,
        key: &str,
        bytes: Vec<u8>,
        content_type: &str,
    ) -> impl Future<Output = anyhow::Result<()>> + Send {
        (**self).put(key, bytes, content_type)
    }

    fn delete(&self, key: &str) -> impl Future<Output = anyhow::Result<()>> + Send {
        (**self).delete(key)
    }
}
