//! The payment proof: the buyer uploads it straight to the object store, then attaches it.
//!
//! The seed's flow let anyone attach anything to any purchase. Here every step needs the
//! buyer's secret key from the purchase answer, only a pending purchase takes a proof, the
//! upload URL is bound to one fresh key under that purchase (`proofs/{id}/{random}.{ext}`) and
//! to the declared size, storage records it as the purchase's grant, and the file is judged by
//! its bytes (size, magic numbers, the kind it was sent as, and a real decoder's reading of the
//! whole file: a [`ProofInspector`]) before it is attached. A refused
//! file is deleted and the purchase records why. Wrong key and unknown purchase answer alike, so
//! ids cannot be probed.
//!
//! The store cannot be filled through one purchase: each purchase gets at most
//! [`MAX_UPLOAD_GRANTS`] upload URLs, an upload a newer grant replaces is deleted, and so is a
//! proof a newer one replaces. An upload a buyer never attached is swept
//! ([`ProofsService::sweep_abandoned_uploads`]) once its grant is [`ABANDONED_UPLOAD_AGE`] old.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures_util::stream::LocalBoxStream;

use crate::shared::{AvailabilityCache, Shared};
use rifa_domain::Lang;
use rifa_domain::proof::{
    MAX_PROOF_BYTES, MAX_PROOF_PIXELS, ProofError, ProofKind, check_declared_proof, judge_content,
};
use rifa_domain::purchase::{Purchase, PurchaseId, PurchaseStatus};
use rifa_ports::outbound::{ObjectStore, PresignedUpload, ProofInspector};
use rifa_ports::{
    AccessKeys, AttachOutcome, Clock, DirectTransfers, DownloadRefusal, OutgoingFile, ProofProblem,
    PurchaseAccess, PurchaseProofs, PurchaseRepository, UploadRefusal,
};

/// How long an upload URL works: enough for a slow phone connection, short enough to be
/// useless if it leaks.
pub const UPLOAD_URL_TTL: Duration = Duration::from_secs(15 * 60);
/// How long an admin's link to a proof works.
pub const DOWNLOAD_URL_TTL: Duration = Duration::from_secs(10 * 60);
/// How much of a stored proof is read to judge it: the whole file when it is within the limit,
/// and one byte more tells a file over it (whose size is refused before anything is decoded).
const MAX_PROOF_READ: usize = MAX_PROOF_BYTES as usize + 1;
/// Upload URLs per purchase: room for retries on a bad connection, not for filling the store.
pub const MAX_UPLOAD_GRANTS: u32 = 10;
/// When an upload granted and never attached is given up: the buyer attaches right after the
/// upload, and the URL itself expired after [`UPLOAD_URL_TTL`], so a day is far on the safe side.
pub const ABANDONED_UPLOAD_AGE: Duration = Duration::from_secs(24 * 60 * 60);

#[derive(Debug, thiserror::Error)]
pub enum ProofFailure {
    /// No such purchase, or the key does not open it.
    #[error("purchase not found")]
    NotFound,
    #[error("purchase is {0:?}, no longer pending")]
    NotPending(PurchaseStatus),
    /// The hold's deadline passed before a proof came: the numbers went back on sale.
    #[error("the hold expired")]
    HoldExpired,
    /// The file (declared or stored) is refused; nothing is attached.
    #[error("proof refused")]
    Refused(ProofError),
    /// The purchase has used its [`MAX_UPLOAD_GRANTS`] upload URLs.
    #[error("no upload URLs left for this purchase")]
    TooManyUploads,
    /// The file's size was not declared, so no URL can be bound to it.
    #[error("the file's size is required")]
    SizeRequired,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// What the buyer says about the file before sending it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadRequest {
    pub purchase_id: PurchaseId,
    pub access_key: String,
    pub filename: String,
    /// The browser's idea of the type; the file's name decides when absent.
    pub content_type: Option<String>,
    /// Required: the URL is bound to it.
    pub size: Option<u64>,
}

