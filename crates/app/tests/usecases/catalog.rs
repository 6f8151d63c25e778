//! Raffles as each viewer sees them, the picker's availability and its cache, the quote, and
//! the admin's raffle management.

use rifa_app::catalog::{RaffleError, Viewer};
use rifa_app::purchasing::{PurchaseError, PurchaseMode};
use rifa_domain::Lang;
use rifa_domain::draw::prize::{PrizeInput, PrizeSourceInput};
use rifa_domain::raffle::RaffleId;
use rifa_domain::raffle::{RaffleInput, RaffleStatus};
use rifa_domain::ticket::TicketNumber;

use crate::support::{Harness, RaffleSetup, buyer, fields, form};

#[tokio::test]
async fn the_public_lists_raffles_on_sale_and_opens_closed_ones_but_never_drafts() {
    let t = Harness::new();
    let on_sale = t.raffle(RaffleSetup::default()).await;
    let finished = t
        .raffle(RaffleSetup {
            status: RaffleStatus::Finished,
            ..RaffleSetup::default()
        })
        .await;
    let draft = t
        .raffle(RaffleSetup {
            status: RaffleStatus::Inactive,
            ..RaffleSetup::default()
        })
        .await;

    let public: Vec<_> = t.catalog().list_raffles(Viewer::Public).await.unwrap();
    let admin: Vec<_> = t.catalog().list_raffles(Viewer::Admin).await.unwrap();

    assert_eq!(
        public.iter().map(|r| r.id).collect::<Vec<_>>(),
        [on_sale.id]
    );
    assert_eq!(admin.len(), 3);
    assert!(
        t.catalog()
            .raffle(finished.id, Viewer::Public)
            .await
            .is_ok()
    );
    assert!(t.catalog().raffle(draft.id, Viewer::Admin).await.is_ok());
    for hidden in [draft.id, RaffleId::new(9_999)] {
        let seen = t.catalog().raffle(hidden, Viewer::Public).await;
        assert!(
            matches!(seen, Err(RaffleError::NotFound)),
            "{hidden}: {seen:?}"
        );
    }
}

#[tokio::test]
async fn the_public_list_may_show_a_second_old_count_but_an_edit_at_once() {
    let t = Harness::new();
    let other = t.another_instance();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let sold = |list: Vec<rifa_domain::raffle::Raffle>| {
        list.iter()
            .map(|r| (r.title.clone(), r.tickets_sold))
            .collect::<Vec<_>>()
    };
    let title = raffle.title.clone();
    assert_eq!(
        sold(t.catalog().list_raffles(Viewer::Public).await.unwrap()),
        [(title.clone(), Some(0))]
    );

    other.buy(&raffle, &zelle, &[9]).await;
    let public = sold(t.catalog().list_raffles(Viewer::Public).await.unwrap());
    let admin = sold(t.catalog().list_raffles(Viewer::Admin).await.unwrap());
    t.catalog()
        .update_raffle(
            raffle.id,
            input("Moto nueva", "5", 100),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let edited = sold(t.catalog().list_raffles(Viewer::Public).await.unwrap());

    assert_eq!(public, [(title.clone(), Some(0))], "served from the copy");
    assert_eq!(
        admin,
        [(title, Some(1))],
        "the panel reads the count itself"
    );
    assert_eq!(edited, [("Moto nueva".to_owned(), Some(1))]);
}

#[tokio::test]
async fn a_drafts_numbers_promotions_and_prices_are_hidden_from_the_public() {
    let t = Harness::new();
    let draft = t
        .raffle(RaffleSetup {
            status: RaffleStatus::Inactive,
            ..RaffleSetup::default()
        })
        .await;
    t.store.add_promotion(draft.id, "Two cars");

    let catalog = t.catalog();
    assert!(matches!(
        catalog.availability(draft.id, Viewer::Public).await,
        Err(RaffleError::NotFound)
    ));
    assert!(matches!(
        catalog.available_numbers(draft.id, Viewer::Public).await,
        Err(RaffleError::NotFound)
    ));
    assert!(matches!(
        catalog.promotions(draft.id, Viewer::Public).await,
        Err(RaffleError::NotFound)
    ));
    assert!(matches!(
        catalog.quote(draft.id, 1, Viewer::Public).await,
        Err(RaffleError::NotFound)
    ));
    let promotions = catalog.promotions(draft.id, Viewer::Admin).await.unwrap();
    assert_eq!(promotions[0].description, "Two cars");
}

#[tokio::test]
async fn the_picker_loses_a_number_as_soon_as_it_is_bought() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let before = t
        .catalog()
        .availability(raffle.id, Viewer::Public)
        .await
        .unwrap();

    t.buy(&raffle, &zelle, &[5]).await;

    let after = t
        .catalog()
        .availability(raffle.id, Viewer::Public)
        .await
        .unwrap();
    let numbers = t
        .catalog()
        .available_numbers(raffle.id, Viewer::Public)
        .await
        .unwrap();
    assert_eq!((before.available, after.available), (100, 99));
    assert_eq!(numbers.len(), 99);
    assert!(!numbers.contains(&5));
}

