//! Cheap stand-ins for argon2, JWTs and access-key digests, with the same contracts.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use chrono::{DateTime, TimeDelta};
use rifa_domain::admin::AdminId;
use rifa_ports::{
    AccessKeys, AdminClaims, Clock, IssuedToken, PasswordHasher, TokenError, TokenIssuer,
};

use super::system::SettableClock;

/// Hashes as `plain:<password>`; counts verifications, so a test can see an unknown user still
/// costs one (the timing defence).
#[derive(Clone, Default)]
pub struct PlainHasher {
    verifications: Arc<AtomicU32>,
}

impl PlainHasher {
    pub fn verifications(&self) -> u32 {
        self.verifications.load(Ordering::SeqCst)
    }
}

impl PasswordHasher for PlainHasher {
    fn hash(&self, password: &str) -> anyhow::Result<String> {
        Ok(format!("plain:{password}"))
    }

    fn verify(&self, password: &str, hash: &str) -> bool {
        self.verifications.fetch_add(1, Ordering::SeqCst);
        hash.strip_prefix("plain:") == Some(password)
    }

    fn decoy_hash(&self) -> &str {
        // No password a test sends is this.
        "plain:\u{0}decoy"
    }
}

/// Tokens `admin:<id>:<username>:<expiry seconds>:<session>`, valid for an hour
/// of the settable clock; sessions numbered in order of issue.
#[derive(Clone)]
pub struct PlainTokens {
    pub clock: SettableClock,
    pub sessions: Arc<AtomicU64>,
}

pub const TOKEN_LIFETIME: TimeDelta = TimeDelta::hours(1);

impl TokenIssuer for PlainTokens {
    fn issue(&self, admin_id: AdminId, username: &str) -> anyhow::Result<IssuedToken> {
        let expires_at = self.clock.now() + TOKEN_LIFETIME;
        let session_id = format!("s{}", self.sessions.fetch_add(1, Ordering::Relaxed) + 1);
        Ok(IssuedToken {
            token: format!(
                "admin:{admin_id}:{username}:{}:{session_id}",
                expires_at.timestamp()
            ),
            session_id,
            expires_at,
        })
    }

    fn verify(&self, token: &str) -> Result<AdminClaims, TokenError> {
        let parts: Vec<&str> = token.split(':').collect();
        let ["admin", id, username, expiry, session] = parts.as_slice() else {
            return Err(TokenError::Invalid);
        };
        let expires_at = expiry
            .parse()
            .ok()
            .and_then(|seconds| DateTime::from_timestamp(seconds, 0))
            .ok_or(TokenError::Invalid)?;
        if expires_at <= self.clock.now() {
            return Err(TokenError::Expired);
        }
        Ok(AdminClaims {
            session_id: (*session).to_owned(),
            admin_id: id
                .parse()
                .map(AdminId::new)
                .map_err(|_| TokenError::Invalid)?,
            username: (*username).to_owned(),
            expires_at,
        })
    }
}

/// Keys `key-<reference>` whose digest is `digest(<key>)`.
#[derive(Clone, Default)]
pub struct SequentialKeys;

impl AccessKeys for SequentialKeys {
    fn key_for(&self, reference: &str) -> String {
        format!("key-{reference}")
    }

    fn digest(&self, key: &str) -> String {
        format!("digest({key})")
    }

    fn matches(&self, key: &str, digest: &str) -> bool {
        self.digest(key) == digest
    }
}
