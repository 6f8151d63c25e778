//! Payment proofs: which files a buyer may send as proof of payment, judged by what they are.
//!
//! A file's name and the `Content-Type` a browser sends are the buyer's word; the first bytes
//! are the file. [`check_proof`] decides on the size and the magic bytes only, so a renamed
//! `.exe` is refused and a PNG named `.pdf` is recognised as the PNG it is;
//! [`check_declared_proof`] then refuses it as a proof sent as a PDF, since it would be stored
//! and shown as one. First bytes can lie (a PNG signature and nothing else, HTML after `%PDF-`),
//! so the whole file is then decoded, off this crate (see [`ProofContent`]), and
//! [`judge_content`] refuses what does not decode or is too many pixels to show.

/// The largest proof accepted, in bytes: 5 MB (SPEC §9).
pub const MAX_PROOF_BYTES: u64 = 5 * 1024 * 1024;

/// The most pixels an image proof may have: 40 megapixels, more than any phone camera takes,
/// while a 5 MB PNG could otherwise claim 30000×30000 (900 MB decoded).
pub const MAX_PROOF_PIXELS: u64 = 40_000_000;

/// How many leading bytes [`ProofKind::sniff`] needs to recognise every kind (a WEBP's
/// `RIFF····WEBP`, a HEIC's `····ftypheic`).
pub const SNIFF_BYTES: usize = 12;

/// The brands of an ISO media file's `ftyp` box that mark a HEIF picture (what iPhones save
/// photos as: HEIC) or an AVIF one: images nothing on the reviewer's side can show.
const HEIF_BRANDS: [&[u8; 4]; 9] = [
    b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif",
];

/// MIME types and file extensions of HEIF/HEIC and AVIF pictures.
const HEIF_MIMES: [&str; 5] = [
    "image/heic",
    "image/heif",
    "image/heic-sequence",
    "image/heif-sequence",
    "image/avif",
];
const HEIF_EXTENSIONS: [&str; 3] = ["heic", "heif", "avif"];

/// A kind of file accepted as a payment proof: the images and PDFs the spec allows, and WEBP
/// (what many Android phones save screenshots as).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProofKind {
    Jpeg,
    Png,
    Gif,
    Webp,
    Pdf,
}

impl ProofKind {
    /// Every accepted kind.
    pub const ALL: [Self; 5] = [Self::Jpeg, Self::Png, Self::Gif, Self::Webp, Self::Pdf];

