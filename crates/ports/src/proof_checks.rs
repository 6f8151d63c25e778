//! The queue of proof checks (issue 16): each attached proof is checked once, off the request
//! path, by whichever instance claims it first; what the check found is kept with it.

use std::future::Future;

use chrono::{DateTime, Utc};
use rifa_domain::exchange::Currency;
use rifa_domain::money::{Money, Rate};
use rifa_domain::proof::ProofKind;
use rifa_domain::proof_signals::{Light, PictureHash, ReadFailure, Signal};
use rifa_domain::purchase::{Purchase, PurchaseCursor, PurchaseId};

/// A proof waiting for its check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofCheckJob {
    pub purchase_id: PurchaseId,
    pub object_key: String,
    pub attempts: u32,
}

/// What a check compares a proof with: the purchase as the buyer made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofSubject {
    pub created_at: DateTime<Utc>,
    /// In dollars.
    pub total_amount: Money,
    /// The method's currency and the rate locked at purchase; `None` pays in dollars.
    pub conversion: Option<(Currency, Rate)>,
    /// The payment reference the buyer typed, if any.
    pub payment_reference: Option<String>,
}

/// What a check found, to keep with the proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofFindings {
    pub fingerprint: [u8; 32],
    /// The picture's perceptual hash; `None` for a PDF or a picture that does not decode.
    pub picture_hash: Option<PictureHash>,
    /// The key of the reference the proof shows, if one was read.
    pub read_reference: Option<String>,
    /// The text read from the proof (OCR or a PDF's own text), for the reviewer.
    pub text: Option<String>,
    pub light: Light,
    pub signals: Vec<Signal>,
}

/// What a proof's file carries besides what it reads: its picture's hash and its metadata.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProofEvidence {
    /// The picture's perceptual hash (`None`: a PDF, or pixels that do not decode).
    pub picture_hash: Option<PictureHash>,
    /// The software the metadata names (EXIF `Software`, a PDF's `Producer` and `Creator`).
    pub software: Vec<String>,
    /// When the metadata says the file was made (EXIF `DateTimeOriginal` or `DateTime`, a
    /// PDF's `CreationDate`); a time without a zone is taken as UTC.
    pub created_at: Option<DateTime<Utc>>,
    /// The device the metadata names (EXIF `Make` and `Model`).
    pub device: Option<String>,
}

/// Reads a proof's file for evidence: CPU work on a stranger's file, run off the async workers
/// within bounded memory; a file that does not decode yields what could be read.
pub trait ProofExaminer: Send + Sync + 'static {
    /// # Errors
    /// Only when the work could not be run.
    fn examine(
        &self,
        kind: ProofKind,
        bytes: Vec<u8>,
    ) -> impl Future<Output = anyhow::Result<ProofEvidence>> + Send;
}

/// What reading a proof's text came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProofText {
    /// The text the proof shows (empty when none was found).
    Read(String),
    /// This server has nothing to read this kind of file with (no OCR engine, no Spanish
    /// model, no poppler, or reading turned off).
    NoReader,
    /// The file could not be read within the bounds every proof is read in: its own doing,
    /// so final.
    NotRead(ReadFailure),
}

/// Reads the text a proof shows: OCR of a picture, a PDF's own text (or OCR of its first page
/// when it is a scan), each file within bounded pixels, memory and time.
pub trait TextReader: Send + Sync + 'static {
    /// # Errors
    /// Only when the reader could not be run at all (a program that does not start): worth
    /// trying again later. What a file makes a reader do is [`ProofText::NotRead`].
    fn read_text(
        &self,
        kind: ProofKind,
        bytes: Vec<u8>,
    ) -> impl Future<Output = anyhow::Result<ProofText>> + Send;
}

/// Which proofs the reviewer's queue lists: pending purchases whose proof is attached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueQuery {
    /// Only those whose check found this light; `None` lists all.
    pub light: Option<QueueLight>,
    /// Oldest first (the order to clear a queue in), or newest first.
    pub oldest_first: bool,
    /// From just after this purchase in that order (keyset paging).
    pub after: Option<PurchaseCursor>,
    pub limit: u32,
}