/// The payment proof, from the buyer's upload URL to the admin's link.
#[async_trait::async_trait]
pub trait ProofsService: Send + Sync + 'static {
    /// Checks the buyer's key and what they declare, and grants one upload URL.
    ///
    /// # Errors
    /// `NotFound`, `NotPending`, `Refused` (declared empty, too large or of another type),
    /// `SizeRequired`, `TooManyUploads`, or a failure of storage or the object store.
    async fn grant_proof_upload(
        &self,
        request: &UploadRequest,
    ) -> Result<PresignedUpload, ProofFailure>;

    /// Judges the granted upload by its bytes and attaches it, or deletes it and records why.
    ///
    /// # Errors
    /// `NotFound`, `NotPending`, `Refused` (nothing uploaded, too large, not an image or PDF),
    /// or a failure of storage or the object store.
    async fn attach_proof(
        &self,
        purchase_id: PurchaseId,
        access_key: &str,
    ) -> Result<(), ProofFailure>;

    /// Deletes uploads granted more than `older_than` ago and never attached, `batch` at a time
    /// until none is left, and answers how many were swept. The file goes first and the grant
    /// after, so a failure leaves the grant to retry next time rather than an orphan file.
    ///
    /// # Errors
    /// A failure of storage or of the object store; what was swept before it stays swept.
    async fn sweep_abandoned_uploads(
        &self,
        older_than: Duration,
        batch: u32,
    ) -> anyhow::Result<u32>;

    /// A short-lived link an admin's browser can open the purchase's proof at.
    ///
    /// # Errors
    /// When the object store cannot sign.
    async fn proof_link(&self, purchase: &Purchase) -> anyhow::Result<Option<String>>;

    /// Why the purchase's last proof was refused, if it was.
    ///
    /// # Errors
    /// Storage failures only.
    async fn proof_problem(&self, id: PurchaseId) -> anyhow::Result<Option<ProofProblem>>;

    /// The purchase and the language to show it in, for the buyer holding its key (the
    /// invoice). Admins read purchases through [`crate::review::ReviewService::purchase_by_id`].
    ///
    /// # Errors
    /// `NotFound` (unknown purchase or wrong key), or a storage failure.
    async fn purchase_for_buyer(
        &self,
        id: PurchaseId,
        access_key: &str,
    ) -> Result<(Purchase, Lang), ProofFailure>;

    /// The file a download link of the API's own store names (a store with its own server,
    /// such as S3, serves its links itself: here they are `NotFound`).
    ///
    /// # Errors
    /// `NotFound` for any link that opens nothing, or a failure to read the file.
    async fn download_proof(&self, token: &str) -> Result<OutgoingFile, DownloadRefusal>;
}

/// The buyer's `PUT` to an upload URL of the API's own store. Apart from [`ProofsService`]
/// because the request body is the server's own, tied to its thread: these futures are not
/// `Send`.
#[async_trait::async_trait(?Send)]
pub trait ProofUploads: Send + Sync + 'static {
    /// Stores the body sent to an upload URL, refusing at once a `declared_size` over the
    /// limit.
    ///
    /// # Errors
    /// See [`UploadFailure`].
    async fn receive_upload(
        &self,
        token: &str,
        content_type: &str,
        declared_size: Option<u64>,
        body: LocalBoxStream<'_, std::io::Result<Bytes>>,
    ) -> Result<u64, UploadFailure>;
}

