//! [`LocalStore`]: proofs in a directory on disk, uploaded to and served by the API itself
//! behind signed, expiring grants.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use futures_util::{Stream, StreamExt as _};
use jsonwebtoken::{
    Algorithm, DecodingKey, EncodingKey, Header, Validation, errors::ErrorKind as JwtError,
};
use rifa_domain::proof::{MAX_PROOF_BYTES, ProofKind, SNIFF_BYTES};
use rifa_ports::outbound::{ObjectStore, PresignedUpload, StoredObject};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use tokio::io::{AsyncReadExt as _, AsyncSeekExt as _, AsyncWriteExt as _};

use crate::check_content_type;
use crate::key::validate_key;

/// Where the API's route for uploads is mounted: `PUT {UPLOAD_PREFIX}{token}`.
pub const UPLOAD_PREFIX: &str = "/api/uploads/";
/// Where the API's route for downloads is mounted: `GET {DOWNLOAD_PREFIX}{token}`.
pub const DOWNLOAD_PREFIX: &str = "/api/proofs/";

/// The shortest secret accepted for signing grants (HS256 wants at least 256 bits).
pub const MIN_SECRET_BYTES: usize = 32;

/// Uploads in progress live here under the root, named at random; a key can never name it
/// (keys have no segment starting with a dot).
const TMP_DIR: &str = ".tmp";
/// Proofs are buyers' payment records: the API's own user alone reads them, whatever the umask.
#[cfg(unix)]
const PRIVATE_DIR_MODE: u32 = 0o700;
#[cfg(unix)]
const PRIVATE_FILE_MODE: u32 = 0o600;

const UPLOAD_AUDIENCE: &str = "rifa-proof-upload";
const DOWNLOAD_AUDIENCE: &str = "rifa-proof-download";

/// The grant an upload URL carries: write `sub` once, as `ct`, exactly `len` bytes, until `exp`.
#[derive(Debug, Serialize, Deserialize)]
struct UploadGrant {
    aud: String,
    sub: String,
    ct: String,
    len: u64,
    exp: u64,
}

/// The grant a download URL carries: read `sub` until `exp`.
#[derive(Debug, Serialize, Deserialize)]
struct DownloadGrant {
    aud: String,
    sub: String,
    exp: u64,
}

