//! Holds that expire, sales that close, one allowance per person, reopening and the buyer's own
//! page (decision 0016), over the fakes: the store judges deadlines by the harness's clock, as
//! the database judges them by its own.

use chrono::TimeDelta;
use rifa_app::catalog::Viewer;
use rifa_app::proofs::{ProofFailure, UploadRequest};
use rifa_app::purchasing::{PurchaseError, PurchaseMode, PurchaseReceipt};
use rifa_app::review::ReopenFailure;
use rifa_domain::customer::Email;
use rifa_domain::purchase::{PurchaseEventKind, PurchaseStatus};
use rifa_domain::raffle::RaffleStatus;
use rifa_domain::ticket::TicketNumber;
use rifa_domain::{FieldError, Lang};
use rifa_ports::{MailKind, MailStatus, MailSubject, RaffleRepository};

use crate::support::{Harness, RaffleSetup, SITE, buyer, form, start_time};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x03\x20";

fn key(receipt: &PurchaseReceipt) -> &str {
    receipt.access_key.as_deref().unwrap()
}

async fn send_proof(t: &Harness, receipt: &PurchaseReceipt) -> Result<(), ProofFailure> {
    let upload = t
        .proofs()
        .grant_proof_upload(&UploadRequest {
            purchase_id: receipt.purchase.id,
            access_key: key(receipt).to_owned(),
            filename: "pago.png".into(),
            content_type: Some("image/png".into()),
            size: Some(PNG.len() as u64),
        })
        .await?;
    t.objects
        .put(crate::support::outbound::key_of(&upload), PNG);
    t.proofs()
        .attach_proof(receipt.purchase.id, key(receipt))
        .await
}

#[tokio::test]
async fn a_purchase_holds_its_numbers_for_the_raffles_window_only() {
    let t = Harness::new();
    let raffle = t
        .raffle(RaffleSetup {
            hold_minutes: 15,
            ..RaffleSetup::default()
        })
        .await;
    let zelle = t.method("Zelle").await;

    let receipt = t.buy(&raffle, &zelle, &[4, 5]).await;

    assert_eq!(
        receipt.purchase.hold_expires_at,
        Some(start_time() + TimeDelta::minutes(15))
    );
    t.clock.advance(TimeDelta::minutes(14));
    assert_eq!(t.holds().expire_due_holds().await.unwrap(), 0);
    assert_eq!(t.store.held(raffle.id), [4, 5]);

    t.clock.advance(TimeDelta::minutes(1));
    assert_eq!(t.holds().expire_due_holds().await.unwrap(), 1);

    let expired = &t.store.purchases()[0];
    assert_eq!(expired.status, PurchaseStatus::Expired);
    assert_eq!(expired.hold_expires_at, None);
    assert!(t.store.held(raffle.id).is_empty());
    assert_eq!(
        t.store.allowance(raffle.id, "email:ana@correo.com"),
        0,
        "the tickets no longer count against the buyer"
    );
    let expiry_mail: Vec<_> = t
        .store
        .mail()
        .into_iter()
        .filter(|m| m.kind == MailKind::Expired)
        .collect();
    assert_eq!(expiry_mail.len(), 1);
    assert_eq!(expiry_mail[0].subject, MailSubject::Purchase(expired.id));
    assert_eq!(t.holds().expire_due_holds().await.unwrap(), 0, "only once");
}

#[tokio::test]
async fn a_proof_in_time_freezes_the_hold_and_a_late_one_is_refused() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let on_time = t.buy(&raffle, &zelle, &[1]).await;
    let late = t
        .buy_as(
            &raffle,
            &zelle,
            &[2],
            buyer("Bea Gil", "bea@correo.com", "0412-765-4321"),
        )
        .await;

    t.clock.advance(TimeDelta::minutes(29));
    send_proof(&t, &on_time).await.unwrap();
    t.clock.advance(TimeDelta::minutes(1));
    let refused = send_proof(&t, &late).await;
    t.clock.advance(TimeDelta::days(2));
    t.holds().expire_due_holds().await.unwrap();

    assert!(
        matches!(refused, Err(ProofFailure::HoldExpired)),
        "{refused:?}"
    );
    let purchases = t.store.purchases();
    assert_eq!(purchases[0].status, PurchaseStatus::Pending, "frozen");
    assert_eq!(purchases[1].status, PurchaseStatus::Expired);
    assert_eq!(t.store.held(raffle.id), [1]);
}

