//! Password hashing with argon2id, admin tokens as HS256 JWTs, and buyers' access keys.

use std::time::Duration;

use anyhow::{Context, anyhow};
use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _};
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use rifa_domain::admin::AdminId;
use rifa_ports::{
    AccessKeys, AdminClaims, IssuedToken, KnownDevices, PasswordHasher, TokenError, TokenIssuer,
};
use secrecy::{ExposeSecret as _, SecretBox};
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};
use subtle::ConstantTimeEq as _;

/// argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: OWASP's recommendation).
pub struct Argon2Hasher {
    decoy: String,
}

impl Argon2Hasher {
    /// # Errors
    /// When the decoy hash cannot be computed.
    pub fn new() -> anyhow::Result<Self> {
        let decoy = hash(&random_token(24))?;
        Ok(Self { decoy })
    }
}

fn hash(password: &str) -> anyhow::Result<String> {
    argon2::Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| anyhow!("argon2 hashing failed: {e}"))
}

impl PasswordHasher for Argon2Hasher {
    #[tracing::instrument(name = "security.password_hasher.hash", skip_all)]
    fn hash(&self, password: &str) -> anyhow::Result<String> {
        hash(password)
    }

    #[tracing::instrument(name = "security.password_hasher.verify", skip_all)]
    fn verify(&self, password: &str, hash: &str) -> bool {
        argon2::Argon2::default()
            .verify_password(password.as_bytes(), hash)
            .is_ok()
    }

    #[tracing::instrument(name = "security.password_hasher.decoy_hash", skip_all)]
    fn decoy_hash(&self) -> &str {
        &self.decoy
    }
}

/// URL-safe characters; 64 of them, so a byte modulo 64 picks one without bias.
const KEY_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// A URL-safe random string of `bytes` random bytes, for generated passwords and secrets.
#[must_use]
pub fn random_token(bytes: usize) -> String {
    let mut raw = vec![0_u8; bytes];
    rand::rng().fill_bytes(&mut raw);
    raw.iter()
        .map(|b| char::from(KEY_ALPHABET[usize::from(*b) % 64]))
        .collect()
}

/// Buyers' access keys: 32 characters (192 bits) of `HMAC-SHA256(secret, reference)`, stored as
/// their SHA-256. Derived rather than random so the mail worker can give the key again in every
/// e-mail without the database ever holding it; whoever has the database but not the secret
/// learns nothing. A fast hash is enough for the digest: the key is not a password a person
/// chose, so it cannot be guessed from a dictionary.
pub struct HmacAccessKeys {
    secret: SecretBox<[u8]>,
}

impl HmacAccessKeys {
    /// # Errors
    /// A secret under 32 bytes.
    pub fn new(secret: &[u8]) -> anyhow::Result<Self> {
        anyhow::ensure!(
            secret.len() >= 32,
            "the access secret must be at least 32 bytes"
        );
        Ok(Self {
            secret: SecretBox::new(secret.into()),
        })
    }
}

/// Keeps the keys of different uses of one secret apart.
const ACCESS_KEY_CONTEXT: &[u8] = b"rifa purchase access v1\0";

