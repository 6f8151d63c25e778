//! The admin's review of purchases: lists, search filters and pages, decisions and the dashboard.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::{DateTime, Duration, Utc};
use reqwest::{Method, Response, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{TestApp, buyer_document, buyer_phone, expect_error};
use crate::on_both;

on_both!(
    a_page_reached_from_a_nearby_page_holds_what_it_holds_from_the_top,
    the_purchase_list_is_a_plain_array_with_a_total_header,
    the_purchase_search_filters_by_raffle_name_status_tickets_and_date,
    the_purchase_search_pages_and_sums_only_what_matched,
    bad_search_filters_are_refused_with_the_field_named,
    an_admin_reads_one_purchase_with_every_detail,
    an_admin_approves_a_pending_purchase_with_notes,
    a_decision_must_be_approved_or_rejected_of_a_known_purchase,
    the_dashboard_counts_approved_sales_pending_purchases_and_active_raffles,
    a_name_search_ignores_the_case_of_accented_letters,
    a_search_with_max_id_ignores_purchases_made_after_it,
    the_daily_series_sums_approved_sales_per_local_day_in_one_call,
    bad_daily_periods_are_refused_with_the_field_named,
);

/// Buys `numbers` as `name`; answers the receipt's purchase.
async fn buy_as(
    app: &TestApp,
    raffle: i64,
    method: i64,
    numbers: &[u32],
    unit_cents: i64,
    name: &str,
) -> Value {
    let total = unit_cents * i64::try_from(numbers.len()).unwrap();
    let email = format!(
        "buyer-{}@example.com",
        numbers
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join("-")
    );
    let mut form = app.purchase_form(
        method,
        numbers,
        &format!("{}.{:02}", total / 100, total % 100),
        &email,
    );
    for field in &mut form {
        if field.0 == "customerName" {
            field.1 = name.to_owned();
        }
    }
    let response = app
        .post_form(&format!("/api/raffles/{raffle}/purchase"), form, None)
        .await;
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["purchase"].clone()
}

/// On `raffle`: two approved purchases (tickets [1, 2] and [3], 10.00 each), one pending, one
/// rejected and one admin test purchase. Answers the first approved one.
async fn sales_of_every_kind(app: &TestApp, raffle: i64, method: i64) -> Value {
    let approved_a = buy_as(app, raffle, method, &[1, 2], 1000, "Ana Uno").await;
    let approved_b = buy_as(app, raffle, method, &[3], 1000, "Ana Dos").await;
    buy_as(app, raffle, method, &[4], 1000, "Luis Pendiente").await;
    let rejected = buy_as(app, raffle, method, &[5], 1000, "Luis Rechazado").await;
    app.decide(id_of(&approved_a), "approved", None).await;
    app.decide(id_of(&approved_b), "approved", None).await;
    app.decide(id_of(&rejected), "rejected", Some("No pagó"))
        .await;
    let test = app
        .post_form(
            &format!("/api/admin/raffles/{raffle}/purchase"),
            app.purchase_form(method, &[9], "10.00", "prueba@example.com"),
            Some(&app.admin_token),
        )
        .await;
    assert_eq!(test.status(), StatusCode::CREATED);
    approved_a
}

fn id_of(purchase: &Value) -> i64 {
    purchase["id"].as_i64().unwrap()
}

async fn admin_get_response(app: &TestApp, path: &str) -> Response {
    app.as_admin(Method::GET, path).send().await.unwrap()
}

fn item_ids(page: &Value) -> Vec<i64> {
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(id_of)
        .collect()
}

/// Two raffles and four purchases of different buyers, statuses and numbers.
struct Seeded {
    raffle_a: i64,
    raffle_b: i64,
    /// Ana Pérez, raffle A, [7, 8], approved, 20.00.
    ana: Value,
    /// Luis Ramos, raffle A, [42], pending, 10.00.
    luis: Value,
    /// ANA López, raffle B, [1, 2, 3], rejected, 15.00.
    ana_lopez: Value,
    /// Pedro Gil, raffle B, [42], pending, 5.00.
    pedro: Value,
}

async fn seed(app: &TestApp) -> Seeded {
    let raffle_a = app.raffle("10", 100, (1, 5)).await;
    let raffle_b = app.raffle("5", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let ana = buy_as(app, raffle_a, method, &[7, 8], 1000, "Ana Pérez").await;
    let luis = buy_as(app, raffle_a, method, &[42], 1000, "Luis Ramos").await;
    let ana_lopez = buy_as(app, raffle_b, method, &[1, 2, 3], 500, "ANA López").await;
    let pedro = buy_as(app, raffle_b, method, &[42], 500, "Pedro Gil").await;
    assert_eq!(
        app.decide(id_of(&ana), "approved", None).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        app.decide(id_of(&ana_lopez), "rejected", Some("Pago no recibido"))
            .await
            .status(),
        StatusCode::OK
    );
    Seeded {
        raffle_a,
        raffle_b,
        ana,
        luis,
        ana_lopez,
        pedro,
    }
}

async fn search(app: &TestApp, query: &str) -> Value {
    app.admin_get(&format!("/api/admin/purchases/search?{query}"))
        .await
}

async fn the_purchase_list_is_a_plain_array_with_a_total_header(app: TestApp) {
    let s = seed(&app).await;

    let response = admin_get_response(&app, "/api/admin/purchases").await;
    let pending = admin_get_response(&app, "/api/admin/purchases?status=pending").await;

    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["x-total-count"], "4");
    let list: Value = response.json().await.unwrap();
    let ids: Vec<i64> = list.as_array().unwrap().iter().map(id_of).collect();
    assert_eq!(
        ids,
        [
            id_of(&s.pedro),
            id_of(&s.ana_lopez),
            id_of(&s.luis),
            id_of(&s.ana)
        ],
        "newest first"
    );
    let ana = &list[3];
    assert_eq!(ana["customerName"], "Ana Pérez");
    assert_eq!(ana["customerId"], buyer_document("buyer-7-8@example.com"));
    assert_eq!(ana["ticketNumbers"], json!([7, 8]));
    assert_eq!(ana["raffleId"], s.raffle_a);
    assert_eq!(ana["raffleTitle"], "Rifa de prueba");
    assert_eq!(ana["totalAmount"], "20.00");
    assert_eq!(ana["status"], "approved");
    assert_eq!(pending.headers()["x-total-count"], "2");
    let pending: Value = pending.json().await.unwrap();
    assert!(
        pending
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["status"] == "pending")
    );
}