#[tokio::test]
async fn the_hoarders_numbers_come_back_after_the_window() {
    let t = Harness::new();
    let raffle = t
        .raffle(RaffleSetup {
            max_tickets: 20,
            max_per_purchase: Some(10),
            ..RaffleSetup::default()
        })
        .await;
    let zelle = t.method("Zelle").await;
    // Two invented buyers take every number.
    t.buy_as(
        &raffle,
        &zelle,
        &(1..=10).collect::<Vec<_>>(),
        buyer("Uno", "uno@x.com", "0414-000-0001"),
    )
    .await;
    t.buy_as(
        &raffle,
        &zelle,
        &(11..=20).collect::<Vec<_>>(),
        buyer("Dos", "dos@x.com", "0414-000-0002"),
    )
    .await;
    let quote = t.price_of(&raffle, 1).await;
    let refused = t
        .purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[7], &quote),
            PurchaseMode::Public,
            Lang::Es,
        )
        .await;
    assert!(
        matches!(refused, Err(PurchaseError::NumbersTaken { .. })),
        "{refused:?}"
    );

    t.clock.advance(TimeDelta::minutes(30));
    let bought = t.buy(&raffle, &zelle, &[7]).await;

    // The clash expired the holds already due, without waiting for the sweep.
    assert_eq!(
        bought.purchase.ticket_numbers,
        [TicketNumber::from_stored(7)]
    );
    assert_eq!(t.store.held(raffle.id), [7]);
}

#[tokio::test]
async fn a_clash_expires_holds_only_when_the_raffles_copy_shows_one_due() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.buy(&raffle, &zelle, &[7]).await;
    t.catalog()
        .availability(raffle.id, Viewer::Public)
        .await
        .unwrap();
    let quote = t.price_of(&raffle, 1).await;
    let clash = || {
        t.purchasing().purchase(
            raffle.id,
            form(&zelle, &[7], &quote),
            PurchaseMode::Public,
            Lang::Es,
        )
    };

    let refused = clash().await;
    assert!(
        matches!(refused, Err(PurchaseError::NumbersTaken { .. })),
        "{refused:?}"
    );
    assert_eq!(t.store.expiry_runs(), 0, "the hold runs for minutes yet");

    t.clock.advance(TimeDelta::minutes(30));
    let bought = clash().await.unwrap();
    assert_eq!(
        t.store.expiry_runs(),
        1,
        "the due hold was expired by the clash"
    );
    assert_eq!(
        bought.purchase.ticket_numbers,
        [TicketNumber::from_stored(7)]
    );
}

#[tokio::test]
async fn release_alerts_are_sent_once_when_numbers_come_back() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let other = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.buy(&raffle, &zelle, &[1]).await;
    let watcher = Email::parse("Vigia@Correo.com").unwrap();
    for _ in 0..2 {
        t.holds()
            .ask_for_release_alert(raffle.id, &watcher, Lang::En)
            .await
            .unwrap();
    }
    t.holds()
        .ask_for_release_alert(other.id, &watcher, Lang::Es)
        .await
        .unwrap();

    t.clock.advance(TimeDelta::hours(1));
    t.holds().expire_due_holds().await.unwrap();

    let alerts: Vec<_> = t
        .store
        .mail()
        .into_iter()
        .filter(|m| m.kind == MailKind::NumbersReleased)
        .collect();
    assert_eq!(alerts.len(), 1, "one notice, though asked twice");
    assert_eq!(alerts[0].recipient, "vigia@correo.com");
    assert_eq!(alerts[0].subject, MailSubject::Raffle(raffle.id));
    assert_eq!(
        t.store.alerts(),
        [(other.id, "vigia@correo.com".to_owned())],
        "the raffle whose numbers came back consumed its alert; the other waits"
    );
    t.mail().deliver_due_mail(10).await.unwrap();
    let sent = t
        .mailer
        .sent()
        .into_iter()
        .find(|e| e.to == "vigia@correo.com")
        .unwrap();
    assert!(
        sent.subject.starts_with("numbers_released [en]"),
        "{}",
        sent.subject
    );
    assert_eq!(
        sent.text_body.trim(),
        format!("{SITE}/sorteo/{}?lang=en", raffle.id)
    );
}

