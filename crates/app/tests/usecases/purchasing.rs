//! Buying tickets: the server's price, the raffle's limits and who holds which number.

use rifa_app::catalog::Viewer;
use rifa_app::purchasing::{PurchaseError, PurchaseMode, PurchaseReceipt};
use rifa_domain::audit::{AuditAction, Change};
use rifa_domain::payment::PaymentMethod;
use rifa_domain::purchase::MethodChoice;
use rifa_domain::purchase::PurchaseStatus;
use rifa_domain::purchase::TicketChoice;
use rifa_domain::raffle::RaffleId;
use rifa_domain::raffle::{Raffle, RaffleStatus};
use rifa_domain::ticket::TicketNumber;
use rifa_domain::{FieldError, FieldErrors, Lang};
use rifa_ports::{DomainEvent, MailKind, MailStatus, MailSubject};

use crate::support::{Harness, RaffleSetup, fields, form, request};

#[tokio::test]
async fn the_price_comes_from_the_raffles_price_and_the_discount_table() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.discount(3, 10).await;

    let receipt = t.buy(&raffle, &zelle, &[4, 8, 15]).await;

    assert_eq!(receipt.quote.subtotal.to_string(), "39.00");
    assert_eq!(receipt.quote.discount.to_string(), "3.90");
    assert_eq!(receipt.purchase.total_amount.to_string(), "35.10");
    assert_eq!(receipt.purchase.discount_applied.to_string(), "3.90");
    assert_eq!(t.store.purchases()[0].total_amount.to_string(), "35.10");
}

#[tokio::test]
async fn a_client_total_other_than_the_servers_is_refused_and_nothing_is_written() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let mut stale = request(&zelle, &[1, 2], &t.price_of(&raffle, 2).await);
    stale.total_amount = "13.00".parse().unwrap();

    let refused = t
        .purchasing()
        .purchase(raffle.id, Ok(stale), PurchaseMode::Public, Lang::Es)
        .await;

    match refused {
        Err(PurchaseError::TotalMismatch { expected, sent }) => {
            assert_eq!(
                (expected.to_string(), sent.to_string()),
                ("26.00".into(), "13.00".into())
            );
        }
        other => panic!("expected a total mismatch, got {other:?}"),
    }
    assert!(t.store.purchases().is_empty());
    assert!(t.store.held(raffle.id).is_empty());
    assert!(t.store.mail().is_empty());
    assert!(t.events.published().is_empty());
}

#[tokio::test]
async fn a_discount_the_server_does_not_grant_is_a_mismatch_too() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let mut claimed = request(&zelle, &[1, 2], &t.price_of(&raffle, 2).await);
    claimed.discount_applied = "2.60".parse().unwrap();

    let refused = t
        .purchasing()
        .purchase(raffle.id, Ok(claimed), PurchaseMode::Public, Lang::Es)
        .await;

    assert!(
        matches!(refused, Err(PurchaseError::TotalMismatch { .. })),
        "{refused:?}"
    );
    assert!(t.store.purchases().is_empty());
}

#[tokio::test]
async fn more_tickets_than_the_per_purchase_limit_are_refused_naming_the_limit() {
    let t = Harness::new();
    let raffle = t
        .raffle(RaffleSetup {
            max_per_purchase: Some(2),
            ..RaffleSetup::default()
        })
        .await;
    let zelle = t.method("Zelle").await;

    let refused = t
        .purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[1, 2, 3], &t.price_of(&raffle, 3).await),
            PurchaseMode::Public,
            Lang::Es,
        )
        .await;

    match refused {
        Err(PurchaseError::Invalid(errors)) => {
            let found = errors.named();
            assert_eq!(
                found,
                [("ticketNumbers", FieldError::TicketsAboveMaximum { max: 2 })]
            );
        }
        other => panic!("expected the per-purchase limit, got {other:?}"),
    }
    assert!(t.store.purchases().is_empty());
}

