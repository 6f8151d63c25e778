//! Staff accounts: owners create them with a password to hand over, change roles, disable and
//! reset; every account changes its own password; none of it can leave the team without an
//! owner, and all of it is in the trail.

use rifa_app::audit::{Audit, AuditService};
use rifa_app::auth::{AdminSession, AuthError, AuthService, LoginError, PasswordChangeError};
use rifa_app::staff::{StaffError, StaffService, StaffUpdate};
use rifa_domain::admin::{Permission, Role, StaffRefusal};
use rifa_domain::audit::{Actor, AuditAction, Change};
use rifa_ports::AuditQuery;

use super::auth::{STRONG, account};
use crate::support::{GENERATED_PASSWORD, Harness, fields};

const CHOSEN: &str = "tangerine-lighthouse-41-oboe";

fn actor(session: &AdminSession) -> Actor {
    Actor {
        admin_id: Some(session.admin_id),
        username: session.username.clone(),
        ip: None,
    }
}

async fn signed_in(t: &Harness, username: &str, password: &str) -> (String, AdminSession) {
    let (token, _) = t.auth().login(username, password, None).await.unwrap();
    let session = t.auth().authenticate(Some(&token.token)).await.unwrap();
    (token.token, session)
}

/// A team of one owner, `olga`, signed in.
async fn owner(t: &Harness) -> AdminSession {
    account(t, "olga", Role::Owner).await;
    signed_in(t, "olga", STRONG).await.1
}

async fn trail(t: &Harness, action: AuditAction) -> Vec<rifa_domain::audit::AuditEntry> {
    Audit::new(t.store.clone())
        .entries(AuditQuery {
            action: Some(action.as_str().to_owned()),
            limit: 50,
            ..AuditQuery::default()
        })
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.entry)
        .collect()
}

#[tokio::test]
async fn an_owner_hands_over_an_account_whose_password_only_serves_to_choose_another() {
    let t = Harness::new();
    let olga = owner(&t).await;

    let handed = t
        .staff()
        .create(&actor(&olga), " Rita ", "reviewer")
        .await
        .unwrap();
    assert_eq!(handed.temporary_password, GENERATED_PASSWORD);
    assert_eq!(
        (
            handed.member.username.as_str(),
            handed.member.role,
            handed.member.must_change_password
        ),
        ("rita", Role::Reviewer, true)
    );

    let (first_token, first) = signed_in(&t, "rita", GENERATED_PASSWORD).await;
    assert!(first.must_change_password);
    assert!(
        !first.can(Permission::Purchases),
        "nothing until it is changed"
    );

    let auth = t.auth();
    let wrong = auth
        .change_password(&first, &actor(&first), "not-it", CHOSEN)
        .await;
    assert!(
        matches!(wrong, Err(PasswordChangeError::WrongCurrent)),
        "{wrong:?}"
    );
    for (new, why) in [
        (GENERATED_PASSWORD, "the same"),
        ("password1234", "guessable"),
        ("short", "too short"),
    ] {
        match auth
            .change_password(&first, &actor(&first), GENERATED_PASSWORD, new)
            .await
        {
            Err(PasswordChangeError::Invalid(errors)) => {
                assert_eq!(fields(&errors), ["newPassword"], "{why}");
            }
            other => panic!("{why}: {other:?}"),
        }
    }

    let (_, elsewhere) = signed_in(&t, "rita", GENERATED_PASSWORD).await;
    let renewed = auth
        .change_password(&first, &actor(&first), GENERATED_PASSWORD, CHOSEN)
        .await
        .unwrap();
    for ended in [&first_token] {
        assert!(matches!(
            auth.authenticate(Some(ended)).await,
            Err(AuthError::SessionEnded)
        ));
    }
    assert_ne!(renewed.session_id, elsewhere.session_id);
    let now = auth.authenticate(Some(&renewed.token)).await.unwrap();
    assert!(!now.must_change_password && now.can(Permission::Purchases));
    assert!(!now.can(Permission::Catalogue), "a reviewer reviews");
    assert!(matches!(
        auth.login("rita", GENERATED_PASSWORD, None).await,
        Err(LoginError::InvalidCredentials)
    ));

    let created = trail(&t, AuditAction::StaffCreated).await;
    assert_eq!(created[0].actor.username, "olga");
    assert_eq!(
        created[0].target.as_deref(),
        Some(format!("admin:{}", handed.member.id).as_str())
    );
    assert!(
        created[0]
            .changes
            .contains(&Change::new("role", None, Some("reviewer".into())))
    );
    let changed = trail(&t, AuditAction::PasswordChanged).await;
    assert_eq!(changed.len(), 1, "refused attempts change nothing");
    assert_eq!(changed[0].actor.username, "rita");
    assert!(
        changed[0].changes.is_empty(),
        "no password is ever written to the trail"
    );
}

