//! Admin sign-in, sessions and accounts.

use std::sync::Arc;

use rifa_domain::admin::{self, AdminId, AdminUser, Permission, Role};
use rifa_domain::audit::{Actor, AuditAction, AuditEntry};
use rifa_domain::{FieldError, FieldErrors};
use rifa_ports::{
    AdminRepository, AuditTrail, Clock, IssuedToken, NewSession, PasswordHasher, SessionsToEnd,
    TokenError, TokenIssuer,
};

use crate::cpu::CpuPool;
use crate::shared::{Shared, now};

/// Who is calling an admin route, as the database says now (not as the token said then).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminSession {
    /// The server-side session the token belongs to: revoking it ends the token.
    pub session_id: String,
    pub admin_id: AdminId,
    pub username: String,
    pub role: Role,
    /// The account's password was handed over by an owner: until it chooses its own, the
    /// session serves only to do that.
    pub must_change_password: bool,
    /// When the token this session came from expires.
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

impl AdminSession {
    /// Whether this session may do work of kind `permission` now.
    #[must_use]
    pub fn can(&self, permission: Permission) -> bool {
        !self.must_change_password && self.role.can(permission)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LoginError {
    #[error("username and password are required")]
    MissingFields,
    #[error("invalid credentials")]
    InvalidCredentials,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("no token")]
    Missing,
    #[error(transparent)]
    Token(#[from] TokenError),
    /// The token is well signed but its session has ended: signed out, revoked everywhere, or
    /// its admin deleted.
    #[error("the session has ended")]
    SessionEnded,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum PasswordChangeError {
    /// The current password given is not the account's (counted as a failed sign-in).
    #[error("wrong current password")]
    WrongCurrent,
    /// The new password breaks the rules or is the current one.
    #[error("invalid new password")]
    Invalid(FieldErrors),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Admin sign-in and sessions, as the handlers see them.
#[async_trait::async_trait]
pub trait AuthService: Send + Sync + 'static {
    /// # Errors
    /// `MissingFields` when either is blank, `InvalidCredentials` for an unknown user or a wrong
    /// password (indistinguishable, and equally slow), or a failure of the store.
    /// Every attempt is written to the audit trail, a success with its session.
    async fn login(
        &self,
        username: &str,
        password: &str,
        ip: Option<String>,
    ) -> Result<(IssuedToken, AdminUser), LoginError>;

    /// # Errors
    /// `Missing`, `Token` (expired or invalid), `SessionEnded`, or a storage failure.
    async fn authenticate(&self, bearer: Option<&str>) -> Result<AdminSession, AuthError>;

    /// Ends the caller's session (`everywhere`: every session of the caller's account).
    ///
    /// # Errors
    /// Storage failures only.
    async fn sign_out(
        &self,
        session: &AdminSession,
        by: &Actor,
        everywhere: bool,
    ) -> anyhow::Result<u64>;

    /// Replaces the caller's password, given the current one, and ends every session of the
    /// account; the caller carries on with the new session returned.
    ///
    /// # Errors
    /// `WrongCurrent`, `Invalid` (the new password's rules, or the same as the current one),
    /// or a storage failure.
    async fn change_password(
        &self,
        session: &AdminSession,
        by: &Actor,
        current: &str,
        new: &str,
    ) -> Result<IssuedToken, PasswordChangeError>;
}

/// Auth over its ports: admins, their sessions and the audit trail from `S`, passwords hashed
/// by `H` (on the CPU pool), tokens signed by `T`, sessions timed by `C`.
pub struct Auth<S, H, T, C> {
    store: S,
    hasher: Arc<H>,
    tokens: T,
    clock: C,
    cpu: CpuPool,
}

impl<S: AdminRepository, H: PasswordHasher, T: TokenIssuer, C: Clock> Auth<S, H, T, C> {
    pub fn new(store: S, hasher: H, tokens: T, clock: C, shared: &Shared) -> Self {
        Self {
            store,
            hasher: Arc::new(hasher),
            tokens,
            clock,
            cpu: shared.cpu.clone(),
        }
    }
}

#[async_trait::async_trait]
impl<S, H, T, C> AuthService for Auth<S, H, T, C>
where
    S: AdminRepository + AuditTrail,
    H: PasswordHasher,
    T: TokenIssuer,
    C: Clock,
{
    async fn login(
        &self,
        username: &str,
        password: &str,
        ip: Option<String>,
    ) -> Result<(IssuedToken, AdminUser), LoginError> {
        if username.trim().is_empty() || password.is_empty() {
            return Err(LoginError::MissingFields);
        }
        // No stored username holds control characters (and PostgreSQL text cannot hold NUL).
        let admin = if rifa_domain::validation::has_control_chars(username) {
            None
        } else {
            self.store.admin_by_username(username).await?
        };
        let hash = admin
            .as_ref()
            .map_or(self.hasher.decoy_hash(), |a| a.password_hash.as_str())
            .to_owned();
        let (hasher, password) = (Arc::clone(&self.hasher), password.to_owned());
        let matches = self
            .cpu
            .run(move || hasher.verify(&password, &hash))
            .await?;
        let at = now(&self.clock);
        match admin {
            // A disabled account is refused like a wrong password: the form tells nobody which
            // accounts exist.
            Some(admin) if matches && !admin.disabled => {
                let token = self.tokens.issue(admin.id, &admin.username)?;
                let session = NewSession {
                    id: token.session_id.clone(),
                    admin_id: admin.id,
                    created_at: at,
                    expires_at: token.expires_at,
                };
                let entry = AuditEntry {
                    at,
                    actor: Actor {
                        admin_id: Some(admin.id),
                        username: admin.username.clone(),
                        ip,
                    },
                    action: AuditAction::SignIn,
                    target: None,
                    changes: Vec::new(),
                };
                self.store.open_session(&session, &entry).await?;
                tracing::info!(admin.id = admin.id.get(), "admin signed in");
                Ok((token, admin))
            }
            _ => {
                // The name tried, without control characters (PostgreSQL text holds no NUL) and
                // cut to what a username may be, so the trail cannot be flooded with long
                // strings; it may be a password typed in the wrong box, which is why only the
                // owners read the trail.
                let tried: String = username
                    .trim()
                    .chars()
                    .filter(|c| !c.is_control())
                    .take(50)
                    .collect();
                let entry = AuditEntry {
                    at,
                    actor: Actor {
                        admin_id: None,
                        username: tried,
                        ip,
                    },
                    action: AuditAction::SignInFailed,
                    target: None,
                    changes: Vec::new(),
                };
                self.store.append_audit(&entry).await?;
                Err(LoginError::InvalidCredentials)
            }
        }
    }

    async fn authenticate(&self, bearer: Option<&str>) -> Result<AdminSession, AuthError> {
        let token = bearer
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or(AuthError::Missing)?;
        let claims = self.tokens.verify(token)?;
        let admin = self
            .store
            .admin_of_live_session(&claims.session_id, now(&self.clock))
            .await?
            .filter(|admin| admin.id == claims.admin_id)
            .ok_or(AuthError::SessionEnded)?;
        Ok(AdminSession {
            session_id: claims.session_id,
            admin_id: admin.id,
            username: admin.username,
            role: admin.role,
            must_change_password: admin.must_change_password,
            expires_at: claims.expires_at,
        })
    }

    async fn sign_out(
        &self,
        session: &AdminSession,
        by: &Actor,
        everywhere: bool,
    ) -> anyhow::Result<u64> {
        let at = now(&self.clock);
        let (sessions, action) = if everywhere {
            (
                SessionsToEnd::AllOf(session.admin_id),
                AuditAction::SignOutEverywhere,
            )
        } else {
            (
                SessionsToEnd::One(&session.session_id),
                AuditAction::SignOut,
            )
        };
        let entry = AuditEntry {
            at,
            actor: by.clone(),
            action,
            target: None,
            changes: Vec::new(),
        };
        let ended = self.store.revoke_sessions(sessions, at, &entry).await?;
        tracing::info!(
            admin.id = session.admin_id.get(),
            ended,
            everywhere,
            "admin signed out"
        );
        Ok(ended)
    }

    async fn change_password(
        &self,
        session: &AdminSession,
        by: &Actor,
        current: &str,
        new: &str,
    ) -> Result<IssuedToken, PasswordChangeError> {
        let admin = self
            .store
            .admin_by_username(&session.username)
            .await?
            .filter(|admin| admin.id == session.admin_id)
            .ok_or_else(|| anyhow::anyhow!("the signed-in account is gone"))?;
        let invalid =
            |error| PasswordChangeError::Invalid(FieldErrors::single("newPassword", error));
        admin::check_new_password(new, &admin.username).map_err(invalid)?;
        let (hasher, current, new, hash) = (
            Arc::clone(&self.hasher),
            current.to_owned(),
            new.to_owned(),
            admin.password_hash.clone(),
        );
        let checked = self
            .cpu
            .run(move || {
                if !hasher.verify(&current, &hash) {
                    return Ok(Err(PasswordChangeError::WrongCurrent));
                }
                if hasher.verify(&new, &hash) {
                    return Ok(Err(invalid(FieldError::SameAsCurrentPassword)));
                }
                hasher.hash(&new).map(Ok)
            })
            .await??;
        let new_hash = checked?;
        let token = self.tokens.issue(admin.id, &admin.username)?;
        let at = now(&self.clock);
        let session = NewSession {
            id: token.session_id.clone(),
            admin_id: admin.id,
            created_at: at,
            expires_at: token.expires_at,
        };
        let entry = AuditEntry {
            at,
            actor: by.clone(),
            action: AuditAction::PasswordChanged,
            target: Some(format!("admin:{}", admin.id.get())),
            changes: Vec::new(),
        };
        self.store
            .replace_own_password(admin.id, &new_hash, &session, &entry)
            .await?;
        tracing::info!(admin.id = admin.id.get(), "admin changed their password");
        Ok(token)
    }
}
