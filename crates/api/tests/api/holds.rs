//! Holds that expire, sales that close, one allowance per person, reopening and the buyer's own
//! page, over HTTP on both databases (decision 0016). Tests cannot wait half an hour: they move
//! a purchase's deadline in the database, and the sweeper (every 200 ms in tests) and the attach
//! judge it by the database's clock.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use chrono::{TimeDelta, Utc};
use reqwest::{Method, Response, StatusCode};
use rifa_api::Config;
use serde_json::{Value, json};

use crate::helpers::{TestApp, count_rows, expect_error, first_prize, set_hold_deadline};
use crate::on_both;
use crate::proofs::PNG;

on_both!(
    a_purchase_answers_its_deadline_and_the_link_to_the_buyers_page,
    the_hoarders_numbers_come_back_after_the_window,
    expiry_races_buyers_taking_the_released_numbers_and_nothing_is_sold_twice,
    the_per_person_allowance_holds_against_purchases_in_parallel,
    sales_close_at_the_draw_or_hours_before_it_whatever_the_status,
    the_buyers_page_follows_every_status,
    an_expired_purchase_is_reopened_only_while_its_numbers_are_free,
    a_release_alert_is_one_notice_when_numbers_come_back,
    held_and_sold_out_raffles_say_which,
    the_raffle_form_sets_the_hold_and_the_close,
);

mod a_proof_in_the_last_second_attaches_and_one_a_second_late_does_not {
    use super::{TestApp, unswept};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        super::a_proof_in_the_last_second_attaches_and_one_a_second_late_does_not(
            TestApp::start(unswept(TestApp::sqlite_config()), false).await,
        )
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres() {
        if let Some(config) = TestApp::postgres_config().await {
            super::a_proof_in_the_last_second_attaches_and_one_a_second_late_does_not(
                TestApp::start(unswept(config), true).await,
            )
            .await;
        }
    }
}

mod two_instances_sweeping_together_expire_each_hold_once {
    use super::TestApp;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        let app = TestApp::sqlite().await;
        let other = app.another_instance().await;
        super::two_instances_sweeping_together_expire_each_hold_once(app, other).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres() {
        if let Some(app) = TestApp::postgres().await {
            let other = app.another_instance().await;
            super::two_instances_sweeping_together_expire_each_hold_once(app, other).await;
        }
    }
}

/// No sweeps during the test: what expires is only what the request itself judges.
fn unswept(mut config: Config) -> Config {
    config.hold_sweep_every = Duration::from_secs(3_600);
    config
}

/// A purchase as its buyer holds it.
struct Bought {
    id: i64,
    token: String,
    body: Value,
}

async fn buy(app: &TestApp, raffle: i64, method: i64, numbers: &[u32], email: &str) -> Bought {
    let response = app.buy(raffle, method, numbers, 1300, email).await;
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{body}");
    Bought {
        id: body["purchase"]["id"].as_i64().unwrap(),
        token: body["purchaseToken"].as_str().unwrap().to_owned(),
        body,
    }
}

/// Makes the purchases' holds due a second ago.
async fn lapse(app: &TestApp, purchases: &[&Bought]) {
    for purchase in purchases {
        set_hold_deadline(app, purchase.id, Utc::now() - TimeDelta::seconds(1)).await;
    }
}

/// Polls `done` until it holds or 20 s pass.
async fn eventually(what: &str, mut done: impl AsyncFnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if done().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what} did not happen within 20 s");
}

