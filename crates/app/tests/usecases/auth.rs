//! Admin sign-in, tokens, accounts and the first admin of a fresh install.

use chrono::TimeDelta;
use rifa_app::auth::{AuthError, AuthService, CreateAdminFailure, LoginError};
use rifa_ports::TokenError;

use crate::support::security::TOKEN_LIFETIME;
use crate::support::{Harness, fields};

const STRONG: &str = "violet-harbor-57-crumpet";

async fn with_admin(t: &Harness) {
    t.auth()
        .create_admin("carla", Some(STRONG.into()), false, String::new)
        .await
        .unwrap();
}

#[tokio::test]
async fn the_right_password_signs_in_and_its_token_authenticates() {
    let t = Harness::new();
    with_admin(&t).await;

    let (token, admin) = t.auth().login("carla", STRONG).await.unwrap();
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
    assert!(!session.privileged);
    assert_eq!(session.expires_at, token.expires_at);
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_user_are_refused_alike_and_cost_a_check_each() {
    let t = Harness::new();
    with_admin(&t).await;

    let wrong = t.auth().login("carla", "not-the-password").await;
    let unknown = t.auth().login("nobody", STRONG).await;
    let blank = t.auth().login("  ", STRONG).await;

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
async fn a_missing_bad_or_expired_token_or_a_vanished_admin_is_refused() {
    let t = Harness::new();
    with_admin(&t).await;
    let (token, _) = t.auth().login("carla", STRONG).await.unwrap();
    let forged = format!("admin:9999:ghost:true:{}", token.expires_at.timestamp());

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
        Err(AuthError::UnknownAdmin)
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

    let first = t
        .auth()
        .ensure_first_admin(|| STRONG.to_owned())
        .await
        .unwrap();
    let again = t
        .auth()
        .ensure_first_admin(|| "another-strong-pass-99".to_owned())
        .await
        .unwrap();

    let (admin, password) = first.unwrap();
    assert_eq!((admin.username.as_str(), admin.privileged), ("admin", true));
    assert_eq!(password, STRONG);
    assert!(again.is_none());
    assert!(t.auth().login("admin", STRONG).await.is_ok());
}

#[tokio::test]
async fn an_admin_needs_a_valid_unique_name_and_a_strong_password() {
    let t = Harness::new();
    with_admin(&t).await;

    let taken = t
        .auth()
        .create_admin("Carla", Some(STRONG.into()), false, String::new)
        .await;
    let weak = t
        .auth()
        .create_admin("dario", Some("password1234".into()), false, String::new)
        .await;
    let bad_name = t
        .auth()
        .create_admin("d", Some(STRONG.into()), false, String::new)
        .await;
    let generated = t
        .auth()
        .create_admin("elena", None, true, || "quartz-lemon-93-saddle".to_owned())
        .await
        .unwrap();

    assert!(
        matches!(taken, Err(CreateAdminFailure::UsernameTaken)),
        "{taken:?}"
    );
    match weak {
        Err(CreateAdminFailure::Invalid(errors)) => assert_eq!(fields(&errors), ["password"]),
        other => panic!("expected a weak password, got {other:?}"),
    }
    match bad_name {
        Err(CreateAdminFailure::Invalid(errors)) => assert_eq!(fields(&errors), ["username"]),
        other => panic!("expected a bad username, got {other:?}"),
    }
    assert_eq!(generated.1.as_deref(), Some("quartz-lemon-93-saddle"));
    assert_ne!(
        generated.0.password_hash, "quartz-lemon-93-saddle",
        "stored hashed"
    );
}
