//! The staff: accounts the owners create, their roles, disabling them and resetting their
//! passwords (decision 0023). Every change is decided inside its own transaction, with the
//! one acting read again there, and written to the audit trail with it.

use std::sync::Arc;

use rifa_domain::admin::{
    self, AdminId, Role, StaffChange, StaffMember, StaffRefusal, check_staff_change,
};
use rifa_domain::audit::{Actor, AuditAction, Fields};
use rifa_domain::{FieldError, FieldErrors};
use rifa_ports::{
    AdminRepository, Clock, CreateAdminError, NewAdmin, PasswordHasher, StaffChangeError,
};

use crate::audit::{Recorded, record_entry};
use crate::cpu::CpuPool;
use crate::shared::{Shared, now};

#[derive(Debug, thiserror::Error)]
pub enum StaffError {
    #[error("invalid staff account")]
    Invalid(FieldErrors),
    #[error("username taken")]
    UsernameTaken,
    #[error("no such staff account")]
    NotFound,
    #[error(transparent)]
    Refused(#[from] StaffRefusal),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

impl From<CreateAdminError> for StaffError {
    fn from(error: CreateAdminError) -> Self {
        match error {
            CreateAdminError::UsernameTaken => Self::UsernameTaken,
            CreateAdminError::Refused(refusal) => Self::Refused(refusal),
            CreateAdminError::Unknown(e) => Self::Unknown(e),
        }
    }
}

impl From<StaffChangeError> for StaffError {
    fn from(error: StaffChangeError) -> Self {
        match error {
            StaffChangeError::NotFound => Self::NotFound,
            StaffChangeError::Refused(refusal) => Self::Refused(refusal),
            StaffChangeError::Unknown(e) => Self::Unknown(e),
        }
    }
}

/// An account and the one-time password it was given, to hand over to its person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandedOver {
    pub member: StaffMember,
    pub temporary_password: String,
}

/// What an owner asks to change; unknown roles are refused by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StaffUpdate {
    pub role: Option<String>,
    pub disabled: Option<bool>,
}

/// The staff screen, as the handlers see it. `by` is the owner acting.
#[async_trait::async_trait]
pub trait StaffService: Send + Sync + 'static {
    /// # Errors
    /// Storage failures only.
    async fn list(&self) -> anyhow::Result<Vec<StaffMember>>;

    /// Creates an account with a generated password that must be replaced at its first
    /// sign-in.
    ///
    /// # Errors
    /// `Invalid` username or role, `UsernameTaken`, `Refused` (`by` is no longer an owner).
    async fn create(
        &self,
        by: &Actor,
        username: &str,
        role: &str,
    ) -> Result<HandedOver, StaffError>;

    /// # Errors
    /// `Invalid` role, `NotFound`, `Refused` (own account, or `by` no longer an owner).
    async fn update(
        &self,
        by: &Actor,
        id: AdminId,
        update: StaffUpdate,
    ) -> Result<StaffMember, StaffError>;

    /// Gives the account a new generated password, to be replaced at its next sign-in, and
    /// ends every session it has.
    ///
    /// # Errors
    /// `NotFound`, `Refused` (own account, or `by` no longer an owner).
    async fn reset_password(&self, by: &Actor, id: AdminId) -> Result<HandedOver, StaffError>;
}

/// The staff over its store, hashing on the CPU pool, with passwords from `generate`.
pub struct Staff<S, H, C> {
    store: S,
    hasher: Arc<H>,
    clock: C,
    cpu: CpuPool,
    generate: fn() -> String,
}

fn recorded() -> Recorded<StaffMember> {
    Recorded {
        kind: "admin",
        id: |member| member.id.get(),
        fields: |member| -> Fields {
            vec![
                ("username", Some(member.username.clone())),
                ("role", Some(member.role.as_str().to_owned())),
                ("disabled", Some(member.disabled.to_string())),
                (
                    "must_change_password",
                    Some(member.must_change_password.to_string()),
                ),
            ]
        },
    }
}

fn parse_role(raw: &str) -> Result<Role, FieldError> {
    Role::parse(raw.trim()).ok_or_else(|| FieldError::UnknownOption {
        allowed: Role::ALL.iter().map(|r| r.as_str()).collect(),
    })
}

impl<S: AdminRepository, H: PasswordHasher, C: Clock> Staff<S, H, C> {
    pub fn new(store: S, hasher: H, clock: C, shared: &Shared, generate: fn() -> String) -> Self {
        Self {
            store,
            hasher: Arc::new(hasher),
            clock,
            cpu: shared.cpu.clone(),
            generate,
        }
    }

    async fn hash(&self, password: &str) -> anyhow::Result<String> {
        let (hasher, plain) = (Arc::clone(&self.hasher), password.to_owned());
        self.cpu.run(move || hasher.hash(&plain)).await?
    }