#[tokio::test]
async fn a_rejection_gives_the_numbers_back_to_the_picker_at_once() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let receipt = t.buy(&raffle, &zelle, &[5]).await;
    assert_eq!(
        t.catalog()
            .availability(raffle.id, Viewer::Public)
            .await
            .unwrap()
            .available,
        99
    );

    t.review()
        .decide_purchase(
            receipt.purchase.id,
            "rejected",
            Some("no payment"),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();

    let numbers = t
        .catalog()
        .available_numbers(raffle.id, Viewer::Public)
        .await
        .unwrap();
    assert!(numbers.contains(&5));
}

#[tokio::test]
async fn a_sale_here_takes_its_numbers_off_the_picker_without_rereading_the_raffle() {
    let t = Harness::new();
    let other = t.another_instance();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.catalog()
        .availability(raffle.id, Viewer::Public)
        .await
        .unwrap();
    // Another instance's sale reaches this picker only when its copy goes stale (a second).
    other.buy(&raffle, &zelle, &[9]).await;

    let bought = t.buy(&raffle, &zelle, &[5, 6]).await.purchase;

    let after = t
        .catalog()
        .availability(raffle.id, Viewer::Public)
        .await
        .unwrap();
    let numbers = t
        .catalog()
        .available_numbers(raffle.id, Viewer::Public)
        .await
        .unwrap();
    assert!(!numbers.contains(&5) && !numbers.contains(&6));
    assert!(
        numbers.contains(&9),
        "the copy was changed in place, not read again"
    );
    assert_eq!((after.available, after.pending), (98, 2));
    assert_eq!(after.next_release_at, bought.hold_expires_at);
}

#[tokio::test]
async fn losing_a_number_to_another_instance_refreshes_the_picker() {
    let t = Harness::new();
    let other = t.another_instance();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    assert_eq!(
        t.catalog()
            .availability(raffle.id, Viewer::Public)
            .await
            .unwrap()
            .available,
        100
    );
    other.buy(&raffle, &zelle, &[9]).await;

    let lost = t
        .purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[9], &t.price_of(&raffle, 1).await),
            PurchaseMode::Public,
            Lang::Es,
        )
        .await;

    assert!(
        matches!(lost, Err(PurchaseError::NumbersTaken { .. })),
        "{lost:?}"
    );
    let numbers = t
        .catalog()
        .available_numbers(raffle.id, Viewer::Public)
        .await
        .unwrap();
    assert!(!numbers.contains(&9));
}

#[tokio::test]
async fn a_quote_applies_the_best_discount_reached() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    t.discount(3, 10).await;

    let two = t
        .catalog()
        .quote(raffle.id, 2, Viewer::Public)
        .await
        .unwrap();
    let five = t
        .catalog()
        .quote(raffle.id, 5, Viewer::Public)
        .await
        .unwrap();

    assert_eq!(
        (two.total.to_string(), two.discount.to_string()),
        ("26.00".into(), "0.00".into())
    );
    assert_eq!(
        (five.total.to_string(), five.discount.to_string()),
        ("58.50".into(), "6.50".into())
    );
    assert!(five.applied_discount.is_some());
}