#[tokio::test]
async fn fewer_tickets_than_the_minimum_are_refused() {
    let t = Harness::new();
    let raffle = t
        .raffle(RaffleSetup {
            min_per_purchase: Some(2),
            ..RaffleSetup::default()
        })
        .await;
    let zelle = t.method("Zelle").await;

    let refused = t
        .purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[1], &t.price_of(&raffle, 1).await),
            PurchaseMode::Public,
            Lang::Es,
        )
        .await;

    match refused {
        Err(PurchaseError::Invalid(errors)) => {
            let found = errors.named();
            assert_eq!(
                found,
                [("ticketNumbers", FieldError::TicketsBelowMinimum { min: 2 })]
            );
        }
        other => panic!("expected the minimum, got {other:?}"),
    }
}

#[tokio::test]
async fn every_field_the_raffle_or_the_catalogue_refuses_is_reported_at_once() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let mut bad = request(&zelle, &[101], &t.price_of(&raffle, 1).await);
    bad.payment_method = MethodChoice::Name("Paypal".into());

    let refused = t
        .purchasing()
        .purchase(raffle.id, Ok(bad), PurchaseMode::Public, Lang::Es)
        .await;

    let Err(PurchaseError::Invalid(errors)) = refused else {
        panic!("expected invalid fields, got {refused:?}");
    };
    let mut named = fields(&errors);
    named.sort_unstable();
    assert_eq!(named, ["paymentMethod", "ticketNumbers"]);
    assert!(t.store.purchases().is_empty());
}

#[tokio::test]
async fn the_edges_field_errors_come_back_once_the_raffle_is_on_sale() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let closed = t
        .raffle(RaffleSetup {
            status: RaffleStatus::Finished,
            ..RaffleSetup::default()
        })
        .await;
    let malformed = || {
        Err(FieldErrors::single(
            "customerEmail",
            FieldError::InvalidEmail,
        ))
    };

    let on_sale = t
        .purchasing()
        .purchase(raffle.id, malformed(), PurchaseMode::Public, Lang::Es)
        .await;
    let not_on_sale = t
        .purchasing()
        .purchase(closed.id, malformed(), PurchaseMode::Public, Lang::Es)
        .await;

    match on_sale {
        Err(PurchaseError::Invalid(errors)) => assert_eq!(fields(&errors), ["customerEmail"]),
        other => panic!("expected the edge's field errors, got {other:?}"),
    }
    assert!(
        matches!(not_on_sale, Err(PurchaseError::RaffleNotOnSale)),
        "{not_on_sale:?}"
    );
    assert!(t.store.purchases().is_empty());
}

#[tokio::test]
async fn a_raffle_not_on_sale_is_refused_and_a_hidden_or_missing_one_is_not_found() {
    let t = Harness::new();
    let zelle = t.method("Zelle").await;
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
    let quote = t.price_of(&finished, 1).await;

    for (raffle_id, expected) in [
        (finished.id, "not on sale"),
        (draft.id, "not found"),
        (RaffleId::new(9_999), "not found"),
    ] {
        let refused = t
            .purchasing()
            .purchase(
                raffle_id,
                form(&zelle, &[1], &quote),
                PurchaseMode::Public,
                Lang::Es,
            )
            .await;
        match (expected, refused) {
            ("not on sale", Err(PurchaseError::RaffleNotOnSale))
            | ("not found", Err(PurchaseError::RaffleNotFound)) => {}
            (expected, other) => panic!("raffle {raffle_id}: expected {expected}, got {other:?}"),
        }
    }
    assert!(t.store.purchases().is_empty());
}

#[tokio::test]
async fn numbers_someone_holds_are_named_in_order_with_the_raffles_size() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.buy(&raffle, &zelle, &[7, 3]).await;

    let refused = t
        .purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[9, 7, 3], &t.price_of(&raffle, 3).await),
            PurchaseMode::Public,
            Lang::Es,
        )
        .await;

    match refused {
        Err(PurchaseError::NumbersTaken {
            numbers,
            max_tickets,
        }) => {
            assert_eq!(numbers, [3, 7].map(TicketNumber::from_stored));
            assert_eq!(max_tickets, 100);
        }
        other => panic!("expected numbers taken, got {other:?}"),
    }
    assert_eq!(t.store.purchases().len(), 1);
    assert_eq!(t.store.held(raffle.id), [3, 7]);
}