async fn status_of(app: &TestApp, id: i64) -> String {
    app.admin_get(&format!("/api/admin/purchases/{id}")).await["status"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn buyer_view(app: &TestApp, id: i64, token: &str) -> Response {
    app.request(Method::GET, &format!("/api/purchases/{id}/buyer"))
        .header("X-Purchase-Token", token)
        .send()
        .await
        .unwrap()
}

async fn buyer_view_ok(app: &TestApp, bought: &Bought) -> Value {
    let response = buyer_view(app, bought.id, &bought.token).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["cache-control"], "private, no-store");
    response.json().await.unwrap()
}

/// The upload URL, the upload and the attach; the attach's answer.
async fn send_proof(app: &TestApp, bought: &Bought) -> Response {
    let grant = app
        .request(Method::POST, "/api/objects/upload")
        .json(&json!({
            "filename": "pago.png", "contentType": "image/png", "size": PNG.len(),
            "purchaseId": bought.id, "purchaseToken": bought.token,
        }))
        .send()
        .await
        .unwrap();
    if grant.status() != StatusCode::OK {
        return grant;
    }
    let grant: Value = grant.json().await.unwrap();
    let url = grant["uploadURL"].as_str().unwrap();
    let mut put = app.client.put(app.url(url)).body(PNG.to_vec());
    for (name, value) in grant["uploadHeaders"].as_object().unwrap() {
        put = put.header(name, value.as_str().unwrap());
    }
    assert!(put.send().await.unwrap().status().is_success());
    app.request(
        Method::PUT,
        &format!("/api/purchases/{}/payment-proof", bought.id),
    )
    .json(&json!({"purchaseToken": bought.token}))
    .send()
    .await
    .unwrap()
}

async fn outbox(app: &TestApp) -> Vec<Value> {
    app.admin_get("/api/admin/mail-outbox?limit=500")
        .await
        .as_array()
        .unwrap()
        .clone()
}

async fn a_purchase_answers_its_deadline_and_the_link_to_the_buyers_page(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;

    let bought = buy(&app, raffle, method, &[7], "ana@example.com").await;

    let deadline: chrono::DateTime<Utc> = bought.body["holdExpiresAt"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let window = deadline - Utc::now();
    assert!(
        window > TimeDelta::minutes(29) && window <= TimeDelta::minutes(30),
        "{window}"
    );
    assert_eq!(
        bought.body["buyerPagePath"],
        format!("/compra/{}#{}", bought.id, bought.token)
    );
    let admin = app
        .admin_get(&format!("/api/admin/purchases/{}", bought.id))
        .await;
    assert_eq!(admin["holdExpiresAt"], bought.body["holdExpiresAt"]);
}

async fn the_hoarders_numbers_come_back_after_the_window(app: TestApp) {
    // Two invented buyers hold every number of a raffle in a second.
    let raffle = app.raffle("13", 20, (1, 10)).await;
    let method = app.payment_method("Zelle", None).await;
    let first = buy(
        &app,
        raffle,
        method,
        &(1..=10).collect::<Vec<_>>(),
        "x1@spam.example",
    )
    .await;
    let second = buy(
        &app,
        raffle,
        method,
        &(11..=20).collect::<Vec<_>>(),
        "x2@spam.example",
    )
    .await;
    assert!(app.available(raffle).await.is_empty());
    expect_error(
        app.buy(raffle, method, &[5], 1300, "real@example.com")
            .await,
        StatusCode::CONFLICT,
        "tickets_taken",
    )
    .await;

    lapse(&app, &[&first, &second]).await;

    eventually("the sweep", async || {
        app.available(raffle).await.len() == 20
    })
    .await;
    assert_eq!(status_of(&app, first.id).await, "expired");
    assert_eq!(status_of(&app, second.id).await, "expired");
    buy(&app, raffle, method, &[5], "real@example.com").await;
    let expiries: Vec<Value> = outbox(&app)
        .await
        .into_iter()
        .filter(|m| m["kind"] == "expired")
        .collect();
    assert_eq!(expiries.len(), 2);
    let told: BTreeSet<_> = expiries
        .iter()
        .map(|m| m["recipient"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        told,
        BTreeSet::from(["x1@spam.example".to_owned(), "x2@spam.example".to_owned()])
    );
}

async fn expiry_races_buyers_taking_the_released_numbers_and_nothing_is_sold_twice(app: TestApp) {
    let raffle = app.raffle("13", 40, (1, 2)).await;
    let method = app.payment_method("Zelle", None).await;
    let mut holders = Vec::new();
    for n in 0..20_u32 {
        holders.push(
            buy(
                &app,
                raffle,
                method,
                &[2 * n + 1, 2 * n + 2],
                &format!("h{n}@example.com"),
            )
            .await,
        );
    }
    lapse(&app, &holders.iter().collect::<Vec<_>>()).await;

    // While the sweeper releases them, 16 buyers race for the same 40 numbers, a pair each.
    let racers = (0..16_u32).map(|b| {
        let app = &app;
        async move {
            let mut won = Vec::new();
            for round in 0..10_u32 {
                let pair = [(b + round * 3) % 40 + 1, (b * 7 + round) % 40 + 1];
                if pair[0] == pair[1] {
                    continue;
                }
                let response = app
                    .buy(
                        raffle,
                        method,
                        &pair,
                        1300,
                        &format!("r{b}-{round}@example.com"),
                    )
                    .await;
                match response.status() {
                    StatusCode::CREATED => won.extend(pair),
                    StatusCode::CONFLICT => {}
                    other => panic!("unexpected {other}: {}", response.text().await.unwrap()),
                }
            }
            won
        }
    });
    let won: Vec<u32> = futures_util::future::join_all(racers)
        .await
        .into_iter()
        .flatten()
        .collect();

    let unique: BTreeSet<u32> = won.iter().copied().collect();
    assert_eq!(unique.len(), won.len(), "a number was sold twice: {won:?}");
    eventually("every hold expired", async || {
        count_rows(
            &app,
            "SELECT COUNT(*) AS n FROM purchases WHERE status = 'expired'",
        )
        .await
            == 20
    })
    .await;
    assert_eq!(
        count_rows(
            &app,
            "SELECT COUNT(*) AS n FROM purchase_events WHERE kind = 'expired'"
        )
        .await,
        20,
        "each purchase expired once"
    );
    assert_eq!(
        count_rows(
            &app,
            &format!(
                "SELECT COUNT(*) AS n FROM (SELECT number FROM purchase_tickets \
                 WHERE raffle_id = {raffle} AND held GROUP BY number HAVING COUNT(*) > 1) AS twice"
            )
        )
        .await,
        0
    );
    let held = 40 - app.available(raffle).await.len();
    assert_eq!(held, won.len(), "what is held is exactly what was won");
}

async fn two_instances_sweeping_together_expire_each_hold_once(app: TestApp, other: TestApp) {
    let raffle = app.raffle("13", 200, (1, 2)).await;
    let method = app.payment_method("Zelle", None).await;
    let mut holders = Vec::new();
    for n in 0..60_u32 {
        holders.push(buy(&app, raffle, method, &[n + 1], &format!("h{n}@example.com")).await);
    }

    lapse(&app, &holders.iter().collect::<Vec<_>>()).await;

    eventually("every hold expired", async || {
        count_rows(
            &app,
            "SELECT COUNT(*) AS n FROM purchases WHERE status = 'expired'",
        )
        .await
            == 60
    })
    .await;
    // Both instances kept sweeping meanwhile; give them a few more rounds.
    tokio::time::sleep(Duration::from_millis(600)).await;
    for (sql, expected) in [
        (
            "SELECT COUNT(*) AS n FROM purchase_events WHERE kind = 'expired'",
            60,
        ),
        (
            "SELECT COUNT(*) AS n FROM mail_outbox WHERE kind = 'expired'",
            60,
        ),
        ("SELECT COUNT(*) AS n FROM purchase_tickets WHERE held", 0),
        (
            "SELECT CAST(COALESCE(SUM(tickets), 0) AS BIGINT) AS n FROM buyer_allowance",
            0,
        ),
    ] {
        assert_eq!(count_rows(&app, sql).await, expected, "{sql}");
    }
    assert_eq!(other.available(raffle).await.len(), 200);
}

async fn a_proof_in_the_last_second_attaches_and_one_a_second_late_does_not(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let in_time = buy(&app, raffle, method, &[1], "a@example.com").await;
    let late = buy(&app, raffle, method, &[2], "b@example.com").await;
    set_hold_deadline(
        &app,
        in_time.id,
        Utc::now() + TimeDelta::milliseconds(1_500),
    )
    .await;
    set_hold_deadline(&app, late.id, Utc::now() - TimeDelta::seconds(1)).await;

    let attached = send_proof(&app, &in_time).await;
    let refused = send_proof(&app, &late).await;

    assert_eq!(attached.status(), StatusCode::OK);
    let body = expect_error(refused, StatusCode::CONFLICT, "hold_expired").await;
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("El plazo para enviar el comprobante"),
        "{body}"
    );
    // The attached proof froze the hold: its deadline passes and it stands.
    tokio::time::sleep(Duration::from_millis(1_600)).await;
    let frozen = buyer_view_ok(&app, &in_time).await;
    assert_eq!(frozen["purchase"]["holdExpiresAt"], Value::Null);
    assert_eq!(frozen["purchase"]["proofAttached"], true);
    assert_eq!(status_of(&app, in_time.id).await, "pending");
}

async fn the_per_person_allowance_holds_against_purchases_in_parallel(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 3)).await;
    let method = app.payment_method("Zelle", None).await;

    let attempts = (1..=8_u32).map(|n| {
        let app = &app;
        async move {
            app.buy(raffle, method, &[n], 1300, "same@example.com")
                .await
        }
    });
    let answers = futures_util::future::join_all(attempts).await;

    let mut by_status: BTreeMap<u16, usize> = BTreeMap::new();
    let mut refusal = None;
    for answer in answers {
        *by_status.entry(answer.status().as_u16()).or_default() += 1;
        if answer.status() == StatusCode::UNPROCESSABLE_ENTITY {
            refusal = Some(answer.json::<Value>().await.unwrap());
        }
    }
    assert_eq!(
        by_status,
        BTreeMap::from([(201, 3), (422, 5)]),
        "{refusal:?}"
    );
    let refusal = refusal.unwrap();
    assert_eq!(
        refusal["fields"]["ticketNumbers"],
        "Solo puedes comprar 3 boleto(s) por persona. Ya tienes 3 boletos en este sorteo."
    );
    assert_eq!(app.available(raffle).await.len(), 97);
    // Another address is another person; an admin's test purchase counts against nobody.
    buy(&app, raffle, method, &[50], "other@example.com").await;
    let test_form = app.purchase_form(method, &[60, 61], "26.00", "same@example.com");
    let test = app
        .post_form(
            &format!("/api/admin/raffles/{raffle}/purchase"),
            test_form,
            Some(&app.admin_token),
        )
        .await;
    assert_eq!(test.status(), StatusCode::CREATED);
}