fn input(title: &str, price: &str, max_tickets: i64) -> RaffleInput {
    RaffleInput {
        title: Some(title.into()),
        description: Some("A prize".into()),
        price: Some(price.parse().unwrap()),
        status: Some("available".into()),
        max_tickets: Some(max_tickets),
        ..RaffleInput::default()
    }
}

fn first_prize(title: &str) -> PrizeInput {
    PrizeInput {
        title: Some(title.into()),
        description: None,
        image: None,
        source: PrizeSourceInput::Beacon { round: Some(1_000) },
    }
}

#[tokio::test]
async fn an_admin_creates_a_raffle_with_its_prize_and_an_invalid_one_names_every_field() {
    let t = Harness::new();

    let created = t
        .catalog()
        .create_raffle(
            input("Moto", "5.00", 500),
            &[first_prize("Moto")],
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let refused = t
        .catalog()
        .create_raffle(
            input(" ", "5.00", 500),
            &[first_prize(" ")],
            &crate::support::reviewer(),
        )
        .await;

    assert!(!created.held_back_without_prizes);
    let created = created.raffle;
    assert_eq!(
        (created.title.as_str(), created.max_tickets, created.status),
        ("Moto", 500, RaffleStatus::Available)
    );
    assert_eq!(
        t.catalog()
            .raffle(created.id, Viewer::Public)
            .await
            .unwrap()
            .title,
        "Moto"
    );
    let prizes = rifa_ports::DrawRepository::prizes(&t.store, created.id)
        .await
        .unwrap();
    assert_eq!(
        prizes
            .iter()
            .map(|p| p.prize.title.as_str())
            .collect::<Vec<_>>(),
        ["Moto"]
    );
    match refused {
        Err(RaffleError::Invalid(errors)) => {
            assert_eq!(fields(&errors), ["title", "prizes[0].title"]);
        }
        other => panic!("expected an invalid title, got {other:?}"),
    }
}

#[tokio::test]
async fn a_raffle_asked_on_sale_without_a_prize_is_kept_unpublished_and_says_so() {
    let t = Harness::new();

    let saved = t
        .catalog()
        .create_raffle(input("Moto", "5.00", 500), &[], &crate::support::reviewer())
        .await
        .unwrap();
    let id = saved.raffle.id;
    let edited = t
        .catalog()
        .update_raffle(id, input("Moto", "6.00", 500), &crate::support::reviewer())
        .await
        .unwrap();
    let mut draft = input("Moto", "6.00", 500);
    draft.status = Some("inactive".into());
    let kept_as_draft = t
        .catalog()
        .update_raffle(id, draft, &crate::support::reviewer())
        .await
        .unwrap();

    assert!(saved.held_back_without_prizes);
    assert_eq!(saved.raffle.status, RaffleStatus::Inactive);
    assert!(edited.held_back_without_prizes);
    assert_eq!(edited.raffle.status, RaffleStatus::Inactive);
    // Nothing to say when a draft was asked for.
    assert!(!kept_as_draft.held_back_without_prizes);
    assert!(matches!(
        t.catalog().raffle(id, Viewer::Public).await,
        Err(RaffleError::NotFound)
    ));
}

#[tokio::test]
async fn a_new_price_applies_to_the_next_purchase_at_once() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.buy(&raffle, &zelle, &[1]).await;

    let repriced = t
        .catalog()
        .update_raffle(
            raffle.id,
            input("RX-7", "20.00", 100),
            &crate::support::reviewer(),
        )
        .await
        .unwrap()
        .raffle;
    // Another buyer: the new terms allow one ticket per person.
    let receipt = t
        .buy_as(
            &repriced,
            &zelle,
            &[2],
            buyer("Bea Gil", "bea@correo.com", "0412-765-4321"),
        )
        .await;

    assert_eq!(receipt.purchase.total_amount.to_string(), "20.00");
}