#[tokio::test]
async fn an_alert_for_a_raffle_the_public_cannot_see_is_refused() {
    let t = Harness::new();
    let hidden = t
        .raffle(RaffleSetup {
            status: RaffleStatus::Inactive,
            ..RaffleSetup::default()
        })
        .await;

    let refused = t
        .holds()
        .ask_for_release_alert(hidden.id, &Email::parse("a@b.co").unwrap(), Lang::Es)
        .await;

    assert!(
        matches!(refused, Err(rifa_app::holds::AlertError::RaffleNotFound)),
        "{refused:?}"
    );
    assert!(t.store.alerts().is_empty());
}

#[tokio::test]
async fn one_person_may_hold_the_raffles_maximum_across_purchases() {
    let t = Harness::new();
    let raffle = t
        .raffle(RaffleSetup {
            max_per_purchase: Some(3),
            ..RaffleSetup::default()
        })
        .await;
    let zelle = t.method("Zelle").await;
    t.buy(&raffle, &zelle, &[1, 2]).await;
    let quote = t.price_of(&raffle, 2).await;
    // The same person by phone (another prefix), under another e-mail and document.
    let mut again = crate::support::request(&zelle, &[3, 4], &quote);
    again.customer = buyer("Ana R.", "otra@correo.com", "+58 414 123 4567");

    let refused = t
        .purchasing()
        .purchase(raffle.id, Ok(again), PurchaseMode::Public, Lang::Es)
        .await;

    let Err(PurchaseError::Invalid(errors)) = refused else {
        panic!("expected the per-person limit, got {refused:?}");
    };
    assert_eq!(
        errors.named(),
        [(
            "ticketNumbers",
            FieldError::PerPersonLimit { max: 3, used: 2 }
        )]
    );
    assert_eq!(t.store.held(raffle.id), [1, 2], "nothing written");
    // One more is within the allowance; an admin's test purchase counts against nobody.
    t.buy_as(
        &raffle,
        &zelle,
        &[3],
        buyer("Ana R.", "otra@correo.com", "+58 414 123 4567"),
    )
    .await;
    t.purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[9, 10, 11], &t.price_of(&raffle, 3).await),
            PurchaseMode::AdminTest(crate::support::reviewer()),
            Lang::Es,
        )
        .await
        .unwrap();
    assert_eq!(t.store.allowance(raffle.id, "phone:4141234567"), 3);
}