/// Why an upload through [`LocalStore::accept_upload`] is refused. Nothing is stored in any
/// case but `Ok`.
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    /// The token was not signed with this store's secret (tampered or forged): 403.
    #[error("the upload token's signature is not valid")]
    BadSignature,
    /// The token was genuine but its time is up: 403 (or 410).
    #[error("the upload token has expired")]
    Expired,
    /// Not a token of ours at all (garbled, a download token, another algorithm): 400 or 404.
    #[error("the upload token is malformed")]
    Malformed,
    /// The request's `Content-Type` is not the one the token was issued for: 415.
    #[error("the upload was granted for {expected}, not this content type")]
    ContentTypeMismatch { expected: String },
    /// The body went past the store's limit; reading stopped there: 413.
    #[error("the upload is larger than {limit} bytes")]
    TooLarge { limit: u64 },
    /// The body is longer or shorter than the size the URL was granted for (reading stopped as
    /// soon as it was longer): 400.
    #[error("the upload is not the {declared} bytes declared")]
    SizeMismatch { declared: u64 },
    /// The key already holds a file: the URL was used before (or at the same time): 409.
    #[error("this upload URL has already been used")]
    AlreadyUsed,
    /// Reading the request body failed (the client went away): 400.
    #[error("failed to read the upload body")]
    Body(#[source] anyhow::Error),
    /// Writing to disk failed: 500.
    #[error("failed to store the upload")]
    Io(#[source] anyhow::Error),
}

/// Why [`LocalStore::open_download`] serves nothing.
#[derive(Debug, thiserror::Error)]
pub enum DownloadError {
    /// The token was not signed with this store's secret: 403.
    #[error("the download token's signature is not valid")]
    BadSignature,
    /// The token's time is up: 403 (or 410).
    #[error("the download token has expired")]
    Expired,
    /// Not a download token of ours: 400 or 404.
    #[error("the download token is malformed")]
    Malformed,
    /// The token is good but no file has that key (never uploaded, or deleted): 404.
    #[error("no stored file for this download")]
    NotFound,
    /// Reading the disk failed: 500.
    #[error("failed to open the stored file")]
    Io(#[source] anyhow::Error),
}

enum TokenError {
    BadSignature,
    Expired,
    Malformed,
}

impl From<TokenError> for UploadError {
    fn from(error: TokenError) -> Self {
        match error {
            TokenError::BadSignature => Self::BadSignature,
            TokenError::Expired => Self::Expired,
            TokenError::Malformed => Self::Malformed,
        }
    }
}

impl From<TokenError> for DownloadError {
    fn from(error: TokenError) -> Self {
        match error {
            TokenError::BadSignature => Self::BadSignature,
            TokenError::Expired => Self::Expired,
            TokenError::Malformed => Self::Malformed,
        }
    }
}

/// What [`LocalStore::accept_upload`] stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcceptedUpload {
    /// The key the grant named; judge it with [`ObjectStore::head`] next.
    pub key: String,
    pub size: u64,
}

/// A stored file ready to be sent, from [`LocalStore::open_download`].
#[derive(Debug)]
pub struct Download {
    /// Opened for reading, positioned at the start.
    pub file: tokio::fs::File,
    /// Where the file is, for servers that want a path (`actix_files::NamedFile`).
    pub path: PathBuf,
    pub key: String,
    pub size: u64,
    /// Judged from the file's own first bytes (never from what the uploader said):
    /// `image/png`, `application/pdf`, … or `application/octet-stream`.
    pub content_type: &'static str,
}

/// Payment proofs in a directory on disk; the zero-setup default.
///
/// The API serves both ways itself: [`ObjectStore::presign_upload`] answers a relative URL
/// `/api/uploads/{token}` whose route calls [`LocalStore::accept_upload`], and
/// [`ObjectStore::presign_download`] a relative `/api/proofs/{token}` whose route calls
/// [`LocalStore::open_download`]. The tokens are HS256 JWTs signed with the constructor's secret.
pub struct LocalStore {
    root: PathBuf,
    encoding: EncodingKey,
    decoding: DecodingKey,
    max_upload_bytes: u64,
}

impl std::fmt::Debug for LocalStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalStore")
            .field("root", &self.root)
            .field("max_upload_bytes", &self.max_upload_bytes)
            .finish_non_exhaustive()
    }
}

