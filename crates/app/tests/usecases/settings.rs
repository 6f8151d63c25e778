//! Branding, e-mail settings and the discount table.

use rifa_app::WriteFailure;
use rifa_app::purchasing::{PurchaseError, PurchaseMode};
use rifa_domain::Lang;
use rifa_domain::branding::{Branding, BrandingPatch};
use rifa_domain::email_settings::EmailSettingsInput;
use rifa_domain::pricing::DiscountTier;
use rust_decimal::Decimal;
use secrecy::ExposeSecret as _;

use crate::support::{Harness, RaffleSetup, fields, form};

#[tokio::test]
async fn branding_starts_from_the_defaults_and_keeps_what_is_patched() {
    let t = Harness::new();
    assert_eq!(t.settings().branding().await.unwrap(), Branding::default());

    let saved = t
        .settings()
        .update_branding(
            BrandingPatch {
                company_name: Some("Rifas Ana".into()),
                primary_color: Some("210 80% 45%".into()),
                ..BrandingPatch::default()
            },
            &crate::support::reviewer(),
        )
        .await
        .unwrap();

    let read = t.settings().branding().await.unwrap();
    assert_eq!(read, saved);
    assert_eq!(read.company_name, "Rifas Ana");
    assert_eq!(read.primary_color.as_str(), "210 80% 45%");
    assert_eq!(read.description, Branding::default().description);
}

#[tokio::test]
async fn a_bad_branding_field_saves_nothing() {
    let t = Harness::new();

    let refused = t
        .settings()
        .update_branding(
            BrandingPatch {
                company_name: Some("Rifas Ana".into()),
                accent_color: Some("red".into()),
                ..BrandingPatch::default()
            },
            &crate::support::reviewer(),
        )
        .await;

    match refused {
        Err(WriteFailure::Invalid(errors)) => assert_eq!(fields(&errors), ["accentColor"]),
        other => panic!("expected the colour refused, got {other:?}"),
    }
    assert_eq!(t.settings().branding().await.unwrap(), Branding::default());
}

fn smtp(password: Option<&str>, clear_password: bool) -> EmailSettingsInput {
    EmailSettingsInput {
        host: Some("smtp.rifa.test".into()),
        port: Some(465),
        user: Some("ventas".into()),
        password: password.map(str::to_owned),
        clear_password,
        from_email: Some("Ventas@Rifa.test".into()),
    }
}

#[tokio::test]
async fn e_mail_settings_keep_the_saved_password_unless_told_to_clear_it() {
    let t = Harness::new();
    let settings = t.settings();
    settings
        .update_email_settings(
            smtp(Some("s3cret-pass"), false),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();

    let kept = settings
        .update_email_settings(smtp(None, false), &crate::support::reviewer())
        .await
        .unwrap();
    let cleared = settings
        .update_email_settings(smtp(None, true), &crate::support::reviewer())
        .await
        .unwrap();

    assert_eq!((kept.host.as_str(), kept.port), ("smtp.rifa.test", 465));
    assert_eq!(
        kept.password.as_ref().map(|p| p.expose_secret().to_owned()),
        Some("s3cret-pass".into())
    );
    assert!(cleared.password.is_none());
    assert_eq!(
        settings.email_settings().await.unwrap().from_email,
        "ventas@rifa.test"
    );
}

#[tokio::test]
async fn bad_e_mail_settings_save_nothing() {
    let t = Harness::new();

    let refused = t
        .settings()
        .update_email_settings(
            EmailSettingsInput {
                port: Some(70_000),
                from_email: Some("ventas".into()),
                ..smtp(None, false)
            },
            &crate::support::reviewer(),
        )
        .await;

    match refused {
        Err(WriteFailure::Invalid(errors)) => {
            assert_eq!(fields(&errors), ["emailPort", "fromEmail"])
        }
        other => panic!("expected invalid settings, got {other:?}"),
    }
    assert_eq!(t.settings().email_settings().await.unwrap().host, "");
}

fn tier(min_tickets: u32, percentage: i64) -> DiscountTier {
    DiscountTier {
        min_tickets,
        percentage: Decimal::from(percentage),
        label: format!("{percentage}%"),
    }
}

#[tokio::test]
async fn a_new_discount_table_prices_the_very_next_purchase() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let undiscounted = t.price_of(&raffle, 3).await;
    t.buy(&raffle, &zelle, &[1, 2, 3]).await;

    let table = t
        .settings()
        .update_discounts(vec![tier(3, 10)], &crate::support::reviewer())
        .await
        .unwrap();
    let stale = t
        .purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[4, 5, 6], &undiscounted),
            PurchaseMode::Public,
            Lang::Es,
        )
        .await;
    let discounted = t.buy(&raffle, &zelle, &[7, 8, 9]).await;

    assert_eq!(table.tiers().len(), 1);
    assert!(
        matches!(stale, Err(PurchaseError::TotalMismatch { .. })),
        "{stale:?}"
    );
    assert_eq!(discounted.purchase.total_amount.to_string(), "35.10");
    assert_eq!(t.settings().discounts().await.unwrap(), table);
}

#[tokio::test]
async fn a_discount_outside_zero_to_a_hundred_percent_is_refused() {
    let t = Harness::new();

    for bad in [tier(3, 0), tier(3, 100), tier(0, 10)] {
        let refused = t
            .settings()
            .update_discounts(vec![bad], &crate::support::reviewer())
            .await;
        match refused {
            Err(WriteFailure::Invalid(errors)) => assert_eq!(fields(&errors), ["tiers"]),
            other => panic!("expected the tier refused, got {other:?}"),
        }
    }
    assert!(t.settings().discounts().await.unwrap().tiers().is_empty());
}
