//! The audit trail's reading and its verification over a trail someone tampered with.

use rifa_app::audit::{Audit, AuditQueryError, AuditService, FIGURES_STEP};
use rifa_app::review::DayPeriod;
use rifa_domain::audit::{AuditAction, ChainBreak, Change, REDACTED};
use rifa_domain::branding::BrandingPatch;
use rifa_domain::email_settings::EmailSettingsInput;
use rifa_domain::raffle::RaffleInput;
use rifa_ports::AuditQuery;

use crate::support::{Harness, RaffleSetup, fields, reviewer};

/// A harness whose trail holds a raffle's and a method's creation and `n` decisions.
async fn decided(n: u32) -> Harness {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    for number in 1..=n {
        let bought = t.buy(&raffle, &zelle, &[number]).await;
        t.review()
            .decide_purchase(bought.purchase.id, "approved", None, &reviewer())
            .await
            .unwrap();
    }
    t
}

fn page(limit: u64) -> AuditQuery {
    AuditQuery {
        limit,
        ..AuditQuery::default()
    }
}

#[tokio::test]
async fn an_untouched_trail_verifies_and_pages_newest_first() {
    let t = decided(5).await;
    let audit = Audit::new(t.store.clone());

    let first = audit.entries(page(2)).await.unwrap();
    let seqs: Vec<u64> = first.iter().map(|c| c.seq).collect();
    assert_eq!(seqs, [7, 6]);
    let next = audit
        .entries(AuditQuery {
            before: Some(6),
            ..page(2)
        })
        .await
        .unwrap();
    assert_eq!(next.iter().map(|c| c.seq).collect::<Vec<_>>(), [5, 4]);

    let found = audit.verify().await.unwrap();
    assert_eq!((found.verified, found.head.seq, found.broken), (7, 7, None));
}

#[tokio::test]
async fn an_edited_a_deleted_and_a_cut_off_entry_are_each_found() {
    let t = decided(5).await;
    let audit = Audit::new(t.store.clone());

    t.store.tamper_with_trail(|trail| {
        trail[2].entry.changes[0].after = Some("rejected".into());
    });
    let found = audit.verify().await.unwrap();
    assert_eq!(found.broken, Some(ChainBreak::Edited { seq: 3 }));
    assert_eq!(found.verified, 2);

    let t = decided(5).await;
    let audit = Audit::new(t.store.clone());
    t.store.tamper_with_trail(|trail| {
        trail.remove(1);
    });
    assert_eq!(
        audit.verify().await.unwrap().broken,
        Some(ChainBreak::Missing { seq: 3 })
    );

    let t = decided(5).await;
    let audit = Audit::new(t.store.clone());
    t.store.tamper_with_trail(|trail| {
        trail.pop();
    });
    assert_eq!(
        audit.verify().await.unwrap().broken,
        Some(ChainBreak::Truncated {
            expected: 7,
            found: 6
        })
    );
}

#[tokio::test]
async fn a_page_needs_a_sane_limit_and_a_known_action() {
    let t = decided(1).await;
    let audit = Audit::new(t.store.clone());
    for limit in [0, 201] {
        let Err(AuditQueryError::Invalid(errors)) = audit.entries(page(limit)).await else {
            panic!("limit {limit} accepted");
        };
        assert_eq!(fields(&errors), ["limit"]);
    }
    let Err(AuditQueryError::Invalid(errors)) = audit
        .entries(AuditQuery {
            action: Some("purchase.stolen".into()),
            ..page(10)
        })
        .await
    else {
        panic!("an unknown action accepted");
    };
    assert_eq!(fields(&errors), ["action"]);
}