impl LocalStore {
    /// A store keeping files under `root` (created if missing), signing grants with `secret`.
    /// Uploads are limited to [`MAX_PROOF_BYTES`] unless [`LocalStore::with_max_upload_bytes`]
    /// says otherwise.
    ///
    /// Use a secret of its own, or accept that anyone holding it can also forge whatever else it
    /// signs; grants carry their own audience, so an admin token signed with the same secret is
    /// still refused as a grant, and a grant as an admin token.
    ///
    /// # Errors
    /// When `secret` is shorter than [`MIN_SECRET_BYTES`] or the directory cannot be created.
    pub fn new(root: impl Into<PathBuf>, secret: &[u8]) -> anyhow::Result<Self> {
        anyhow::ensure!(
            secret.len() >= MIN_SECRET_BYTES,
            "the storage secret must be at least {MIN_SECRET_BYTES} bytes"
        );
        let root = root.into();
        let mut dirs = std::fs::DirBuilder::new();
        dirs.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut dirs, PRIVATE_DIR_MODE);
        dirs.create(root.join(TMP_DIR))
            .with_context(|| format!("failed to create the proof directory {}", root.display()))?;
        Ok(Self {
            root,
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            max_upload_bytes: MAX_PROOF_BYTES,
        })
    }

    /// The same store with another upload limit.
    #[must_use]
    pub fn with_max_upload_bytes(mut self, limit: u64) -> Self {
        self.max_upload_bytes = limit;
        self
    }

    /// The directory the files are in.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The largest upload [`LocalStore::accept_upload`] takes.
    #[must_use]
    pub fn max_upload_bytes(&self) -> u64 {
        self.max_upload_bytes
    }

    /// Stores the body of `PUT /api/uploads/{token}`.
    ///
    /// Checks the token (signature, expiry), then that `content_type` (the request's
    /// `Content-Type`, parameters and case aside) is the granted one, then streams `body` to a
    /// temporary file, stopping as soon as it passes the limit, and finally links the complete
    /// file under its key only if nothing is there yet. A file is either fully there or not at
    /// all; of two uses of one URL, even at the same time, exactly one succeeds.
    ///
    /// The stored file is not judged here: call [`ObjectStore::head`] and
    /// [`rifa_domain::proof::check_proof`] on the returned key, and
    /// [`ObjectStore::delete`] it when refused.
    ///
    /// # Errors
    /// See [`UploadError`]: each variant says what the caller did wrong, or `Io`.
    pub async fn accept_upload<S, B, E>(
        &self,
        token: &str,
        content_type: &str,
        body: S,
    ) -> Result<AcceptedUpload, UploadError>
    where
        S: Stream<Item = Result<B, E>>,
        B: AsRef<[u8]>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let grant: UploadGrant = self.verify(token, UPLOAD_AUDIENCE)?;
        if mime_essence(content_type) != mime_essence(&grant.ct) {
            return Err(UploadError::ContentTypeMismatch { expected: grant.ct });
        }
        let key = validate_key(&grant.sub).map_err(|_| UploadError::Malformed)?;
        let dest = self.root.join(key);
        if tokio::fs::try_exists(&dest)
            .await
            .context("failed to look for an earlier upload")
            .map_err(UploadError::Io)?
        {
            return Err(UploadError::AlreadyUsed);
        }

        let tmp = TempFile(
            self.root
                .join(TMP_DIR)
                .join(uuid::Uuid::new_v4().simple().to_string()),
        );
        let declared = grant.len;
        let size = match self
            .write_limited(&tmp.0, body, declared.min(self.max_upload_bytes))
            .await
        {
            Err(UploadError::TooLarge { .. }) if declared < self.max_upload_bytes => {
                return Err(UploadError::SizeMismatch { declared });
            }
            written => written?,
        };
        if size != declared {
            return Err(UploadError::SizeMismatch { declared });
        }

        let parent = dest.parent().unwrap_or(&self.root);
        let mut dirs = tokio::fs::DirBuilder::new();
        dirs.recursive(true);
        #[cfg(unix)]
        dirs.mode(PRIVATE_DIR_MODE);
        dirs.create(parent)
            .await
            .context("failed to create the upload's directory")
            .map_err(UploadError::Io)?;
        // A hard link never replaces an existing file, and the file it links is complete:
        // create-new and atomic in one step.
        match tokio::fs::hard_link(&tmp.0, &dest).await {
            Ok(()) => {}
            Err(error) if error.kind() == ErrorKind::AlreadyExists => {
                return Err(UploadError::AlreadyUsed);
            }
            Err(error) => {
                return Err(UploadError::Io(
                    anyhow::Error::new(error).context("failed to move the upload into place"),
                ));
            }
        }
        drop(tmp);
        if let Ok(dir) = tokio::fs::File::open(parent).await {
            // Best effort: make the new name durable too.
            let _ = dir.sync_all().await;
        }
        tracing::info!(
            storage.key = key,
            storage.size = size,
            "payment proof uploaded"
        );
        Ok(AcceptedUpload {
            key: key.to_owned(),
            size,
        })
    }

    async fn write_limited<S, B, E>(
        &self,
        path: &Path,
        body: S,
        limit: u64,
    ) -> Result<u64, UploadError>
    where
        S: Stream<Item = Result<B, E>>,
        B: AsRef<[u8]>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let io = |context: &'static str| {
            move |e: std::io::Error| UploadError::Io(anyhow::Error::new(e).context(context))
        };
        let mut options = tokio::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        options.mode(PRIVATE_FILE_MODE);
        let mut file = options
            .open(path)
            .await
            .map_err(io("failed to create a temporary upload file"))?;
        let mut body = std::pin::pin!(body);
        let mut size: u64 = 0;
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| UploadError::Body(anyhow::Error::new(e)))?;
            let bytes = chunk.as_ref();
            size = size.saturating_add(bytes.len() as u64);
            if size > limit {
                return Err(UploadError::TooLarge { limit });
            }
            file.write_all(bytes)
                .await
                .map_err(io("failed to write the upload"))?;
        }
        file.sync_all()
            .await
            .map_err(io("failed to flush the upload"))?;
        Ok(size)
    }

    /// Opens the file a `GET /api/proofs/{token}` asks for.
    ///
    /// # Errors
    /// See [`DownloadError`].
    pub async fn open_download(&self, token: &str) -> Result<Download, DownloadError> {
        let grant: DownloadGrant = self.verify(token, DOWNLOAD_AUDIENCE)?;
        let key = validate_key(&grant.sub).map_err(|_| DownloadError::Malformed)?;
        let path = self.root.join(key);
        let mut file = match tokio::fs::File::open(&path).await {
            Ok(file) => file,
            Err(error) if error.kind() == ErrorKind::NotFound => {
                return Err(DownloadError::NotFound);
            }
            Err(error) => {
                return Err(DownloadError::Io(
                    anyhow::Error::new(error).context("failed to open a stored proof"),
                ));
            }
        };
        let read = async {
            let size = file.metadata().await?.len();
            let first = read_prefix(&mut file, SNIFF_BYTES).await?;
            file.seek(std::io::SeekFrom::Start(0)).await?;
            std::io::Result::Ok((size, first))
        };
        let (size, first) = read
            .await
            .context("failed to read a stored proof")
            .map_err(DownloadError::Io)?;
        let content_type =
            ProofKind::sniff(&first).map_or("application/octet-stream", ProofKind::mime);
        Ok(Download {
            file,
            path,
            key: key.to_owned(),
            size,
            content_type,
        })
    }

    fn sign<T: Serialize>(&self, claims: &T) -> anyhow::Result<String> {
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &self.encoding)
            .context("failed to sign a storage grant")
    }

    fn verify<T: DeserializeOwned>(&self, token: &str, audience: &str) -> Result<T, TokenError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["exp", "aud", "sub"]);
        jsonwebtoken::decode::<T>(token, &self.decoding, &validation)
            .map(|data| data.claims)
            .map_err(|error| match error.kind() {
                JwtError::InvalidSignature => TokenError::BadSignature,
                JwtError::ExpiredSignature => TokenError::Expired,
                _ => TokenError::Malformed,
            })
    }
}

