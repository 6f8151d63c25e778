//! Administrators of the panel.

use crate::validation::FieldError;

pub use crate::id::AdminId;

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