    /// The kind a file's first bytes announce, or `None` when they are none of the accepted
    /// kinds (or too few to tell).
    #[must_use]
    pub fn sniff(first_bytes: &[u8]) -> Option<Self> {
        const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";
        if first_bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(Self::Jpeg)
        } else if first_bytes.starts_with(PNG) {
            Some(Self::Png)
        } else if first_bytes.starts_with(b"GIF87a") || first_bytes.starts_with(b"GIF89a") {
            Some(Self::Gif)
        } else if first_bytes.starts_with(b"RIFF") && first_bytes.get(8..12) == Some(b"WEBP") {
            Some(Self::Webp)
        } else if first_bytes.starts_with(b"%PDF-") {
            Some(Self::Pdf)
        } else {
            None
        }
    }

    /// The kind a declared MIME type names, a HEIF/HEIC or AVIF picture told apart from any
    /// other unaccepted type (its buyer needs another answer: send a screenshot).
    ///
    /// # Errors
    /// [`ProofError::Heif`] for those pictures, [`ProofError::WrongType`] for anything else
    /// not accepted.
    pub fn declared(mime: &str) -> Result<Self, ProofError> {
        Self::from_mime(mime).ok_or_else(|| {
            let essence = mime
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            if HEIF_MIMES.contains(&essence.as_str()) {
                ProofError::Heif
            } else {
                ProofError::WrongType
            }
        })
    }

    /// The kind a file name's extension names (`.jpeg` too), HEIF pictures told apart.
    ///
    /// # Errors
    /// As [`ProofKind::declared`].
    pub fn named(filename: &str) -> Result<Self, ProofError> {
        let extension = filename
            .rsplit_once('.')
            .map(|(_, extension)| extension.to_ascii_lowercase())
            .unwrap_or_default();
        if extension == "jpeg" {
            return Ok(Self::Jpeg);
        }
        if HEIF_EXTENSIONS.contains(&extension.as_str()) {
            return Err(ProofError::Heif);
        }
        Self::ALL
            .into_iter()
            .find(|kind| kind.extension() == extension)
            .ok_or(ProofError::WrongType)
    }

    /// The kind a MIME type names (`image/jpeg`, …), ignoring parameters and case; `image/jpg`
    /// and `image/pjpeg` are taken as JPEG, as some browsers send them.
    #[must_use]
    pub fn from_mime(mime: &str) -> Option<Self> {
        let essence = mime
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        match essence.as_str() {
            "image/jpeg" | "image/jpg" | "image/pjpeg" => Some(Self::Jpeg),
            "image/png" => Some(Self::Png),
            "image/gif" => Some(Self::Gif),
            "image/webp" => Some(Self::Webp),
            "application/pdf" => Some(Self::Pdf),
            _ => None,
        }
    }

    /// The canonical MIME type, to store and serve the file under.
    #[must_use]
    pub fn mime(self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
            Self::Gif => "image/gif",
            Self::Webp => "image/webp",
            Self::Pdf => "application/pdf",
        }
    }

    /// The kind a stored object's name ends in (`….png`), as [`ProofKind::extension`] writes it.
    #[must_use]
    pub fn from_extension(name: &str) -> Option<Self> {
        let extension = name.rsplit_once('.')?.1;
        Self::ALL
            .into_iter()
            .find(|kind| kind.extension() == extension)
    }

    /// The name buyers know the kind by.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Jpeg => "JPG",
            Self::Png => "PNG",
            Self::Gif => "GIF",
            Self::Webp => "WEBP",
            Self::Pdf => "PDF",
        }
    }

    /// The file extension, without the dot, to name the stored object by.
    #[must_use]
    pub fn extension(self) -> &'static str {
        match self {
            Self::Jpeg => "jpg",
            Self::Png => "png",
            Self::Gif => "gif",
            Self::Webp => "webp",
            Self::Pdf => "pdf",
        }
    }
}

/// Why a payment proof is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    /// No file was sent.
    #[error("no payment proof was sent")]
    Missing,
    /// Larger than [`MAX_PROOF_BYTES`].
    #[error("the payment proof is {size} bytes, over the limit")]
    TooLarge { size: u64 },
    /// Not a JPEG, PNG, GIF, WEBP or PDF by its content (or empty).
    #[error("the payment proof is not an accepted type")]
    WrongType,
    /// A HEIF/HEIC (iPhone photo) or AVIF picture: the buyer is told to send a screenshot.
    #[error("the payment proof is a HEIF picture")]
    Heif,
    /// An accepted kind, but not the one it was sent as (a PDF named `.png`): it would be
    /// stored and shown as what it is not.
    #[error("the payment proof is a {actual:?}, sent as a {declared:?}")]
    NotAsDeclared {
        declared: ProofKind,
        actual: ProofKind,
    },
    /// Starts like a `kind` but does not decode as one (truncated, damaged, or another file
    /// behind borrowed magic bytes).
    #[error("the payment proof does not decode as a {kind:?}")]
    Unreadable { kind: ProofKind },
    /// An image of more than [`MAX_PROOF_PIXELS`].
    #[error("the payment proof is {width}×{height} pixels, over the limit")]
    TooManyPixels { width: u32, height: u32 },
}

impl ProofError {
    /// The stable name of this refusal, the API's `code` and the key of its text.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Self::Missing => "proof_missing",
            Self::TooLarge { .. } => "proof_too_large",
            Self::WrongType => "proof_wrong_type",
            Self::Heif => "proof_heif",
            Self::NotAsDeclared { .. } => "proof_type_mismatch",
            Self::Unreadable { .. } => "proof_unreadable",
            Self::TooManyPixels { .. } => "proof_too_many_pixels",
        }
    }
}