impl AccessKeys for HmacAccessKeys {
    #[tracing::instrument(name = "security.access_keys.key_for", skip_all)]
    fn key_for(&self, reference: &str) -> String {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(self.secret.expose_secret())
            .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
        mac.update(ACCESS_KEY_CONTEXT);
        mac.update(reference.as_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .take(32)
            .map(|b| char::from(KEY_ALPHABET[usize::from(*b) % 64]))
            .collect()
    }

    #[tracing::instrument(name = "security.access_keys.digest", skip_all)]
    fn digest(&self, key: &str) -> String {
        Sha256::digest(key.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    #[tracing::instrument(name = "security.access_keys.matches", skip_all)]
    fn matches(&self, key: &str, digest: &str) -> bool {
        self.digest(key).as_bytes().ct_eq(digest.as_bytes()).into()
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: String,
    /// The session's id: the token is honoured while its session lives on the server.
    jti: String,
    username: String,
    iat: i64,
    /// Seconds since the epoch, as the panel compares it.
    exp: i64,
}

/// Signs and checks admin tokens with one shared secret.
pub struct JwtIssuer {
    encoding: EncodingKey,
    decoding: DecodingKey,
    ttl: Duration,
}

impl JwtIssuer {
    /// # Errors
    /// When the secret is shorter than 32 bytes (too weak for HS256).
    pub fn new(secret: &[u8], ttl: Duration) -> anyhow::Result<Self> {
        if secret.len() < 32 {
            return Err(anyhow!("the token secret must be at least 32 bytes"));
        }
        Ok(Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            ttl,
        })
    }
}

impl TokenIssuer for JwtIssuer {
    #[tracing::instrument(name = "security.token_issuer.issue", skip_all, fields(admin.id = admin_id.get()))]
    fn issue(&self, admin_id: AdminId, username: &str) -> anyhow::Result<IssuedToken> {
        let now = Utc::now();
        let expires_at =
            now + chrono::Duration::from_std(self.ttl).context("token lifetime out of range")?;
        let session_id = random_token(24);
        let claims = Claims {
            sub: admin_id.to_string(),
            jti: session_id.clone(),
            username: username.to_owned(),
            iat: now.timestamp(),
            exp: expires_at.timestamp(),
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .context("failed to sign admin token")?;
        Ok(IssuedToken {
            token,
            session_id,
            expires_at,
        })
    }

    #[tracing::instrument(name = "security.token_issuer.verify", skip_all)]
    fn verify(&self, token: &str) -> Result<AdminClaims, TokenError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub", "jti"]);
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation).map_err(
            |e| match e.kind() {
                ErrorKind::ExpiredSignature => TokenError::Expired,
                _ => TokenError::Invalid,
            },
        )?;
        let claims = data.claims;
        Ok(AdminClaims {
            session_id: claims.jti,
            admin_id: claims
                .sub
                .parse()
                .map(AdminId::new)
                .map_err(|_| TokenError::Invalid)?,
            username: claims.username,
            expires_at: DateTime::from_timestamp(claims.exp, 0).ok_or(TokenError::Invalid)?,
        })
    }
}

/// The audience of device tokens: an admin token has none, so neither is taken for the other.
const DEVICE_AUDIENCE: &str = "rifa-known-device";

#[derive(Debug, Serialize, Deserialize)]
struct DeviceClaims {
    /// The username as sign-in compares it (trimmed, lower-cased).
    sub: String,
    aud: String,
    exp: i64,
}

/// Known devices as HS256 JWTs for their own audience, signed with the access secret (not the
/// admin tokens' one), naming the account and expiring after `ttl`.
pub struct JwtKnownDevices {
    encoding: EncodingKey,
    decoding: DecodingKey,
    ttl: Duration,
}

impl JwtKnownDevices {
    /// # Errors
    /// When the secret is shorter than 32 bytes.
    pub fn new(secret: &[u8], ttl: Duration) -> anyhow::Result<Self> {
        anyhow::ensure!(
            secret.len() >= 32,
            "the device secret must be at least 32 bytes"
        );
        Ok(Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            ttl,
        })
    }
}

fn account_key(username: &str) -> String {
    username.trim().to_lowercase()
}

impl KnownDevices for JwtKnownDevices {
    fn token_for(&self, username: &str) -> anyhow::Result<String> {
        let expires_at = Utc::now()
            + chrono::Duration::from_std(self.ttl).context("device life out of range")?;
        let claims = DeviceClaims {
            sub: account_key(username),
            aud: DEVICE_AUDIENCE.to_owned(),
            exp: expires_at.timestamp(),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .context("failed to sign a device token")
    }

    fn knows(&self, token: &str, username: &str) -> bool {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_audience(&[DEVICE_AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "sub", "aud"]);
        jsonwebtoken::decode::<DeviceClaims>(token, &self.decoding, &validation)
            .is_ok_and(|data| data.claims.sub == account_key(username))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let hasher = Argon2Hasher::new().unwrap_or_else(|e| panic!("{e}"));
        let stored = hasher.hash("correct horse battery").unwrap_or_default();
        assert!(stored.starts_with("$argon2id$"));
        assert!(hasher.verify("correct horse battery", &stored));
        assert!(!hasher.verify("correct horse batterY", &stored));
        assert!(!hasher.verify("anything", "not a phc string"));
        assert!(!hasher.verify("anything", hasher.decoy_hash()));
    }

    #[test]
    fn a_device_token_names_one_account_and_is_never_an_admin_token() {
        let devices = JwtKnownDevices::new(&[9; 32], Duration::from_secs(3600))
            .unwrap_or_else(|e| panic!("{e}"));
        let token = devices.token_for(" Ana ").unwrap_or_else(|e| panic!("{e}"));
        assert!(devices.knows(&token, "ana"));
        assert!(devices.knows(&token, "ANA "));
        assert!(!devices.knows(&token, "beto"));
        assert!(!devices.knows(&format!("{token}x"), "ana"));
        let other_secret = JwtKnownDevices::new(&[8; 32], Duration::from_secs(3600))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!other_secret.knows(&token, "ana"));
        // Even signed with the same secret, neither token passes for the other.
        let issuer =
            JwtIssuer::new(&[9; 32], Duration::from_secs(3600)).unwrap_or_else(|e| panic!("{e}"));
        assert!(issuer.verify(&token).is_err());
        let admin = issuer
            .issue(AdminId::new(1), "ana")
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!devices.knows(&admin.token, "ana"));
    }