async fn sales_close_at_the_draw_or_hours_before_it_whatever_the_status(app: TestApp) {
    let method = app.payment_method("Zelle", None).await;
    let today = Utc::now().date_naive();
    let create = async |draw: String, close_hours: u32| {
        let response = app
            .admin_send(
                Method::POST,
                "/api/admin/raffles",
                &json!({"title": "Rifa", "description": "Premio", "price": 13, "maxTickets": 100,
                        "maxTicketsPerPurchase": 5, "drawDate": draw,
                        "salesCloseHoursBeforeDraw": close_hours, "prizes": [first_prize()]}),
            )
            .await;
        assert_eq!(response.status(), StatusCode::CREATED);
        response.json::<Value>().await.unwrap()
    };
    let drawn_yesterday = create((today - chrono::Days::new(1)).to_string(), 0).await;
    let closing_early = create((today + chrono::Days::new(1)).to_string(), 72).await;
    let open = create((today + chrono::Days::new(30)).to_string(), 24).await;

    for closed in [&drawn_yesterday, &closing_early] {
        assert_eq!(closed["status"], "available");
        assert_eq!(closed["salesOpen"], false);
        let id = closed["id"].as_i64().unwrap();
        let body = expect_error(
            app.buy(id, method, &[1], 1300, "a@example.com").await,
            StatusCode::CONFLICT,
            "sales_closed",
        )
        .await;
        assert_eq!(
            body["message"],
            "Compras Cerradas - Las compras de este sorteo ya cerraron."
        );
        assert_eq!(body["closedAt"], closed["salesCloseAt"]);
    }
    assert_eq!(open["salesOpen"], true);
    let close: chrono::DateTime<Utc> = open["salesCloseAt"].as_str().unwrap().parse().unwrap();
    let draw: chrono::DateTime<Utc> = open["drawDate"].as_str().unwrap().parse().unwrap();
    assert_eq!(draw - close, TimeDelta::hours(24));
    let server: chrono::DateTime<Utc> = open["serverTime"].as_str().unwrap().parse().unwrap();
    assert!((Utc::now() - server).num_seconds().abs() < 5);
    buy(
        &app,
        open["id"].as_i64().unwrap(),
        method,
        &[1],
        "a@example.com",
    )
    .await;
    let listed: Vec<Value> = app
        .get_json("/api/raffles")
        .await
        .as_array()
        .unwrap()
        .clone();
    let listed_open: BTreeMap<i64, bool> = listed
        .iter()
        .map(|r| (r["id"].as_i64().unwrap(), r["salesOpen"].as_bool().unwrap()))
        .collect();
    assert!(!listed_open[&drawn_yesterday["id"].as_i64().unwrap()]);
    assert!(listed_open[&open["id"].as_i64().unwrap()]);
}

