//! Admin sign-in, tokens, accounts and the first admin of a fresh install.

use chrono::TimeDelta;
use rifa_app::audit::{Audit, AuditService};
use rifa_app::auth::{AuthError, AuthService, LoginError};
use rifa_app::staff::StaffError;
use rifa_domain::admin::Role;
use rifa_domain::audit::{Actor, AuditAction};
use rifa_ports::{AdminRepository, AuditQuery, TokenError};

use crate::support::security::TOKEN_LIFETIME;
use crate::support::{GENERATED_PASSWORD, Harness, fields};

fn ip() -> Option<String> {
    Some("198.51.100.7".to_owned())
}

fn as_actor(session: &rifa_app::auth::AdminSession) -> Actor {
    Actor {
        admin_id: Some(session.admin_id),
        username: session.username.clone(),
        ip: ip(),
    }
}

pub const STRONG: &str = "violet-harbor-57-crumpet";

/// Who creates accounts outside the panel.
pub fn command_line() -> Actor {
    Actor {
        admin_id: None,
        username: "command-line".to_owned(),
        ip: None,
    }
}

/// An account with `role` and the password [`STRONG`], made as the command line makes them.
pub async fn account(t: &Harness, username: &str, role: Role) {
    t.staff()
        .create_account(&command_line(), username, Some(STRONG.into()), role)
        .await
        .unwrap();
}

async fn with_admin(t: &Harness) {
    account(t, "carla", Role::Manager).await;
}