fn expiry(ttl: Duration) -> u64 {
    jsonwebtoken::get_current_timestamp().saturating_add(ttl.as_secs())
}

/// `Image/PNG; charset=x` → `image/png`.
fn mime_essence(value: &str) -> String {
    value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Up to the first `max_bytes` bytes of `file`.
async fn read_prefix(file: &mut tokio::fs::File, max_bytes: usize) -> std::io::Result<Vec<u8>> {
    let mut prefix = Vec::new();
    file.take(u64::try_from(max_bytes).unwrap_or(u64::MAX))
        .read_to_end(&mut prefix)
        .await?;
    Ok(prefix)
}

impl LocalStore {
    /// Deletes partial uploads last written more than `age` ago: left by a crash, since a
    /// running upload removes its own. `age` must exceed the longest upload allowed, so uploads
    /// running on another instance sharing the directory are kept. Returns how many went.
    ///
    /// # Errors
    /// When the temporary directory cannot be listed.
    pub fn remove_stale_partial_uploads(&self, age: Duration) -> std::io::Result<usize> {
        let mut removed = 0;
        for entry in std::fs::read_dir(self.root.join(TMP_DIR))? {
            let entry = entry?;
            let stale = entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|modified| modified.elapsed().is_ok_and(|elapsed| elapsed > age));
            if stale && std::fs::remove_file(entry.path()).is_ok() {
                removed += 1;
            }
        }
        Ok(removed)
    }
}

/// A temporary file removed when dropped: on success after it was linked into place, on any
/// error, and when the upload's future is dropped halfway (the client went away).
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

