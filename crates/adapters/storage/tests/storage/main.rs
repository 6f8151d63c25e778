//! Integration tests of both stores, in one binary: the local directory, and S3 on real
//! S3-compatible servers (s3s-fs, which checks signatures and expiry like AWS, and moto).

// Test helpers outside `#[test]` functions may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod local;
mod s3;

/// The first bytes of each kind of file, padded to realistic sizes by [`file`].
pub const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01";
pub const PDF: &[u8] = b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj";
/// A Windows executable's header, as in a `comprobante.exe` renamed `comprobante.pdf`.
pub const EXE: &[u8] = b"MZ\x90\0\x03\0\0\0\x04\0\0\0\xFF\xFF\0\0";

/// `size` bytes starting with `magic`, the rest a varying pattern.
#[must_use]
pub fn file(magic: &[u8], size: usize) -> Vec<u8> {
    let mut bytes = magic.to_vec();
    bytes.extend((0..size.saturating_sub(magic.len())).map(|i| (i % 251) as u8));
    bytes.truncate(size);
    bytes
}

/// A fresh key, as the API names proofs.
#[must_use]
pub fn fresh_key(extension: &str) -> String {
    format!("proofs/42/{}.{extension}", uuid::Uuid::new_v4())
}