/// Why an upload to the API's own store was not stored.
#[derive(Debug, thiserror::Error)]
pub enum UploadFailure {
    /// Not a link of this store (or the store takes no uploads itself).
    #[error("no such upload link")]
    NotFound,
    #[error("the upload link is invalid or has expired")]
    LinkInvalid,
    #[error("the upload was granted for {expected}")]
    ContentTypeMismatch { expected: String },
    /// The file is over [`MAX_PROOF_BYTES`] (or the store's limit): `size` is at least that.
    #[error("the upload is too large")]
    TooLarge { size: u64 },
    #[error("the upload is not the size declared")]
    SizeMismatch,
    #[error("this upload link has already been used")]
    AlreadyUsed,
    /// The body stopped arriving in time.
    #[error("the upload body timed out")]
    TimedOut,
    /// Reading the body failed otherwise.
    #[error("{0}")]
    Body(std::io::Error),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

impl From<UploadRefusal> for UploadFailure {
    fn from(refusal: UploadRefusal) -> Self {
        match refusal {
            UploadRefusal::NotServed => Self::NotFound,
            UploadRefusal::LinkInvalid => Self::LinkInvalid,
            UploadRefusal::ContentTypeMismatch { expected } => {
                Self::ContentTypeMismatch { expected }
            }
            UploadRefusal::TooLarge { limit } => Self::TooLarge { size: limit + 1 },
            UploadRefusal::SizeMismatch { .. } => Self::SizeMismatch,
            UploadRefusal::AlreadyUsed => Self::AlreadyUsed,
            UploadRefusal::Body(e) if e.kind() == std::io::ErrorKind::TimedOut => Self::TimedOut,
            UploadRefusal::Body(e) => Self::Body(e),
            UploadRefusal::Unknown(e) => Self::Unknown(e),
        }
    }
}

/// Proofs over their ports: purchases' grants and proofs from `S`, files in `O` (judged by
/// `I`), the API's own end of the store's links in `T`, keys compared by `K`, the time from `C`.
pub struct Proofs<S, O, I, T, K, C> {
    store: S,
    objects: O,
    inspector: I,
    transfers: T,
    access_keys: K,
    clock: C,
    /// An attached proof freezes a hold: the raffle's next release changes.
    availability: Arc<AvailabilityCache>,
}

impl<S, O, I, T, K, C> Proofs<S, O, I, T, K, C>
where
    S: PurchaseProofs + PurchaseRepository,
    O: ObjectStore,
    I: ProofInspector,
    T: DirectTransfers,
    K: AccessKeys,
    C: Clock,
{
    #[allow(clippy::too_many_arguments, reason = "one per port, as every service")]
    pub fn new(
        store: S,
        objects: O,
        inspector: I,
        transfers: T,
        access_keys: K,
        clock: C,
        shared: &Shared,
    ) -> Self {
        Self {
            store,
            objects,
            inspector,
            transfers,
            access_keys,
            clock,
            availability: Arc::clone(&shared.availability),
        }
    }

    /// Whether the purchase can no longer take a proof because its hold ran out (swept or
    /// not yet).
    fn hold_ran_out(&self, access: &PurchaseAccess) -> bool {
        access.status == PurchaseStatus::Expired
            || (access.status == PurchaseStatus::Pending
                && access
                    .hold_expires_at
                    .is_some_and(|deadline| deadline <= self.clock.now()))
    }

    /// Deletes an object nothing refers to any more. Best effort: a failure leaves an orphan
    /// file, which is logged, never an error for the buyer.
    async fn discard(&self, key: &str) {
        if let Err(error) = self.objects.delete(key).await {
            tracing::warn!(
                storage.key = key,
                error = format!("{error:#}"),
                "failed to delete a replaced proof upload"
            );
        }
    }

    /// Why a conditional write on a purchase just missed: it was decided or expired meanwhile,
    /// its hold ran out, or (still pending) a newer upload was granted, which is the one to
    /// attach.
    async fn lost_race(&self, id: PurchaseId) -> ProofFailure {
        match self.store.purchase_access(id).await {
            Ok(Some(access)) if self.hold_ran_out(&access) => ProofFailure::HoldExpired,
            Ok(Some(access))
                if access.status == PurchaseStatus::Pending
                    && access.upload_grants >= MAX_UPLOAD_GRANTS =>
            {
                ProofFailure::TooManyUploads
            }
            Ok(Some(access)) if access.status == PurchaseStatus::Pending => {
                ProofFailure::Refused(ProofError::Missing)
            }
            Ok(Some(access)) => ProofFailure::NotPending(access.status),
            Ok(None) => ProofFailure::NotFound,
            Err(error) => ProofFailure::Unknown(error),
        }
    }
}

#[async_trait::async_trait]
impl<S, O, I, T, K, C> ProofsService for Proofs<S, O, I, T, K, C>
where
    S: PurchaseProofs + PurchaseRepository,
    O: ObjectStore,
    I: ProofInspector,
    T: DirectTransfers,
    K: AccessKeys,
    C: Clock,
{
    async fn grant_proof_upload(
        &self,
        request: &UploadRequest,
    ) -> Result<PresignedUpload, ProofFailure> {
        let access = open_purchase(
            &self.store,
            &self.access_keys,
            request.purchase_id,
            &request.access_key,
        )
        .await?;
        if self.hold_ran_out(&access) {
            return Err(ProofFailure::HoldExpired);
        }
        if access.status != PurchaseStatus::Pending {
            return Err(ProofFailure::NotPending(access.status));
        }
        // A declared type decides (an unaccepted one is refused, whatever the name says); the
        // name only when the browser declared none.
        let kind = match request
            .content_type
            .as_deref()
            .map(str::trim)
            .filter(|declared| !declared.is_empty())
        {
            Some(declared) => ProofKind::declared(declared),
            None => ProofKind::named(&request.filename),
        }
        .map_err(ProofFailure::Refused)?;
        let size = match request.size {
            None => return Err(ProofFailure::SizeRequired),
            Some(0) => return Err(ProofFailure::Refused(ProofError::Missing)),
            Some(size) if size > MAX_PROOF_BYTES => {
                return Err(ProofFailure::Refused(ProofError::TooLarge { size }));
            }
            Some(size) => size,
        };
        if access.upload_grants >= MAX_UPLOAD_GRANTS {
            return Err(ProofFailure::TooManyUploads);
        }
        let key = format!(
            "proofs/{}/{}.{}",
            request.purchase_id,
            uuid::Uuid::new_v4().simple(),
            kind.extension()
        );
        let upload = self
            .objects
            .presign_upload(&key, kind.mime(), size, UPLOAD_URL_TTL)
            .await?;
        if !self
            .store
            .grant_upload(
                request.purchase_id,
                &key,
                MAX_UPLOAD_GRANTS,
                self.clock.now(),
            )
            .await?
        {
            return Err(self.lost_race(request.purchase_id).await);
        }
        if let Some(replaced) = access.upload_key {
            self.discard(&replaced).await;
        }
        Ok(upload)
    }

    async fn attach_proof(
        &self,
        purchase_id: PurchaseId,
        access_key: &str,
    ) -> Result<(), ProofFailure> {
        let access = open_purchase(&self.store, &self.access_keys, purchase_id, access_key).await?;
        if access.status == PurchaseStatus::Expired {
            return Err(ProofFailure::HoldExpired);
        }
        if access.status != PurchaseStatus::Pending {
            return Err(ProofFailure::NotPending(access.status));
        }
        let Some(key) = access.upload_key else {
            return Err(ProofFailure::Refused(ProofError::Missing));
        };
        let declared = ProofKind::from_extension(&key)
            .ok_or_else(|| anyhow::anyhow!("granted upload {key} has no proof extension"))?;
        let verdict = match self.objects.read(&key, MAX_PROOF_READ).await? {
            None => Err(ProofError::Missing),
            Some(object) => {
                match check_declared_proof(declared, object.size, &object.first_bytes) {
                    Ok(kind) => {
                        let content = self
                            .inspector
                            .inspect(kind, object.first_bytes, MAX_PROOF_PIXELS)
                            .await?;
                        judge_content(kind, content)
                    }
                    Err(refusal) => Err(refusal),
                }
            }
        };
        if let Err(refusal) = verdict {
            self.objects.delete(&key).await?;
            let problem = match refusal {
                ProofError::Missing => ProofProblem::Missing,
                ProofError::TooLarge { .. } | ProofError::TooManyPixels { .. } => {
                    ProofProblem::TooLarge
                }
                ProofError::WrongType
                | ProofError::Heif
                | ProofError::NotAsDeclared { .. }
                | ProofError::Unreadable { .. } => ProofProblem::WrongType,
            };
            // A proof attached before stands: the refusal concerns only this new file.
            let recorded = access.payment_proof.is_none().then_some(problem);
            self.store.refuse_proof(purchase_id, &key, recorded).await?;
            tracing::info!(
                purchase.id = purchase_id.get(),
                problem = problem.as_str(),
                "proof refused"
            );
            return Err(ProofFailure::Refused(refusal));
        }
        // The deadline is the database's to judge, in the attach itself: a proof a second
        // late is refused even before the sweep.
        match self
            .store
            .attach_proof(purchase_id, &key, self.clock.now())
            .await?
        {
            AttachOutcome::Attached => {
                if access.hold_expires_at.is_some() {
                    self.availability.holds_changed(access.raffle_id);
                }
            }
            AttachOutcome::HoldExpired => return Err(ProofFailure::HoldExpired),
            AttachOutcome::NotGranted => return Err(self.lost_race(purchase_id).await),
        }
        if let Some(replaced) = access.payment_proof.filter(|old| *old != key) {
            self.discard(&replaced).await;
        }
        tracing::info!(purchase.id = purchase_id.get(), "proof attached");
        Ok(())
    }

    async fn sweep_abandoned_uploads(
        &self,
        older_than: Duration,
        batch: u32,
    ) -> anyhow::Result<u32> {
        let cutoff = self.clock.now()
            - chrono::TimeDelta::from_std(older_than)
                .map_err(|_| anyhow::anyhow!("sweep age {older_than:?} is out of range"))?;
        let mut swept = 0;
        loop {
            let abandoned = self.store.abandoned_uploads(cutoff, batch).await?;
            let full_batch = abandoned.len() >= batch as usize;
            let mut withdrawn = 0;
            for (purchase_id, key) in abandoned {
                self.objects.delete(&key).await?;
                if self.store.withdraw_upload(purchase_id, &key).await? {
                    withdrawn += 1;
                    tracing::info!(
                        purchase.id = purchase_id.get(),
                        "abandoned proof upload swept"
                    );
                }
            }
            swept += withdrawn;
            if !full_batch || withdrawn == 0 {
                return Ok(swept);
            }
        }
    }

    async fn proof_link(&self, purchase: &Purchase) -> anyhow::Result<Option<String>> {
        match purchase.payment_proof.as_deref() {
            Some(key) => Ok(Some(
                self.objects.presign_download(key, DOWNLOAD_URL_TTL).await?,
            )),
            None => Ok(None),
        }
    }

    async fn proof_problem(&self, id: PurchaseId) -> anyhow::Result<Option<ProofProblem>> {
        self.store.proof_problem(id).await
    }

    async fn purchase_for_buyer(
        &self,
        id: PurchaseId,
        access_key: &str,
    ) -> Result<(Purchase, Lang), ProofFailure> {
        let access = open_purchase(&self.store, &self.access_keys, id, access_key).await?;
        let purchase = self
            .store
            .get_purchase(id)
            .await?
            .ok_or(ProofFailure::NotFound)?;
        Ok((purchase, access.lang))
    }

    async fn download_proof(&self, token: &str) -> Result<OutgoingFile, DownloadRefusal> {
        self.transfers.send(token).await
    }
}

#[async_trait::async_trait(?Send)]
impl<S, O, I, T, K, C> ProofUploads for Proofs<S, O, I, T, K, C>
where
    S: PurchaseProofs + PurchaseRepository,
    O: ObjectStore,
    I: ProofInspector,
    T: DirectTransfers,
    K: AccessKeys,
    C: Clock,
{
    async fn receive_upload(
        &self,
        token: &str,
        content_type: &str,
        declared_size: Option<u64>,
        body: LocalBoxStream<'_, std::io::Result<Bytes>>,
    ) -> Result<u64, UploadFailure> {
        if let Some(size) = declared_size.filter(|size| *size > MAX_PROOF_BYTES) {
            return Err(UploadFailure::TooLarge { size });
        }
        Ok(self.transfers.receive(token, content_type, body).await?)
    }
}

/// The purchase `access_key` opens: wrong key and unknown purchase answer alike.
pub(crate) async fn open_purchase(
    store: &impl PurchaseProofs,
    access_keys: &impl AccessKeys,
    id: PurchaseId,
    access_key: &str,
) -> Result<PurchaseAccess, ProofFailure> {
    let access = store
        .purchase_access(id)
        .await?
        .ok_or(ProofFailure::NotFound)?;
    match access.access_digest.as_deref() {
        Some(digest) if access_keys.matches(access_key, digest) => Ok(access),
        _ => Err(ProofFailure::NotFound),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_refusal_keeps_its_meaning_and_a_stalled_body_is_a_timeout() {
        let timed_out = std::io::Error::new(std::io::ErrorKind::TimedOut, "slow");
        assert!(matches!(
            UploadFailure::from(UploadRefusal::Body(timed_out)),
            UploadFailure::TimedOut
        ));
        let broken = std::io::Error::other("reset");
        assert!(matches!(
            UploadFailure::from(UploadRefusal::Body(broken)),
            UploadFailure::Body(_)
        ));
        // The store stopped reading one byte past its limit: the file is at least that large.
        assert!(matches!(
            UploadFailure::from(UploadRefusal::TooLarge { limit: 10 }),
            UploadFailure::TooLarge { size: 11 }
        ));
        assert!(matches!(
            UploadFailure::from(UploadRefusal::NotServed),
            UploadFailure::NotFound
        ));
    }
}