    #[test]
    fn tokens_round_trip_and_tampering_or_expiry_is_caught() {
        let issuer =
            JwtIssuer::new(&[7; 32], Duration::from_secs(3600)).unwrap_or_else(|e| panic!("{e}"));
        let issued = issuer
            .issue(AdminId::new(42), "ana")
            .unwrap_or_else(|e| panic!("{e}"));
        let claims = issuer
            .verify(&issued.token)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (claims.admin_id, claims.username.as_str()),
            (AdminId::new(42), "ana")
        );
        assert_eq!(claims.expires_at.timestamp(), issued.expires_at.timestamp());
        assert_eq!(claims.session_id, issued.session_id);
        let again = issuer
            .issue(AdminId::new(42), "ana")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_ne!(
            again.session_id, issued.session_id,
            "each sign-in its own session"
        );

        let other =
            JwtIssuer::new(&[8; 32], Duration::from_secs(3600)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(other.verify(&issued.token), Err(TokenError::Invalid));
        assert_eq!(issuer.verify("garbage"), Err(TokenError::Invalid));

        let expired = JwtIssuer::new(&[7; 32], Duration::ZERO).unwrap_or_else(|e| panic!("{e}"));
        let stale = expired
            .issue(AdminId::new(1), "ana")
            .unwrap_or_else(|e| panic!("{e}"));
        std::thread::sleep(Duration::from_millis(1_100));
        assert_eq!(issuer.verify(&stale.token), Err(TokenError::Expired));
    }

    #[test]
    fn short_secrets_are_refused() {
        assert!(JwtIssuer::new(b"short", Duration::from_secs(1)).is_err());
    }
}

#[cfg(test)]
mod access_key_tests {
    use super::*;

    #[test]
    fn a_key_is_the_references_own_and_matches_only_its_digest() {
        let keys = HmacAccessKeys::new(&[7; 32]).unwrap_or_else(|e| panic!("{e}"));
        let key = keys.key_for("RF-7K3M9Q2X");
        let other = keys.key_for("RF-7K3M9Q2Y");
        let digest = keys.digest(&key);
        assert_eq!(key.len(), 32);
        assert_eq!(digest.len(), 64);
        assert_eq!(key, keys.key_for("RF-7K3M9Q2X"), "derived again, the same");
        assert_ne!(key, other);
        assert!(keys.matches(&key, &digest));
        assert!(!keys.matches(&other, &digest));
        assert!(!keys.matches("", &digest));
        assert!(!digest.contains(&key), "the digest must not reveal the key");
        let elsewhere = HmacAccessKeys::new(&[8; 32]).unwrap_or_else(|e| panic!("{e}"));
        assert_ne!(
            elsewhere.key_for("RF-7K3M9Q2X"),
            key,
            "another secret, another key"
        );
        assert!(HmacAccessKeys::new(b"short").is_err());
    }
}
