//! The catalogue: raffles as the public and admins see them, their management, quotes,
//! availability, payment methods and the ticket lookup.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use reqwest::{Method, Response, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{Role, TestApp, buyer_document, buyer_phone, expect_error, first_prize};
use crate::on_both;

on_both!(
    the_public_list_shows_only_available_raffles_while_admins_see_all,
    an_inactive_raffle_is_hidden_from_the_public_but_not_from_admins,
    a_new_raffle_gets_the_spec_defaults_and_trimmed_text,
    a_raffle_without_a_prize_is_saved_unpublished_and_the_answer_says_why,
    a_new_raffle_s_prizes_need_the_draws_permission_and_are_checked_with_it,
    every_raffle_field_reports_its_own_message,
    a_negative_price_is_refused_with_the_price_range,
    an_admin_updates_every_field_of_a_raffle,
    the_maximum_cannot_drop_below_a_held_number,
    a_raffle_without_purchases_is_deleted,
    a_raffle_with_real_purchases_cannot_be_deleted_but_test_purchases_do_not_count,
    a_new_raffle_has_no_promotions,
    a_quote_prices_the_tickets_on_the_server,
    the_availability_bitmap_has_one_bit_per_number,
    the_largest_raffle_has_a_bitmap_of_twelve_and_a_half_kilobytes,
    the_public_sees_only_active_payment_methods,
    a_buyer_finds_their_tickets_by_email_with_the_rest_masked,
    a_buyer_finds_their_tickets_by_phone_with_the_email_masked,
    a_rejected_purchase_disappears_from_the_lookup,
    an_unknown_buyer_is_told_no_tickets_were_found,
    a_buyer_whose_raffles_all_ended_is_told_none_are_active,
    a_blank_or_malformed_lookup_is_refused_with_the_form_message,
);

/// A raffle as stored: `serverTime` says when it was answered, and differs per answer.
fn without_clock(mut raffle: Value) -> Value {
    raffle.as_object_mut().unwrap().remove("serverTime");
    raffle
}

/// Creates a raffle from `body` (which must be valid) and answers it.
async fn create_raffle(app: &TestApp, body: &Value) -> Value {
    let response = app
        .admin_send(Method::POST, "/api/admin/raffles", body)
        .await;
    assert_eq!(response.status(), StatusCode::CREATED, "{body}");
    response.json().await.unwrap()
}

fn raffle_with_status(status: &str) -> Value {
    json!({"title": format!("Rifa {status}"), "description": "Premio", "price": 5, "maxTickets": 100, "maxTicketsPerPurchase": 5, "status": status, "prizes": [first_prize()]})
}

async fn set_status(app: &TestApp, raffle: i64, status: &str) {
    let response = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/raffles/{raffle}"),
            &json!({"title": "Rifa de prueba", "description": "Un premio de prueba", "price": 13, "maxTickets": 100, "maxTicketsPerPurchase": 5, "status": status}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
}

async fn resize(app: &TestApp, raffle: i64, max: u32) -> Response {
    app.admin_send(
        Method::PUT,
        &format!("/api/admin/raffles/{raffle}"),
        &json!({"title": "Rifa de prueba", "description": "Un premio de prueba", "price": 13, "maxTickets": max, "maxTicketsPerPurchase": 5}),
    )
    .await
}

async fn verify(app: &TestApp, body: &Value) -> Response {
    app.request(Method::POST, "/api/verify-tickets")
        .json(body)
        .send()
        .await
        .unwrap()
}

fn ids(list: &Value) -> Vec<i64> {
    let mut ids: Vec<i64> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    ids
}

async fn the_public_list_shows_only_available_raffles_while_admins_see_all(app: TestApp) {
    let mut created = Vec::new();
    for status in [
        "available",
        "finished",
        "postponed",
        "inactive",
        "completed",
    ] {
        let raffle = create_raffle(&app, &raffle_with_status(status)).await;
        assert_eq!(raffle["status"], status);
        created.push(raffle["id"].as_i64().unwrap());
    }

    let public = app.get_json("/api/raffles").await;
    let admin = app.admin_get("/api/admin/raffles").await;

    assert_eq!(ids(&public), vec![created[0]]);
    assert_eq!(public[0]["active"], true);
    assert_eq!(public[0]["status"], "available");
    let mut all = created.clone();
    all.sort_unstable();
    assert_eq!(ids(&admin), all);
    let inactive = admin
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == created[3])
        .unwrap();
    assert_eq!(inactive["status"], "inactive");
    assert_eq!(inactive["active"], false);
}