#[tokio::test]
async fn a_raffle_created_edited_and_deleted_leaves_each_change_in_the_trail() {
    let t = Harness::new();
    let input = |price: &str| RaffleInput {
        title: Some("Moto".into()),
        description: Some("Una moto".into()),
        price: Some(price.parse().unwrap()),
        status: Some("available".into()),
        max_tickets: Some(100),
        ..RaffleInput::default()
    };
    let catalog = t.catalog();
    let raffle = catalog
        .create_raffle(input("5"), &[], &reviewer())
        .await
        .unwrap()
        .raffle;
    catalog
        .update_raffle(raffle.id, input("6.50"), &reviewer())
        .await
        .unwrap();
    // A refused edit (a title too long) leaves nothing.
    let mut refused = input("7");
    refused.title = Some("x".repeat(500));
    assert!(
        catalog
            .update_raffle(raffle.id, refused, &reviewer())
            .await
            .is_err()
    );
    catalog.delete_raffle(raffle.id, &reviewer()).await.unwrap();

    let target = format!("raffle:{}", raffle.id.get());
    let trail: Vec<_> = t
        .store
        .trail()
        .into_iter()
        .filter(|c| c.entry.target.as_deref() == Some(target.as_str()))
        .map(|c| c.entry)
        .collect();
    let actions: Vec<AuditAction> = trail.iter().map(|e| e.action).collect();
    assert_eq!(
        actions,
        [
            AuditAction::RaffleCreated,
            AuditAction::RaffleUpdated,
            AuditAction::RaffleDeleted
        ]
    );
    assert!(
        trail[0]
            .changes
            .contains(&Change::new("title", None, Some("Moto".into())))
    );
    assert_eq!(
        trail[1].changes,
        [Change::new(
            "price",
            Some("5.00".into()),
            Some("6.50".into())
        )]
    );
    assert!(trail[2].changes.iter().all(|c| c.after.is_none()));
    assert_eq!(trail[2].actor, reviewer());
}

#[tokio::test]
async fn settings_saves_name_what_changed_and_never_the_e_mail_password() {
    let t = Harness::new();
    let settings = t.settings();
    let smtp = |password: Option<&str>| EmailSettingsInput {
        host: Some("smtp.rifa.test".into()),
        port: Some(465),
        user: Some("ventas".into()),
        password: password.map(str::to_owned),
        clear_password: false,
        from_email: Some("ventas@rifa.test".into()),
    };
    settings
        .update_email_settings(smtp(Some("primera-clave-secreta")), &reviewer())
        .await
        .unwrap();
    settings
        .update_email_settings(smtp(Some("segunda-clave-secreta")), &reviewer())
        .await
        .unwrap();
    settings
        .update_branding(
            BrandingPatch {
                company_name: Some("Rifas Ana".into()),
                ..BrandingPatch::default()
            },
            &reviewer(),
        )
        .await
        .unwrap();

    let trail = t.store.trail();
    let debug = format!("{trail:?}");
    assert!(
        !debug.contains("clave-secreta"),
        "a password reached the trail"
    );
    let [first, second, branding] = [&trail[0].entry, &trail[1].entry, &trail[2].entry];
    assert_eq!(first.action, AuditAction::EmailSettingsUpdated);
    assert!(
        first
            .changes
            .contains(&Change::new("password", None, Some(REDACTED.into())))
    );
    // Only the password changed: it shows, redacted on both sides.
    assert_eq!(
        second.changes,
        [Change::new(
            "password",
            Some(REDACTED.into()),
            Some(REDACTED.into())
        )]
    );
    assert_eq!(branding.action, AuditAction::BrandingUpdated);
    assert_eq!(branding.target.as_deref(), Some("settings:1"));
    assert_eq!(
        branding
            .changes
            .iter()
            .map(|c| c.field.as_str())
            .collect::<Vec<_>>(),
        ["companyName"]
    );
}

#[tokio::test]
async fn the_figures_read_a_long_period_a_month_at_a_time_and_count_every_decision() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let first_day = rifa_ports::Clock::now(&t.clock).date_naive();
    // Ten decisions, ten days apart: three months of them.
    for number in 1..=10 {
        let bought = t.buy(&raffle, &zelle, &[number]).await;
        t.review()
            .decide_purchase(bought.purchase.id, "approved", None, &reviewer())
            .await
            .unwrap();
        t.clock.advance(chrono::TimeDelta::days(10));
    }
    let period = DayPeriod::new(first_day, first_day + chrono::Days::new(99), 0).unwrap();

    let people = Audit::new(t.store.clone()).figures(&period).await.unwrap();

    assert_eq!(people.len(), 1);
    assert_eq!(people[0].decisions, 10);
    assert_eq!(people[0].per_day.len(), 10, "one day each");
    let reads = t.store.timing_reads();
    let (from, until) = period.utc_range();
    assert_eq!(reads.first().map(|r| r.0), Some(from));
    assert_eq!(reads.last().map(|r| r.1), Some(until));
    assert!(reads.windows(2).all(|w| w[0].1 == w[1].0), "{reads:?}");
    assert!(
        reads.iter().all(|(a, b)| *b - *a <= FIGURES_STEP),
        "{reads:?}"
    );
    assert_eq!(reads.len(), 4, "a hundred days in months");
}
