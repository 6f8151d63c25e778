//! Many buyers racing for overlapping numbers: the database, not a prior check, decides.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::TestApp;
use crate::on_both;

on_both!(
    racing_buyers_never_share_a_number_and_every_answer_adds_up,
    a_method_created_a_moment_ago_is_taken_by_every_buyer_at_once,
);

const BUYERS: usize = 48;
const NUMBERS: u32 = 60;

async fn racing_buyers_never_share_a_number_and_every_answer_adds_up(app: TestApp) {
    let raffle = app.raffle("1", NUMBERS, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let app = Arc::new(app);

    // Buyer i wants i%NUMBERS+1 and its next two: every number is wanted by several buyers.
    let tasks: Vec<_> = (0..BUYERS)
        .map(|i| {
            let app = Arc::clone(&app);
            let wanted: Vec<u32> = (0..3)
                .map(|k| u32::try_from((i * 2 + k) % NUMBERS as usize).unwrap() + 1)
                .collect();
            tokio::spawn(async move {
                let response = app
                    .buy(
                        raffle,
                        method,
                        &wanted,
                        100,
                        &format!("buyer{i}@example.com"),
                    )
                    .await;
                let status = response.status();
                let body: Value = response.json().await.unwrap();
                (wanted, status, body)
            })
        })
        .collect();

    let mut sold: HashMap<u32, usize> = HashMap::new();
    let (mut successes, mut conflicts) = (0, 0);
    for task in tasks {
        let (wanted, status, body) = task.await.unwrap();
        match status {
            StatusCode::CREATED => {
                successes += 1;
                for n in wanted {
                    *sold.entry(n).or_default() += 1;
                }
            }
            StatusCode::CONFLICT => {
                conflicts += 1;
                assert_eq!(body["code"], "tickets_taken", "{body}");
                let taken: HashSet<u64> = body["numbers"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_u64().unwrap())
                    .collect();
                assert!(!taken.is_empty());
                assert!(
                    taken
                        .iter()
                        .all(|n| wanted.contains(&u32::try_from(*n).unwrap())),
                    "409 names only numbers asked for"
                );
            }
            other => panic!("unexpected {other}: {body}"),
        }
    }

    assert_eq!(successes + conflicts, BUYERS);
    assert!(
        successes > 0 && conflicts > 0,
        "the race was real: {successes} won, {conflicts} lost"
    );
    assert!(
        sold.values().all(|count| *count == 1),
        "a number was sold twice: {sold:?}"
    );
    let available = app.available(raffle).await;
    assert_eq!(available.len() + sold.len(), NUMBERS as usize);
    assert!(available.iter().all(|n| !sold.contains_key(n)));
    let page = app
        .admin_get(&format!(
            "/api/admin/purchases/search?raffleId={raffle}&pageSize=100"
        ))
        .await;
    assert_eq!(page["total"], successes);
}

/// The methods on offer are cached: this instance's own write must reach every buyer after it,
/// not only the one who happens to reload the copy.
async fn a_method_created_a_moment_ago_is_taken_by_every_buyer_at_once(app: TestApp) {
    let raffle = app.raffle("1", 200, (1, 5)).await;
    let zelle = app.payment_method("Zelle", None).await;
    let first = app.buy(raffle, zelle, &[1], 100, "first@example.com").await;
    assert_eq!(
        first.status(),
        StatusCode::CREATED,
        "the copy of the methods is loaded"
    );
    let binance = app.payment_method("Binance", None).await;
    let app = Arc::new(app);

    let tasks: Vec<_> = (0..32_u32)
        .map(|i| {
            let app = Arc::clone(&app);
            tokio::spawn(async move {
                let response = app
                    .buy(raffle, binance, &[i + 2], 100, &format!("b{i}@example.com"))
                    .await;
                (response.status(), response.text().await.unwrap())
            })
        })
        .collect();

    for task in tasks {
        let (status, body) = task.await.unwrap();
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
}
