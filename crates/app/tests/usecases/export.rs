//! The export: every match once, newest first, in batches, however many there are.

use futures_util::StreamExt;
use rifa_app::export::EXPORT_BATCH;
use rifa_domain::purchase::{PurchaseId, PurchaseQuery};

use crate::support::{Harness, RaffleSetup, buyer, every_purchase};

#[tokio::test]
async fn an_export_reads_every_match_once_newest_first_while_purchases_keep_arriving() {
    let t = Harness::new();
    let big = t
        .raffle(RaffleSetup {
            max_tickets: 99_999,
            ..RaffleSetup::default()
        })
        .await;
    let other = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    // The clock stands still: every purchase has the same time, and only the id orders them.
    let total = EXPORT_BATCH + 50;
    for n in 1..=total {
        let who = buyer("Ana", &format!("a{n}@correo.com"), &format!("0414{n:07}"));
        t.buy_as(&big, &zelle, &[n], who).await;
    }
    t.buy(&other, &zelle, &[1]).await;
    let query = PurchaseQuery {
        raffle_id: Some(big.id),
        ..every_purchase(10)
    };

    let mut batches = t.export().purchases(query);
    let first = batches.next().await.unwrap().unwrap();
    for n in 1..=3 {
        let who = buyer("Luis", &format!("l{n}@correo.com"), &format!("0424{n:07}"));
        t.buy_as(&big, &zelle, &[total + n], who).await;
    }
    let mut rest = Vec::new();
    while let Some(batch) = batches.next().await {
        rest.push(batch.unwrap());
    }

    let sizes: Vec<usize> = std::iter::once(first.len())
        .chain(rest.iter().map(Vec::len))
        .collect();
    assert_eq!(sizes, [EXPORT_BATCH as usize, 50]);
    let rows: Vec<_> = first.iter().chain(rest.iter().flatten()).collect();
    let ids: Vec<PurchaseId> = rows.iter().map(|r| r.purchase.id).collect();
    let mut newest_first = ids.clone();
    newest_first.sort_by_key(|id| std::cmp::Reverse(*id));
    assert_eq!(ids, newest_first, "newest first, none twice");
    assert!(rows.iter().all(|r| r.purchase.raffle_id == big.id));
    assert!(
        rows.iter().all(|r| r.purchase.customer_name == "Ana"),
        "none that arrived later"
    );
    assert_eq!(
        rows.last().unwrap().ticket_numbers,
        ["00001"],
        "padded to the raffle's width"
    );
}

#[tokio::test]
async fn an_export_of_nothing_ends_at_once() {
    let t = Harness::new();
    t.raffle(RaffleSetup::default()).await;

    let batches: Vec<_> = t.export().purchases(every_purchase(10)).collect().await;

    assert!(batches.is_empty());
}