async fn an_inactive_raffle_is_hidden_from_the_public_but_not_from_admins(app: TestApp) {
    let draft = create_raffle(&app, &raffle_with_status("inactive")).await["id"]
        .as_i64()
        .unwrap();
    let finished = create_raffle(&app, &raffle_with_status("finished")).await["id"]
        .as_i64()
        .unwrap();

    for path in [
        format!("/api/raffles/{draft}"),
        format!("/api/raffles/{draft}/tickets"),
        format!("/api/raffles/{draft}/availability"),
        format!("/api/raffles/{draft}/promotions"),
        format!("/api/raffles/{draft}/quote?count=1"),
        "/api/raffles/999999".to_owned(),
    ] {
        let body = expect_error(
            app.get(&path).await,
            StatusCode::NOT_FOUND,
            "raffle_not_found",
        )
        .await;
        assert_eq!(body["message"], "Sorteo no encontrado", "{path}");
    }
    let admin = app.admin_get(&format!("/api/admin/raffles/{draft}")).await;
    assert_eq!(admin["status"], "inactive");
    let quote = app
        .admin_get(&format!("/api/admin/raffles/{draft}/quote?count=2"))
        .await;
    assert_eq!(
        quote["ticketCount"], 2,
        "admins price drafts for test purchases"
    );
    let anonymous = app
        .get(&format!("/api/admin/raffles/{draft}/quote?count=2"))
        .await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(admin["title"], "Rifa inactive");
    let tickets = app
        .admin_get(&format!("/api/admin/raffles/{draft}/tickets"))
        .await;
    assert_eq!(tickets.as_array().unwrap().len(), 100);
    assert_eq!(
        app.admin_get(&format!("/api/admin/raffles/{draft}/promotions"))
            .await,
        json!([])
    );
    let bitmap = app
        .as_admin(
            Method::GET,
            &format!("/api/admin/raffles/{draft}/availability"),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(bitmap.status(), StatusCode::OK);
    assert_eq!(bitmap.bytes().await.unwrap().len(), 13);
    let closed = app.get_json(&format!("/api/raffles/{finished}")).await;
    assert_eq!(
        closed["status"], "finished",
        "a finished raffle stays readable"
    );
    assert_eq!(closed["active"], false);
    let missing = app
        .as_admin(Method::GET, "/api/admin/raffles/999999")
        .send()
        .await
        .unwrap();
    expect_error(missing, StatusCode::NOT_FOUND, "raffle_not_found").await;
}

async fn a_raffle_without_a_prize_is_saved_unpublished_and_the_answer_says_why(app: TestApp) {
    let body = json!({"title": "Moto", "description": "Una moto", "price": 13, "maxTickets": 100, "status": "available"});
    let created = app
        .as_admin(Method::POST, "/api/admin/raffles")
        .header("Accept-Language", "en")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    let created: Value = created.json().await.unwrap();
    let id = created["id"].as_i64().unwrap();
    let path = format!("/api/admin/raffles/{id}");
    let edited = app.admin_send(Method::PUT, &path, &body).await;
    assert_eq!(edited.status(), StatusCode::OK);
    let edited: Value = edited.json().await.unwrap();

    for (saved, words) in [(&created, "first prize"), (&edited, "primer premio")] {
        assert_eq!(
            (&saved["status"], &saved["active"]),
            (&json!("inactive"), &json!(false))
        );
        assert_eq!(
            saved["keptUnpublished"]["code"],
            "raffle_kept_unpublished_without_prize"
        );
        let message = saved["keptUnpublished"]["message"].as_str().unwrap();
        assert!(message.contains(words), "{message}");
    }
    assert_eq!(
        app.get(&format!("/api/raffles/{id}")).await.status(),
        StatusCode::NOT_FOUND
    );

    let prizes = format!("/api/admin/raffles/{id}/prizes");
    let added = app
        .admin_send(Method::PUT, &prizes, &json!({"prizes": [first_prize()]}))
        .await;
    assert_eq!(added.status(), StatusCode::OK);
    let published: Value = app
        .admin_send(Method::PUT, &path, &body)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(published["status"], "available");
    assert!(published.get("keptUnpublished").is_none(), "{published}");
    // On sale, its last prize stays until it is taken off sale.
    let emptied = app
        .admin_send(Method::PUT, &prizes, &json!({"prizes": []}))
        .await;
    expect_error(emptied, StatusCode::CONFLICT, "draw_on_sale_needs_prize").await;
    assert_eq!(
        app.get_json(&format!("/api/raffles/{id}")).await["status"],
        "available"
    );
}

async fn a_new_raffle_s_prizes_need_the_draws_permission_and_are_checked_with_it(app: TestApp) {
    let catalogue = app.staff_member("carla", Role::Catalogue).await;
    let with_prize =
        json!({"title": "Moto", "description": "Una moto", "price": 13, "prizes": [first_prize()]});
    let bad = json!({"title": "", "description": "Una moto", "price": 13, "prizes": [{"title": "Moto", "source": {"kind": "beacon", "round": 0}}]});

    let refused = app
        .request(Method::POST, "/api/admin/raffles")
        .bearer_auth(&catalogue)
        .json(&with_prize)
        .send()
        .await
        .unwrap();
    let without = app
        .request(Method::POST, "/api/admin/raffles")
        .bearer_auth(&catalogue)
        .json(&json!({"title": "Moto", "description": "Una moto", "price": 13}))
        .send()
        .await
        .unwrap();
    let invalid = app
        .admin_send(Method::POST, "/api/admin/raffles", &bad)
        .await;

    let body = expect_error(refused, StatusCode::FORBIDDEN, "forbidden").await;
    assert_eq!(body["permission"], "draws", "{body}");
    assert_eq!(without.status(), StatusCode::CREATED);
    let body = expect_error(
        invalid,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    let mut fields: Vec<&str> = body["fields"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    fields.sort_unstable();
    assert_eq!(fields, ["prizes[0].source.round", "title"], "{body}");
    // Only the one made without prizes exists, and it is unpublished.
    let all = app.admin_get("/api/admin/raffles").await;
    let statuses: Vec<&Value> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["status"])
        .collect();
    assert_eq!(statuses, [&json!("inactive")]);
}

async fn a_new_raffle_gets_the_spec_defaults_and_trimmed_text(app: TestApp) {
    let raffle = create_raffle(
        &app,
        &json!({"title": "  Moto 0km  ", "description": " Una moto nueva ", "price": 13.5, "drawDate": "2025-08-15", "image": "  ", "prizes": [first_prize()]}),
    )
    .await;

    assert_eq!(raffle["title"], "Moto 0km");
    assert_eq!(raffle["description"], "Una moto nueva");
    assert_eq!(raffle["price"], "13.50");
    assert_eq!(raffle["maxTickets"], 9999);
    assert_eq!(raffle["status"], "available");
    assert_eq!(raffle["active"], true);
    assert_eq!(raffle["image"], "/images/raffle-default.jpg");
    assert_eq!(raffle["drawDate"], "2025-08-15T23:59:59.999Z");
    assert_eq!(raffle["endDate"], Value::Null);
    assert_eq!(raffle["ticketsSold"], 0);
    assert_eq!(raffle["ticketsAvailable"], 9999);
    assert_eq!(raffle["minTicketsPerPurchase"], Value::Null);
    assert_eq!(raffle["maxTicketsPerPurchase"], Value::Null);
    assert_eq!(raffle["purchaseLimits"], json!({"min": 1, "max": 1}));
    assert!(
        raffle["createdAt"]
            .as_str()
            .unwrap()
            .parse::<chrono::DateTime<chrono::Utc>>()
            .is_ok()
    );
    let id = raffle["id"].as_i64().unwrap();
    let read = app.get_json(&format!("/api/raffles/{id}")).await;
    assert_eq!(
        without_clock(read),
        without_clock(raffle),
        "what was stored is what was answered"
    );

    let dated = create_raffle(
        &app,
        &json!({"title": "Carro", "description": "Un carro", "price": "20", "drawDate": "2025-08-15T10:00:00-04:00", "endDate": "2025-09-01", "image": "https://cdn.example.com/carro.jpg"}),
    )
    .await;
    assert_eq!(dated["price"], "20.00");
    assert_eq!(dated["drawDate"], "2025-08-15T23:59:59.999Z");
    assert_eq!(dated["endDate"], "2025-09-01T00:00:00.000Z");
    assert_eq!(dated["image"], "https://cdn.example.com/carro.jpg");
}

async fn every_raffle_field_reports_its_own_message(app: TestApp) {
    let valid = json!({"title": "Rifa", "description": "Premio", "price": 13});
    let with = |key: &str, value: Value| {
        let mut body = valid.clone();
        body[key] = value;
        body
    };
    let without = |key: &str| {
        let mut body = valid.clone();
        body.as_object_mut().unwrap().remove(key);
        body
    };
    let price_range = "Debe estar entre 0.01 y 1000000.00";
    let count_range = "Debe estar entre 1 y 99999";
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            with("title", json!("   ")),
            "title",
            "Este campo es obligatorio",
        ),
        (without("title"), "title", "Este campo es obligatorio"),
        (
            with("title", json!("x".repeat(201))),
            "title",
            "Debe tener como máximo 200 caracteres",
        ),
        (
            without("description"),
            "description",
            "Este campo es obligatorio",
        ),
        (without("price"), "price", "Este campo es obligatorio"),
        (with("price", json!(0)), "price", price_range),
        (with("price", json!("0.00")), "price", price_range),
        (with("price", json!(1_000_000.01)), "price", price_range),
        (
            with("price", json!(0.001)),
            "price",
            "Como máximo 2 decimales",
        ),
        (with("maxTickets", json!(0)), "maxTickets", count_range),
        (
            with("maxTickets", json!(100_000)),
            "maxTickets",
            count_range,
        ),
        (with("maxTickets", json!(-1)), "maxTickets", count_range),
        (
            with("minTicketsPerPurchase", json!(0)),
            "minTicketsPerPurchase",
            count_range,
        ),
        (
            with("maxTicketsPerPurchase", json!(100_000)),
            "maxTicketsPerPurchase",
            count_range,
        ),
        (
            json!({"title": "Rifa", "description": "Premio", "price": 13, "minTicketsPerPurchase": 5, "maxTicketsPerPurchase": 2}),
            "minTicketsPerPurchase",
            "El mínimo por compra no puede superar el máximo por compra",
        ),
        (
            json!({"title": "Rifa", "description": "Premio", "price": 13, "maxTickets": 10, "minTicketsPerPurchase": 11, "maxTicketsPerPurchase": 20}),
            "minTicketsPerPurchase",
            "Debe estar entre 1 y 10",
        ),
        (
            with("status", json!("open")),
            "status",
            "Valor no válido; opciones: available, finished, postponed, inactive, completed",
        ),
        (
            with("drawDate", json!("15/08/2025")),
            "drawDate",
            "Fecha no válida",
        ),
        (
            with("drawDate", json!("mañana")),
            "drawDate",
            "Fecha no válida",
        ),
        (
            with("endDate", json!("2025-13-01")),
            "endDate",
            "Fecha no válida",
        ),
        (
            with("image", json!("javascript:alert(1)")),
            "image",
            "URL no válida",
        ),
        (
            with("image", json!("data:image/png;base64,AA")),
            "image",
            "URL no válida",
        ),
        (
            with("image", json!("//evil.example.com/x.jpg")),
            "image",
            "URL no válida",
        ),
    ];

    for (body, field, message) in cases {
        let response = app
            .admin_send(Method::POST, "/api/admin/raffles", &body)
            .await;

        let error = expect_error(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(error["fields"][field], message, "{body}");
        assert_eq!(
            error["fields"].as_object().unwrap().len(),
            1,
            "only {field} is wrong in {body}: {error}"
        );
        assert_eq!(error["message"], message, "a single problem is the message");
    }
    let everything_wrong = app
        .admin_send(
            Method::POST,
            "/api/admin/raffles",
            &json!({"title": " ", "price": 0, "status": "x", "maxTickets": 0, "drawDate": "x", "image": "javascript:x"}),
        )
        .await;
    let error = expect_error(
        everything_wrong,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(error["message"], "Revisa los campos marcados");
    let mut fields: Vec<&String> = error["fields"].as_object().unwrap().keys().collect();
    fields.sort();
    assert_eq!(
        fields,
        [
            "description",
            "drawDate",
            "image",
            "maxTickets",
            "price",
            "status",
            "title"
        ]
    );
    assert_eq!(
        app.admin_get("/api/admin/raffles").await,
        json!([]),
        "nothing was created"
    );
}

async fn a_negative_price_is_refused_with_the_price_range(app: TestApp) {
    let response = app
        .admin_send(
            Method::POST,
            "/api/admin/raffles",
            &json!({"title": "Rifa", "description": "Premio", "price": -5}),
        )
        .await;

    let error = expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(
        error["fields"]["price"], "Debe estar entre 0.01 y 1000000.00",
        "the same range as a zero price"
    );
}

async fn an_admin_updates_every_field_of_a_raffle(app: TestApp) {
    let id = create_raffle(
        &app,
        &json!({"title": "Rifa", "description": "Premio", "price": 13}),
    )
    .await["id"]
        .as_i64()
        .unwrap();

    let response = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/raffles/{id}"),
            &json!({
                "title": " Moto nueva ", "description": "Otra descripción", "price": "25.75",
                "maxTickets": 500, "minTicketsPerPurchase": 2, "maxTicketsPerPurchase": 10,
                "status": "postponed", "drawDate": "2030-01-15", "endDate": "2030-02-01T12:00:00Z",
                "image": "https://cdn.example.com/moto.jpg"
            }),
        )
        .await;

    assert_eq!(response.status(), StatusCode::OK);
    let updated: Value = response.json().await.unwrap();
    assert_eq!(updated["id"], id);
    assert_eq!(updated["title"], "Moto nueva");
    assert_eq!(updated["description"], "Otra descripción");
    assert_eq!(updated["price"], "25.75");
    assert_eq!(updated["maxTickets"], 500);
    assert_eq!(updated["minTicketsPerPurchase"], 2);
    assert_eq!(updated["maxTicketsPerPurchase"], 10);
    assert_eq!(updated["purchaseLimits"], json!({"min": 2, "max": 10}));
    assert_eq!(updated["status"], "postponed");
    assert_eq!(updated["active"], false);
    assert_eq!(updated["drawDate"], "2030-01-15T23:59:59.999Z");
    assert_eq!(updated["endDate"], "2030-02-01T12:00:00.000Z");
    assert_eq!(updated["image"], "https://cdn.example.com/moto.jpg");
    let read = app.admin_get(&format!("/api/admin/raffles/{id}")).await;
    assert_eq!(without_clock(read), without_clock(updated));
    let invalid = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/raffles/{id}"),
            &json!({"title": "", "description": "x", "price": 1}),
        )
        .await;
    let error = expect_error(
        invalid,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(error["fields"]["title"], "Este campo es obligatorio");
    assert_eq!(
        app.admin_get(&format!("/api/admin/raffles/{id}")).await["title"],
        "Moto nueva",
        "a refused update changes nothing"
    );
    let missing = app
        .admin_send(
            Method::PUT,
            "/api/admin/raffles/999999",
            &json!({"title": "Rifa", "description": "Premio", "price": 13}),
        )
        .await;
    expect_error(missing, StatusCode::NOT_FOUND, "raffle_not_found").await;
}

async fn the_maximum_cannot_drop_below_a_held_number(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let bought = app
        .buy(raffle, method, &[42, 7], 1300, "a@example.com")
        .await;
    assert_eq!(bought.status(), StatusCode::CREATED);

    let too_small = resize(&app, raffle, 41).await;

    let body = expect_error(too_small, StatusCode::CONFLICT, "max_below_held_number").await;
    assert_eq!(body["highestHeld"], 42);
    assert!(body["message"].as_str().unwrap().contains("42"), "{body}");
    assert_eq!(
        app.admin_get(&format!("/api/admin/raffles/{raffle}")).await["maxTickets"],
        100
    );
    // Above every held number, the size still cannot move once sold: it decides how the
    // winning number is read (issue 32).
    let just_enough = resize(&app, raffle, 42).await;
    let body = expect_error(just_enough, StatusCode::CONFLICT, "raffle_size_locked").await;
    assert!(
        body["message"].as_str().unwrap().contains("nueva rifa"),
        "{body}"
    );
    assert_eq!(
        app.admin_get(&format!("/api/admin/raffles/{raffle}")).await["maxTickets"],
        100
    );
}

async fn a_raffle_without_purchases_is_deleted(app: TestApp) {
    let id = create_raffle(
        &app,
        &json!({"title": "Rifa", "description": "Premio", "price": 13}),
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let path = format!("/api/admin/raffles/{id}");

    let deleted = app.as_admin(Method::DELETE, &path).send().await.unwrap();

    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert!(deleted.bytes().await.unwrap().is_empty());
    let read = app.as_admin(Method::GET, &path).send().await.unwrap();
    expect_error(read, StatusCode::NOT_FOUND, "raffle_not_found").await;
    let again = app.as_admin(Method::DELETE, &path).send().await.unwrap();
    expect_error(again, StatusCode::NOT_FOUND, "raffle_not_found").await;
    assert_eq!(app.admin_get("/api/admin/raffles").await, json!([]));
}

async fn a_raffle_with_real_purchases_cannot_be_deleted_but_test_purchases_do_not_count(
    app: TestApp,
) {
    let sold = app.raffle("13", 100, (1, 5)).await;
    let tested = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let bought = app.buy(sold, method, &[1], 1300, "a@example.com").await;
    assert_eq!(bought.status(), StatusCode::CREATED);
    let test = app
        .post_form(
            &format!("/api/admin/raffles/{tested}/purchase"),
            app.purchase_form(method, &[1], "13.00", "prueba@example.com"),
            Some(&app.admin_token),
        )
        .await;
    assert_eq!(test.status(), StatusCode::CREATED);

    let refused = app
        .as_admin(Method::DELETE, &format!("/api/admin/raffles/{sold}"))
        .send()
        .await
        .unwrap();
    let allowed = app
        .as_admin(Method::DELETE, &format!("/api/admin/raffles/{tested}"))
        .send()
        .await
        .unwrap();

    let body = expect_error(refused, StatusCode::CONFLICT, "raffle_has_purchases").await;
    assert!(
        body["message"].as_str().unwrap().contains("1 compra(s)"),
        "{body}"
    );
    assert_eq!(
        app.admin_get(&format!("/api/admin/raffles/{sold}")).await["id"],
        sold
    );
    assert_eq!(allowed.status(), StatusCode::NO_CONTENT);
    assert_eq!(ids(&app.admin_get("/api/admin/raffles").await), vec![sold]);
}

async fn a_new_raffle_has_no_promotions(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;

    let public = app
        .get_json(&format!("/api/raffles/{raffle}/promotions"))
        .await;
    let admin = app
        .admin_get(&format!("/api/admin/raffles/{raffle}/promotions"))
        .await;

    assert_eq!(public, json!([]));
    assert_eq!(admin, json!([]));
}

async fn a_quote_prices_the_tickets_on_the_server(app: TestApp) {
    let raffle = app.raffle("13.5", 100, (2, 5)).await;

    let quote = app
        .get_json(&format!("/api/raffles/{raffle}/quote?count=3"))
        .await;
    let one = app
        .get_json(&format!("/api/raffles/{raffle}/quote?count=1"))
        .await;

    assert_eq!(quote["ticketCount"], 3);
    assert_eq!(quote["basePrice"], "13.50");
    assert_eq!(quote["subtotal"], "40.50");
    assert_eq!(quote["discount"], "0.00");
    assert_eq!(quote["discountPercentage"], "0");
    assert_eq!(quote["total"], "40.50");
    assert_eq!(quote["appliedDiscount"], Value::Null);
    assert_eq!(quote["meetsMinimum"], true);
    assert_eq!(one["total"], "13.50");
    assert_eq!(one["meetsMinimum"], false, "the minimum is 2");
    for bad in [
        "",
        "?count=",
        "?count=abc",
        "?count=-1",
        "?count=4294967296",
    ] {
        let response = app.get(&format!("/api/raffles/{raffle}/quote{bad}")).await;
        expect_error(response, StatusCode::BAD_REQUEST, "bad_request").await;
    }
}

async fn the_availability_bitmap_has_one_bit_per_number(app: TestApp) {
    let raffle = app.raffle("1", 20, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let bought = app
        .buy(raffle, method, &[1, 9, 20], 100, "a@example.com")
        .await;
    assert_eq!(bought.status(), StatusCode::CREATED);

    let response = app
        .get(&format!("/api/raffles/{raffle}/availability"))
        .await;

    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-type"],
        "application/octet-stream"
    );
    assert_eq!(response.headers()["x-max-tickets"], "20");
    assert_eq!(response.headers()["x-available-count"], "17");
    let bytes = response.bytes().await.unwrap();
    assert_eq!(
        bytes.as_ref(),
        [0b0111_1111, 0b0111_1111, 0b1110_0000],
        "number 1 is the top bit of byte 0; bits past 20 are zero"
    );
}

async fn the_largest_raffle_has_a_bitmap_of_twelve_and_a_half_kilobytes(app: TestApp) {
    let raffle = create_raffle(
        &app,
        &json!({"title": "Grande", "description": "Premio", "price": 1, "maxTickets": 99_999, "prizes": [first_prize()]}),
    )
    .await["id"]
        .as_i64()
        .unwrap();

    let response = app
        .get(&format!("/api/raffles/{raffle}/availability"))
        .await;

    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["x-max-tickets"], "99999");
    assert_eq!(response.headers()["x-available-count"], "99999");
    let bytes = response.bytes().await.unwrap();
    assert_eq!(bytes.len(), 12_500);
    assert!(bytes[..12_499].iter().all(|b| *b == 0xFF));
    assert_eq!(bytes[12_499], 0b1111_1110);
}

async fn the_public_sees_only_active_payment_methods(app: TestApp) {
    let active = app.payment_method("Zelle", None).await;
    let hidden = app
        .admin_send(
            Method::POST,
            "/api/admin/payment-methods",
            &json!({"name": "Efectivo", "type": "digital", "details": {"nota": "en oficina"}, "active": false}),
        )
        .await;
    assert_eq!(hidden.status(), StatusCode::CREATED);
    let hidden: Value = hidden.json().await.unwrap();
    assert_eq!(hidden["active"], false);

    let public = app.get_json("/api/payment-methods").await;
    let admin = app.admin_get("/api/admin/payment-methods").await;

    assert_eq!(ids(&public), vec![active]);
    assert_eq!(public[0]["name"], "Zelle");
    assert_eq!(public[0]["details"], json!({"email": "pagos@example.com"}));
    assert_eq!(admin.as_array().unwrap().len(), 2);
    let switched_off = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/payment-methods/{active}"),
            &json!({"name": "Zelle", "type": "digital", "details": {"email": "pagos@example.com"}, "active": false}),
        )
        .await;
    assert_eq!(switched_off.status(), StatusCode::OK);
    assert_eq!(app.get_json("/api/payment-methods").await, json!([]));
}