#[tokio::test]
async fn a_public_purchase_holds_its_numbers_queues_the_confirmation_and_is_announced() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;

    let receipt = t.buy(&raffle, &zelle, &[12, 5]).await;

    let purchase = &receipt.purchase;
    assert_eq!(purchase.status, PurchaseStatus::Pending);
    assert_eq!(
        purchase.ticket_numbers,
        [5, 12].map(TicketNumber::from_stored)
    );
    assert_eq!(purchase.raffle_title, "RX-7");
    assert_eq!(purchase.payment_method, "Zelle");
    assert!(receipt.access_key.is_some());
    assert!(!receipt.test_mode);
    assert_eq!(t.store.held(raffle.id), [5, 12]);

    let mail = t.store.mail();
    assert_eq!(mail.len(), 1);
    assert_eq!(
        (
            mail[0].kind,
            mail[0].status,
            mail[0].recipient.as_str(),
            mail[0].subject
        ),
        (
            MailKind::Received,
            MailStatus::Pending,
            "ana@correo.com",
            MailSubject::Purchase(purchase.id)
        )
    );
    assert_eq!(
        t.events.published(),
        [DomainEvent::NewPurchase {
            purchase_id: purchase.id,
            reference: purchase.reference.clone(),
            raffle_id: raffle.id,
            customer_name: "Ana Ruiz".into(),
            ticket_count: 2,
            total_amount: "26.00".into(),
            created_at: purchase.created_at,
        }]
    );
}

#[tokio::test]
async fn an_admin_test_purchase_holds_nothing_mails_nobody_and_is_in_the_trail_only() {
    let t = Harness::new();
    let raffle = t
        .raffle(RaffleSetup {
            status: RaffleStatus::Postponed,
            ..RaffleSetup::default()
        })
        .await;
    let zelle = t.method("Zelle").await;

    let receipt = t
        .purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[1, 2], &t.price_of(&raffle, 2).await),
            PurchaseMode::AdminTest(crate::support::reviewer()),
            Lang::Es,
        )
        .await
        .unwrap();

    assert!(receipt.test_mode);
    assert_eq!(receipt.access_key, None);
    assert_eq!(receipt.purchase.status, PurchaseStatus::Test);
    assert!(t.store.held(raffle.id).is_empty());
    assert!(t.store.mail().is_empty());
    assert!(t.events.published().is_empty());
    let trail = t.store.trail();
    let entry = &trail.last().expect("the test purchase's entry").entry;
    assert_eq!(entry.action, AuditAction::TestPurchaseCreated);
    assert_eq!(entry.actor, crate::support::reviewer());
    assert_eq!(
        entry.target.as_deref(),
        Some(format!("purchase:{}", receipt.purchase.id.get()).as_str())
    );
    assert_eq!(
        entry.changes,
        vec![
            Change::new("raffleId", None, Some(raffle.id.get().to_string())),
            Change::new("tickets", None, Some("2".into())),
            Change::new(
                "totalAmount",
                None,
                Some(receipt.purchase.total_amount.to_string())
            ),
        ]
    );
}

#[tokio::test]
async fn a_buyer_s_purchase_leaves_the_trail_alone() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let before = t.store.trail().len();

    t.buy(&raffle, &zelle, &[1]).await;

    assert_eq!(t.store.trail().len(), before);
}

#[tokio::test]
async fn a_reference_that_exists_already_is_replaced_by_a_fresh_one() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.references.queue(&["RF-CLASH", "RF-CLASH"]);
    let first = t.buy(&raffle, &zelle, &[1]).await;

    let second = t.buy(&raffle, &zelle, &[2]).await;

    assert_eq!(first.purchase.reference, "RF-CLASH");
    assert_eq!(second.purchase.reference, "RF-000001");
}