async fn the_buyers_page_follows_every_status(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Pago Móvil", Some("40")).await;
    let approved = buy(&app, raffle, method, &[1, 2], "a@example.com").await;
    let rejected = buy(&app, raffle, method, &[3], "b@example.com").await;
    let expired = buy(&app, raffle, method, &[4], "c@example.com").await;
    let pending = buy(&app, raffle, method, &[42, 7], "d@example.com").await;

    let fresh = buyer_view_ok(&app, &pending).await;
    assert_eq!(fresh["purchase"]["status"], "pending");
    assert_eq!(fresh["purchase"]["ticketLabels"], json!(["0007", "0042"]));
    assert_eq!(fresh["purchase"]["totalAmount"], "26.00");
    assert_eq!(
        fresh["purchase"]["convertedTotal"],
        json!({"currency": "VES", "rate": "40", "amount": "1040"})
    );
    assert_eq!(fresh["purchase"]["canUploadProof"], true);
    assert_eq!(
        fresh["purchase"]["holdExpiresAt"],
        pending.body["holdExpiresAt"]
    );
    assert_eq!(fresh["raffle"]["title"], "Rifa de prueba");
    assert_eq!(fresh["history"][0]["kind"], "received");
    assert!(
        fresh.to_string().find(&pending.token).is_none(),
        "the token is never echoed"
    );

    assert_eq!(send_proof(&app, &approved).await.status(), StatusCode::OK);
    assert_eq!(
        app.decide(approved.id, "approved", None).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        app.decide(rejected.id, "rejected", Some("El monto no coincide"))
            .await
            .status(),
        StatusCode::OK
    );
    lapse(&app, &[&expired]).await;
    eventually("the expiry", async || {
        status_of(&app, expired.id).await == "expired"
    })
    .await;

    let kinds = |view: &Value| -> Vec<String> {
        view["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["kind"].as_str().unwrap().to_owned())
            .collect()
    };
    let approved_view = buyer_view_ok(&app, &approved).await;
    assert_eq!(
        kinds(&approved_view),
        ["received", "proof_attached", "approved"]
    );
    assert_eq!(approved_view["purchase"]["proofAttached"], true);
    assert_eq!(approved_view["purchase"]["canUploadProof"], false);
    let rejected_view = buyer_view_ok(&app, &rejected).await;
    assert_eq!(kinds(&rejected_view), ["received", "rejected"]);
    assert_eq!(rejected_view["history"][1]["note"], "El monto no coincide");
    assert_eq!(
        rejected_view["purchase"]["adminNotes"],
        "El monto no coincide"
    );
    let expired_view = buyer_view_ok(&app, &expired).await;
    assert_eq!(expired_view["purchase"]["status"], "expired");
    assert_eq!(kinds(&expired_view), ["received", "expired"]);
    assert_eq!(expired_view["purchase"]["canUploadProof"], false);
    assert_eq!(expired_view["purchase"]["holdExpiresAt"], Value::Null);

    for (id, token) in [
        (pending.id, ""),
        (pending.id, approved.token.as_str()),
        (999_999, pending.token.as_str()),
    ] {
        expect_error(
            buyer_view(&app, id, token).await,
            StatusCode::NOT_FOUND,
            "purchase_not_found",
        )
        .await;
    }
}

async fn an_expired_purchase_is_reopened_only_while_its_numbers_are_free(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let late = buy(&app, raffle, method, &[5, 6], "late@example.com").await;
    let lost = buy(&app, raffle, method, &[8, 9], "lost@example.com").await;
    let pending = buy(&app, raffle, method, &[20], "p@example.com").await;
    lapse(&app, &[&late, &lost]).await;
    eventually("the expiry", async || {
        status_of(&app, late.id).await == "expired" && status_of(&app, lost.id).await == "expired"
    })
    .await;
    buy(&app, raffle, method, &[9], "quick@example.com").await;
    let reopen = async |id: i64| {
        app.as_admin(Method::POST, &format!("/api/admin/purchases/{id}/reopen"))
            .send()
            .await
            .unwrap()
    };

    let reopened = reopen(late.id).await;
    let taken = reopen(lost.id).await;
    let not_expired = reopen(pending.id).await;

    assert_eq!(reopened.status(), StatusCode::OK);
    let reopened: Value = reopened.json().await.unwrap();
    assert_eq!(reopened["status"], "pending");
    assert!(reopened["holdExpiresAt"].is_string());
    let body = expect_error(taken, StatusCode::CONFLICT, "numbers_no_longer_free").await;
    assert_eq!(body["numbers"], json!([9]));
    assert_eq!(
        body["message"],
        "No se puede reabrir: estos números ya no están libres: 0009"
    );
    expect_error(not_expired, StatusCode::CONFLICT, "purchase_not_expired").await;
    assert_eq!(status_of(&app, lost.id).await, "expired");
    let available = app.available(raffle).await;
    assert!(!available.contains(&5) && !available.contains(&6));
    assert!(available.contains(&8), "the refused reopening held nothing");
    let view = buyer_view_ok(&app, &late).await;
    assert_eq!(view["history"][2]["kind"], "reopened");
    assert_eq!(view["purchase"]["canUploadProof"], true);
    assert_eq!(send_proof(&app, &late).await.status(), StatusCode::OK);
}

async fn a_release_alert_is_one_notice_when_numbers_come_back(app: TestApp) {
    let raffle = app.raffle("13", 2, (1, 2)).await;
    let method = app.payment_method("Zelle", None).await;
    let hoarder = buy(&app, raffle, method, &[1, 2], "h@example.com").await;
    let ask = async |body: Value, lang: &str| {
        app.request(
            Method::POST,
            &format!("/api/raffles/{raffle}/release-alerts"),
        )
        .header("Accept-Language", lang)
        .json(&body)
        .send()
        .await
        .unwrap()
    };

    let first = ask(json!({"email": "Wait@Example.com"}), "en").await;
    let again = ask(json!({"email": "wait@example.com"}), "es").await;
    let bad = ask(json!({"email": "no-es-un-email"}), "es").await;
    let missing = app
        .request(Method::POST, "/api/raffles/999999/release-alerts")
        .json(&json!({"email": "a@example.com"}))
        .send()
        .await
        .unwrap();

    assert_eq!(first.status(), StatusCode::CREATED);
    assert_eq!(
        first.json::<Value>().await.unwrap(),
        json!({"subscribed": true})
    );
    assert_eq!(again.status(), StatusCode::CREATED);
    let bad = expect_error(bad, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;
    assert_eq!(bad["fields"]["email"], "Email inválido");
    expect_error(missing, StatusCode::NOT_FOUND, "raffle_not_found").await;

    lapse(&app, &[&hoarder]).await;
    eventually("the notice", async || {
        outbox(&app)
            .await
            .iter()
            .any(|m| m["kind"] == "numbers_released")
    })
    .await;
    let notices: Vec<Value> = outbox(&app)
        .await
        .into_iter()
        .filter(|m| m["kind"] == "numbers_released")
        .collect();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0]["recipient"], "wait@example.com");
    assert_eq!(notices[0]["raffleId"], raffle);
    assert_eq!(notices[0]["purchaseId"], Value::Null);
    assert_eq!(
        count_rows(&app, "SELECT COUNT(*) AS n FROM release_alerts").await,
        0,
        "consumed"
    );
}