/// A queue filter by the check's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueLight {
    Checked(Light),
    /// Not checked yet, or given up.
    Unchecked,
}

/// A purchase in the reviewer's queue, with what its proof's check found.
#[derive(Debug, Clone, PartialEq)]
pub struct QueuedProof {
    pub purchase: Purchase,
    /// `None` while the check is pending or when it was given up.
    pub light: Option<Light>,
    pub signals: Vec<Signal>,
}

/// Where a purchase's proof check stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProofCheckState {
    /// Queued, or being checked.
    Pending,
    Done {
        light: Light,
        signals: Vec<Signal>,
        /// What was read from the proof, for the reviewer.
        text: Option<String>,
        checked_at: DateTime<Utc>,
    },
    /// Given up after the last attempt.
    Failed { reason: String },
}

pub trait ProofChecks: Send + Sync + 'static {
    /// Up to `limit` checks due at `now`, each leased until `lease_until` so no other instance
    /// takes it meanwhile; a lease that ran out (a crashed worker) is taken again. Those tried
    /// fewest times come first, then the longest due: a check tried again goes behind proofs
    /// attached since.
    ///
    /// # Errors
    /// Storage failures only.
    fn claim_proof_checks(
        &self,
        limit: u32,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<Vec<ProofCheckJob>>> + Send;

    /// The purchases other than `except` whose proof has this fingerprint.
    ///
    /// # Errors
    /// Storage failures only.
    fn purchases_with_fingerprint(
        &self,
        fingerprint: &[u8; 32],
        except: PurchaseId,
    ) -> impl Future<Output = anyhow::Result<Vec<PurchaseId>>> + Send;

    /// The purchases other than `except` whose proof's picture hash is within `max_distance`
    /// bits of `hash`, each with its distance.
    ///
    /// # Errors
    /// Storage failures only.
    fn purchases_with_similar_picture(
        &self,
        hash: &PictureHash,
        max_distance: u32,
        except: PurchaseId,
    ) -> impl Future<Output = anyhow::Result<Vec<(PurchaseId, u32)>>> + Send;

    /// The purchases other than `except` whose proof shows the reference with this key, or
    /// whose buyer typed it (with any method).
    ///
    /// # Errors
    /// Storage failures only.
    fn purchases_with_reference(
        &self,
        reference_key: &str,
        except: PurchaseId,
    ) -> impl Future<Output = anyhow::Result<Vec<PurchaseId>>> + Send;

    /// The purchase a proof belongs to, as the check compares it; `None` once it is gone.
    ///
    /// # Errors
    /// Storage failures only.
    fn proof_subject(
        &self,
        purchase: PurchaseId,
    ) -> impl Future<Output = anyhow::Result<Option<ProofSubject>>> + Send;

    /// Records what the check of `job` found; nothing when another proof replaced it meanwhile
    /// (its own check is queued).
    ///
    /// # Errors
    /// Storage failures only.
    fn record_proof_check(
        &self,
        job: &ProofCheckJob,
        findings: &ProofFindings,
        at: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// Records a failed attempt: tried again at `retry_at`, or given up when `None`.
    ///
    /// # Errors
    /// Storage failures only.
    fn proof_check_failed(
        &self,
        job: &ProofCheckJob,
        reason: &str,
        retry_at: Option<DateTime<Utc>>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// A page of the reviewer's queue.
    ///
    /// # Errors
    /// Storage failures only.
    fn proof_queue(
        &self,
        query: &QueueQuery,
    ) -> impl Future<Output = anyhow::Result<Vec<QueuedProof>>> + Send;

    /// The lights of those of `purchases` whose proof's check is done.
    ///
    /// # Errors
    /// Storage failures only.
    fn lights_of(
        &self,
        purchases: &[PurchaseId],
    ) -> impl Future<Output = anyhow::Result<Vec<(PurchaseId, Light)>>> + Send;

    /// The check of a purchase's proof; `None` when no proof was attached.
    ///
    /// # Errors
    /// Storage failures only.
    fn proof_check(
        &self,
        purchase: PurchaseId,
    ) -> impl Future<Output = anyhow::Result<Option<ProofCheckState>>> + Send;
}