#[tokio::test]
async fn a_rejection_gives_the_allowance_back() {
    let t = Harness::new();
    let raffle = t
        .raffle(RaffleSetup {
            max_per_purchase: Some(2),
            ..RaffleSetup::default()
        })
        .await;
    let zelle = t.method("Zelle").await;
    let first = t.buy(&raffle, &zelle, &[1, 2]).await;

    t.review()
        .decide_purchase(
            first.purchase.id,
            "rejected",
            Some("sin pago"),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let second = t.buy(&raffle, &zelle, &[3, 4]).await;

    assert_eq!(second.purchase.status, PurchaseStatus::Pending);
    assert_eq!(t.store.allowance(raffle.id, "email:ana@correo.com"), 2);
}

#[tokio::test]
async fn sales_close_before_the_draw_whatever_the_status_says() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let draft = rifa_domain::raffle::RaffleDraft::parse(rifa_domain::raffle::RaffleInput {
        title: Some("RX-7".into()),
        description: Some("Win".into()),
        price: Some("13.00".parse().unwrap()),
        max_tickets: Some(100),
        max_tickets_per_purchase: Some(10),
        draw_date: Some("2025-07-27".into()),
        sales_close_hours_before_draw: Some(24),
        ..rifa_domain::raffle::RaffleInput::default()
    })
    .unwrap();
    t.store
        .update_raffle(raffle.id, &draft, &|_, _| crate::support::test_entry())
        .await
        .unwrap();
    let closing = draft.sales.closes_at(draft.draw_date, None).unwrap();
    let quote = t.price_of(&raffle, 1).await;
    t.clock.set(closing - TimeDelta::seconds(1));
    let in_time = t
        .purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[1], &quote),
            PurchaseMode::Public,
            Lang::Es,
        )
        .await;

    t.clock.set(closing);
    let too_late = t
        .purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[2], &quote),
            PurchaseMode::Public,
            Lang::Es,
        )
        .await;
    let rehearsal = t
        .purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[3], &quote),
            PurchaseMode::AdminTest(crate::support::reviewer()),
            Lang::Es,
        )
        .await;

    assert!(in_time.is_ok(), "{in_time:?}");
    assert!(
        matches!(too_late, Err(PurchaseError::SalesClosed { closed_at }) if closed_at == closing),
        "{too_late:?}"
    );
    assert!(rehearsal.is_ok(), "an admin's test purchase still works");
}

#[tokio::test]
async fn only_an_expired_purchase_can_be_reopened() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let lapsed = t.buy(&raffle, &zelle, &[5, 6]).await;
    t.clock.advance(TimeDelta::minutes(31));
    t.holds().expire_due_holds().await.unwrap();
    let pending = t
        .buy_as(
            &raffle,
            &zelle,
            &[7],
            buyer("Eva", "eva@correo.com", "0416-000-0000"),
        )
        .await;

    let refused = t
        .review()
        .reopen_purchase(pending.purchase.id, &crate::support::reviewer())
        .await;
    let reopened = t
        .review()
        .reopen_purchase(lapsed.purchase.id, &crate::support::reviewer())
        .await
        .unwrap();
    let again = t
        .review()
        .reopen_purchase(lapsed.purchase.id, &crate::support::reviewer())
        .await;

    assert!(
        matches!(
            refused,
            Err(ReopenFailure::NotExpired(PurchaseStatus::Pending))
        ),
        "{refused:?}"
    );
    assert_eq!(reopened.status, PurchaseStatus::Pending);
    assert!(
        matches!(
            again,
            Err(ReopenFailure::NotExpired(PurchaseStatus::Pending))
        ),
        "{again:?}"
    );
    assert_eq!(t.store.held(raffle.id), [5, 6, 7]);
}

#[tokio::test]
async fn reopening_names_the_numbers_sold_meanwhile_and_changes_nothing() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let lapsed = t.buy(&raffle, &zelle, &[5, 6, 9]).await;
    t.clock.advance(TimeDelta::minutes(30));
    t.holds().expire_due_holds().await.unwrap();
    t.buy_as(
        &raffle,
        &zelle,
        &[6, 9],
        buyer("Bea Gil", "bea@correo.com", "0412-765-4321"),
    )
    .await;

    let refused = t
        .review()
        .reopen_purchase(lapsed.purchase.id, &crate::support::reviewer())
        .await;

    match refused {
        Err(ReopenFailure::NumbersTaken {
            numbers,
            max_tickets,
        }) => {
            assert_eq!(numbers, [6, 9].map(TicketNumber::from_stored));
            assert_eq!(max_tickets, 100);
        }
        other => panic!("expected the taken numbers, got {other:?}"),
    }
    assert_eq!(t.store.purchases()[0].status, PurchaseStatus::Expired);
    assert_eq!(t.store.held(raffle.id), [6, 9]);
}

