//! The admin's side of purchases: deciding them, finding them, and the dashboard's figures.

use chrono::{NaiveDate, TimeDelta};
use rifa_app::review::{DayPeriod, DecideError, Decider, MAX_PAGE_SIZE, decision_of};
use rifa_domain::audit::{AuditAction, AuditEntry, Change};
use rifa_domain::purchase::PurchaseId;
use rifa_domain::purchase::{NotPending, PurchaseEventKind, PurchaseStatus, Verdict};
use rifa_domain::raffle::RaffleStatus;
use rifa_domain::stats::DaySales;
use rifa_domain::ticket::TicketNumber;
use rifa_ports::{MailKind, MailStatus, PurchaseDecision, PurchaseQuery};

use crate::support::{Harness, RaffleSetup, every_purchase, fields, reviewer, start_time};

#[tokio::test]
async fn an_approval_keeps_the_numbers_and_queues_the_approved_mail() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let bought = t.buy(&raffle, &zelle, &[3, 4]).await.purchase;
    t.clock.advance(TimeDelta::hours(2));

    let approved = t
        .review()
        .decide_purchase(bought.id, "approved", Some("paid, ref 42"), &reviewer())
        .await
        .unwrap();

    assert_eq!(approved.status, PurchaseStatus::Approved);
    assert_eq!(approved.admin_notes.as_deref(), Some("paid, ref 42"));
    assert_eq!(
        approved.decided_at,
        Some(start_time() + TimeDelta::hours(2))
    );
    assert_eq!(t.store.held(raffle.id), [3, 4]);
    let decision = t.store.mail().pop().unwrap();
    assert_eq!(
        (decision.kind, decision.status, decision.recipient.as_str()),
        (MailKind::Approved, MailStatus::Pending, "ana@correo.com")
    );
}

#[tokio::test]
async fn a_rejection_frees_the_numbers_for_the_next_buyer_and_queues_the_rejected_mail() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let bought = t.buy(&raffle, &zelle, &[3, 4]).await.purchase;

    let rejected = t
        .review()
        .decide_purchase(
            bought.id,
            "rejected",
            Some("no payment arrived"),
            &reviewer(),
        )
        .await
        .unwrap();

    assert_eq!(rejected.status, PurchaseStatus::Rejected);
    assert!(t.store.held(raffle.id).is_empty());
    assert_eq!(t.store.mail().pop().unwrap().kind, MailKind::Rejected);
    let again = t.buy(&raffle, &zelle, &[3, 4]).await;
    assert_eq!(again.purchase.status, PurchaseStatus::Pending);
}

#[tokio::test]
async fn storage_is_handed_the_use_cases_decision_with_its_time_to_the_millisecond() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let kept = t.buy(&raffle, &zelle, &[1]).await.purchase;
    let refused = t.buy(&raffle, &zelle, &[2]).await.purchase;
    // Sub-millisecond time is dropped: both databases store milliseconds.
    t.clock.advance(TimeDelta::microseconds(1_500));
    let decided_at = start_time() + TimeDelta::milliseconds(1);

    t.review()
        .decide_purchase(kept.id, "approved", None, &reviewer())
        .await
        .unwrap();
    t.review()
        .decide_purchase(refused.id, "rejected", Some("no payment"), &reviewer())
        .await
        .unwrap();

    let reject = Verdict::Reject {
        notes: "no payment".into(),
    };
    assert_eq!(
        t.store.decisions(),
        [
            (
                kept.id,
                decision_of(
                    &Verdict::Approve { notes: None },
                    decided_at,
                    Decider::One(&reviewer()),
                    kept.id
                )
            ),
            (
                refused.id,
                decision_of(&reject, decided_at, Decider::One(&reviewer()), refused.id)
            ),
        ]
    );
    assert_eq!(
        t.store.decisions()[1].1,
        PurchaseDecision {
            status: PurchaseStatus::Rejected,
            notes: Some("no payment".into()),
            decided_at,
            release_numbers: true,
            mail: MailKind::Rejected,
            history: PurchaseEventKind::Rejected,
            audit: AuditEntry {
                at: decided_at,
                actor: reviewer(),
                action: AuditAction::PurchaseDecided,
                target: Some(format!("purchase:{}", refused.id.get())),
                changes: vec![
                    Change::new("status", Some("pending".into()), Some("rejected".into())),
                    Change::new("adminNotes", None, Some("no payment".into())),
                ],
            },
        }
    );
    let trail = t.store.trail();
    assert_eq!(
        trail
            .iter()
            .filter(|c| c.entry.action == AuditAction::PurchaseDecided)
            .map(|c| c.entry.target.clone())
            .collect::<Vec<_>>(),
        [
            Some(format!("purchase:{}", kept.id.get())),
            Some(format!("purchase:{}", refused.id.get()))
        ],
        "each decision leaves its entry in the trail"
    );
    assert_eq!(t.store.held(raffle.id), [1]);
}

