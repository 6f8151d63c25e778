//! The staff's photos of raffles, prizes and deliveries: uploaded from the panel, encoded by us
//! (never served as sent) and served to everyone under a name that is their content's hash.

use std::sync::Arc;

use rifa_domain::photo::{MAX_PHOTO_BYTES, PhotoName};
use rifa_ports::outbound::{ObjectStore, PhotoEncoder, PhotoRefusal};

use crate::cpu::CpuPool;

#[derive(Debug, thiserror::Error)]
pub enum PhotoError {
    #[error("the file is larger than {max_bytes} bytes")]
    TooLarge { max_bytes: usize },
    #[error("the file is not a photo we can serve: {0}")]
    Refused(PhotoRefusal),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// A photo as it is served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedPhoto {
    pub bytes: Vec<u8>,
    pub content_type: &'static str,
}

#[async_trait::async_trait]
pub trait PhotosService: Send + Sync + 'static {
    /// Encodes an uploaded photo for the site and stores it; the answer names it (its path is
    /// what a raffle's or a prize's image may be). The same picture uploaded twice is one photo.
    ///
    /// # Errors
    /// `TooLarge` past [`MAX_PHOTO_BYTES`], `Refused` with the encoder's reason, or a failure of
    /// the store.
    async fn upload(&self, bytes: Vec<u8>) -> Result<PhotoName, PhotoError>;

    /// A stored photo, or `None`.
    ///
    /// # Errors
    /// A failure of the store.
    async fn photo(&self, name: &PhotoName) -> anyhow::Result<Option<ServedPhoto>>;
}

/// Photos over the object store `O`, encoded by `E` on the CPU pool.
pub struct Photos<O, E> {
    store: O,
    encoder: Arc<E>,
    cpu: CpuPool,
}

impl<O, E> Photos<O, E> {
    pub fn new(store: O, encoder: E, cpu: CpuPool) -> Self {
        Self {
            store,
            encoder: Arc::new(encoder),
            cpu,
        }
    }
}

#[async_trait::async_trait]
impl<O: ObjectStore, E: PhotoEncoder> PhotosService for Photos<O, E> {
    async fn upload(&self, bytes: Vec<u8>) -> Result<PhotoName, PhotoError> {
        if bytes.len() > MAX_PHOTO_BYTES {
            return Err(PhotoError::TooLarge {
                max_bytes: MAX_PHOTO_BYTES,
            });
        }
        let encoder = Arc::clone(&self.encoder);
        let encoded = self
            .cpu
            .run(move || encoder.encode(&bytes))
            .await?
            .map_err(PhotoError::Refused)?;
        let name = PhotoName::of(&encoded.bytes, encoded.format);
        self.store
            .put(&name.key(), encoded.bytes, encoded.format.mime())
            .await?;
        Ok(name)
    }

    async fn photo(&self, name: &PhotoName) -> anyhow::Result<Option<ServedPhoto>> {
        Ok(self
            .store
            .read(&name.key(), MAX_PHOTO_BYTES)
            .await?
            .map(|object| ServedPhoto {
                bytes: object.first_bytes,
                content_type: name.format().mime(),
            }))
    }
}