#[tokio::test]
async fn a_reopened_purchase_holds_again_with_a_fresh_window_and_says_so() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let lapsed = t.buy(&raffle, &zelle, &[5]).await;
    t.clock.advance(TimeDelta::hours(2));
    t.holds().expire_due_holds().await.unwrap();

    let reopened = t
        .review()
        .reopen_purchase(lapsed.purchase.id, &crate::support::reviewer())
        .await
        .unwrap();

    assert_eq!(
        reopened.hold_expires_at,
        Some(start_time() + TimeDelta::hours(2) + TimeDelta::minutes(30))
    );
    assert_eq!(t.store.held(raffle.id), [5]);
    assert_eq!(t.store.allowance(raffle.id, "email:ana@correo.com"), 1);
    let view = t
        .buyer()
        .buyer_view(lapsed.purchase.id, key(&lapsed))
        .await
        .unwrap();
    let kinds: Vec<_> = view.history.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            PurchaseEventKind::Received,
            PurchaseEventKind::Expired,
            PurchaseEventKind::Reopened
        ]
    );
    assert!(view.can_upload_proof);
}

#[tokio::test]
async fn the_buyers_page_follows_the_purchase_through_its_life() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let receipt = t.buy(&raffle, &zelle, &[3]).await;
    let (id, access) = (receipt.purchase.id, key(&receipt).to_owned());

    let fresh = t.buyer().buyer_view(id, &access).await.unwrap();
    send_proof(&t, &receipt).await.unwrap();
    let with_proof = t.buyer().buyer_view(id, &access).await.unwrap();
    t.review()
        .decide_purchase(
            id,
            "rejected",
            Some("El monto no coincide"),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let rejected = t.buyer().buyer_view(id, &access).await.unwrap();

    assert!(fresh.can_upload_proof);
    assert_eq!(
        fresh.purchase.hold_expires_at,
        receipt.purchase.hold_expires_at
    );
    assert_eq!(fresh.raffle.title, "RX-7");
    assert_eq!(fresh.now, start_time());
    assert!(!with_proof.can_upload_proof, "a proof is under review");
    assert_eq!(with_proof.purchase.hold_expires_at, None, "frozen");
    let history: Vec<_> = rejected
        .history
        .iter()
        .map(|e| (e.kind, e.note.as_deref()))
        .collect();
    assert_eq!(
        history,
        [
            (PurchaseEventKind::Received, None),
            (PurchaseEventKind::ProofAttached, None),
            (PurchaseEventKind::Rejected, Some("El monto no coincide")),
        ]
    );
    assert!(!rejected.can_upload_proof);
    for wrong in ["", "key-RF-999999"] {
        assert!(matches!(
            t.buyer().buyer_view(receipt.purchase.id, wrong).await,
            Err(ProofFailure::NotFound)
        ));
    }
}

#[tokio::test]
async fn every_purchase_e_mail_links_the_buyers_page() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let receipt = t.buy(&raffle, &zelle, &[3]).await;
    t.clock.advance(TimeDelta::minutes(30));
    t.holds().expire_due_holds().await.unwrap();

    t.mail().deliver_due_mail(10).await.unwrap();

    let link = format!(
        "{SITE}/compra/{}?lang=es#{}",
        receipt.purchase.id,
        key(&receipt)
    );
    let sent = t.mailer.sent();
    assert_eq!(sent.len(), 2, "received and expired");
    assert!(sent.iter().all(|e| e.text_body.contains(&link)), "{sent:?}");
    assert!(t.store.mail().iter().all(|m| m.status == MailStatus::Sent));
}

#[tokio::test]
async fn expiry_by_two_instances_releases_each_hold_once() {
    let t = Harness::new();
    let other = t.another_instance();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    for n in 1..=5_u32 {
        t.buy_as(
            &raffle,
            &zelle,
            &[n],
            buyer("B", &format!("b{n}@x.com"), &format!("0414-000-000{n}")),
        )
        .await;
    }
    t.clock.advance(TimeDelta::minutes(30));

    let (a, b) = tokio::join!(
        t.holds().expire_due_holds(),
        other.holds().expire_due_holds()
    );

    assert_eq!(a.unwrap() + b.unwrap(), 5);
    let expiry_mails = t
        .store
        .mail()
        .into_iter()
        .filter(|m| m.kind == MailKind::Expired)
        .count();
    assert_eq!(expiry_mails, 5);
    assert!(t.store.held(raffle.id).is_empty());
}