#[tokio::test]
async fn an_invalid_verdict_never_reaches_storage() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let bought = t.buy(&raffle, &zelle, &[1]).await.purchase;

    let unnoted = t
        .review()
        .decide_purchase(bought.id, "rejected", None, &reviewer())
        .await;
    let unknown = t
        .review()
        .decide_purchase(bought.id, "paid", None, &reviewer())
        .await;

    assert!(matches!(unnoted, Err(DecideError::Invalid(_))));
    assert!(matches!(unknown, Err(DecideError::Invalid(_))));
    assert!(t.store.decisions().is_empty());
    assert_eq!(t.store.held(raffle.id), [1]);
}

#[tokio::test]
async fn a_rejection_needs_a_note_and_a_verdict_must_be_known() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let bought = t.buy(&raffle, &zelle, &[1]).await.purchase;

    for (status, notes, field) in [
        ("rejected", None, "adminNotes"),
        ("rejected", Some("   "), "adminNotes"),
        ("pending", None, "status"),
    ] {
        match t
            .review()
            .decide_purchase(bought.id, status, notes, &reviewer())
            .await
        {
            Err(DecideError::Invalid(errors)) => assert_eq!(fields(&errors), [field]),
            other => panic!("{status} {notes:?}: expected {field} invalid, got {other:?}"),
        }
    }
    assert_eq!(t.store.purchases()[0].status, PurchaseStatus::Pending);
    assert_eq!(t.store.mail().len(), 1);
}

#[tokio::test]
async fn a_purchase_is_decided_once() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let bought = t.buy(&raffle, &zelle, &[1]).await.purchase;
    t.review()
        .decide_purchase(bought.id, "approved", None, &reviewer())
        .await
        .unwrap();

    let second = t
        .review()
        .decide_purchase(bought.id, "rejected", Some("late"), &reviewer())
        .await;
    let missing = t
        .review()
        .decide_purchase(PurchaseId::new(9_999), "approved", None, &reviewer())
        .await;

    match second {
        Err(DecideError::NotPending(NotPending { current })) => {
            assert_eq!(current, PurchaseStatus::Approved);
        }
        other => panic!("expected not pending, got {other:?}"),
    }
    assert!(matches!(missing, Err(DecideError::NotFound)), "{missing:?}");
    assert_eq!(t.store.held(raffle.id), [1]);
    let kinds: Vec<_> = t.store.mail().iter().map(|m| m.kind).collect();
    assert_eq!(kinds, [MailKind::Received, MailKind::Approved]);
}

#[tokio::test]
async fn a_search_serves_newest_first_within_the_page_size_bounds() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let mut ids = Vec::new();
    for number in 1..=5 {
        ids.push(t.buy(&raffle, &zelle, &[number]).await.purchase.id);
        t.clock.advance(TimeDelta::minutes(1));
    }

    let second = t
        .review()
        .search_purchases(PurchaseQuery {
            page: 2,
            page_size: 2,
            ..every_purchase(20)
        })
        .await
        .unwrap();
    let tiny = t
        .review()
        .search_purchases(PurchaseQuery {
            page: 0,
            page_size: 0,
            ..every_purchase(20)
        })
        .await
        .unwrap();
    let huge = t
        .review()
        .search_purchases(PurchaseQuery {
            page_size: 10_000,
            ..every_purchase(20)
        })
        .await
        .unwrap();

    let page_ids: Vec<_> = second.result.items.iter().map(|p| p.id).collect();
    assert_eq!(page_ids, [ids[2], ids[1]]);
    assert_eq!(
        (second.page, second.page_size, second.result.total),
        (2, 2, 5)
    );
    assert_eq!(
        (tiny.page, tiny.page_size, tiny.result.items.len()),
        (1, 1, 1)
    );
    assert_eq!(tiny.result.items[0].id, ids[4]);
    assert_eq!(
        (huge.page_size, huge.result.items.len()),
        (MAX_PAGE_SIZE, 5)
    );
}

