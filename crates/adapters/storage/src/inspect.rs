//! [`ProofInspector`] with real decoders: `image` (PNG, JPEG and GIF only) and `lopdf`.
//!
//! Decoding is CPU work on a stranger's file, so it runs on Tokio's blocking pool, at most one
//! file per core at a time (a 40-megapixel image takes 160 MB to decode), and a decoder that
//! panics only makes the file unreadable.

use std::io::Cursor;
use std::sync::LazyLock;

use anyhow::Context;
use image::{ImageFormat, ImageReader, Limits};
use rifa_domain::proof::{ProofContent, ProofKind};
use rifa_ports::outbound::ProofInspector;
use tokio::sync::Semaphore;

/// Files being decoded at once, across the process.
static DECODING: LazyLock<Semaphore> = LazyLock::new(|| {
    Semaphore::new(std::thread::available_parallelism().map_or(2, std::num::NonZero::get))
});

/// Decodes proofs with the `image` and `lopdf` crates.
#[derive(Debug, Clone, Copy, Default)]
pub struct DecodingInspector;

impl ProofInspector for DecodingInspector {
    #[tracing::instrument(name = "storage.decoding_inspector.inspect", skip_all)]
    async fn inspect(
        &self,
        kind: ProofKind,
        bytes: Vec<u8>,
        max_pixels: u64,
    ) -> anyhow::Result<ProofContent> {
        let _permit = DECODING
            .acquire()
            .await
            .context("the decoding queue is closed")?;
        match tokio::task::spawn_blocking(move || decode(kind, &bytes, max_pixels)).await {
            Ok(content) => Ok(content),
            Err(error) if error.is_panic() => {
                tracing::warn!(proof.kind = kind.label(), "a decoder panicked on a proof");
                Ok(ProofContent::Unreadable)
            }
            Err(error) => Err(error).context("failed to decode a proof"),
        }
    }
}

fn decode(kind: ProofKind, bytes: &[u8], max_pixels: u64) -> ProofContent {
    match kind {
        ProofKind::Png => decode_image(ImageFormat::Png, bytes, max_pixels),
        ProofKind::Jpeg => decode_image(ImageFormat::Jpeg, bytes, max_pixels),
        ProofKind::Gif => decode_image(ImageFormat::Gif, bytes, max_pixels),
        ProofKind::Webp => decode_image(ImageFormat::WebP, bytes, max_pixels),
        ProofKind::Pdf => decode_pdf(bytes),
    }
}

/// The header's dimensions first: an image claiming more than `max_pixels` is answered without
/// allocating anything for its pixels; one within the budget is then decoded in full, under
/// limits matching its header, so a header that lies cannot make the decoder allocate more.
fn decode_image(format: ImageFormat, bytes: &[u8], max_pixels: u64) -> ProofContent {
    let Ok((width, height)) =
        ImageReader::with_format(Cursor::new(bytes), format).into_dimensions()
    else {
        return ProofContent::Unreadable;
    };
    if u64::from(width) * u64::from(height) > max_pixels {
        return ProofContent::Image { width, height };
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(width);
    limits.max_image_height = Some(height);
    // Up to 16-bit RGBA (8 bytes a pixel), plus room for the decoders' own buffers.
    limits.max_alloc = Some(max_pixels.saturating_mul(8).saturating_add(64 << 20));
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits);
    match reader.decode() {
        Ok(_) => ProofContent::Image { width, height },
        Err(_) => ProofContent::Unreadable,
    }
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
