//! Administrators of the panel.

use crate::validation::FieldError;

pub type AdminId = i64;

#[derive(Clone, PartialEq, Eq)]
pub struct AdminUser {
    pub id: AdminId,
    pub username: String,
    /// PHC string of an argon2id hash; never leaves the server.
    pub password_hash: String,
    /// May manage branding and e-mail settings and delete exchange rates.
    pub privileged: bool,
}

impl std::fmt::Debug for AdminUser {
    /// Leaves the hash out, so no log line can carry it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdminUser")
            .field("id", &self.id)
            .field("username", &self.username)
            .field("privileged", &self.privileged)
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

/// New passwords need 12 characters: long enough to resist guessing behind the rate limit.
///
/// # Errors
/// `TooShort` or `TooLong` (argon2 input beyond 1 KB is pointless).
pub fn check_new_password(raw: &str) -> Result<(), FieldError> {
    match raw.chars().count() {
        0..12 => Err(FieldError::TooShort { min: 12 }),
        12..=1024 => Ok(()),
        _ => Err(FieldError::TooLong { max: 1024 }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_lowercase_and_plain() {
        assert_eq!(parse_username(" Admin.Rifa "), Ok("admin.rifa".into()));
        assert!(parse_username("ab").is_err());
        assert!(parse_username("ad min").is_err());
        assert!(parse_username("admín").is_err());
    }

    #[test]
    fn new_passwords_have_a_floor() {
        assert!(check_new_password("short").is_err());
        assert!(check_new_password("a long enough pass").is_ok());
    }
}