async fn a_buyer_finds_their_tickets_by_email_with_the_rest_masked(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let other = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let first: Value = app
        .buy(raffle, method, &[42, 7], 1300, "maria@example.com")
        .await
        .json()
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let second: Value = app
        .buy(other, method, &[3], 1300, "maria@example.com")
        .await
        .json()
        .await
        .unwrap();
    let stranger = app
        .buy(raffle, method, &[1], 1300, "otra@example.com")
        .await;
    assert_eq!(stranger.status(), StatusCode::CREATED);

    let response = verify(&app, &json!({"email": "  MARIA@Example.COM "})).await;

    assert_eq!(response.status(), StatusCode::OK);
    let found: Value = response.json().await.unwrap();
    assert_eq!(found["customerEmail"], "maria@example.com");
    let digits = buyer_phone("maria@example.com");
    let last = &digits[digits.len() - 4..];
    assert_eq!(
        found["customerPhone"],
        format!("•••• ••{} {}", &last[..2], &last[2..])
    );
    assert_eq!(found["customerName"], "María G.");
    let entries = found["raffles"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{found}");
    assert_eq!(
        entries[0]["purchase"]["reference"], second["purchase"]["reference"],
        "newest first"
    );
    let entry = &entries[1];
    assert_eq!(entry["raffle"]["title"], "Rifa de prueba");
    assert_eq!(entry["raffle"]["price"], "13.00");
    assert_eq!(entry["tickets"], json!([7, 42]));
    assert_eq!(
        entry["purchase"]["reference"],
        first["purchase"]["reference"]
    );
    assert_eq!(entry["purchase"]["totalAmount"], "26.00");
    assert_eq!(entry["purchase"]["paymentMethod"], "Zelle");
    assert_eq!(entry["purchase"]["status"], "pending");
    let text = found.to_string();
    assert!(
        !text.contains(&buyer_document("maria@example.com")),
        "no ID document in a lookup"
    );
    assert!(!text.contains("González"), "no full name in a lookup");
}

async fn a_buyer_finds_their_tickets_by_phone_with_the_email_masked(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let bought: Value = app
        .buy(raffle, method, &[5], 1300, "maria@example.com")
        .await
        .json()
        .await
        .unwrap();
    let stored = app
        .admin_get(&format!(
            "/api/admin/purchases/{}",
            bought["purchase"]["id"]
        ))
        .await;

    // As typed, with spaces, brackets and a dash among the digits.
    let phone = buyer_phone("maria@example.com");
    let (prefix, rest) = phone.split_at(phone.len() - 4);
    let response = verify(
        &app,
        &json!({"phone": format!(" {} ({}) {}-{rest} ", &prefix[..3], &prefix[4..7], &prefix[8..])}),
    )
    .await;

    assert_eq!(response.status(), StatusCode::OK);
    let found: Value = response.json().await.unwrap();
    assert_eq!(found["customerEmail"], "m***@example.com");
    assert_eq!(found["customerPhone"], stored["customerPhone"]);
    assert!(!found["customerPhone"].as_str().unwrap().contains('•'));
    assert_eq!(found["customerName"], "María G.");
    assert_eq!(found["raffles"][0]["tickets"], json!([5]));
    let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
    let digits_only = verify(&app, &json!({"phone": digits})).await;
    assert_eq!(digits_only.status(), StatusCode::OK);
}

async fn a_rejected_purchase_disappears_from_the_lookup(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let mut purchases = Vec::new();
    for number in [1, 2] {
        let bought: Value = app
            .buy(raffle, method, &[number], 1300, "maria@example.com")
            .await
            .json()
            .await
            .unwrap();
        purchases.push(bought["purchase"]["id"].as_i64().unwrap());
    }
    let rejected = app.decide(purchases[0], "rejected", Some("Sin pago")).await;
    assert_eq!(rejected.status(), StatusCode::OK);

    let found: Value = verify(&app, &json!({"email": "maria@example.com"}))
        .await
        .json()
        .await
        .unwrap();

    let entries = found["raffles"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{found}");
    assert_eq!(entries[0]["tickets"], json!([2]));
    let rejected = app.decide(purchases[1], "rejected", Some("Sin pago")).await;
    assert_eq!(rejected.status(), StatusCode::OK);
    let none = verify(&app, &json!({"email": "maria@example.com"})).await;
    expect_error(none, StatusCode::NOT_FOUND, "no_tickets_found").await;
}

async fn an_unknown_buyer_is_told_no_tickets_were_found(app: TestApp) {
    let spanish = verify(&app, &json!({"email": "nadie@example.com"})).await;
    let english = app
        .request(Method::POST, "/api/verify-tickets")
        .header("Accept-Language", "en")
        .json(&json!({"phone": "04145550199"}))
        .send()
        .await
        .unwrap();

    let body = expect_error(spanish, StatusCode::NOT_FOUND, "no_tickets_found").await;
    assert_eq!(
        body["message"],
        "No se encontraron boletos para este email/teléfono"
    );
    let body = expect_error(english, StatusCode::NOT_FOUND, "no_tickets_found").await;
    assert_eq!(
        body["message"],
        "No tickets were found for this email/phone"
    );
}

async fn a_buyer_whose_raffles_all_ended_is_told_none_are_active(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let bought = app
        .buy(raffle, method, &[9], 1300, "maria@example.com")
        .await;
    assert_eq!(bought.status(), StatusCode::CREATED);
    set_status(&app, raffle, "finished").await;

    let response = verify(&app, &json!({"email": "maria@example.com"})).await;

    let body = expect_error(response, StatusCode::NOT_FOUND, "no_active_tickets").await;
    assert_eq!(
        body["message"],
        "No tienes boletos en sorteos activos en este momento."
    );
}

async fn a_blank_or_malformed_lookup_is_refused_with_the_form_message(app: TestApp) {
    let required = "Debes ingresar un valor para verificar";
    for body in [
        json!({}),
        json!({"email": "  "}),
        json!({"phone": " "}),
        json!({"email": "", "phone": ""}),
        json!({"email": null}),
    ] {
        let response = verify(&app, &body).await;

        let error = expect_error(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(error["message"], required, "{body}");
        let fields = error["fields"].as_object().unwrap();
        assert!(fields.values().any(|m| m == required), "{body}: {error}");
    }
    let bad_email = verify(&app, &json!({"email": "no-es-un-email"})).await;
    let error = expect_error(
        bad_email,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(error["fields"]["email"], "Email inválido");
    let short_phone = verify(&app, &json!({"phone": "12345"})).await;
    let error = expect_error(
        short_phone,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(
        error["fields"]["phone"],
        "El teléfono debe tener al menos 10 dígitos"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ticket_lookups_are_limited_per_client_address() {
    let mut config = TestApp::sqlite_config();
    config.lookups_per_minute = 2;
    let app = TestApp::start(config, false).await;
    let lookup = json!({"email": "nadie@example.com"});

    let first = verify(&app, &lookup).await;
    let second = verify(&app, &lookup).await;
    let third = verify(&app, &lookup).await;

    expect_error(first, StatusCode::NOT_FOUND, "no_tickets_found").await;
    expect_error(second, StatusCode::NOT_FOUND, "no_tickets_found").await;
    let retry_after: u64 = third.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    let body = expect_error(third, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("Demasiados intentos"),
        "{body}"
    );
    let blank = verify(&app, &json!({})).await;
    expect_error(blank, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    assert_eq!(
        app.get("/api/raffles").await.status(),
        StatusCode::OK,
        "only lookups are limited"
    );
}
