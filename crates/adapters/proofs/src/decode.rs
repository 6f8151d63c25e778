//! [`ProofInspector`] with real decoders: `image` (PNG, JPEG, GIF and WEBP) and `lopdf`.
//!
//! Decoding is CPU work on a stranger's file, so it runs on Tokio's blocking pool, at most one
//! file per core at a time (a 40-megapixel image takes 160 MB to decode), and a decoder that
//! panics only makes the file unreadable.

use std::io::Cursor;
use std::sync::LazyLock;

use anyhow::Context;
use image::{DynamicImage, ImageFormat, ImageReader, Limits};
use rifa_domain::proof::{ProofContent, ProofKind};
use rifa_ports::outbound::ProofInspector;
use tokio::sync::Semaphore;

/// Files being decoded at once, across the process.
static DECODING: LazyLock<Semaphore> = LazyLock::new(|| {
    Semaphore::new(std::thread::available_parallelism().map_or(2, std::num::NonZero::get))
});

/// Runs `work` on the blocking pool within [`DECODING`]'s bound; `None` when it panicked (a
/// decoder's bug on a hostile file is that file's problem only).
pub(crate) async fn off_the_workers<T: Send + 'static>(
    what: &'static str,
    work: impl FnOnce() -> T + Send + 'static,
) -> anyhow::Result<Option<T>> {
    let _permit = DECODING
        .acquire()
        .await
        .context("the decoding queue is closed")?;
    match tokio::task::spawn_blocking(work).await {
        Ok(done) => Ok(Some(done)),
        Err(error) if error.is_panic() => {
            tracing::warn!(work = what, "a decoder panicked on a proof");
            Ok(None)
        }
        Err(error) => Err(error).context("failed to decode a proof"),
    }
}

/// Decodes proofs with the `image` and `lopdf` crates.
#[derive(Debug, Clone, Copy, Default)]
pub struct DecodingInspector;

impl ProofInspector for DecodingInspector {
    #[tracing::instrument(name = "proofs.decoding_inspector.inspect", skip_all)]
    async fn inspect(
        &self,
        kind: ProofKind,
        bytes: Vec<u8>,
        max_pixels: u64,
    ) -> anyhow::Result<ProofContent> {
        Ok(
            off_the_workers("inspect", move || decode(kind, &bytes, max_pixels))
                .await?
                .unwrap_or(ProofContent::Unreadable),
        )
    }
}

fn decode(kind: ProofKind, bytes: &[u8], max_pixels: u64) -> ProofContent {
    let Some(format) = image_format(kind) else {
        return decode_pdf(bytes);
    };
    match decode_picture(format, bytes, max_pixels) {
        Picture::Decoded(image) => ProofContent::Image {
            width: image.width(),
            height: image.height(),
        },
        Picture::TooLarge { width, height } => ProofContent::Image { width, height },
        Picture::Unreadable => ProofContent::Unreadable,
    }
}

/// The picture format of a proof kind; `None` for a PDF.
pub(crate) fn image_format(kind: ProofKind) -> Option<ImageFormat> {
    match kind {
        ProofKind::Png => Some(ImageFormat::Png),
        ProofKind::Jpeg => Some(ImageFormat::Jpeg),
        ProofKind::Gif => Some(ImageFormat::Gif),
        ProofKind::Webp => Some(ImageFormat::WebP),
        ProofKind::Pdf => None,
    }
}

pub(crate) enum Picture {
    Decoded(DynamicImage),
    /// The header claims more than the budget: not decoded.
    TooLarge {
        width: u32,
        height: u32,
    },
    Unreadable,
}

/// The header's dimensions first: an image claiming more than `max_pixels` is answered without
/// allocating anything for its pixels; one within the budget is then decoded in full, under
/// limits matching its header, so a header that lies cannot make the decoder allocate more.
pub(crate) fn decode_picture(format: ImageFormat, bytes: &[u8], max_pixels: u64) -> Picture {
    let Ok((width, height)) =
        ImageReader::with_format(Cursor::new(bytes), format).into_dimensions()
    else {
        return Picture::Unreadable;
    };
    if u64::from(width) * u64::from(height) > max_pixels {
        return Picture::TooLarge { width, height };
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(width);
    limits.max_image_height = Some(height);
    // Up to 16-bit RGBA (8 bytes a pixel), plus room for the decoders' own buffers.
    limits.max_alloc = Some(max_pixels.saturating_mul(8).saturating_add(64 << 20));
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits);
    reader
        .decode()
        .map_or(Picture::Unreadable, Picture::Decoded)
}