#[tokio::test]
async fn disabling_ends_every_session_and_sign_in_until_enabled_again() {
    let t = Harness::new();
    let olga = owner(&t).await;
    account(&t, "dario", Role::Manager).await;
    let (phone, dario) = signed_in(&t, "dario", STRONG).await;
    let (laptop, _) = signed_in(&t, "dario", STRONG).await;
    let staff = t.staff();

    let disabled = staff
        .update(
            &actor(&olga),
            dario.admin_id,
            StaffUpdate {
                disabled: Some(true),
                role: Some("catalogue".into()),
            },
        )
        .await
        .unwrap();
    assert!(disabled.disabled);
    assert_eq!(disabled.role, Role::Catalogue);
    for token in [&phone, &laptop] {
        assert!(matches!(
            t.auth().authenticate(Some(token)).await,
            Err(AuthError::SessionEnded)
        ));
    }
    assert!(matches!(
        t.auth().login("dario", STRONG, None).await,
        Err(LoginError::InvalidCredentials)
    ));

    staff
        .update(
            &actor(&olga),
            dario.admin_id,
            StaffUpdate {
                disabled: Some(false),
                ..StaffUpdate::default()
            },
        )
        .await
        .unwrap();
    let (_, back) = signed_in(&t, "dario", STRONG).await;
    assert_eq!(back.role, Role::Catalogue);

    let updates = trail(&t, AuditAction::StaffUpdated).await;
    assert_eq!(
        updates[1].changes,
        [
            Change::new("role", Some("manager".into()), Some("catalogue".into())),
            Change::new("disabled", Some("false".into()), Some("true".into())),
        ]
    );
    let members = staff.list().await.unwrap();
    assert_eq!(
        members
            .iter()
            .map(|m| m.username.as_str())
            .collect::<Vec<_>>(),
        ["olga", "dario"]
    );
    assert!(members[1].last_sign_in_at.is_some());
}

#[tokio::test]
async fn a_reset_hands_over_a_new_password_and_ends_the_sessions() {
    let t = Harness::new();
    let olga = owner(&t).await;
    account(&t, "rita", Role::Reviewer).await;
    let (token, rita) = signed_in(&t, "rita", STRONG).await;

    let handed = t
        .staff()
        .reset_password(&actor(&olga), rita.admin_id)
        .await
        .unwrap();

    assert_eq!(handed.temporary_password, GENERATED_PASSWORD);
    assert!(handed.member.must_change_password);
    assert!(matches!(
        t.auth().authenticate(Some(&token)).await,
        Err(AuthError::SessionEnded)
    ));
    assert!(t.auth().login("rita", STRONG, None).await.is_err());
    let (_, again) = signed_in(&t, "rita", GENERATED_PASSWORD).await;
    assert!(again.must_change_password);
    let resets = trail(&t, AuditAction::StaffPasswordReset).await;
    assert_eq!(
        resets[0].changes,
        [Change::new(
            "must_change_password",
            Some("false".into()),
            Some("true".into())
        )]
    );
}

#[tokio::test]
async fn owners_keep_their_own_ownership_and_only_owners_change_staff() {
    let t = Harness::new();
    let olga = owner(&t).await;
    account(&t, "mara", Role::Manager).await;
    let (_, mara) = signed_in(&t, "mara", STRONG).await;
    let staff = t.staff();
    let by = actor(&olga);

    let refusals = [
        staff
            .update(
                &by,
                olga.admin_id,
                StaffUpdate {
                    role: Some("manager".into()),
                    ..StaffUpdate::default()
                },
            )
            .await
            .map(|_| ()),
        staff
            .update(
                &by,
                olga.admin_id,
                StaffUpdate {
                    disabled: Some(true),
                    ..StaffUpdate::default()
                },
            )
            .await
            .map(|_| ()),
        staff.reset_password(&by, olga.admin_id).await.map(|_| ()),
    ];
    for refused in refusals {
        assert!(
            matches!(refused, Err(StaffError::Refused(StaffRefusal::OwnAccount))),
            "{refused:?}"
        );
    }
    // The routes let only owners in; the service asks the store again, inside the change.
    let by_manager = staff.create(&actor(&mara), "nico", "reviewer").await;
    assert!(matches!(
        by_manager,
        Err(StaffError::Refused(StaffRefusal::NotAnOwner))
    ));
    let unknown_role = staff.create(&by, "nico", "admin").await;
    match unknown_role {
        Err(StaffError::Invalid(errors)) => assert_eq!(fields(&errors), ["role"]),
        other => panic!("{other:?}"),
    }
    let missing = staff
        .reset_password(&by, rifa_domain::admin::AdminId::new(9_999))
        .await;
    assert!(matches!(missing, Err(StaffError::NotFound)), "{missing:?}");
    // Staying an owner is no change of ownership.
    staff
        .update(
            &by,
            olga.admin_id,
            StaffUpdate {
                role: Some("owner".into()),
                disabled: Some(false),
            },
        )
        .await
        .unwrap();
    assert!(
        trail(&t, AuditAction::StaffCreated).await.len() == 2,
        "refused creations leave no entry"
    );
}
