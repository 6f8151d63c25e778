//! The API's own end of a proof store's signed links, for a store with no server of its own
//! (files on the API's disk): the buyer's `PUT` of a proof and the admin's `GET` of it.

use bytes::Bytes;
use futures_util::stream::{BoxStream, LocalBoxStream};

/// A file on its way to a browser.
pub struct OutgoingFile {
    pub body: BoxStream<'static, std::io::Result<Bytes>>,
    pub size: u64,
    /// Judged from the file's own first bytes, never from what the uploader said.
    pub content_type: &'static str,
}

impl std::fmt::Debug for OutgoingFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutgoingFile")
            .field("size", &self.size)
            .field("content_type", &self.content_type)
            .finish_non_exhaustive()
    }
}

/// Why an upload was not stored. Nothing is stored in any case.
#[derive(Debug, thiserror::Error)]
pub enum UploadRefusal {
    /// This store takes no uploads itself, or the link is not one of its links at all.
    #[error("no such upload link")]
    NotServed,
    /// The link was forged, tampered with or has expired.
    #[error("the upload link is invalid or has expired")]
    LinkInvalid,
    #[error("the upload was granted for {expected}")]
    ContentTypeMismatch { expected: String },
    /// The body went past the store's limit; reading stopped there.
    #[error("the upload is larger than {limit} bytes")]
    TooLarge { limit: u64 },
    /// The body is not the size the link was granted for.
    #[error("the upload is not the {declared} bytes declared")]
    SizeMismatch { declared: u64 },
    /// The link was used before (or at the same time).
    #[error("this upload link has already been used")]
    AlreadyUsed,
    /// Reading the body failed: the error the body stream gave.
    #[error("failed to read the upload body")]
    Body(#[source] std::io::Error),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Why a download serves nothing.
#[derive(Debug, thiserror::Error)]
pub enum DownloadRefusal {
    /// Not served by this store, not a valid link, expired, or no file under its key: one
    /// answer, so links cannot be probed.
    #[error("no such file")]
    NotFound,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

pub trait DirectTransfers: Send + Sync + 'static {
    /// Stores the body of a `PUT` to an upload link this store signed, sent as `content_type`.
    /// The body stream is the server's own, tied to its thread: this future is not `Send`.
    ///
    /// # Errors
    /// See [`UploadRefusal`].
    fn receive(
        &self,
        token: &str,
        content_type: &str,
        body: LocalBoxStream<'_, std::io::Result<Bytes>>,
    ) -> impl Future<Output = Result<u64, UploadRefusal>>;

    /// Opens the file a download link this store signed names.
    ///
    /// # Errors
    /// See [`DownloadRefusal`].
    fn send(
        &self,
        token: &str,
    ) -> impl Future<Output = Result<OutgoingFile, DownloadRefusal>> + Send;
}

impl<T: DirectTransfers> DirectTransfers for std::sync::Arc<T> {
    fn receive(
        &self,
        token: &str,
        content_type: &str,
        body: LocalBoxStream<'_, std::io::Result<Bytes>>,
    ) -> impl Future<Output = Result<u64, UploadRefusal>> {
        (**self).receive(token, content_type, body)
    }

    fn send(
        &self,
        token: &str,
    ) -> impl Future<Output = Result<OutgoingFile, DownloadRefusal>> + Send {
        (**self).send(token)
    }
}