async fn held_and_sold_out_raffles_say_which(app: TestApp) {
    let raffle = app.raffle("13", 3, (1, 3)).await;
    let method = app.payment_method("Zelle", None).await;
    let held = buy(&app, raffle, method, &[1, 2], "a@example.com").await;
    let sold = buy(&app, raffle, method, &[3], "b@example.com").await;
    assert_eq!(
        app.decide(sold.id, "approved", None).await.status(),
        StatusCode::OK
    );
    let availability = async || {
        app.get(&format!("/api/raffles/{raffle}/availability"))
            .await
            .headers()
            .clone()
    };

    let headers = availability().await;
    assert_eq!(headers["x-available-count"], "0");
    assert_eq!(headers["x-pending-count"], "2");
    let next: chrono::DateTime<Utc> = headers["x-next-release-at"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let deadline: chrono::DateTime<Utc> = held.body["holdExpiresAt"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(next, deadline);

    assert_eq!(send_proof(&app, &held).await.status(), StatusCode::OK);
    let headers = availability().await;
    assert_eq!(
        headers["x-pending-count"], "2",
        "awaiting review, may still come back"
    );
    assert!(
        headers.get("x-next-release-at").is_none(),
        "but not by expiry"
    );

    assert_eq!(
        app.decide(held.id, "approved", None).await.status(),
        StatusCode::OK
    );
    let headers = availability().await;
    assert_eq!(headers["x-pending-count"], "0", "all sold: Agotado");
    assert_eq!(headers["x-available-count"], "0");
}

async fn the_raffle_form_sets_the_hold_and_the_close(app: TestApp) {
    let body = json!({"title": "Rifa", "description": "Premio", "price": 13,
                      "holdMinutes": 45, "salesCloseHoursBeforeDraw": 2, "drawDate": "2030-01-15"});
    let created: Value = app
        .admin_send(Method::POST, "/api/admin/raffles", &body)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(created["holdMinutes"], 45);
    assert_eq!(created["salesCloseHoursBeforeDraw"], 2);
    assert_eq!(created["salesCloseAt"], "2030-01-15T21:59:59.999Z");
    let defaults: Value = app
        .admin_send(
            Method::POST,
            "/api/admin/raffles",
            &json!({"title": "Rifa", "description": "Premio", "price": 13}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(defaults["holdMinutes"], 30);
    assert_eq!(defaults["salesCloseHoursBeforeDraw"], 0);
    assert_eq!(defaults["salesCloseAt"], Value::Null);

    let refused = app
        .admin_send(
            Method::POST,
            "/api/admin/raffles",
            &json!({"title": "Rifa", "description": "Premio", "price": 13,
                    "holdMinutes": 0, "salesCloseHoursBeforeDraw": 721}),
        )
        .await;

    let body = expect_error(
        refused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(body["fields"]["holdMinutes"], "Debe estar entre 1 y 10080");
    assert_eq!(
        body["fields"]["salesCloseHoursBeforeDraw"],
        "Debe estar entre 0 y 720"
    );
}