#[tokio::test]
async fn a_raffle_cannot_shrink_below_a_number_someone_holds() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.buy(&raffle, &zelle, &[80]).await;

    let refused = t
        .catalog()
        .update_raffle(
            raffle.id,
            input("RX-7", "13.00", 50),
            &crate::support::reviewer(),
        )
        .await;
    let missing = t
        .catalog()
        .update_raffle(
            RaffleId::new(9_999),
            input("RX-7", "13.00", 50),
            &crate::support::reviewer(),
        )
        .await;

    assert!(
        matches!(
            refused,
            Err(RaffleError::BelowHeldNumber { highest_held })
                if highest_held == TicketNumber::from_stored(80)
        ),
        "{refused:?}"
    );
    assert!(matches!(missing, Err(RaffleError::NotFound)), "{missing:?}");
}

#[tokio::test]
async fn a_sold_raffle_keeps_its_size_which_reads_the_winning_number() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let before_sale = t
        .catalog()
        .update_raffle(
            raffle.id,
            input("RX-7", "13.00", i64::from(raffle.max_tickets) + 1),
            &crate::support::reviewer(),
        )
        .await;
    t.buy(&raffle, &zelle, &[1]).await;

    let after_sale = t
        .catalog()
        .update_raffle(
            raffle.id,
            input("RX-7", "13.00", i64::from(raffle.max_tickets) + 2),
            &crate::support::reviewer(),
        )
        .await;

    assert!(before_sale.is_ok(), "{before_sale:?}");
    assert!(
        matches!(after_sale, Err(RaffleError::SizeLocked)),
        "{after_sale:?}"
    );
}

#[tokio::test]
async fn a_raffle_with_real_purchases_stays_and_one_with_only_tests_goes() {
    let t = Harness::new();
    let sold = t.raffle(RaffleSetup::default()).await;
    let rehearsed = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.buy(&sold, &zelle, &[1]).await;
    t.purchasing()
        .purchase(
            rehearsed.id,
            form(&zelle, &[1], &t.price_of(&rehearsed, 1).await),
            PurchaseMode::AdminTest(crate::support::reviewer()),
            Lang::Es,
        )
        .await
        .unwrap();

    let kept = t
        .catalog()
        .delete_raffle(sold.id, &crate::support::reviewer())
        .await;
    t.catalog()
        .delete_raffle(rehearsed.id, &crate::support::reviewer())
        .await
        .unwrap();

    assert!(
        matches!(kept, Err(RaffleError::HasPurchases { count: 1 })),
        "{kept:?}"
    );
    assert!(matches!(
        t.catalog().raffle(rehearsed.id, Viewer::Admin).await,
        Err(RaffleError::NotFound)
    ));
    assert!(matches!(
        t.catalog()
            .delete_raffle(rehearsed.id, &crate::support::reviewer())
            .await,
        Err(RaffleError::NotFound)
    ));
    let gone = t
        .purchasing()
        .purchase(
            rehearsed.id,
            form(&zelle, &[2], &t.price_of(&rehearsed, 1).await),
            PurchaseMode::AdminTest(crate::support::reviewer()),
            Lang::Es,
        )
        .await;
    assert!(
        matches!(gone, Err(PurchaseError::RaffleNotFound)),
        "{gone:?}"
    );
}

#[tokio::test]
async fn a_raffle_grown_by_an_admin_shows_its_new_numbers_at_once() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let before = t
        .catalog()
        .availability(raffle.id, Viewer::Public)
        .await
        .unwrap();

    t.catalog()
        .update_raffle(
            raffle.id,
            input("RX-7", "13.00", 200),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();

    let after = t
        .catalog()
        .availability(raffle.id, Viewer::Public)
        .await
        .unwrap();
    assert_eq!((before.max_tickets, after.max_tickets), (100, 200));
    assert_eq!(after.available, 200);
}