#[tokio::test]
async fn the_payment_method_may_be_named_instead_of_numbered() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let mut by_name = request(&zelle, &[1], &t.price_of(&raffle, 1).await);
    by_name.payment_method = MethodChoice::Name("zelle".into());

    let receipt = t
        .purchasing()
        .purchase(raffle.id, Ok(by_name), PurchaseMode::Public, Lang::Es)
        .await
        .unwrap();

    assert_eq!(receipt.purchase.payment_method_id, Some(zelle.id));
}

#[tokio::test]
async fn three_reference_clashes_in_a_row_give_up_without_writing() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.references.queue(&["RF-CLASH"]);
    t.buy(&raffle, &zelle, &[1]).await;
    t.references.queue(&["RF-CLASH", "RF-CLASH", "RF-CLASH"]);

    let refused = t
        .purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[2], &t.price_of(&raffle, 1).await),
            PurchaseMode::Public,
            Lang::Es,
        )
        .await;

    assert!(
        matches!(refused, Err(PurchaseError::Unknown(_))),
        "{refused:?}"
    );
    assert_eq!(t.store.purchases().len(), 1);
    assert_eq!(t.store.held(raffle.id), [1]);
}

#[tokio::test]
async fn numbers_sold_while_the_availability_is_read_are_not_shown_free_by_that_read() {
    let t = Harness::new();
    let raffle = t.raffle(ten_numbers()).await;
    let zelle = t.method("Zelle").await;
    let pause = t.store.pause_next_held_read();
    let catalog = t.catalog();
    let reading = catalog.availability(raffle.id, Viewer::Public);
    let selling = async {
        pause.taken.await.ok();
        t.buy(&raffle, &zelle, &[1, 2]).await;
        pause.release.send(()).ok();
    };

    let (read, ()) = tokio::join!(reading, selling);

    assert_eq!(read.unwrap().available, 8, "the read's own answer");
    let next = t
        .catalog()
        .availability(raffle.id, Viewer::Public)
        .await
        .unwrap();
    assert_eq!(
        (next.available, next.pending),
        (8, 2),
        "the copy that read left behind"
    );
}

/// Ana's purchase of `count` numbers the server draws, at the server's price.
async fn buy_random(
    t: &Harness,
    raffle: &Raffle,
    method: &PaymentMethod,
    count: u32,
) -> Result<PurchaseReceipt, PurchaseError> {
    let mut random = request(method, &[], &t.price_of(raffle, count).await);
    random.tickets = TicketChoice::Random(count);
    t.purchasing()
        .purchase(raffle.id, Ok(random), PurchaseMode::Public, Lang::Es)
        .await
}

fn ten_numbers() -> RaffleSetup {
    RaffleSetup {
        max_tickets: 10,
        ..RaffleSetup::default()
    }
}

#[tokio::test]
async fn a_purchase_of_random_numbers_gets_that_many_free_ones_and_holds_them() {
    let t = Harness::new();
    let raffle = t.raffle(ten_numbers()).await;
    let zelle = t.method("Zelle").await;
    t.buy(&raffle, &zelle, &[1, 2, 3, 4, 5, 6, 7]).await;

    let receipt = buy_random(&t, &raffle, &zelle, 3).await.unwrap();

    assert_eq!(
        receipt.purchase.ticket_numbers,
        [8, 9, 10].map(TicketNumber::from_stored)
    );
    assert_eq!(receipt.purchase.total_amount.to_string(), "39.00");
    assert_eq!(t.store.held(raffle.id), (1..=10).collect::<Vec<_>>());
    let left = t
        .catalog()
        .availability(raffle.id, Viewer::Public)
        .await
        .unwrap();
    assert_eq!(
        (left.available, left.pending),
        (0, 10),
        "the copy took the drawn numbers at once, as pending"
    );
}

