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
//! ([`App::sweep_abandoned_uploads`]) once its grant is [`ABANDONED_UPLOAD_AGE`] old.

use std::time::Duration;

use rifa_domain::Lang;
use rifa_domain::proof::{
    MAX_PROOF_BYTES, MAX_PROOF_PIXELS, ProofError, ProofKind, check_declared_proof, judge_content,
};
use rifa_domain::purchase::{Purchase, PurchaseId, PurchaseStatus};
use rifa_ports::outbound::{ObjectStore, PresignedUpload, ProofInspector};
use rifa_ports::{EventBus, ProofProblem, PurchaseAccess};

use crate::{App, Store};

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

impl<S: Store, E: EventBus> App<S, E> {
    async fn open_purchase(
        &self,
        id: PurchaseId,
        access_key: &str,
    ) -> Result<PurchaseAccess, ProofFailure> {
        let access = self
            .store
            .purchase_access(id)
            .await?
            .ok_or(ProofFailure::NotFound)?;
        match access.access_digest.as_deref() {
            Some(digest) if self.access_keys.matches(access_key, digest) => Ok(access),
            _ => Err(ProofFailure::NotFound),
        }
    }

    /// Checks the buyer's key and what they declare, and grants one upload URL.
    ///
    /// # Errors
    /// `NotFound`, `NotPending`, `Refused` (declared empty, too large or of another type),
    /// `SizeRequired`, `TooManyUploads`, or a failure of storage or the object store.
    pub async fn grant_proof_upload(
        &self,
        objects: &impl ObjectStore,
        request: &UploadRequest,
    ) -> Result<PresignedUpload, ProofFailure> {
        let access = self
            .open_purchase(request.purchase_id, &request.access_key)
            .await?;
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
            Some(declared) => ProofKind::from_mime(declared),
            None => kind_from_name(&request.filename),
        }
        .ok_or(ProofFailure::Refused(ProofError::WrongType))?;
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
        let upload = objects
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
            self.discard(objects, &replaced).await;
        }
        Ok(upload)
    }

    /// Judges the granted upload by its bytes and attaches it, or deletes it and records why.
    ///
    /// # Errors
    /// `NotFound`, `NotPending`, `Refused` (nothing uploaded, too large, not an image or PDF),
    /// or a failure of storage or the object store.
    pub async fn attach_proof(
        &self,
        objects: &impl ObjectStore,
        inspector: &impl ProofInspector,
        purchase_id: PurchaseId,
        access_key: &str,
    ) -> Result<(), ProofFailure> {
        let access = self.open_purchase(purchase_id, access_key).await?;
        if access.status != PurchaseStatus::Pending {
            return Err(ProofFailure::NotPending(access.status));
        }
        let Some(key) = access.upload_key else {
            return Err(ProofFailure::Refused(ProofError::Missing));
        };
        let declared = ProofKind::from_extension(&key)
            .ok_or_else(|| anyhow::anyhow!("granted upload {key} has no proof extension"))?;
        let verdict = match objects.read(&key, MAX_PROOF_READ).await? {
            None => Err(ProofError::Missing),
            Some(object) => {
                match check_declared_proof(declared, object.size, &object.first_bytes) {
                    Ok(kind) => {
                        let content = inspector
                            .inspect(kind, object.first_bytes, MAX_PROOF_PIXELS)
                            .await?;
                        judge_content(kind, content)
                    }
                    Err(refusal) => Err(refusal),
                }
            }
        };
        if let Err(refusal) = verdict {
            objects.delete(&key).await?;
            let problem = match refusal {
                ProofError::Missing => ProofProblem::Missing,
                ProofError::TooLarge { .. } | ProofError::TooManyPixels { .. } => {
                    ProofProblem::TooLarge
                }
                ProofError::WrongType
                | ProofError::NotAsDeclared { .. }
                | ProofError::Unreadable { .. } => ProofProblem::WrongType,
            };
            // A proof attached before stands: the refusal concerns only this new file.
            let recorded = access.payment_proof.is_none().then_some(problem);
            self.store.refuse_proof(purchase_id, &key, recorded).await?;
            tracing::info!(
                purchase.id = purchase_id,
                problem = problem.as_str(),
                "proof refused"
            );
            return Err(ProofFailure::Refused(refusal));
        }
        if !self.store.attach_proof(purchase_id, &key).await? {
            return Err(self.lost_race(purchase_id).await);
        }
        if let Some(replaced) = access.payment_proof.filter(|old| *old != key) {
            self.discard(objects, &replaced).await;
        }
        tracing::info!(purchase.id = purchase_id, "proof attached");
        Ok(())
    }

    /// Deletes uploads granted more than `older_than` ago and never attached, `batch` at a time
    /// until none is left, and answers how many were swept. The file goes first and the grant
    /// after, so a failure leaves the grant to retry next time rather than an orphan file.
    ///
    /// # Errors
    /// A failure of storage or of the object store; what was swept before it stays swept.
    pub async fn sweep_abandoned_uploads(
        &self,
        objects: &impl ObjectStore,
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
                objects.delete(&key).await?;
                if self.store.withdraw_upload(purchase_id, &key).await? {
                    withdrawn += 1;
                    tracing::info!(purchase.id = purchase_id, "abandoned proof upload swept");
                }
            }
            swept += withdrawn;
            if !full_batch || withdrawn == 0 {
                return Ok(swept);
            }
        }
    }

    /// Deletes an object nothing refers to any more. Best effort: a failure leaves an orphan
    /// file, which is logged, never an error for the buyer.
    async fn discard(&self, objects: &impl ObjectStore, key: &str) {
        if let Err(error) = objects.delete(key).await {
            tracing::warn!(
                storage.key = key,
                error = format!("{error:#}"),
                "failed to delete a replaced proof upload"
            );
        }
    }

    /// Why a conditional write on a purchase just missed: it was decided meanwhile, or (still
    /// pending) a newer upload was granted, which is the one to attach.
    async fn lost_race(&self, id: PurchaseId) -> ProofFailure {
        match self.store.purchase_access(id).await {
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

    /// A short-lived link an admin's browser can open the purchase's proof at.
    ///
    /// # Errors
    /// When the object store cannot sign.
    pub async fn proof_link(
        &self,
        objects: &impl ObjectStore,
        purchase: &Purchase,
    ) -> anyhow::Result<Option<String>> {
        match purchase.payment_proof.as_deref() {
            Some(key) => Ok(Some(objects.presign_download(key, DOWNLOAD_URL_TTL).await?)),
            None => Ok(None),
        }
    }

    /// Why the purchase's last proof was refused, if it was.
    ///
    /// # Errors
    /// Storage failures only.
    pub async fn proof_problem(&self, id: PurchaseId) -> anyhow::Result<Option<ProofProblem>> {
        self.store.proof_problem(id).await
    }

    /// The purchase and the language to show it in, for the buyer holding its key (the
    /// invoice). Admins read purchases through [`App::purchase_by_id`].
    ///
    /// # Errors
    /// `NotFound` (unknown purchase or wrong key), or a storage failure.
    pub async fn purchase_for_buyer(
        &self,
        id: PurchaseId,
        access_key: &str,
    ) -> Result<(Purchase, Lang), ProofFailure> {
        let access = self.open_purchase(id, access_key).await?;
        let purchase = self
            .store
            .get_purchase(id)
            .await?
            .ok_or(ProofFailure::NotFound)?;
        Ok((purchase, access.lang))
    }
}

fn kind_from_name(filename: &str) -> Option<ProofKind> {
    let extension = filename.rsplit_once('.')?.1.to_ascii_lowercase();
    ProofKind::ALL.into_iter().find(|kind| {
        kind.extension() == extension || (extension == "jpeg" && *kind == ProofKind::Jpeg)
    })
}
