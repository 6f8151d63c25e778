//! PostgreSQL dropping the pool's connections under the API.

use futures_util::future::join_all;
use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::helpers::TestApp;

/// Reads of several kinds at once, as a busy site makes them; their statuses.
async fn burst_of_reads(app: &TestApp, raffle: i64, count: usize) -> Vec<StatusCode> {
    let paths = [
        "/api/raffles".to_owned(),
        format!("/api/raffles/{raffle}"),
        "/api/admin/purchases".to_owned(),
        "/api/admin/me".to_owned(),
        "/api/payment-methods".to_owned(),
    ];
    let requests = (0..count).map(|n| app.as_admin(Method::GET, &paths[n % paths.len()]).send());
    join_all(requests)
        .await
        .into_iter()
        .map(|r| r.unwrap().status())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_survive_postgres_dropping_every_pooled_connection() {
    let Some(app) = TestApp::postgres().await else {
        return;
    };
    let raffle = app.raffle("13", 100, (1, 5)).await;
    // Open many pooled connections, then have the server drop all of them.
    burst_of_reads(&app, raffle, 40).await;
    let dropped = rifa_test_support::terminate_other_connections(&app.config.database_url).await;
    assert!(dropped >= 2, "only {dropped} pooled connections to drop");

    let statuses = burst_of_reads(&app, raffle, 60).await;

    assert!(
        statuses.iter().all(|s| *s == StatusCode::OK),
        "{statuses:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_purchase_on_a_dropped_connection_is_a_503_to_retry_and_writes_nothing() {
    let Some(app) = TestApp::postgres().await else {
        return;
    };
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    // Every cache warm, many idle connections: the write's transaction starts on a dead one.
    burst_of_reads(&app, raffle, 40).await;
    let warm = app
        .buy(raffle, method, &[1], 1300, "warm@example.com")
        .await;
    assert_eq!(warm.status(), StatusCode::CREATED);
    rifa_test_support::terminate_other_connections(&app.config.database_url).await;

    let refused = app.buy(raffle, method, &[7], 1300, "ana@example.com").await;

    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(refused.headers()["retry-after"], "2");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["code"], "service_unavailable", "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("Inténtalo de nuevo")
    );
    // Nothing of it was written: number 7 is free and a retry buys it.
    assert!(app.available(raffle).await.contains(&7));
    let retried = app.buy(raffle, method, &[7], 1300, "ana@example.com").await;
    assert_eq!(retried.status(), StatusCode::CREATED);
    let purchases = app.admin_get("/api/admin/purchases").await;
    let buyers = purchases.to_string().matches("ana@example.com").count();
    assert_eq!(buyers, 1, "{purchases}");
}