#[tokio::test]
async fn a_search_filters_and_sums_every_match_not_just_the_page() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let first = t.buy(&raffle, &zelle, &[1, 2]).await.purchase;
    let second = t.buy(&raffle, &zelle, &[3]).await.purchase;
    t.buy(&raffle, &zelle, &[4]).await;
    t.review()
        .decide_purchase(first.id, "approved", None, &reviewer())
        .await
        .unwrap();
    t.review()
        .decide_purchase(second.id, "approved", None, &reviewer())
        .await
        .unwrap();

    let approved = t
        .review()
        .search_purchases(PurchaseQuery {
            status: Some(PurchaseStatus::Approved),
            page_size: 1,
            ..every_purchase(20)
        })
        .await
        .unwrap();
    let holding_two = t
        .review()
        .all_purchases(PurchaseQuery {
            ticket_numbers: vec![TicketNumber::from_stored(2)],
            ..every_purchase(20)
        })
        .await
        .unwrap();

    assert_eq!(approved.result.total, 2);
    assert_eq!(approved.result.items.len(), 1);
    let summary = approved.result.summary.unwrap();
    assert_eq!(summary.tickets_sold, 3);
    assert_eq!(summary.total_revenue.to_string(), "39.00");
    assert_eq!(
        holding_two.items.iter().map(|p| p.id).collect::<Vec<_>>(),
        [first.id]
    );
    assert_eq!(
        t.review()
            .purchase_by_id(second.id)
            .await
            .unwrap()
            .unwrap()
            .id,
        second.id
    );
    assert_eq!(
        t.review()
            .purchase_by_id(PurchaseId::new(9_999))
            .await
            .unwrap(),
        None
    );
}

#[tokio::test]
async fn the_dashboard_counts_approved_sales_pending_purchases_and_raffles_on_sale() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    t.raffle(RaffleSetup {
        status: RaffleStatus::Finished,
        ..RaffleSetup::default()
    })
    .await;
    let zelle = t.method("Zelle").await;
    let sold = t.buy(&raffle, &zelle, &[1, 2]).await.purchase;
    let refused = t.buy(&raffle, &zelle, &[3]).await.purchase;
    t.buy(&raffle, &zelle, &[4]).await;
    t.review()
        .decide_purchase(sold.id, "approved", None, &reviewer())
        .await
        .unwrap();
    t.review()
        .decide_purchase(refused.id, "rejected", Some("no"), &reviewer())
        .await
        .unwrap();

    let stats = t.review().dashboard_stats(None).await.unwrap();

    assert_eq!(stats.tickets_sold, 2);
    assert_eq!(stats.total_revenue.to_string(), "26.00");
    assert_eq!(stats.pending_purchases, 1);
    assert_eq!(stats.active_raffles, 1);
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

#[tokio::test]
async fn daily_sales_count_local_days_and_fill_the_empty_ones_with_zeros() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    // 2025-07-27 02:00 UTC is still the 26th in Caracas (UTC−4).
    t.clock.advance(TimeDelta::hours(14));
    let late = t.buy(&raffle, &zelle, &[1, 2]).await.purchase;
    t.review()
        .decide_purchase(late.id, "approved", None, &reviewer())
        .await
        .unwrap();
    let caracas = DayPeriod::new(day("2025-07-25"), day("2025-07-27"), -240).unwrap();

    let series = t.review().daily_sales(&caracas).await.unwrap();

    assert_eq!(series.len(), 3);
    assert_eq!(series[0], DaySales::empty(day("2025-07-25")));
    assert_eq!(
        (series[1].date, series[1].tickets_sold, series[1].purchases),
        (day("2025-07-26"), 2, 1)
    );
    assert_eq!(series[1].revenue.to_string(), "26.00");
    assert_eq!(series[2], DaySales::empty(day("2025-07-27")));
}