async fn the_purchase_search_filters_by_raffle_name_status_tickets_and_date(app: TestApp) {
    let s = seed(&app).await;
    let created: DateTime<Utc> = s.ana["createdAt"].as_str().unwrap().parse().unwrap();
    let east = (created + Duration::hours(14))
        .format("%Y-%m-%d")
        .to_string();
    let west = (created - Duration::hours(12))
        .format("%Y-%m-%d")
        .to_string();

    let by_raffle = search(&app, &format!("raffleId={}", s.raffle_a)).await;
    let by_name = search(&app, "name=%20ana%20").await;
    let by_status = search(&app, "status=pending").await;
    let by_tickets = search(&app, "tickets=7,42").await;
    let by_ticket_in_raffle = search(&app, &format!("tickets=42&raffleId={}", s.raffle_b)).await;
    let rejected_numbers = search(&app, "tickets=%202%20,").await;
    let combined = search(
        &app,
        &format!(
            "raffleId={}&name=LUIS&status=pending&tickets=42",
            s.raffle_a
        ),
    )
    .await;
    let local_day = search(&app, &format!("date={east}&utcOffsetMinutes=840")).await;
    let other_day = search(&app, &format!("date={east}&utcOffsetMinutes=-720")).await;
    let west_day = search(&app, &format!("date={west}&utcOffsetMinutes=-720")).await;
    let long_ago = search(&app, "date=2001-01-01").await;
    let all = search(&app, "status=all&name=&tickets=").await;

    let (ana, luis, lopez, pedro) = (
        id_of(&s.ana),
        id_of(&s.luis),
        id_of(&s.ana_lopez),
        id_of(&s.pedro),
    );
    assert_eq!(item_ids(&by_raffle), [luis, ana]);
    assert_eq!(item_ids(&by_name), [lopez, ana], "contains, any case");
    assert_eq!(item_ids(&by_status), [pedro, luis]);
    assert_eq!(item_ids(&by_tickets), [pedro, luis, ana]);
    assert_eq!(item_ids(&by_ticket_in_raffle), [pedro]);
    assert_eq!(
        item_ids(&rejected_numbers),
        [lopez],
        "a rejected purchase keeps its numbers for the record"
    );
    assert_eq!(item_ids(&combined), [luis]);
    assert_eq!(local_day["total"], 4);
    assert_eq!(other_day["total"], 0, "another day at UTC-12");
    assert_eq!(west_day["total"], 4);
    assert_eq!(long_ago["total"], 0);
    assert_eq!(long_ago["items"], json!([]));
    assert_eq!(all["total"], 4);
}