    /// Creates an account: with `password`, as given (the command line); without, generated
    /// and returned, to be replaced at the first sign-in. `by` is recorded in the trail; an
    /// owner acting in the panel is checked again in the creation's transaction.
    ///
    /// # Errors
    /// `Invalid` username or password, `UsernameTaken`, `Refused`, or a storage failure.
    pub async fn create_account(
        &self,
        by: &Actor,
        username: &str,
        password: Option<String>,
        role: Role,
    ) -> Result<(StaffMember, Option<String>), StaffError> {
        let username = admin::parse_username(username)
            .map_err(|e| StaffError::Invalid(FieldErrors::single("username", e)))?;
        let (password, generated) = match password {
            Some(p) => (p, false),
            None => ((self.generate)(), true),
        };
        admin::check_new_password(&password, &username)
            .map_err(|e| StaffError::Invalid(FieldErrors::single("password", e)))?;
        let hash = self.hash(&password).await?;
        let at = now(&self.clock);
        let record = record_entry(at, by, AuditAction::StaffCreated, recorded());
        let member = self
            .store
            .create_admin(
                &NewAdmin {
                    username: &username,
                    password_hash: &hash,
                    role,
                    must_change_password: generated && by.admin_id.is_some(),
                    created_at: at,
                },
                by.admin_id,
                &record,
            )
            .await?;
        Ok((member, generated.then_some(password)))
    }

    /// On a fresh install, an owner `admin` with a generated password, returned once. The
    /// password is the operator's own (printed and kept in a file only they read), so it is
    /// not one to replace at the first sign-in.
    ///
    /// # Errors
    /// Storage failures only.
    pub async fn ensure_first_admin(&self) -> anyhow::Result<Option<(StaffMember, String)>> {
        if self.store.count_admins().await? > 0 {
            return Ok(None);
        }
        let first_start = Actor {
            admin_id: None,
            username: "first-start".to_owned(),
            ip: None,
        };
        match self
            .create_account(&first_start, "admin", None, Role::Owner)
            .await
        {
            Ok((admin, Some(password))) => Ok(Some((admin, password))),
            Ok((_, None)) | Err(StaffError::UsernameTaken) => Ok(None),
            Err(e) => Err(anyhow::anyhow!("failed to create the first admin: {e:?}")),
        }
    }
}

#[async_trait::async_trait]
impl<S: AdminRepository, H: PasswordHasher, C: Clock> StaffService for Staff<S, H, C> {
    async fn list(&self) -> anyhow::Result<Vec<StaffMember>> {
        self.store.list_staff().await
    }

    async fn create(
        &self,
        by: &Actor,
        username: &str,
        role: &str,
    ) -> Result<HandedOver, StaffError> {
        let role = match (admin::parse_username(username), parse_role(role)) {
            (Ok(_), Ok(role)) => role,
            (username, role) => {
                let mut errors = FieldErrors::new();
                errors.check("username", username);
                errors.check("role", role);
                return Err(StaffError::Invalid(errors));
            }
        };
        let (member, password) = self.create_account(by, username, None, role).await?;
        let temporary_password =
            password.ok_or_else(|| anyhow::anyhow!("a created account's password was lost"))?;
        tracing::info!(
            admin.id = member.id.get(),
            role = role.as_str(),
            "staff account created"
        );
        Ok(HandedOver {
            member,
            temporary_password,
        })
    }

    async fn update(
        &self,
        by: &Actor,
        id: AdminId,
        update: StaffUpdate,
    ) -> Result<StaffMember, StaffError> {
        let change = StaffChange {
            role: update
                .role
                .as_deref()
                .map(parse_role)
                .transpose()
                .map_err(|e| StaffError::Invalid(FieldErrors::single("role", e)))?,
            disabled: update.disabled,
            reset_password_hash: None,
        };
        self.apply(by, id, change, AuditAction::StaffUpdated).await
    }

    async fn reset_password(&self, by: &Actor, id: AdminId) -> Result<HandedOver, StaffError> {
        let password = (self.generate)();
        let change = StaffChange {
            reset_password_hash: Some(self.hash(&password).await?),
            ..StaffChange::default()
        };
        let member = self
            .apply(by, id, change, AuditAction::StaffPasswordReset)
            .await?;
        Ok(HandedOver {
            member,
            temporary_password: password,
        })
    }
}

impl<S: AdminRepository, H: PasswordHasher, C: Clock> Staff<S, H, C> {
    async fn apply(
        &self,
        by: &Actor,
        id: AdminId,
        change: StaffChange,
        action: AuditAction,
    ) -> Result<StaffMember, StaffError> {
        let acting = by.admin_id.ok_or(StaffRefusal::NotAnOwner)?;
        let at = now(&self.clock);
        let record = record_entry(at, by, action, recorded());
        let check =
            |actor: &StaffMember, target: &StaffMember| check_staff_change(actor, target, &change);
        let member = self
            .store
            .change_staff(acting, id, &change, at, &check, &record)
            .await?;
        tracing::info!(
            admin.id = id.get(),
            action = action.as_str(),
            "staff account changed"
        );
        Ok(member)
    }
}