/// Judges a stored proof by its size and its first bytes (at least [`SNIFF_BYTES`] of them when
/// the file is that long).
///
/// # Errors
/// [`ProofError::TooLarge`] above [`MAX_PROOF_BYTES`]; [`ProofError::Heif`] for a HEIF or
/// AVIF picture; [`ProofError::WrongType`] when the bytes are none of the accepted kinds, an
/// empty file included. Size is checked first.
pub fn check_proof(size: u64, first_bytes: &[u8]) -> Result<ProofKind, ProofError> {
    if size > MAX_PROOF_BYTES {
        return Err(ProofError::TooLarge { size });
    }
    ProofKind::sniff(first_bytes).ok_or_else(|| {
        let heif = first_bytes.get(4..8) == Some(b"ftyp")
            && first_bytes
                .get(8..12)
                .is_some_and(|brand| HEIF_BRANDS.iter().any(|b| b.as_slice() == brand));
        if heif {
            ProofError::Heif
        } else {
            ProofError::WrongType
        }
    })
}

/// [`check_proof`], and the file must be the kind it was sent as.
///
/// # Errors
/// Those of [`check_proof`], then [`ProofError::NotAsDeclared`].
pub fn check_declared_proof(
    declared: ProofKind,
    size: u64,
    first_bytes: &[u8],
) -> Result<ProofKind, ProofError> {
    let actual = check_proof(size, first_bytes)?;
    if actual == declared {
        Ok(actual)
    } else {
        Err(ProofError::NotAsDeclared { declared, actual })
    }
}

/// What a proof turned out to be when decoded as the kind its bytes announce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofContent {
    /// An image of these dimensions (its header; decoded in full only within the pixel budget).
    Image { width: u32, height: u32 },
    /// A PDF whose structure parsed, with this many pages.
    Pdf { pages: u32 },
    /// Not a readable file of its kind.
    Unreadable,
}

