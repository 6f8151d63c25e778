//! Administrators of the panel: the staff, their roles and what each role may do.

use crate::validation::FieldError;

pub use crate::id::AdminId;

/// One kind of work in the panel. Every admin route needs one of these (reading the catalogue,
/// which every screen names raffles and methods from, needs only a live session).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Permission {
    /// Purchases: the lists, the proofs and their checks, decisions, reopening, the buyers'
    /// mail, and the live notices of new purchases.
    Purchases,
    /// Sales figures: the summary cards and the daily chart.
    Reports,
    /// Raffles, payment methods and exchange rates: create, edit, delete; test purchases.
    Catalogue,
    /// Prizes, the ledger's freeze, the draw and the deliveries.
    Draws,
    /// Branding, e-mail settings, discounts.
    Settings,
    /// Staff accounts and their roles.
    Staff,
    /// The audit trail.
    Audit,
}

impl Permission {
    pub const ALL: [Self; 7] = [
        Self::Purchases,
        Self::Reports,
        Self::Catalogue,
        Self::Draws,
        Self::Settings,
        Self::Staff,
        Self::Audit,
    ];

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Purchases => "purchases",
            Self::Reports => "reports",
            Self::Catalogue => "catalogue",
            Self::Draws => "draws",
            Self::Settings => "settings",
            Self::Staff => "staff",
            Self::Audit => "audit",
        }
    }
}

/// A named set of permissions (decision 0023).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Everything, including the staff, the settings and the trail.
    Owner,
    /// The day's running: purchases, figures, catalogue and draws; not staff, settings or trail.
    Manager,
    /// Purchases only.
    Reviewer,
    /// Raffles, payment methods and exchange rates only.
    Catalogue,
}

impl Role {
    pub const ALL: [Self; 4] = [Self::Owner, Self::Manager, Self::Reviewer, Self::Catalogue];

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Owner => "owner",
            Self::Manager => "manager",
            Self::Reviewer => "reviewer",
            Self::Catalogue => "catalogue",
        }
    }

    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.as_str() == raw)
    }

    #[must_use]
    pub const fn permissions(self) -> &'static [Permission] {
        use Permission as P;
        match self {
            Self::Owner => &Permission::ALL,
            Self::Manager => &[P::Purchases, P::Reports, P::Catalogue, P::Draws],
            Self::Reviewer => &[P::Purchases],
            Self::Catalogue => &[P::Catalogue],
        }
    }

    #[must_use]
    pub fn can(self, permission: Permission) -> bool {
        self.permissions().contains(&permission)
    }
}

#[derive(Clone, PartialEq, Eq)]
pub struct AdminUser {
    pub id: AdminId,
    pub username: String,
    /// PHC string of an argon2id hash; never leaves the server.
    pub password_hash: String,
    pub role: Role,
    /// A disabled account cannot sign in and has no live session.
    pub disabled: bool,
    /// Set by an owner's reset (and for accounts an owner creates): the password was handed
    /// over by someone else, so it only serves to choose a new one.
    pub must_change_password: bool,
}

/// A staff account as the staff screen and the trail see it (never the password's hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffMember {
    pub id: AdminId,
    pub username: String,
    pub role: Role,
    pub disabled: bool,
    pub must_change_password: bool,
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub last_sign_in_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// What an owner changes on a staff account; `None` keeps the field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StaffChange {
    pub role: Option<Role>,
    pub disabled: Option<bool>,
    /// A new password's hash, set by a reset: the account must choose its own at its next
    /// sign-in, and every session it has ends.
    pub reset_password_hash: Option<String>,
}

