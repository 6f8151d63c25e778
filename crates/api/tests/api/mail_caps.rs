//! The cap on confirmations one address receives: anyone can buy with any address, so the
//! outbox withholds what passes `RIFA_MAIL_PER_RECIPIENT_HOUR`/`_DAY` (issue 11). The purchase
//! always goes through; admins see what was withheld, and why, and may send it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use futures_util::future::join_all;
use reqwest::{Method, StatusCode};
use rifa_api::Config;
use rifa_ports::RecipientCaps;
use serde_json::{Value, json};

use crate::helpers::{TestApp, expect_error};

/// Runs each test on SQLite and PostgreSQL with the given caps.
macro_rules! with_caps {
    ($($name:ident: $per_hour:expr, $per_day:expr;)+) => {$(
        mod $name {
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let config = capped(TestApp::sqlite_config(), $per_hour, $per_day);
                super::$name(TestApp::start(config, false).await).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(config) = TestApp::postgres_config().await {
                    let config = capped(config, $per_hour, $per_day);
                    super::$name(TestApp::start(config, true).await).await;
                }
            }
        }
    )+};
}

with_caps! {
    confirmations_past_the_hourly_cap_are_withheld_and_the_purchases_stand: 2, 10;
    confirmations_past_the_daily_cap_are_withheld_with_that_reason: 10, 2;
    concurrent_purchases_to_one_address_never_pass_the_cap: 3, 100;
    an_admin_can_send_a_withheld_confirmation_anyway: 1, 10;
}

fn capped(mut config: Config, per_hour: u32, per_day: u32) -> Config {
    config.mail.recipient_caps = RecipientCaps { per_hour, per_day };
    config
}

async fn shop(app: &TestApp) -> (i64, i64) {
    (
        // Up to 1,000 per purchase: one address buying again and again stays within its
        // allowance, so only the e-mail caps are at work.
        app.raffle("13", 1000, (1, 1000)).await,
        app.payment_method("Zelle", None).await,
    )
}

/// Buys number `n` for `email`, which must succeed; the purchase's id.
async fn buy(app: &TestApp, shop: (i64, i64), n: u32, email: &str) -> i64 {
    let response = app.buy(shop.0, shop.1, &[n], 1300, email).await;
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["purchase"]["id"].as_i64().unwrap()
}

async fn outbox(app: &TestApp, query: &str) -> Vec<Value> {
    app.admin_get(&format!("/api/admin/mail-outbox{query}"))
        .await
        .as_array()
        .unwrap()
        .clone()
}

/// The outbox row of each purchase, in the order given.
async fn rows_of(app: &TestApp, purchases: &[i64]) -> Vec<Value> {
    let all = outbox(app, "").await;
    purchases
        .iter()
        .map(|id| {
            all.iter()
                .find(|r| r["purchaseId"] == *id)
                .unwrap_or_else(|| panic!("no e-mail for purchase {id}: {all:?}"))
                .clone()
        })
        .collect()
}

fn is_withheld(row: &Value) -> bool {
    row["status"] == "withheld"
}

async fn confirmations_past_the_hourly_cap_are_withheld_and_the_purchases_stand(app: TestApp) {
    let shop = shop(&app).await;
    // One mailbox under three spellings: case and `+tags` do not escape the count.
    let first = buy(&app, shop, 1, "vic@example.com").await;
    let second = buy(&app, shop, 2, "Vic+1@Example.com").await;
    let third = buy(&app, shop, 3, "VIC+otra@example.com").await;
    let other = buy(&app, shop, 4, "ana@example.com").await;

    let rows = rows_of(&app, &[first, second, third, other]).await;
    assert!(!is_withheld(&rows[0]) && !is_withheld(&rows[1]), "{rows:?}");
    assert_eq!(rows[2]["status"], "withheld");
    assert_eq!(rows[2]["withheldReason"], "hourly_cap");
    assert_eq!(
        rows[2]["recipient"].as_str().unwrap().to_lowercase(),
        "vic+otra@example.com",
        "the outbox shows the address as typed"
    );
    assert!(!is_withheld(&rows[3]), "another address has its own count");
    assert!(rows[0]["withheldReason"].is_null());
    let purchase = app
        .admin_get(&format!("/api/admin/purchases/{third}"))
        .await;
    assert_eq!(purchase["status"], "pending", "the purchase itself stands");
    let withheld = outbox(&app, "?status=withheld").await;
    assert_eq!(withheld.len(), 1);
    assert_eq!(withheld[0]["purchaseId"], third);
}

async fn confirmations_past_the_daily_cap_are_withheld_with_that_reason(app: TestApp) {
    let shop = shop(&app).await;
    let bought = [
        buy(&app, shop, 1, "vic@example.com").await,
        buy(&app, shop, 2, "vic@example.com").await,
        buy(&app, shop, 3, "vic@example.com").await,
    ];

    let rows = rows_of(&app, &bought).await;
    assert!(!is_withheld(&rows[0]) && !is_withheld(&rows[1]), "{rows:?}");
    assert_eq!(rows[2]["status"], "withheld");
    assert_eq!(rows[2]["withheldReason"], "daily_cap");
}

async fn concurrent_purchases_to_one_address_never_pass_the_cap(app: TestApp) {
    let shop = shop(&app).await;

    let bought = join_all((1..=12).map(|n| buy(&app, shop, n, "vic@example.com"))).await;

    let rows = rows_of(&app, &bought).await;
    let sent = rows.iter().filter(|r| !is_withheld(r)).count();
    assert_eq!(sent, 3, "exactly the cap goes out: {rows:?}");
    assert!(
        rows.iter()
            .filter(|r| is_withheld(r))
            .all(|r| r["withheldReason"] == "hourly_cap")
    );
}

async fn an_admin_can_send_a_withheld_confirmation_anyway(app: TestApp) {
    let shop = shop(&app).await;
    buy(&app, shop, 1, "vic@example.com").await;
    let second = buy(&app, shop, 2, "vic@example.com").await;
    let withheld = rows_of(&app, &[second]).await.remove(0);
    assert_eq!(withheld["status"], "withheld");

    let id = withheld["id"].as_i64().unwrap();
    let retried = app
        .admin_send(
            Method::POST,
            &format!("/api/admin/mail-outbox/{id}/retry"),
            &json!({}),
        )
        .await;

    assert_eq!(retried.status(), StatusCode::NO_CONTENT);
    let row = rows_of(&app, &[second]).await.remove(0);
    assert!(
        row["status"] == "pending" || row["status"] == "sent",
        "{row}"
    );
    assert!(row["withheldReason"].is_null());
    let again = app
        .admin_send(
            Method::POST,
            &format!("/api/admin/mail-outbox/{id}/retry"),
            &json!({}),
        )
        .await;
    expect_error(again, StatusCode::NOT_FOUND, "not_found").await;
}