#[tokio::test]
async fn the_right_password_signs_in_and_its_token_authenticates() {
    let t = Harness::new();
    with_admin(&t).await;

    let (token, admin) = t.auth().login("carla", STRONG, ip()).await.unwrap();
    let session = t
        .auth()
        .authenticate(Some(&format!(" {} ", token.token)))
        .await
        .unwrap();

    assert_eq!(admin.username, "carla");
    assert_eq!(
        (session.admin_id, session.username.as_str()),
        (admin.id, "carla")
    );
    assert_eq!(
        (session.role, session.must_change_password),
        (Role::Manager, false)
    );
    assert_eq!(session.expires_at, token.expires_at);
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_user_are_refused_alike_and_cost_a_check_each() {
    let t = Harness::new();
    with_admin(&t).await;

    let wrong = t.auth().login("carla", "not-the-password", ip()).await;
    let unknown = t.auth().login("nobody", STRONG, ip()).await;
    let blank = t.auth().login("  ", STRONG, ip()).await;

    assert!(
        matches!(wrong, Err(LoginError::InvalidCredentials)),
        "{wrong:?}"
    );
    assert!(
        matches!(unknown, Err(LoginError::InvalidCredentials)),
        "{unknown:?}"
    );
    assert!(matches!(blank, Err(LoginError::MissingFields)), "{blank:?}");
    assert_eq!(
        t.hasher.verifications(),
        2,
        "the unknown user was checked against a decoy"
    );
}

#[tokio::test]
async fn a_missing_bad_or_expired_token_or_one_without_a_session_is_refused() {
    let t = Harness::new();
    with_admin(&t).await;
    let (token, _) = t.auth().login("carla", STRONG, ip()).await.unwrap();
    // Well formed, well signed (for these fakes), but no sign-in opened its session.
    let forged = format!("admin:9999:ghost:{}:s999", token.expires_at.timestamp());

    let auth = t.auth();
    assert!(matches!(
        auth.authenticate(None).await,
        Err(AuthError::Missing)
    ));
    assert!(matches!(
        auth.authenticate(Some("   ")).await,
        Err(AuthError::Missing)
    ));
    assert!(matches!(
        auth.authenticate(Some("garbage")).await,
        Err(AuthError::Token(TokenError::Invalid))
    ));
    assert!(matches!(
        auth.authenticate(Some(&forged)).await,
        Err(AuthError::SessionEnded)
    ));
    t.clock.advance(TOKEN_LIFETIME + TimeDelta::seconds(1));
    assert!(matches!(
        auth.authenticate(Some(&token.token)).await,
        Err(AuthError::Token(TokenError::Expired))
    ));
}

#[tokio::test]
async fn the_first_admin_is_created_once_with_a_generated_password() {
    let t = Harness::new();

    let first = t.staff().ensure_first_admin().await.unwrap();
    let again = t.staff().ensure_first_admin().await.unwrap();

    let (admin, password) = first.unwrap();
    assert_eq!(
        (
            admin.username.as_str(),
            admin.role,
            admin.must_change_password
        ),
        ("admin", Role::Owner, false),
        "the operator's own password, not one handed over"
    );
    assert_eq!(password, GENERATED_PASSWORD);
    assert!(again.is_none());
    assert!(
        t.auth()
            .login("admin", GENERATED_PASSWORD, ip())
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn an_admin_needs_a_valid_unique_name_and_a_strong_password() {
    let t = Harness::new();
    with_admin(&t).await;

    let staff = t.staff();
    let cli = command_line();
    let taken = staff
        .create_account(&cli, "Carla", Some(STRONG.into()), Role::Manager)
        .await;
    let weak = staff
        .create_account(&cli, "dario", Some("password1234".into()), Role::Manager)
        .await;
    let bad_name = staff
        .create_account(&cli, "d", Some(STRONG.into()), Role::Manager)
        .await;
    let generated = staff
        .create_account(&cli, "elena", None, Role::Owner)
        .await
        .unwrap();

    assert!(matches!(taken, Err(StaffError::UsernameTaken)), "{taken:?}");
    match weak {
        Err(StaffError::Invalid(errors)) => assert_eq!(fields(&errors), ["password"]),
        other => panic!("expected a weak password, got {other:?}"),
    }
    match bad_name {
        Err(StaffError::Invalid(errors)) => assert_eq!(fields(&errors), ["username"]),
        other => panic!("expected a bad username, got {other:?}"),
    }
    assert_eq!(generated.1.as_deref(), Some(GENERATED_PASSWORD));
    let stored = t.store.admin_by_username("elena").await.unwrap().unwrap();
    assert_eq!(
        stored.password_hash,
        format!("plain:{GENERATED_PASSWORD}"),
        "stored hashed"
    );
    assert!(
        !stored.must_change_password,
        "the command line's operator chose to generate it"
    );
}

#[tokio::test]
async fn signing_out_ends_that_session_and_everywhere_ends_all_of_the_admins() {
    let t = Harness::new();
    with_admin(&t).await;
    account(&t, "dario", Role::Reviewer).await;
    let auth = t.auth();
    let (phone, _) = auth.login("carla", STRONG, ip()).await.unwrap();
    let (laptop, _) = auth.login("carla", STRONG, ip()).await.unwrap();
    let (other, _) = auth.login("dario", STRONG, ip()).await.unwrap();
    assert_ne!(phone.session_id, laptop.session_id);

    let on_phone = auth.authenticate(Some(&phone.token)).await.unwrap();
    assert_eq!(
        auth.sign_out(&on_phone, &as_actor(&on_phone), false)
            .await
            .unwrap(),
        1
    );
    assert!(matches!(
        auth.authenticate(Some(&phone.token)).await,
        Err(AuthError::SessionEnded)
    ));
    let on_laptop = auth.authenticate(Some(&laptop.token)).await.unwrap();

    // A second laptop sign-in, then "everywhere" from the first: both end, Dario's does not.
    let (again, _) = auth.login("carla", STRONG, ip()).await.unwrap();
    assert_eq!(
        auth.sign_out(&on_laptop, &as_actor(&on_laptop), true)
            .await
            .unwrap(),
        2
    );
    for token in [&laptop.token, &again.token] {
        assert!(matches!(
            auth.authenticate(Some(token)).await,
            Err(AuthError::SessionEnded)
        ));
    }
    assert!(auth.authenticate(Some(&other.token)).await.is_ok());
}

#[tokio::test]
async fn every_sign_in_attempt_and_sign_out_is_in_the_trail_and_the_chain_holds() {
    let t = Harness::new();
    with_admin(&t).await;
    let auth = t.auth();
    let (token, admin) = auth.login("carla", STRONG, ip()).await.unwrap();
    auth.login("carla", "not-the-password", ip())
        .await
        .unwrap_err();
    auth.login("mallory", STRONG, None).await.unwrap_err();
    let session = auth.authenticate(Some(&token.token)).await.unwrap();
    auth.sign_out(&session, &as_actor(&session), false)
        .await
        .unwrap();

    let audit = Audit::new(t.store.clone());
    let newest_first = audit
        .entries(AuditQuery {
            limit: 10,
            ..AuditQuery::default()
        })
        .await
        .unwrap();
    let seen: Vec<(AuditAction, &str, Option<i64>)> = newest_first
        .iter()
        .rev()
        .map(|c| {
            (
                c.entry.action,
                c.entry.actor.username.as_str(),
                c.entry.actor.admin_id.map(|id| id.get()),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (AuditAction::StaffCreated, "command-line", None),
            (AuditAction::SignIn, "carla", Some(admin.id.get())),
            (AuditAction::SignInFailed, "carla", None),
            (AuditAction::SignInFailed, "mallory", None),
            (AuditAction::SignOut, "carla", Some(admin.id.get())),
        ]
    );
    assert_eq!(newest_first[3].entry.actor.ip, ip());
    assert_eq!(
        newest_first[4].entry.target.as_deref(),
        Some(format!("admin:{}", admin.id.get()).as_str())
    );
    let failed = audit
        .entries(AuditQuery {
            action: Some("auth.sign_in_failed".into()),
            limit: 10,
            ..AuditQuery::default()
        })
        .await
        .unwrap();
    assert_eq!(failed.len(), 2);
    let verification = audit.verify().await.unwrap();
    assert_eq!((verification.verified, verification.broken), (5, None));
}