async fn the_purchase_search_pages_and_sums_only_what_matched(app: TestApp) {
    let raffle = app.raffle("10", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let mut ids = Vec::new();
    for n in 1..=7 {
        let purchase = buy_as(&app, raffle, method, &[n], 1000, &format!("Cliente {n}")).await;
        ids.push(id_of(&purchase));
    }
    for id in &ids[..3] {
        assert_eq!(
            app.decide(*id, "approved", None).await.status(),
            StatusCode::OK
        );
    }
    assert_eq!(
        app.decide(ids[3], "rejected", Some("Duplicada"))
            .await
            .status(),
        StatusCode::OK
    );
    ids.reverse();

    let first = search(&app, "pageSize=3").await;
    let last = search(&app, "page=3&pageSize=3").await;
    let beyond = search(&app, "page=9&pageSize=3").await;
    let default = search(&app, "").await;
    let out_of_range = app
        .as_admin(
            Method::GET,
            "/api/admin/purchases/search?page=0&pageSize=500",
        )
        .send()
        .await
        .unwrap();
    let far = search(&app, "page=1000000&pageSize=100").await;
    let pending_only = search(&app, "status=pending").await;

    assert_eq!(item_ids(&first), ids[..3]);
    assert_eq!(first["total"], 7);
    assert_eq!(first["page"], 1);
    assert_eq!(first["pageSize"], 3);
    assert_eq!(first["totalPages"], 3);
    assert_eq!(item_ids(&last), ids[6..]);
    assert_eq!(last["page"], 3);
    assert_eq!(beyond["items"], json!([]));
    assert_eq!(beyond["total"], 7);
    assert_eq!(default["pageSize"], 10);
    assert_eq!(default["page"], 1);
    assert_eq!(default["totalPages"], 1);
    assert_eq!(item_ids(&default), ids);
    let refused = expect_error(
        out_of_range,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(refused["fields"]["page"], "Debe estar entre 1 y 1000000");
    assert_eq!(refused["fields"]["pageSize"], "Debe estar entre 1 y 100");
    assert_eq!(far["items"], json!([]));
    let summary = &first["summary"];
    assert_eq!(summary["ticketsSold"], 3, "approved only");
    assert_eq!(summary["totalRevenue"], "30.00", "approved only");
    assert_eq!(summary["pendingPurchases"], 3);
    assert_eq!(
        pending_only["summary"],
        json!({"ticketsSold": 0, "totalRevenue": "0.00", "pendingPurchases": 3}),
        "the summary covers what matched the filters"
    );
}

async fn bad_search_filters_are_refused_with_the_field_named(app: TestApp) {
    let cases = [
        (
            "status=paid",
            "status",
            "Valor no válido; opciones: pending, approved, rejected, test, expired",
        ),
        ("tickets=7,x", "tickets", "Debe ser un número"),
        ("tickets=-1", "tickets", "Debe ser un número"),
        ("date=26/07/2025", "date", "Fecha no válida"),
        ("date=2025-02-30", "date", "Fecha no válida"),
        (
            "date=2025-07-26&utcOffsetMinutes=2000",
            "utcOffsetMinutes",
            "Debe estar entre -840 y 840",
        ),
    ];
    for path in ["/api/admin/purchases/search", "/api/admin/purchases"] {
        for (query, field, message) in cases {
            let response = admin_get_response(&app, &format!("{path}?{query}")).await;

            let body = expect_error(
                response,
                StatusCode::UNPROCESSABLE_ENTITY,
                "validation_failed",
            )
            .await;
            assert_eq!(body["fields"][field], message, "{path}?{query}");
        }
        for query in [
            "raffleId=abc",
            "raffleId=99999999999999999999",
            "page=-1",
            "pageSize=x",
            "utcOffsetMinutes=abc",
            // A misspelled filter would otherwise list everything as if it had matched.
            "raffle=1",
        ] {
            let response = admin_get_response(&app, &format!("{path}?{query}")).await;
            expect_error(response, StatusCode::BAD_REQUEST, "bad_request").await;
        }
    }
}

async fn an_admin_reads_one_purchase_with_every_detail(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let bought: Value = app
        .buy(raffle, method, &[42, 7], 1300, "Ana@Example.com")
        .await
        .json()
        .await
        .unwrap();
    let id = id_of(&bought["purchase"]);

    let purchase = app.admin_get(&format!("/api/admin/purchases/{id}")).await;

    assert_eq!(purchase["id"], id);
    assert_eq!(purchase["reference"], bought["purchase"]["reference"]);
    assert_eq!(purchase["raffleId"], raffle);
    assert_eq!(purchase["raffleTitle"], "Rifa de prueba");
    assert_eq!(purchase["ticketNumbers"], json!([7, 42]));
    assert_eq!(purchase["customerName"], "María González");
    assert_eq!(purchase["customerId"], buyer_document("ana@example.com"));
    assert_eq!(purchase["customerEmail"], "ana@example.com");
    assert_eq!(purchase["customerPhone"], buyer_phone("ana@example.com"));
    assert_eq!(purchase["customerCountry"], "venezuela");
    assert_eq!(purchase["paymentMethod"], "Zelle");
    assert_eq!(purchase["paymentMethodId"], method);
    assert_eq!(purchase["totalAmount"], "26.00");
    assert_eq!(purchase["discountApplied"], "0.00");
    assert_eq!(purchase["convertedTotal"], Value::Null);
    assert_eq!(purchase["status"], "pending");
    assert_eq!(purchase["decidedAt"], Value::Null);
    assert_eq!(purchase["adminNotes"], Value::Null);
    let missing = admin_get_response(&app, "/api/admin/purchases/999999").await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let body: Value = missing.json().await.unwrap();
    assert!(
        body["code"].as_str().is_some_and(|c| !c.is_empty()),
        "{body}"
    );
}

async fn an_admin_approves_a_pending_purchase_with_notes(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let bought: Value = app
        .buy(raffle, method, &[3, 4], 1300, "a@example.com")
        .await
        .json()
        .await
        .unwrap();
    let id = id_of(&bought["purchase"]);

    let response = app
        .decide(id, "approved", Some("  Pago verificado en Zelle  "))
        .await;

    assert_eq!(response.status(), StatusCode::OK);
    let decided: Value = response.json().await.unwrap();
    assert_eq!(decided["status"], "approved");
    assert_eq!(decided["adminNotes"], "Pago verificado en Zelle");
    let decided_at: DateTime<Utc> = decided["decidedAt"].as_str().unwrap().parse().unwrap();
    assert!((Utc::now() - decided_at).num_seconds().abs() < 60);
    let read = app.admin_get(&format!("/api/admin/purchases/{id}")).await;
    assert_eq!(read, decided);
    assert!(
        !app.available(raffle).await.contains(&3),
        "approved numbers stay taken"
    );
    let stats = app.admin_get("/api/admin/stats").await;
    assert_eq!(stats["ticketsSold"], 2);
    assert_eq!(stats["totalRevenue"], "26.00");
    let other: Value = app
        .buy(raffle, method, &[5], 1300, "b@example.com")
        .await
        .json()
        .await
        .unwrap();
    let without_notes = app
        .decide(id_of(&other["purchase"]), "approved", None)
        .await;
    assert_eq!(without_notes.status(), StatusCode::OK);
    let without_notes: Value = without_notes.json().await.unwrap();
    assert_eq!(without_notes["adminNotes"], Value::Null);
}

async fn a_decision_must_be_approved_or_rejected_of_a_known_purchase(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let bought: Value = app
        .buy(raffle, method, &[3], 1300, "a@example.com")
        .await
        .json()
        .await
        .unwrap();
    let id = id_of(&bought["purchase"]);

    for status in ["pending", "test", "paid", "", "APPROVED"] {
        let response = app.decide(id, status, Some("nota")).await;

        let body = expect_error(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(
            body["fields"]["status"], "Valor no válido; opciones: approved, rejected",
            "{status:?}"
        );
    }
    let long_notes = app.decide(id, "approved", Some(&"x".repeat(2_001))).await;
    let body = expect_error(
        long_notes,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(
        body["fields"]["adminNotes"],
        "Debe tener como máximo 2000 caracteres"
    );
    let unknown = app.decide(999_999, "approved", None).await;
    let body = expect_error(unknown, StatusCode::NOT_FOUND, "purchase_not_found").await;
    assert_eq!(body["message"], "Compra no encontrada");
    let no_status = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/purchases/{id}/status"),
            &json!({"adminNotes": "x"}),
        )
        .await;
    expect_error(no_status, StatusCode::BAD_REQUEST, "bad_request").await;
    assert_eq!(
        app.admin_get(&format!("/api/admin/purchases/{id}")).await["status"],
        "pending",
        "no refused decision changed the purchase"
    );
}

async fn the_dashboard_counts_approved_sales_pending_purchases_and_active_raffles(app: TestApp) {
    let raffle = app.raffle("10", 100, (1, 5)).await;
    app.raffle("10", 100, (1, 5)).await;
    let closed = app.raffle("10", 100, (1, 5)).await;
    let update = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/raffles/{closed}"),
            &json!({"title": "Cerrada", "description": "x", "price": 10, "status": "finished"}),
        )
        .await;
    assert_eq!(update.status(), StatusCode::OK);
    let method = app.payment_method("Zelle", None).await;
    let approved_a = sales_of_every_kind(&app, raffle, method).await;
    let day = &approved_a["createdAt"].as_str().unwrap()[..10];

    let stats = app.admin_get("/api/admin/stats").await;
    let today = app
        .admin_get(&format!("/api/admin/stats?date={day}&utcOffsetMinutes=0"))
        .await;
    let long_ago = app.admin_get("/api/admin/stats?date=2001-01-01").await;

    assert_eq!(
        stats,
        json!({"ticketsSold": 3, "totalRevenue": "30.00", "pendingPurchases": 1, "activeRaffles": 2})
    );
    assert_eq!(today, stats);
    assert_eq!(
        long_ago,
        json!({"ticketsSold": 0, "totalRevenue": "0.00", "pendingPurchases": 0, "activeRaffles": 2})
    );
    let bad_day = admin_get_response(&app, "/api/admin/stats?date=26/07/2025").await;
    let body = expect_error(
        bad_day,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(body["fields"]["date"], "Fecha no válida");
    let bad_offset = admin_get_response(
        &app,
        "/api/admin/stats?date=2025-07-26&utcOffsetMinutes=-900",
    )
    .await;
    expect_error(
        bad_offset,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    let not_a_number = admin_get_response(&app, "/api/admin/stats?utcOffsetMinutes=abc").await;
    expect_error(not_a_number, StatusCode::BAD_REQUEST, "bad_request").await;
}

async fn a_name_search_ignores_the_case_of_accented_letters(app: TestApp) {
    let raffle = app.raffle("10", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let upper = buy_as(&app, raffle, method, &[1], 1000, "JOSÉ ÁLVAREZ").await;
    let lower = buy_as(&app, raffle, method, &[2], 1000, "María Núñez").await;

    let by_lower = search(&app, "name=jos%C3%A9%20%C3%A1lvarez").await;
    let by_upper = search(&app, "name=N%C3%9A%C3%91EZ").await;

    assert_eq!(item_ids(&by_lower), [id_of(&upper)]);
    assert_eq!(item_ids(&by_upper), [id_of(&lower)]);
}

async fn a_page_reached_from_a_nearby_page_holds_what_it_holds_from_the_top(app: TestApp) {
    let raffle = app.raffle("10", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    for n in 1..=7 {
        buy_as(&app, raffle, method, &[n], 1000, &format!("Cliente {n}")).await;
    }
    let mut from_top = Vec::new();
    for page in 3..=5 {
        from_top.push(search(&app, &format!("pageSize=1&page={page}")).await);
    }
    let anchor = |page: usize| item_ids(&from_top[page - 3])[0];

    // Page 4 of 7, one purchase per page, seeked from the page before it and from the one after.
    let forward = search(
        &app,
        &format!("pageSize=1&page=4&anchorId={}&anchorPage=3", anchor(3)),
    )
    .await;
    let backward = search(
        &app,
        &format!("pageSize=1&page=4&anchorId={}&anchorPage=5", anchor(5)),
    )
    .await;
    let gone_anchor = search(&app, "pageSize=1&page=4&anchorId=999999&anchorPage=3").await;
    let half = admin_get_response(&app, "/api/admin/purchases/search?page=4&anchorId=1").await;

    for page in [&forward, &backward, &gone_anchor] {
        assert_eq!(item_ids(page), item_ids(&from_top[1]));
        assert_eq!(
            (page["page"].clone(), page["total"].clone()),
            (json!(4), json!(7))
        );
    }
    let body = expect_error(half, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;
    assert_eq!(
        body["fields"]["anchorPage"], "Este campo es obligatorio",
        "{body}"
    );
}

async fn a_search_with_max_id_ignores_purchases_made_after_it(app: TestApp) {
    let raffle = app.raffle("10", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let mut ids = Vec::new();
    for n in 1..=3 {
        ids.push(id_of(
            &buy_as(&app, raffle, method, &[n], 1000, &format!("Cliente {n}")).await,
        ));
    }
    let first_page = search(&app, "pageSize=2").await;
    let pin = first_page["items"][0]["id"].as_i64().unwrap();
    // Two purchases arrive while the export pages.
    for n in 4..=5 {
        buy_as(&app, raffle, method, &[n], 1000, &format!("Tarde {n}")).await;
    }

    let unpinned = search(&app, "page=2&pageSize=2").await;
    let pinned = search(&app, &format!("page=2&pageSize=2&maxId={pin}")).await;
    let whole = search(&app, &format!("maxId={pin}")).await;
    let with_filter = search(&app, &format!("maxId={pin}&name=tarde")).await;

    assert_eq!(pin, ids[2]);
    assert_eq!(
        item_ids(&unpinned),
        [ids[2], ids[1]],
        "without the pin, page 2 repeats what page 1 had"
    );
    assert_eq!(item_ids(&pinned), [ids[0]]);
    assert_eq!(pinned["total"], 3);
    assert_eq!(pinned["totalPages"], 2);
    assert_eq!(item_ids(&whole), [ids[2], ids[1], ids[0]]);
    assert_eq!(with_filter["total"], 0);
    let bad = admin_get_response(&app, "/api/admin/purchases/search?maxId=x").await;
    expect_error(bad, StatusCode::BAD_REQUEST, "bad_request").await;
}

async fn the_daily_series_sums_approved_sales_per_local_day_in_one_call(app: TestApp) {
    let raffle = app.raffle("10", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let approved_a = sales_of_every_kind(&app, raffle, method).await;
    let created: DateTime<Utc> = approved_a["createdAt"].as_str().unwrap().parse().unwrap();
    let day = |at: DateTime<Utc>| at.format("%Y-%m-%d").to_string();
    // The same purchases fall on another local day fourteen hours east of UTC.
    let east = day(created + Duration::hours(14));
    let (from, to) = (
        day(created - Duration::days(2)),
        day(created + Duration::days(2)),
    );
    let sold = json!({"date": day(created), "revenue": "30.00", "ticketsSold": 3, "purchases": 4});
    let zero = |d: DateTime<Utc>| json!({"date": day(d), "revenue": "0.00", "ticketsSold": 0, "purchases": 0});

    let utc = app
        .admin_get(&format!("/api/admin/stats/daily?from={from}&to={to}"))
        .await;
    let east_series = app
        .admin_get(&format!(
            "/api/admin/stats/daily?from={east}&to={east}&utcOffsetMinutes=840"
        ))
        .await;
    let one_day = app
        .admin_get(&format!(
            "/api/admin/stats/daily?from={0}&to={0}&utcOffsetMinutes=0",
            day(created)
        ))
        .await;
    // Half-hour offsets are summed from the purchases, whole hours from the hourly counts.
    let india = day(created + Duration::minutes(330));
    let india_series = app
        .admin_get(&format!(
            "/api/admin/stats/daily?from={india}&to={india}&utcOffsetMinutes=330"
        ))
        .await;
    let totals = app
        .admin_get(&format!(
            "/api/admin/stats?date={}&utcOffsetMinutes=0",
            day(created)
        ))
        .await;
    let long_ago = app
        .admin_get("/api/admin/stats/daily?from=2001-01-01&to=2001-01-03")
        .await;

    assert_eq!(
        utc,
        json!([
            zero(created - Duration::days(2)),
            zero(created - Duration::days(1)),
            sold,
            zero(created + Duration::days(1)),
            zero(created + Duration::days(2)),
        ]),
        "every day of the period, in order, approved sales only"
    );
    assert_eq!(
        east_series,
        json!([{"date": east, "revenue": "30.00", "ticketsSold": 3, "purchases": 4}])
    );
    assert_eq!(
        india_series,
        json!([{"date": india, "revenue": "30.00", "ticketsSold": 3, "purchases": 4}])
    );
    assert_eq!(one_day, json!([sold]));
    assert_eq!(one_day[0]["revenue"], totals["totalRevenue"]);
    assert_eq!(one_day[0]["ticketsSold"], totals["ticketsSold"]);
    assert_eq!(long_ago.as_array().unwrap().len(), 3);
    assert!(
        long_ago
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["purchases"] == 0 && d["revenue"] == "0.00")
    );
    let anonymous = app
        .get(&format!("/api/admin/stats/daily?from={from}&to={to}"))
        .await;
    expect_error(anonymous, StatusCode::UNAUTHORIZED, "unauthorized").await;
}

async fn bad_daily_periods_are_refused_with_the_field_named(app: TestApp) {
    let cases = [
        ("to=2025-07-26", "from", "Este campo es obligatorio"),
        ("from=2025-07-26", "to", "Este campo es obligatorio"),
        ("from=26/07/2025&to=2025-07-26", "from", "Fecha no válida"),
        ("from=2025-07-26&to=2025-02-30", "to", "Fecha no válida"),
        (
            "from=2025-07-26&to=2025-07-25",
            "to",
            "Debe estar entre 2025-07-26 y 2026-07-26",
        ),
        (
            "from=2024-01-01&to=2025-01-01",
            "to",
            "Debe estar entre 2024-01-01 y 2024-12-31",
        ),
        (
            "from=2025-07-26&to=2025-07-26&utcOffsetMinutes=-900",
            "utcOffsetMinutes",
            "Debe estar entre -840 y 840",
        ),
    ];
    for (query, field, message) in cases {
        let response = admin_get_response(&app, &format!("/api/admin/stats/daily?{query}")).await;

        let body = expect_error(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(body["fields"][field], message, "{query}");
    }
    let english = app
        .as_admin(Method::GET, "/api/admin/stats/daily?from=x&to=2025-07-26")
        .header("Accept-Language", "en")
        .send()
        .await
        .unwrap();
    let body = expect_error(
        english,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(body["fields"]["from"], "Invalid date");
    let year =
        admin_get_response(&app, "/api/admin/stats/daily?from=2024-01-01&to=2024-12-31").await;
    assert_eq!(year.status(), StatusCode::OK);
    assert_eq!(
        year.json::<Value>()
            .await
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        366
    );
}
