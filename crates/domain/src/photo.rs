//! Photos the staff upload for raffles, prizes and deliveries: the formats we serve them in and
//! the names they are served by. Uploaded files are never served as sent: they are decoded and
//! encoded again (an adapter's work), then named by the SHA-256 of what we encoded, so a name
//! always means the same bytes and can be cached for good.

use sha2::{Digest as _, Sha256};

/// Largest photo accepted, in bytes (a phone's full-size JPEG is 3–8 MB).
pub const MAX_PHOTO_BYTES: usize = 15 * 1024 * 1024;
/// Largest picture decoded, in pixels (a 48-megapixel phone camera).
pub const MAX_PHOTO_PIXELS: u64 = 50_000_000;
/// The longest side of a served photo: enough for a raffle's page on a wide screen.
pub const SERVED_SIDE: u32 = 1600;

/// What a photo is served as: JPEG for photographs, PNG when it has transparency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhotoFormat {
    Jpeg,
    Png,
}

impl PhotoFormat {
    #[must_use]
    pub fn extension(self) -> &'static str {
        match self {
            Self::Jpeg => "jpg",
            Self::Png => "png",
        }
    }

    #[must_use]
    pub fn mime(self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
        }
    }
}

/// A served photo's name: 64 lower-case hex digits of its SHA-256 and its format's extension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhotoName {
    digest: String,
    format: PhotoFormat,
}

impl PhotoName {
    /// The name of the encoded `bytes`: their SHA-256.
    #[must_use]
    pub fn of(bytes: &[u8], format: PhotoFormat) -> Self {
        Self {
            digest: crate::draw::ledger::to_hex(&Sha256::digest(bytes)),
            format,
        }
    }

    /// Reads a name from a request path; anything else is `None` (served as not found).
    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        let (digest, extension) = raw.split_once('.')?;
        let format = [PhotoFormat::Jpeg, PhotoFormat::Png]
            .into_iter()
            .find(|f| f.extension() == extension)?;
        let hex = digest.len() == 64
            && digest
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        hex.then(|| Self {
            digest: digest.to_owned(),
            format,
        })
    }

    #[must_use]
    pub fn format(&self) -> PhotoFormat {
        self.format
    }

    /// The object store's key.
    #[must_use]
    pub fn key(&self) -> String {
        format!("photos/{self}")
    }

    /// Where the API serves it; the site forwards `/api`, so the same path works on the site.
    #[must_use]
    pub fn path(&self) -> String {
        format!("/api/photos/{self}")
    }
}

impl std::fmt::Display for PhotoName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.digest, self.format.extension())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_a_digest_and_a_served_extension_and_nothing_else() {
        let digest = "a".repeat(64);
        let name = PhotoName::parse(&format!("{digest}.jpg")).unwrap();
        assert_eq!(name.format(), PhotoFormat::Jpeg);
        assert_eq!(name.key(), format!("photos/{digest}.jpg"));
        assert_eq!(name.path(), format!("/api/photos/{digest}.jpg"));
        // SHA-256 of "abc".
        assert_eq!(
            PhotoName::of(b"abc", PhotoFormat::Png).to_string(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.png"
        );
        for bad in [
            format!("{digest}.gif"),
            format!("{}.jpg", "A".repeat(64)),
            format!("{}.jpg", "a".repeat(63)),
            format!("../{digest}.jpg"),
            format!("{digest}.jpg.png"),
            digest.clone(),
            String::new(),
        ] {
            assert_eq!(PhotoName::parse(&bad), None, "{bad}");
        }
    }
}
