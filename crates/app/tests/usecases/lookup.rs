//! A buyer checks their tickets by e-mail or phone, and sees in full only what they typed.

use chrono::TimeDelta;
use rifa_app::lookup::VerifyError;
use rifa_app::purchasing::PurchaseMode;
use rifa_domain::lookup::{LookupMiss, mask_email, mask_name, mask_phone};
use rifa_domain::raffle::RaffleStatus;
use rifa_domain::{FieldError, Lang};

use crate::support::{Harness, RaffleSetup, buyer, request};

#[tokio::test]
async fn by_email_the_buyer_sees_their_purchases_in_raffles_on_sale_newest_first() {
    let t = Harness::new();
    let rx7 = t.raffle(RaffleSetup::default()).await;
    let moto = t
        .raffle(RaffleSetup {
            title: "Moto",
            ..RaffleSetup::default()
        })
        .await;
    let zelle = t.method("Zelle").await;
    let older = t.buy(&rx7, &zelle, &[1]).await.purchase;
    t.clock.advance(TimeDelta::minutes(5));
    let newer = t.buy(&moto, &zelle, &[2]).await.purchase;

    let found = t
        .lookup()
        .verify_tickets(Some(" ANA@correo.com "), None)
        .await
        .unwrap();

    let ids: Vec<_> = found.entries.iter().map(|(_, p)| p.id).collect();
    assert_eq!(ids, [newer.id, older.id]);
    assert_eq!(found.entries[0].0.title, "Moto");
    assert_eq!(found.customer_email, "ana@correo.com");
    assert_eq!(found.customer_phone, mask_phone("0414-123-4567"));
    assert_eq!(found.customer_name, mask_name("Ana Ruiz"));
    assert_ne!(found.customer_name, "Ana Ruiz");
}

#[tokio::test]
async fn by_phone_the_phone_shows_in_full_and_the_email_masked() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.buy(&raffle, &zelle, &[1]).await;

    let found = t
        .lookup()
        .verify_tickets(None, Some("+58 (414) 123 4567"))
        .await;

    // The digits of "+58 (414) 123 4567" are not those of "0414-123-4567".
    assert!(
        matches!(found, Err(VerifyError::Miss(LookupMiss::NoPurchases))),
        "{found:?}"
    );
    let found = t
        .lookup()
        .verify_tickets(None, Some("0414 123 4567"))
        .await
        .unwrap();
    assert_eq!(found.customer_phone, "0414-123-4567");
    assert_eq!(found.customer_email, mask_email("ana@correo.com"));
    assert_ne!(found.customer_email, "ana@correo.com");
    assert_eq!(found.entries.len(), 1);
}

#[tokio::test]
async fn rejected_and_test_purchases_and_closed_raffles_show_nothing() {
    let t = Harness::new();
    let open = t.raffle(RaffleSetup::default()).await;
    let closed = t
        .raffle(RaffleSetup {
            status: RaffleStatus::Finished,
            ..RaffleSetup::default()
        })
        .await;
    let zelle = t.method("Zelle").await;
    let rejected = t.buy(&open, &zelle, &[1]).await.purchase;
    t.review()
        .decide_purchase(
            rejected.id,
            "rejected",
            Some("no payment"),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let mut rehearsal = request(&zelle, &[2], &t.price_of(&open, 1).await);
    rehearsal.customer = buyer("Bea Gil", "bea@correo.com", "0412-765-4321");
    t.purchasing()
        .purchase(
            open.id,
            Ok(rehearsal),
            PurchaseMode::AdminTest(crate::support::reviewer()),
            Lang::Es,
        )
        .await
        .unwrap();
    let mut in_closed = request(&zelle, &[3], &t.price_of(&closed, 1).await);
    in_closed.customer = buyer("Carla Paz", "carla@correo.com", "0416-111-2222");
    t.purchasing()
        .purchase(
            closed.id,
            Ok(in_closed),
            PurchaseMode::AdminTest(crate::support::reviewer()),
            Lang::Es,
        )
        .await
        .unwrap();

    let ana = t
        .lookup()
        .verify_tickets(Some("ana@correo.com"), None)
        .await;
    let bea = t
        .lookup()
        .verify_tickets(Some("bea@correo.com"), None)
        .await;

    assert!(
        matches!(ana, Err(VerifyError::Miss(LookupMiss::NoPurchases))),
        "{ana:?}"
    );
    assert!(
        matches!(bea, Err(VerifyError::Miss(LookupMiss::NoPurchases))),
        "{bea:?}"
    );
}

#[tokio::test]
async fn purchases_only_in_raffles_no_longer_on_sale_are_a_miss_of_their_own() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.buy(&raffle, &zelle, &[1]).await;
    t.catalog()
        .update_raffle(
            raffle.id,
            rifa_domain::raffle::RaffleInput {
                title: Some("RX-7".into()),
                description: Some("Win an RX-7".into()),
                price: Some("13.00".parse().unwrap()),
                status: Some("finished".into()),
                max_tickets: Some(100),
                ..Default::default()
            },
            &crate::support::reviewer(),
        )
        .await
        .unwrap();

    let found = t
        .lookup()
        .verify_tickets(Some("ana@correo.com"), None)
        .await;

    assert!(
        matches!(
            found,
            Err(VerifyError::Miss(LookupMiss::NoneInActiveRaffles))
        ),
        "{found:?}"
    );
}

#[tokio::test]
async fn a_blank_or_malformed_lookup_is_invalid() {
    let t = Harness::new();

    for (email, phone, field, error) in [
        (None, None, "email", FieldError::LookupValueRequired),
        (
            Some("  "),
            Some(""),
            "email",
            FieldError::LookupValueRequired,
        ),
        (Some("ana@"), None, "email", FieldError::InvalidEmail),
        (None, Some("0414"), "phone", FieldError::PhoneTooShort),
    ] {
        match t.lookup().verify_tickets(email, phone).await {
            Err(VerifyError::Invalid(errors)) => {
                assert_eq!(errors.named(), [(field, error)]);
            }
            other => panic!("{email:?} {phone:?}: expected invalid, got {other:?}"),
        }
    }
}
