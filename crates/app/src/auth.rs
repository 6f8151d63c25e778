//! Admin sign-in, sessions and accounts.

use std::sync::Arc;

use rifa_domain::admin::{self, AdminId, AdminUser};
use rifa_domain::{FieldError, FieldErrors};
use rifa_ports::{
    AdminRepository, CreateAdminError, IssuedToken, PasswordHasher, TokenError, TokenIssuer,
};

use crate::cpu::CpuPool;
use crate::shared::Shared;

/// Who is calling an admin route, as the database says now (not as the token said then).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminSession {
    pub admin_id: AdminId,
    pub username: String,
    pub privileged: bool,
    /// When the token this session came from expires.
    pub expires_at: chrono::DateTime<chrono::Utc>,
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
    /// The token is valid but its admin no longer exists.
    #[error("admin no longer exists")]
    UnknownAdmin,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum CreateAdminFailure {
    #[error("invalid admin")]
    Invalid(FieldErrors),
    #[error("username taken")]
    UsernameTaken,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Admin sign-in and sessions, as the handlers see them.
#[async_trait::async_trait]
pub trait AuthService: Send + Sync + 'static {
    /// # Errors
    /// `MissingFields` when either is blank, `InvalidCredentials` for an unknown user or a wrong
    /// password (indistinguishable, and equally slow), or a failure of the store.
    async fn login(
        &self,
        username: &str,
        password: &str,
    ) -> Result<(IssuedToken, AdminUser), LoginError>;

    /// # Errors
    /// `Missing`, `Token` (expired or invalid), `UnknownAdmin`, or a storage failure.
    async fn authenticate(&self, bearer: Option<&str>) -> Result<AdminSession, AuthError>;
}

/// Auth over its ports: admins from `S`, passwords hashed by `H` (on the CPU pool), tokens
/// signed by `T`. Creating admins is for the composition root and the command line, on this
/// type itself.
pub struct Auth<S, H, T> {
    store: S,
    hasher: Arc<H>,
    tokens: T,
    cpu: CpuPool,
}

impl<S: AdminRepository, H: PasswordHasher, T: TokenIssuer> Auth<S, H, T> {
    pub fn new(store: S, hasher: H, tokens: T, shared: &Shared) -> Self {
        Self {
            store,
            hasher: Arc::new(hasher),
            tokens,
            cpu: shared.cpu.clone(),
        }
    }

    /// Creates an admin; without a password one is generated and returned.
    ///
    /// # Errors
    /// `Invalid` username or password, `UsernameTaken`, or a storage failure.
    pub async fn create_admin(
        &self,
        username: &str,
        password: Option<String>,
        privileged: bool,
        generate: impl FnOnce() -> String,
    ) -> Result<(AdminUser, Option<String>), CreateAdminFailure> {
        let username = admin::parse_username(username)
            .map_err(|e| CreateAdminFailure::Invalid(FieldErrors::single("username", e)))?;
        let (password, generated) = match password {
            Some(p) => (p, false),
            None => (generate(), true),
        };
        admin::check_new_password(&password, &username).map_err(|e: FieldError| {
            CreateAdminFailure::Invalid(FieldErrors::single("password", e))
        })?;
        let (hasher, plain) = (Arc::clone(&self.hasher), password.clone());
        let hash = self.cpu.run(move || hasher.hash(&plain)).await??;
        let admin = self
            .store
            .create_admin(&username, &hash, privileged)
            .await
            .map_err(|e| match e {
                CreateAdminError::UsernameTaken => CreateAdminFailure::UsernameTaken,
                CreateAdminError::Unknown(e) => CreateAdminFailure::Unknown(e),
            })?;
        Ok((admin, generated.then_some(password)))
    }

    /// On a fresh install, a privileged `admin` with a generated password, returned once.
    ///
    /// # Errors
    /// Storage failures only.
    pub async fn ensure_first_admin(
        &self,
        generate: impl FnOnce() -> String,
    ) -> anyhow::Result<Option<(AdminUser, String)>> {
        if self.store.count_admins().await? > 0 {
            return Ok(None);
        }
        match self.create_admin("admin", None, true, generate).await {
            Ok((admin, Some(password))) => Ok(Some((admin, password))),
            Ok((_, None)) => Ok(None),
            Err(CreateAdminFailure::UsernameTaken) => Ok(None),
            Err(e) => Err(anyhow::anyhow!("failed to create the first admin: {e:?}")),
        }
    }
}

#[async_trait::async_trait]
impl<S: AdminRepository, H: PasswordHasher, T: TokenIssuer> AuthService for Auth<S, H, T> {
    async fn login(
        &self,
        username: &str,
        password: &str,
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
        match admin {
            Some(admin) if matches => {
                let token = self
                    .tokens
                    .issue(admin.id, &admin.username, admin.privileged)?;
                tracing::info!(admin.id = admin.id.get(), "admin signed in");
                Ok((token, admin))
            }
            _ => Err(LoginError::InvalidCredentials),
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
            .admin_by_id(claims.admin_id)
            .await?
            .ok_or(AuthError::UnknownAdmin)?;
        Ok(AdminSession {
            admin_id: admin.id,
            username: admin.username,
            privileged: admin.privileged,
            expires_at: claims.expires_at,
        })
    }
}
