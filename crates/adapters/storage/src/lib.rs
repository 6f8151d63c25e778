//! Payment-proof storage: the [`ObjectStore`] port, in an S3 bucket ([`S3Store`]) or in a
//! directory on disk ([`LocalStore`], the zero-setup default), chosen by configuration and held
//! as one [`ProofStore`].
//!
//! # Why presigned URLs
//! A proof is up to 5 MB and the buyer's browser sends it. With S3 the API signs a URL and the
//! browser `PUT`s the file straight to the bucket: the bytes never pass through the API, and the
//! URL is good for one key, one content type, one length and a short time. The API reads the
//! file back ([`ObjectStore::read`], at most 5 MB), judges its size and magic bytes with
//! [`rifa_domain::proof::check_proof`] (not names or headers), then decodes it
//! (`rifa_proofs::DecodingInspector`); a refused file is [`ObjectStore::delete`]d. Downloads work the same way: admins get a URL that works for a few
//! minutes, and objects are never public.
//!
//! # How a used upload URL is refused
//! - **S3**: the URL has `If-None-Match: *` signed into it (S3 conditional writes), so the
//!   browser must send that header ([`PresignedUpload::headers`] lists it, with
//!   `Content-Type`) and a second `PUT` to the same key fails with 412. AWS S3 honours it, and
//!   so do both servers the tests run against: s3s-fs (which, like AWS, also checks signatures
//!   and expiry) and moto. s3s-fs looks for an existing object before writing, so two `PUT`s
//!   racing within the same instant could both pass there; AWS decides atomically.
//!   [`S3Config::conditional_writes`] turns the header off for a server that rejects it.
//! - **Local**: the file is streamed to a temporary file and hard-linked under its key, which
//!   fails if the key exists: of any number of uses of one URL, even at once, exactly one wins,
//!   and nobody ever sees half a file.
//!
//! A deleted (refused) object frees its key, so an upload URL that has not expired could write
//! it again; the API names every upload by a fresh random key and judges what is there when the
//! proof is attached, so this gains nothing.
//!
//! # LocalStore's URLs
//! Relative to the API: uploads go to `PUT /api/uploads/{token}`
//! ([`local::UPLOAD_PREFIX`]), downloads come from `GET /api/proofs/{token}`
//! ([`local::DOWNLOAD_PREFIX`]). A token is an HS256 JWT (jsonwebtoken, no home-made crypto)
//! naming the key, the content type for uploads, an audience per direction and the expiry; the
//! routes hand it to [`LocalStore::accept_upload`] and [`LocalStore::open_download`], whose
//! error enums say which status to answer.
//!
//! # Limits
//! - Keys are `/`-separated segments of `[A-Za-z0-9._-]`, none empty or starting with a dot,
//!   at most 256 bytes ([`key::validate_key`]): nothing can point outside the directory.
//! - Every upload URL is bound to the size the buyer declared (at most 5 MB, checked before
//!   signing): S3 signs `Content-Length` into the URL, so a body of any other length fails the
//!   signature (403) and nothing is stored; [`LocalStore`] stops reading as soon as the body
//!   passes the declared size or its own limit, whichever is smaller, and refuses a shorter one.
//!   The browser sets `Content-Length` itself, so it is not among the headers to send.
//! - Proofs are strangers' files shown to admins. The local store serves them with
//!   `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox` (a PDF that is
//!   also HTML runs nothing). S3 cannot send those headers: its presigned links override the
//!   type (the one the API judged), the disposition (`inline`) and caching, and are on the
//!   bucket's origin, not the site's; a deployment that wants the same headers there puts a CDN
//!   that adds them (e.g. a CloudFront response-headers policy) in front of the bucket.
//! - Browser uploads to a bucket need the bucket's CORS rules to allow `PUT` with the signed
//!   headers from the site's origin; that is the operator's setup, not this crate's.

mod key;
pub mod local;
pub mod s3;

use std::time::Duration;

pub use local::{AcceptedUpload, Download, DownloadError, LocalStore, UploadError};
pub use rifa_ports::outbound::{ObjectStore, PresignedUpload, ProofInspector, StoredObject};
pub use s3::{S3Config, S3Store};

use bytes::Bytes;
use futures_util::StreamExt as _;
use futures_util::stream::LocalBoxStream;
use rifa_ports::{DirectTransfers, DownloadRefusal, OutgoingFile, UploadRefusal};

/// A content type safe to sign into a URL and send back as a header: printable ASCII, not
/// empty, not absurdly long.
fn check_content_type(content_type: &str) -> anyhow::Result<()> {
    anyhow::ensure!(
        !content_type.is_empty()
            && content_type.len() <= 128
            && content_type.bytes().all(|b| (0x20..0x7f).contains(&b)),
        "invalid content type {content_type:?}"
    );
    Ok(())
}

/// The store the configuration chose. The local store's own end of its links (uploads and
/// downloads through the API) is its [`DirectTransfers`]; S3 serves its links itself.
#[derive(Debug)]
pub enum ProofStore {
    Local(LocalStore),
    S3(S3Store),
}

