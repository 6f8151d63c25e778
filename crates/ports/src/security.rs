//! Password hashing and admin tokens.

use chrono::{DateTime, Utc};
use rifa_domain::admin::AdminId;

pub trait PasswordHasher: Send + Sync + 'static {
    /// A PHC string with a fresh salt.
    ///
    /// # Errors
    /// Only when the hashing library fails (out of memory, bad parameters).
    fn hash(&self, password: &str) -> anyhow::Result<String>;

    /// Whether `password` matches `hash`. A malformed hash is a mismatch, not an error.
    fn verify(&self, password: &str, hash: &str) -> bool;

    /// A hash of a random password, to verify against when the username is unknown so a
    /// missing account takes as long to refuse as a wrong password.
    fn decoy_hash(&self) -> &str;
}

/// What a valid admin token says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminClaims {
    /// The session the token belongs to (its `jti`).
    pub session_id: String,
    pub admin_id: AdminId,
    pub username: String,
    pub expires_at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuedToken {
    pub token: String,
    /// A fresh random session id, the token's `jti`.
    pub session_id: String,
    pub expires_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("the token has expired")]
    Expired,
    #[error("the token is malformed or its signature does not match")]
    Invalid,
}

pub trait TokenIssuer: Send + Sync + 'static {
    /// # Errors
    /// Only when signing fails.
    fn issue(&self, admin_id: AdminId, username: &str) -> anyhow::Result<IssuedToken>;

    /// # Errors
    /// [`TokenError::Expired`] past its `exp`; [`TokenError::Invalid`] for anything else.
    fn verify(&self, token: &str) -> Result<AdminClaims, TokenError>;
}

/// Proof that a browser signed in to an account before (OWASP's "device cookie"): such a browser
/// is not held back by other people's failed guesses at that account (decision 0026).
pub trait KnownDevices: Send + Sync + 'static {
    /// A token for the browser that just signed in as `username`.
    ///
    /// # Errors
    /// Only when signing fails.
    fn token_for(&self, username: &str) -> anyhow::Result<String>;

    /// Whether `token` is one this server gave a browser that signed in as `username`, still
    /// within its life. Usernames compare as sign-in does (trimmed, case-insensitive).
    fn knows(&self, token: &str, username: &str) -> bool;
}

/// The buyer's secret key to their purchase (attach a proof, read the invoice). Only the digest
/// is stored.
pub trait AccessKeys: Send + Sync + 'static {
    /// The buyer's key to the purchase with this reference, derived from it with a secret the
    /// database never sees, so it can be given again (in every e-mail) without being stored.
    fn key_for(&self, reference: &str) -> String;

    /// The digest stored for `key`.
    fn digest(&self, key: &str) -> String;

    /// Whether `key` matches `digest`, in constant time.
    fn matches(&self, key: &str, digest: &str) -> bool;
}

// Shared handles, so several services can hold one adapter.
impl<T: PasswordHasher + ?Sized> PasswordHasher for std::sync::Arc<T> {
    fn hash(&self, password: &str) -> anyhow::Result<String> {
        (**self).hash(password)
    }

    fn verify(&self, password: &str, hash: &str) -> bool {
        (**self).verify(password, hash)
    }

    fn decoy_hash(&self) -> &str {
        (**self).decoy_hash()
    }
}

impl<T: TokenIssuer + ?Sized> TokenIssuer for std::sync::Arc<T> {
    fn issue(&self, admin_id: AdminId, username: &str) -> anyhow::Result<IssuedToken> {
        (**self).issue(admin_id, username)
    }

    fn verify(&self, token: &str) -> Result<AdminClaims, TokenError> {
        (**self).verify(token)
    }
}

impl<T: AccessKeys + ?Sized> AccessKeys for std::sync::Arc<T> {
    fn key_for(&self, reference: &str) -> String {
        (**self).key_for(reference)
    }

    fn digest(&self, key: &str) -> String {
        (**self).digest(key)
    }

    fn matches(&self, key: &str, digest: &str) -> bool {
        (**self).matches(key, digest)
    }
}
