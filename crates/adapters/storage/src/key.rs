//! Object keys: the one shape both stores accept, so a key can never leave the local directory
//! or name something odd in a bucket.

/// The longest key accepted, in bytes (S3 allows 1,024; ours are far shorter).
pub(crate) const MAX_KEY_LEN: usize = 256;

/// Why a key is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid object key {key:?}: {reason}")]
pub(crate) struct InvalidKey {
    pub key: String,
    pub reason: &'static str,
}

/// Checks that `key` is one or more `/`-separated segments of ASCII letters, digits, `-`, `_`
/// and `.`, no segment empty or starting with a dot (so no `..`, no hidden files, no absolute
/// path, no backslash), at most [`MAX_KEY_LEN`] bytes: `proofs/123/0b5c….pdf`.
///
/// # Errors
/// [`InvalidKey`] naming the first rule broken.
pub(crate) fn validate_key(key: &str) -> Result<&str, InvalidKey> {
    let refuse = |reason| InvalidKey {
        key: key.chars().take(MAX_KEY_LEN).collect(),
        reason,
    };
    if key.is_empty() {
        return Err(refuse("empty"));
    }
    if key.len() > MAX_KEY_LEN {
        return Err(refuse("too long"));
    }
    for segment in key.split('/') {
        if segment.is_empty() {
            return Err(refuse(
                "empty segment (absolute path, double or trailing slash)",
            ));
        }
        if segment.starts_with('.') {
            return Err(refuse("segment starts with a dot"));
        }
        if !segment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        {
            return Err(refuse(
                "characters other than letters, digits, '-', '_', '.'",
            ));
        }
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_plain_relative_paths() {
        let good = [
            "proofs/123/0b5c6f3e-2a4d-4c1e-9f00-1234567890ab.pdf",
            "proofs/1/a.png",
            "x",
            "a/b/c/d.tar.gz",
        ];
        for key in good {
            assert_eq!(validate_key(key), Ok(key), "{key}");
        }
        let long = "a".repeat(MAX_KEY_LEN + 1);
        let bad = [
            "",
            "..",
            "../etc/passwd",
            "proofs/../../etc/passwd",
            "proofs/..",
            "proofs/./a.pdf",
            "/etc/passwd",
            "proofs//a.pdf",
            "proofs/a.pdf/",
            ".hidden",
            "proofs/.tmp/x",
            "proofs\\..\\x",
            "C:\\windows",
            "proofs/a b.pdf",
            "proofs/a%2e%2e",
            "proofs/ñ.pdf",
            "proofs/a\0.pdf",
            "proofs/a\n.pdf",
            "proofs/a?x=1",
            "proofs/~root",
            long.as_str(),
        ];
        for key in bad {
            assert!(validate_key(key).is_err(), "{key:?} should be refused");
        }
    }
}