#[tokio::test]
async fn random_purchases_at_the_same_moment_never_draw_the_same_number() {
    let t = Harness::new();
    let raffle = t.raffle(ten_numbers()).await;
    let zelle = t.method("Zelle").await;

    let receipts =
        futures_util::future::join_all((0..5).map(|_| buy_random(&t, &raffle, &zelle, 2))).await;

    let mut drawn: Vec<u32> = receipts
        .into_iter()
        .flat_map(|r| r.unwrap().purchase.ticket_numbers)
        .map(TicketNumber::get)
        .collect();
    drawn.sort_unstable();
    assert_eq!(drawn, (1..=10).collect::<Vec<_>>());
}

#[tokio::test]
async fn asking_for_more_random_numbers_than_are_left_says_how_many_are_left() {
    let t = Harness::new();
    let raffle = t.raffle(ten_numbers()).await;
    let zelle = t.method("Zelle").await;
    t.buy(&raffle, &zelle, &[1, 2, 3, 4, 5, 6, 7, 8, 9]).await;

    let refused = buy_random(&t, &raffle, &zelle, 2).await;

    assert!(
        matches!(refused, Err(PurchaseError::TooFewLeft { available: 1 })),
        "{refused:?}"
    );
    assert_eq!(t.store.purchases().len(), 1);
    let left = t
        .catalog()
        .availability(raffle.id, Viewer::Public)
        .await
        .unwrap();
    assert_eq!(left.available, 1, "a refused draw gives its numbers back");
}

#[tokio::test]
async fn random_numbers_another_instance_sold_meanwhile_are_drawn_again() {
    let t = Harness::new();
    let raffle = t.raffle(ten_numbers()).await;
    let zelle = t.method("Zelle").await;
    let before = t
        .catalog()
        .availability(raffle.id, Viewer::Public)
        .await
        .unwrap();
    assert_eq!(before.available, 10);
    t.another_instance()
        .buy(&raffle, &zelle, &[1, 2, 3, 4, 5, 6, 7, 8, 9])
        .await;

    let receipt = buy_random(&t, &raffle, &zelle, 1).await.unwrap();

    assert_eq!(
        receipt.purchase.ticket_numbers,
        [TicketNumber::from_stored(10)]
    );
    assert_eq!(t.store.purchases().len(), 2);
}

#[tokio::test]
async fn a_random_count_outside_the_limits_is_refused_on_its_own_field() {
    let t = Harness::new();
    let raffle = t.raffle(ten_numbers()).await;
    let zelle = t.method("Zelle").await;

    let refused = buy_random(&t, &raffle, &zelle, 11).await;

    match refused {
        Err(PurchaseError::Invalid(errors)) => assert_eq!(
            errors.named(),
            [("randomCount", FieldError::TicketsAboveMaximum { max: 10 })]
        ),
        other => panic!("expected the count refused, got {other:?}"),
    }
    assert!(t.store.purchases().is_empty());
}

#[tokio::test]
async fn numbers_drawn_for_a_purchase_that_is_refused_go_back_at_once() {
    let t = Harness::new();
    let raffle = t
        .raffle(RaffleSetup {
            max_tickets: 10,
            max_per_purchase: Some(5),
            ..RaffleSetup::default()
        })
        .await;
    let zelle = t.method("Zelle").await;
    t.buy(&raffle, &zelle, &[1, 2, 3, 4]).await;

    let refused = buy_random(&t, &raffle, &zelle, 2).await;

    match refused {
        Err(PurchaseError::Invalid(errors)) => assert_eq!(
            errors.named(),
            [(
                "randomCount",
                FieldError::PerPersonLimit { max: 5, used: 4 }
            )]
        ),
        other => panic!("expected Ana's allowance refused, got {other:?}"),
    }
    let left = t
        .catalog()
        .availability(raffle.id, Viewer::Public)
        .await
        .unwrap();
    assert_eq!((left.available, left.pending), (6, 4));
    assert_eq!(t.store.held(raffle.id), [1, 2, 3, 4]);
}
