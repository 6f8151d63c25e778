//! Photos: encoded before they are stored, named by their content, served as stored.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rifa_app::cpu::CpuPool;
use rifa_app::photos::{PhotoError, Photos, PhotosService};
use rifa_domain::photo::{MAX_PHOTO_BYTES, PhotoFormat, PhotoName};
use rifa_ports::outbound::{EncodedPhoto, PhotoEncoder, PhotoRefusal};

use crate::support::outbound::MemoryObjects;

/// "Encodes" by upper-casing the bytes, refusing a file that starts with `!`; counts its calls.
#[derive(Default)]
struct UpperCase {
    calls: Arc<AtomicUsize>,
}

impl PhotoEncoder for UpperCase {
    fn encode(&self, bytes: &[u8]) -> Result<EncodedPhoto, PhotoRefusal> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if bytes.starts_with(b"!") {
            return Err(PhotoRefusal::NotAPicture);
        }
        Ok(EncodedPhoto {
            bytes: bytes.to_ascii_uppercase(),
            format: PhotoFormat::Jpeg,
            width: 1,
            height: 1,
        })
    }
}

fn photos() -> (
    Photos<MemoryObjects, UpperCase>,
    MemoryObjects,
    Arc<AtomicUsize>,
) {
    let objects = MemoryObjects::default();
    let encoder = UpperCase::default();
    let calls = Arc::clone(&encoder.calls);
    (
        Photos::new(objects.clone(), encoder, CpuPool::new(1)),
        objects,
        calls,
    )
}

#[tokio::test]
async fn what_is_stored_and_served_is_the_encoded_photo_named_by_its_content() {
    let (photos, objects, _) = photos();

    let name = photos.upload(b"moto".to_vec()).await.unwrap();
    let again = photos.upload(b"moto".to_vec()).await.unwrap();

    assert_eq!(name, PhotoName::of(b"MOTO", PhotoFormat::Jpeg));
    assert_eq!(again, name, "the same picture is one photo");
    assert_eq!(objects.keys(), [name.key()]);
    let served = photos.photo(&name).await.unwrap().unwrap();
    assert_eq!(
        (served.bytes.as_slice(), served.content_type),
        (b"MOTO".as_slice(), "image/jpeg")
    );
    let other = PhotoName::of(b"other", PhotoFormat::Png);
    assert_eq!(photos.photo(&other).await.unwrap(), None);
}

#[tokio::test]
async fn a_refused_or_oversized_file_stores_nothing_and_a_large_one_is_not_even_decoded() {
    let (photos, objects, calls) = photos();

    let refused = photos.upload(b"!not a picture".to_vec()).await;
    let large = photos.upload(vec![b'a'; MAX_PHOTO_BYTES + 1]).await;

    assert!(
        matches!(refused, Err(PhotoError::Refused(PhotoRefusal::NotAPicture))),
        "{refused:?}"
    );
    assert!(
        matches!(large, Err(PhotoError::TooLarge { max_bytes }) if max_bytes == MAX_PHOTO_BYTES)
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert!(objects.keys().is_empty());
}