impl StaffChange {
    /// Whether the account's sessions end with this change.
    #[must_use]
    pub fn ends_sessions(&self) -> bool {
        self.disabled == Some(true) || self.reset_password_hash.is_some()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StaffRefusal {
    /// The one acting is no longer an active owner (changed by another owner a moment ago).
    #[error("only an active owner manages staff")]
    NotAnOwner,
    /// Owners cannot demote, disable or reset themselves: the team would risk having no owner,
    /// and a password of one's own is changed with the current one.
    #[error("an owner cannot demote, disable or reset their own account")]
    OwnAccount,
}

/// Whether `actor` may make `change` to `target`, both as the database holds them inside the
/// change's transaction. Because an owner can never remove their own ownership, and only owners
/// change staff, the team always keeps at least one active owner.
///
/// # Errors
/// The refusal.
pub fn check_staff_change(
    actor: &StaffMember,
    target: &StaffMember,
    change: &StaffChange,
) -> Result<(), StaffRefusal> {
    if actor.disabled || actor.role != Role::Owner {
        return Err(StaffRefusal::NotAnOwner);
    }
    let removes_own_ownership = change.role.is_some_and(|role| role != Role::Owner)
        || change.disabled == Some(true)
        || change.reset_password_hash.is_some();
    if actor.id == target.id && removes_own_ownership {
        return Err(StaffRefusal::OwnAccount);
    }
    Ok(())
}

impl std::fmt::Debug for AdminUser {
    /// Leaves the hash out, so no log line can carry it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdminUser")
            .field("id", &self.id)
            .field("username", &self.username)
            .field("role", &self.role)
            .field("disabled", &self.disabled)
            .field("must_change_password", &self.must_change_password)
            .finish_non_exhaustive()
    }
}

/// Usernames are 3–50 letters, digits, `.`, `_` or `-`, compared case-insensitively.
///
/// # Errors
/// `TooShort`, `TooLong` or `UnknownOption` for other characters.
pub fn parse_username(raw: &str) -> Result<String, FieldError> {
    let name = raw.trim().to_lowercase();
    if name.len() < 3 {
        return Err(FieldError::TooShort { min: 3 });
    }
    if name.len() > 50 {
        return Err(FieldError::TooLong { max: 50 });
    }
    if name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
    {
        Ok(name)
    } else {
        Err(FieldError::UnknownOption {
            allowed: vec!["a-z", "0-9", ".", "_", "-"],
        })
    }
}

/// The zxcvbn score a new password needs: 3 is "safely unguessable: moderate protection from an
/// offline slow-hash scenario" (about 10^10 guesses), fitting argon2 hashes behind a rate limit.
const MIN_PASSWORD_SCORE: zxcvbn::Score = zxcvbn::Score::Three;

/// How much of a password the estimator reads: its matching grows faster than linearly with the
/// length, and 100 characters of a weak pattern are not made strong by what follows.
const ESTIMATED_CHARS: usize = 100;

/// New passwords need 12 characters and must resist guessing: zxcvbn's estimate (dictionaries,
/// names, keyboard walks, repeats, dates, the username itself) must reach score 3 of 4, so
/// `aaaaaaaaaaaa` or `admin2025admin` are refused with the estimator's reason.
///
/// # Errors
/// `TooShort`, `TooLong` (argon2 input beyond 1 KB is pointless) or `WeakPassword`.
pub fn check_new_password(raw: &str, username: &str) -> Result<(), FieldError> {
    match raw.chars().count() {
        0..12 => return Err(FieldError::TooShort { min: 12 }),
        12..=1024 => {}
        _ => return Err(FieldError::TooLong { max: 1024 }),
    }
    let estimated: String = raw.chars().take(ESTIMATED_CHARS).collect();
    let estimate = zxcvbn::zxcvbn(&estimated, &[username]);
    if estimate.score() >= MIN_PASSWORD_SCORE {
        return Ok(());
    }
    let feedback = estimate.feedback();
    let warning = feedback
        .and_then(zxcvbn::feedback::Feedback::warning)
        .map(|w| w.to_string());
    let suggestions = feedback
        .map(|f| f.suggestions().iter().map(ToString::to_string).collect())
        .unwrap_or_default();
    Err(FieldError::WeakPassword {
        warning,
        suggestions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(id: i64, role: Role) -> StaffMember {
        StaffMember {
            id: AdminId::new(id),
            username: format!("user{id}"),
            role,
            disabled: false,
            must_change_password: false,
            created_at: chrono::DateTime::UNIX_EPOCH,
            last_sign_in_at: None,
        }
    }

    #[test]
    fn only_active_owners_change_staff_and_never_their_own_ownership() {
        let owner = member(1, Role::Owner);
        let other = member(2, Role::Reviewer);
        let demote = StaffChange {
            role: Some(Role::Manager),
            ..StaffChange::default()
        };
        assert_eq!(check_staff_change(&owner, &other, &demote), Ok(()));
        assert_eq!(
            check_staff_change(&owner, &owner, &demote),
            Err(StaffRefusal::OwnAccount)
        );
        let disable = StaffChange {
            disabled: Some(true),
            ..StaffChange::default()
        };
        assert_eq!(
            check_staff_change(&owner, &owner, &disable),
            Err(StaffRefusal::OwnAccount)
        );
        let stay_owner = StaffChange {
            role: Some(Role::Owner),
            disabled: Some(false),
            ..StaffChange::default()
        };
        assert_eq!(check_staff_change(&owner, &owner, &stay_owner), Ok(()));
        assert_eq!(
            check_staff_change(&other, &owner, &demote),
            Err(StaffRefusal::NotAnOwner)
        );
        let disabled_owner = StaffMember {
            disabled: true,
            ..owner.clone()
        };
        assert_eq!(
            check_staff_change(&disabled_owner, &other, &demote),
            Err(StaffRefusal::NotAnOwner)
        );
        assert!(disable.ends_sessions() && !demote.ends_sessions());
    }

    #[test]
    fn roles_are_sets_of_permissions() {
        for permission in Permission::ALL {
            assert!(Role::Owner.can(permission));
        }
        assert!(Role::Reviewer.can(Permission::Purchases));
        assert!(!Role::Reviewer.can(Permission::Reports));
        assert!(!Role::Reviewer.can(Permission::Catalogue));
        assert!(Role::Catalogue.can(Permission::Catalogue));
        assert!(!Role::Catalogue.can(Permission::Purchases));
        for kept_by_owners in [Permission::Staff, Permission::Settings, Permission::Audit] {
            assert!(!Role::Manager.can(kept_by_owners));
        }
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(role));
        }
        assert_eq!(Role::parse("admin"), None);
    }

    #[test]
    fn usernames_are_lowercase_and_plain() {
        assert_eq!(parse_username(" Admin.Rifa "), Ok("admin.rifa".into()));
        assert!(parse_username("ab").is_err());
        assert!(parse_username("ad min").is_err());
        assert!(parse_username("admín").is_err());
    }

    #[test]
    fn new_passwords_have_a_floor() {
        assert_eq!(
            check_new_password("short", "admin"),
            Err(FieldError::TooShort { min: 12 })
        );
        assert_eq!(check_new_password("Tz8#qL2m!vR9xW4k", "admin"), Ok(()));
        assert_eq!(
            check_new_password("correct horse battery staple", "admin"),
            Ok(())
        );
    }

    #[test]
    fn guessable_passwords_are_refused_with_the_estimators_reason() {
        for weak in [
            "aaaaaaaaaaaa",
            "123456789012",
            "qwertyuiopasdf",
            "password1234",
            "admin.rifa2025",
        ] {
            let refused = check_new_password(weak, "admin.rifa");
            assert!(
                matches!(&refused, Err(FieldError::WeakPassword { .. })),
                "{weak}: {refused:?}"
            );
        }
        let repeated = check_new_password("aaaaaaaaaaaa", "admin");
        assert!(
            matches!(&repeated, Err(FieldError::WeakPassword { warning: Some(w), .. }) if w.contains("Repeats like")),
            "{repeated:?}"
        );
    }
}