/// A PDF must parse (header, cross-reference table, trailer, objects) and have a page.
fn decode_pdf(bytes: &[u8]) -> ProofContent {
    match lopdf::Document::load_mem(bytes) {
        Ok(document) => ProofContent::Pdf {
            pages: u32::try_from(document.get_pages().len()).unwrap_or(u32::MAX),
        },
        Err(_) => ProofContent::Unreadable,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::time::Instant;

    use rifa_domain::proof::MAX_PROOF_PIXELS;
    use rifa_test_support::files::{
        HTML_BEHIND_PDF_SIGNATURE, PDF_ONE_PAGE, PNG_2X2, PNG_SIGNATURE_ONLY, png_claiming,
    };

    use super::*;

    async fn inspect(kind: ProofKind, bytes: &[u8]) -> ProofContent {
        DecodingInspector
            .inspect(kind, bytes.to_vec(), MAX_PROOF_PIXELS)
            .await
            .unwrap()
    }

    fn encoded(format: ImageFormat) -> Vec<u8> {
        let mut bytes = Vec::new();
        image::DynamicImage::ImageRgb8(image::RgbImage::new(3, 2))
            .write_to(&mut Cursor::new(&mut bytes), format)
            .unwrap();
        bytes
    }

    #[tokio::test]
    async fn real_images_and_pdfs_decode_with_their_dimensions_and_pages() {
        let image = |width, height| ProofContent::Image { width, height };
        assert_eq!(inspect(ProofKind::Png, PNG_2X2).await, image(2, 2));
        let jpeg = encoded(ImageFormat::Jpeg);
        assert_eq!(inspect(ProofKind::Jpeg, &jpeg).await, image(3, 2));
        let gif = encoded(ImageFormat::Gif);
        assert_eq!(inspect(ProofKind::Gif, &gif).await, image(3, 2));
        let webp = encoded(ImageFormat::WebP);
        assert_eq!(ProofKind::sniff(&webp), Some(ProofKind::Webp));
        assert_eq!(inspect(ProofKind::Webp, &webp).await, image(3, 2));
        assert_eq!(
            inspect(ProofKind::Pdf, PDF_ONE_PAGE).await,
            ProofContent::Pdf { pages: 1 }
        );
    }

    #[tokio::test]
    async fn files_whose_first_bytes_lie_do_not_decode() {
        let truncated_jpeg = &encoded(ImageFormat::Jpeg)[..20];
        let truncated_webp = &encoded(ImageFormat::WebP)[..16];
        let cases: [(&str, ProofKind, &[u8]); 6] = [
            ("a PNG signature alone", ProofKind::Png, PNG_SIGNATURE_ONLY),
            ("a truncated PNG", ProofKind::Png, &PNG_2X2[..40]),
            ("a truncated JPEG", ProofKind::Jpeg, truncated_jpeg),
            ("a GIF header alone", ProofKind::Gif, b"GIF89a\x01\0\x01\0"),
            ("a truncated WEBP", ProofKind::Webp, truncated_webp),
            (
                "HTML behind a %PDF- prefix",
                ProofKind::Pdf,
                HTML_BEHIND_PDF_SIGNATURE,
            ),
        ];
        for (what, kind, bytes) in cases {
            assert_eq!(
                inspect(kind, bytes).await,
                ProofContent::Unreadable,
                "{what}"
            );
        }
    }

    #[tokio::test]
    async fn a_header_claiming_900_megapixels_is_answered_from_the_header_alone() {
        let started = Instant::now();

        let content = inspect(ProofKind::Png, &png_claiming(30_000, 30_000)).await;

        assert_eq!(
            content,
            ProofContent::Image {
                width: 30_000,
                height: 30_000
            }
        );
        assert!(started.elapsed().as_secs() < 2, "{:?}", started.elapsed());
    }
}