impl ProofStore {
    /// The local store, when that is the one in use.
    #[must_use]
    pub fn local(&self) -> Option<&LocalStore> {
        match self {
            Self::Local(store) => Some(store),
            Self::S3(_) => None,
        }
    }
}

impl From<LocalStore> for ProofStore {
    fn from(store: LocalStore) -> Self {
        Self::Local(store)
    }
}

impl From<S3Store> for ProofStore {
    fn from(store: S3Store) -> Self {
        Self::S3(store)
    }
}

impl ObjectStore for ProofStore {
    #[tracing::instrument(name = "storage.proofs.presign_upload", skip_all, fields(storage.key = key))]
    async fn presign_upload(
        &self,
        key: &str,
        content_type: &str,
        size: u64,
        ttl: Duration,
    ) -> anyhow::Result<PresignedUpload> {
        match self {
            Self::Local(store) => store.presign_upload(key, content_type, size, ttl).await,
            Self::S3(store) => store.presign_upload(key, content_type, size, ttl).await,
        }
    }

    #[tracing::instrument(name = "storage.proofs.presign_download", skip_all, fields(storage.key = key))]
    async fn presign_download(&self, key: &str, ttl: Duration) -> anyhow::Result<String> {
        match self {
            Self::Local(store) => store.presign_download(key, ttl).await,
            Self::S3(store) => store.presign_download(key, ttl).await,
        }
    }

    #[tracing::instrument(name = "storage.proofs.read", skip_all, fields(storage.key = key))]
    async fn read(&self, key: &str, max_bytes: usize) -> anyhow::Result<Option<StoredObject>> {
        match self {
            Self::Local(store) => store.read(key, max_bytes).await,
            Self::S3(store) => store.read(key, max_bytes).await,
        }
    }

    #[tracing::instrument(name = "storage.proofs.put", skip_all, fields(storage.key = key))]
    async fn put(&self, key: &str, bytes: Vec<u8>, content_type: &str) -> anyhow::Result<()> {
        match self {
            Self::Local(store) => store.put(key, bytes, content_type).await,
            Self::S3(store) => store.put(key, bytes, content_type).await,
        }
    }

    #[tracing::instrument(name = "storage.proofs.delete", skip_all, fields(storage.key = key))]
    async fn delete(&self, key: &str) -> anyhow::Result<()> {
        match self {
            Self::Local(store) => store.delete(key).await,
            Self::S3(store) => store.delete(key).await,
        }
    }
}

impl DirectTransfers for ProofStore {
    #[tracing::instrument(name = "storage.proofs.receive", skip_all)]
    async fn receive(
        &self,
        token: &str,
        content_type: &str,
        body: LocalBoxStream<'_, std::io::Result<Bytes>>,
    ) -> Result<u64, UploadRefusal> {
        let Some(local) = self.local() else {
            return Err(UploadRefusal::NotServed);
        };
        match local.accept_upload(token, content_type, body).await {
            Ok(accepted) => Ok(accepted.size),
            Err(error) => Err(match error {
                UploadError::BadSignature | UploadError::Expired => UploadRefusal::LinkInvalid,
                UploadError::Malformed => UploadRefusal::NotServed,
                UploadError::ContentTypeMismatch { expected } => {
                    UploadRefusal::ContentTypeMismatch { expected }
                }
                UploadError::TooLarge { limit } => UploadRefusal::TooLarge { limit },
                UploadError::SizeMismatch { declared } => UploadRefusal::SizeMismatch { declared },
                UploadError::AlreadyUsed => UploadRefusal::AlreadyUsed,
                // The body's own error, handed back as it came.
                UploadError::Body(e) => UploadRefusal::Body(
                    e.downcast::<std::io::Error>()
                        .unwrap_or_else(std::io::Error::other),
                ),
                UploadError::Io(e) => UploadRefusal::Unknown(e),
            }),
        }
    }

    #[tracing::instrument(name = "storage.proofs.send", skip_all)]
    async fn send(&self, token: &str) -> Result<OutgoingFile, DownloadRefusal> {
        let Some(local) = self.local() else {
            return Err(DownloadRefusal::NotFound);
        };
        let file = local
            .open_download(token)
            .await
            .map_err(|error| match error {
                DownloadError::Io(e) => DownloadRefusal::Unknown(e),
                _ => DownloadRefusal::NotFound,
            })?;
        Ok(OutgoingFile {
            body: tokio_util::io::ReaderStream::new(file.file).boxed(),
            size: file.size,
            content_type: file.content_type,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_must_be_plain_header_values() {
        assert!(check_content_type("image/png").is_ok());
        assert!(check_content_type("application/pdf; charset=binary").is_ok());
        for bad in ["", "image/png\r\nX-Evil: 1", "imagen/pñg", &"a".repeat(129)] {
            assert!(check_content_type(bad).is_err(), "{bad:?}");
        }
    }
}