impl ObjectStore for LocalStore {
    #[tracing::instrument(name = "storage.local.presign_upload", skip_all, fields(storage.key = key))]
    async fn presign_upload(
        &self,
        key: &str,
        content_type: &str,
        size: u64,
        ttl: Duration,
    ) -> anyhow::Result<PresignedUpload> {
        let key = validate_key(key)?;
        check_content_type(content_type)?;
        let token = self.sign(&UploadGrant {
            aud: UPLOAD_AUDIENCE.to_owned(),
            sub: key.to_owned(),
            ct: content_type.to_owned(),
            len: size,
            exp: expiry(ttl),
        })?;
        Ok(PresignedUpload {
            url: format!("{UPLOAD_PREFIX}{token}"),
            headers: vec![("Content-Type".to_owned(), content_type.to_owned())],
        })
    }

    #[tracing::instrument(name = "storage.local.presign_download", skip_all, fields(storage.key = key))]
    async fn presign_download(&self, key: &str, ttl: Duration) -> anyhow::Result<String> {
        let key = validate_key(key)?;
        let token = self.sign(&DownloadGrant {
            aud: DOWNLOAD_AUDIENCE.to_owned(),
            sub: key.to_owned(),
            exp: expiry(ttl),
        })?;
        Ok(format!("{DOWNLOAD_PREFIX}{token}"))
    }

    #[tracing::instrument(name = "storage.local.read", skip_all, fields(storage.key = key))]
    async fn read(&self, key: &str, max_bytes: usize) -> anyhow::Result<Option<StoredObject>> {
        let path = self.root.join(validate_key(key)?);
        let mut file = match tokio::fs::File::open(&path).await {
            Ok(file) => file,
            Err(error) if error.kind() == ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error).context("failed to open a stored proof"),
        };
        let size = file
            .metadata()
            .await
            .context("failed to read a stored proof's size")?
            .len();
        let first_bytes = read_prefix(&mut file, max_bytes)
            .await
            .context("failed to read a stored proof")?;
        Ok(Some(StoredObject { size, first_bytes }))
    }

    #[tracing::instrument(name = "storage.local.put", skip_all, fields(storage.key = key))]
    async fn put(&self, key: &str, bytes: Vec<u8>, _content_type: &str) -> anyhow::Result<()> {
        let dest = self.root.join(validate_key(key)?);
        if tokio::fs::try_exists(&dest)
            .await
            .context("failed to look for a stored object")?
        {
            return Ok(());
        }
        let tmp = TempFile(
            self.root
                .join(TMP_DIR)
                .join(uuid::Uuid::new_v4().simple().to_string()),
        );
        let mut options = tokio::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        options.mode(PRIVATE_FILE_MODE);
        let mut file = options
            .open(&tmp.0)
            .await
            .context("failed to create a temporary file")?;
        file.write_all(&bytes)
            .await
            .context("failed to write a stored object")?;
        file.sync_all()
            .await
            .context("failed to write a stored object")?;
        let parent = dest.parent().unwrap_or(&self.root);
        let mut dirs = tokio::fs::DirBuilder::new();
        dirs.recursive(true);
        #[cfg(unix)]
        dirs.mode(PRIVATE_DIR_MODE);
        dirs.create(parent)
            .await
            .context("failed to create the object's directory")?;
        // Complete and never replacing: another writer of the same key wrote the same bytes.
        match tokio::fs::hard_link(&tmp.0, &dest).await {
            Ok(()) => Ok(()),
            Err(error) if error.kind() == ErrorKind::AlreadyExists => Ok(()),
            Err(error) => Err(error).context("failed to move a stored object into place"),
        }
    }

    #[tracing::instrument(name = "storage.local.delete", skip_all, fields(storage.key = key))]
    async fn delete(&self, key: &str) -> anyhow::Result<()> {
        let path = self.root.join(validate_key(key)?);
        match tokio::fs::remove_file(&path).await {
            Ok(()) => Ok(()),
            Err(error) if error.kind() == ErrorKind::NotFound => Ok(()),
            Err(error) => Err(error).context("failed to delete a stored proof"),
        }
    }
}