/// Judges a proof of `kind` by what decoding it found.
///
/// # Errors
/// [`ProofError::Unreadable`] when it did not decode or is a PDF without a page;
/// [`ProofError::TooManyPixels`] for an image over [`MAX_PROOF_PIXELS`].
pub fn judge_content(kind: ProofKind, content: ProofContent) -> Result<(), ProofError> {
    match content {
        ProofContent::Image { width, height }
            if u64::from(width) * u64::from(height) > MAX_PROOF_PIXELS =>
        {
            Err(ProofError::TooManyPixels { width, height })
        }
        ProofContent::Image { width, height } if width == 0 || height == 0 => {
            Err(ProofError::Unreadable { kind })
        }
        ProofContent::Pdf { pages: 0 } | ProofContent::Unreadable => {
            Err(ProofError::Unreadable { kind })
        }
        ProofContent::Image { .. } | ProofContent::Pdf { .. } => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    const JPEG: &[u8] = b"\xFF\xD8\xFF\xE0\0\x10JFIF\0";
    const GIF: &[u8] = b"GIF89a\x01\0\x01\0";
    const PDF: &[u8] = b"%PDF-1.7\n%\xE2\xE3";

    #[test]
    fn sniffing_goes_by_the_bytes_alone() {
        let cases: &[(&str, &[u8], Option<ProofKind>)] = &[
            ("a PNG", PNG, Some(ProofKind::Png)),
            ("a JPEG (JFIF)", JPEG, Some(ProofKind::Jpeg)),
            (
                "a JPEG (Exif)",
                b"\xFF\xD8\xFF\xE1\0\x18Exif",
                Some(ProofKind::Jpeg),
            ),
            ("a GIF 89a", GIF, Some(ProofKind::Gif)),
            ("a GIF 87a", b"GIF87a\x01\0", Some(ProofKind::Gif)),
            ("a PDF", PDF, Some(ProofKind::Pdf)),
            ("a Windows executable", b"MZ\x90\0\x03\0\0\0", None),
            ("an ELF binary", b"\x7FELF\x02\x01\x01\0", None),
            ("a ZIP", b"PK\x03\x04\x14\0", None),
            ("HTML", b"<!DOCTYPE html>", None),
            ("an SVG", b"<svg xmlns=", None),
            ("a WebP", b"RIFF\x24\0\0\0WEBPVP8L", Some(ProofKind::Webp)),
            ("a WAV (RIFF, not WEBP)", b"RIFF\x24\0\0\0WAVEfmt ", None),
            ("a WebP cut short", b"RIFF\0\0\0\0WEB", None),
            ("nothing", b"", None),
            ("a truncated PNG signature", b"\x89PNG\r\n", None),
            ("a truncated JPEG marker", b"\xFF\xD8", None),
            ("GIF without a version", b"GIF8", None),
            ("PDF lower case", b"%pdf-1.4", None),
            ("PDF not at the start", b" %PDF-1.4", None),
        ];
        for (what, bytes, expected) in cases {
            assert_eq!(ProofKind::sniff(bytes), *expected, "{what}");
        }
    }

    #[test]
    fn an_iphone_photo_is_told_apart_by_its_bytes_its_type_and_its_name() {
        for brand in ["heic", "mif1", "heix", "avif"] {
            let mut heic = b"\0\0\0\x18ftyp".to_vec();
            heic.extend_from_slice(brand.as_bytes());
            assert_eq!(
                check_proof(900_000, &heic),
                Err(ProofError::Heif),
                "{brand}"
            );
        }
        // Another ISO media file (an MP4 video) is just not accepted.
        assert_eq!(
            check_proof(900_000, b"\0\0\0\x18ftypisom"),
            Err(ProofError::WrongType)
        );
        assert_eq!(ProofKind::declared("image/heic"), Err(ProofError::Heif));
        assert_eq!(
            ProofKind::declared("IMAGE/HEIF; q=1"),
            Err(ProofError::Heif)
        );
        assert_eq!(ProofKind::declared("image/webp"), Ok(ProofKind::Webp));
        assert_eq!(ProofKind::declared("text/html"), Err(ProofError::WrongType));
        assert_eq!(ProofKind::named("IMG_0042.HEIC"), Err(ProofError::Heif));
        assert_eq!(ProofKind::named("captura.webp"), Ok(ProofKind::Webp));
        assert_eq!(ProofKind::named("pago.JPEG"), Ok(ProofKind::Jpeg));
        assert_eq!(ProofKind::named("pago"), Err(ProofError::WrongType));
        assert_eq!(ProofKind::named("notas.txt"), Err(ProofError::WrongType));
        assert_eq!(ProofKind::from_extension("abc.webp"), Some(ProofKind::Webp));
    }

    #[test]
    fn proofs_are_judged_by_size_then_content() {
        let six_mb = 6 * 1024 * 1024;
        type Case<'a> = (&'a str, u64, &'a [u8], Result<ProofKind, ProofError>);
        let cases: &[Case] = &[
            ("a small PNG", 2_000, PNG, Ok(ProofKind::Png)),
            (
                "a PNG named receipt.pdf is a PNG",
                2_000,
                PNG,
                Ok(ProofKind::Png),
            ),
            (
                "a PDF of exactly 5 MB",
                MAX_PROOF_BYTES,
                PDF,
                Ok(ProofKind::Pdf),
            ),
            ("a JPEG", 300_000, JPEG, Ok(ProofKind::Jpeg)),
            ("a GIF", 10, GIF, Ok(ProofKind::Gif)),
            (
                "one byte over 5 MB",
                MAX_PROOF_BYTES + 1,
                PDF,
                Err(ProofError::TooLarge {
                    size: MAX_PROOF_BYTES + 1,
                }),
            ),
            (
                "a 6 MB JPEG",
                six_mb,
                JPEG,
                Err(ProofError::TooLarge { size: six_mb }),
            ),
            (
                "a renamed .exe",
                40_000,
                b"MZ\x90\0\x03\0\0\0",
                Err(ProofError::WrongType),
            ),
            (
                "a 6 MB .exe is too large first",
                six_mb,
                b"MZ",
                Err(ProofError::TooLarge { size: six_mb }),
            ),
            ("an empty file", 0, b"", Err(ProofError::WrongType)),
            (
                "plain text",
                12,
                b"hello world!",
                Err(ProofError::WrongType),
            ),
        ];
        for (what, size, bytes, expected) in cases {
            assert_eq!(check_proof(*size, bytes), *expected, "{what}");
        }
    }

    #[test]
    fn each_kind_has_its_mime_type_and_extension_and_reads_back_from_the_mime_type() {
        let cases = [
            (ProofKind::Jpeg, "image/jpeg", "jpg"),
            (ProofKind::Png, "image/png", "png"),
            (ProofKind::Gif, "image/gif", "gif"),
            (ProofKind::Webp, "image/webp", "webp"),
            (ProofKind::Pdf, "application/pdf", "pdf"),
        ];
        for (kind, mime, extension) in cases {
            assert_eq!(kind.mime(), mime);
            assert_eq!(kind.extension(), extension);
            assert_eq!(ProofKind::from_mime(mime), Some(kind));
        }
        assert_eq!(ProofKind::ALL.len(), cases.len());
    }

    #[test]
    fn a_proof_must_be_the_kind_it_was_sent_as() {
        assert_eq!(
            check_declared_proof(ProofKind::Png, 2_000, PNG),
            Ok(ProofKind::Png)
        );
        assert_eq!(
            check_declared_proof(ProofKind::Png, 2_000, PDF),
            Err(ProofError::NotAsDeclared {
                declared: ProofKind::Png,
                actual: ProofKind::Pdf
            })
        );
        assert_eq!(
            check_declared_proof(ProofKind::Pdf, 2_000, b"MZ\x90\0\x03\0\0\0"),
            Err(ProofError::WrongType)
        );
        assert_eq!(
            check_declared_proof(ProofKind::Pdf, MAX_PROOF_BYTES + 1, PNG),
            Err(ProofError::TooLarge {
                size: MAX_PROOF_BYTES + 1
            })
        );
    }

    #[test]
    fn decoded_proofs_are_refused_when_unreadable_empty_or_over_40_megapixels() {
        let png = ProofKind::Png;
        let cases = [
            (
                "a phone photo",
                ProofContent::Image {
                    width: 4032,
                    height: 3024,
                },
                Ok(()),
            ),
            (
                "exactly 40 MP",
                ProofContent::Image {
                    width: 8000,
                    height: 5000,
                },
                Ok(()),
            ),
            (
                "30000×30000 (900 MB decoded)",
                ProofContent::Image {
                    width: 30_000,
                    height: 30_000,
                },
                Err(ProofError::TooManyPixels {
                    width: 30_000,
                    height: 30_000,
                }),
            ),
            (
                "the largest header possible does not overflow",
                ProofContent::Image {
                    width: u32::MAX,
                    height: u32::MAX,
                },
                Err(ProofError::TooManyPixels {
                    width: u32::MAX,
                    height: u32::MAX,
                }),
            ),
            (
                "no pixels",
                ProofContent::Image {
                    width: 0,
                    height: 10,
                },
                Err(ProofError::Unreadable { kind: png }),
            ),
            (
                "a signature alone",
                ProofContent::Unreadable,
                Err(ProofError::Unreadable { kind: png }),
            ),
            (
                "a PDF of no page",
                ProofContent::Pdf { pages: 0 },
                Err(ProofError::Unreadable { kind: png }),
            ),
            ("a PDF of one page", ProofContent::Pdf { pages: 1 }, Ok(())),
        ];
        for (what, content, expected) in cases {
            assert_eq!(judge_content(png, content), expected, "{what}");
        }
    }

    #[test]
    fn a_stored_name_tells_the_kind_it_was_saved_as() {
        assert_eq!(
            ProofKind::from_extension("proofs/7/abc.jpg"),
            Some(ProofKind::Jpeg)
        );
        assert_eq!(
            ProofKind::from_extension("proofs/7/abc.pdf"),
            Some(ProofKind::Pdf)
        );
        assert_eq!(ProofKind::from_extension("proofs/7/abc.exe"), None);
        assert_eq!(ProofKind::from_extension("proofs/7/abc"), None);
    }

    #[test]
    fn mime_types_are_read_loosely_but_only_for_accepted_kinds() {
        let cases = [
            ("IMAGE/PNG", Some(ProofKind::Png)),
            ("application/pdf; charset=binary", Some(ProofKind::Pdf)),
            ("image/jpg", Some(ProofKind::Jpeg)),
            ("image/pjpeg", Some(ProofKind::Jpeg)),
            ("image/svg+xml", None),
            ("application/octet-stream", None),
            ("application/x-msdownload", None),
            ("text/html", None),
            ("", None),
        ];
        for (mime, expected) in cases {
            assert_eq!(ProofKind::from_mime(mime), expected, "{mime}");
        }
    }
}
