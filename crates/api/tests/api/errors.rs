//! Bad requests of every kind get a JSON error with a stable code, in the caller's language,
//! and never a 5xx.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use reqwest::{Method, RequestBuilder, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{TestApp, expect_error};
use crate::on_both;

on_both!(
    an_unknown_path_answers_json_route_not_found,
    a_wrong_method_on_a_known_path_answers_405,
    a_malformed_json_body_is_a_400_bad_request,
    a_json_body_without_the_json_content_type_is_a_415,
    fields_of_the_wrong_type_are_a_400,
    a_json_body_over_64_kilobytes_is_refused_with_413,
    a_purchase_sent_as_json_gets_a_json_client_error,
    garbage_ticket_numbers_are_reported_on_the_ticket_field,
    a_negative_ticket_number_is_named_as_sent,
    ids_that_are_not_numbers_or_overflow_are_not_found,
    english_is_answered_when_asked_for_and_the_language_is_named,
    odd_but_well_formed_inputs_never_make_the_server_fail,
    text_with_a_nul_character_never_makes_the_server_fail,
);

/// Sends and checks the answer is a client error with a JSON `{code, message}` body.
async fn client_error(request: RequestBuilder, what: &str) -> (StatusCode, Value) {
    let response = request.send().await.unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    assert!(status.is_client_error(), "{what}: {status} {text}");
    let body: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{what}: {status} body is not JSON ({e}): {text:?}"));
    assert!(
        body["code"].as_str().is_some_and(|c| !c.is_empty()),
        "{what}: {body}"
    );
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{what}: {body}"
    );
    (status, body)
}

fn raw_json(app: &TestApp, method: Method, path: &str, body: &str) -> RequestBuilder {
    app.as_admin(method, path)
        .header("Content-Type", "application/json")
        .body(body.to_owned())
}

async fn an_unknown_path_answers_json_route_not_found(app: TestApp) {
    for (method, path) in [
        (Method::GET, "/api/nope"),
        (Method::POST, "/api/raffles/1/nope"),
        (Method::GET, "/api/admin"),
        (Method::DELETE, "/api/admin/nope/1"),
        (Method::GET, "/nope"),
        (Method::GET, "/api/raffles/1/tickets/2"),
    ] {
        let response = app.request(method.clone(), path).send().await.unwrap();

        assert_eq!(
            response.headers()["content-type"],
            "application/json",
            "{method} {path}"
        );
        let body = expect_error(response, StatusCode::NOT_FOUND, "route_not_found").await;
        assert_eq!(body["message"], "Ruta no encontrada", "{method} {path}");
    }
}

async fn a_wrong_method_on_a_known_path_answers_405(app: TestApp) {
    for (method, path) in [
        (Method::DELETE, "/api/raffles"),
        (Method::POST, "/api/raffles/1"),
        (Method::PUT, "/api/branding"),
        (Method::GET, "/api/admin/login"),
        (Method::GET, "/api/verify-tickets"),
        (Method::POST, "/api/payment-methods"),
        (Method::PATCH, "/api/admin/raffles/1"),
        (Method::GET, "/api/admin/purchases/1/status"),
        (Method::POST, "/api/admin/email-settings"),
        (Method::DELETE, "/api/dev-mode"),
    ] {
        let response = app
            .as_admin(method.clone(), path)
            .json(&json!({}))
            .send()
            .await
            .unwrap();

        assert_eq!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path}"
        );
        let allowed = response
            .headers()
            .get("allow")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        assert!(
            !allowed.is_empty() && !allowed.contains(method.as_str()),
            "{method} {path}: Allow {allowed:?} names the methods that work"
        );
    }
}

async fn a_malformed_json_body_is_a_400_bad_request(app: TestApp) {
    for (method, path, body) in [
        (Method::POST, "/api/admin/raffles", "{not json"),
        (Method::POST, "/api/admin/raffles", "{\"title\": \"Rifa\","),
        (Method::POST, "/api/admin/raffles", ""),
        (Method::POST, "/api/admin/raffles", "null"),
        (Method::POST, "/api/admin/raffles", "[]"),
        (Method::POST, "/api/admin/raffles", "\"Rifa\""),
        (Method::POST, "/api/admin/login", "{"),
        (Method::POST, "/api/verify-tickets", "{\"email\": }"),
        (
            Method::PUT,
            "/api/admin/purchases/1/status",
            "status=approved",
        ),
        (Method::POST, "/api/admin/branding", "{'primaryColor': 'x'}"),
        (Method::PUT, "/api/admin/discounts", "{\"tiers\": [,]}"),
    ] {
        let response = raw_json(&app, method.clone(), path, body)
            .send()
            .await
            .unwrap();

        let error = expect_error(response, StatusCode::BAD_REQUEST, "bad_request").await;
        assert_eq!(
            error["message"], "La solicitud no es válida",
            "{method} {path} {body:?}"
        );
        assert!(error["detail"].is_string(), "{error}");
    }
}

async fn a_json_body_without_the_json_content_type_is_a_415(app: TestApp) {
    let login = r#"{"username": "admin", "password": "whatever-password"}"#;
    for content_type in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        None,
    ] {
        let mut request = app
            .request(Method::POST, "/api/admin/login")
            .body(login.to_owned());
        if let Some(content_type) = content_type {
            request = request.header("Content-Type", content_type);
        }

        let response = request.send().await.unwrap();

        let body = expect_error(
            response,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
        )
        .await;
        assert_eq!(
            body["message"], "Se esperaba application/json",
            "{content_type:?}"
        );
    }
    let raffle = app
        .as_admin(Method::POST, "/api/admin/raffles")
        .header("Content-Type", "text/plain")
        .body(r#"{"title": "Rifa", "description": "Premio", "price": 1}"#)
        .send()
        .await
        .unwrap();
    expect_error(
        raffle,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
    )
    .await;
    assert_eq!(app.admin_get("/api/admin/raffles").await, json!([]));
}

async fn fields_of_the_wrong_type_are_a_400(app: TestApp) {
    let raffle = |key: &str, value: Value| {
        let mut body = json!({"title": "Rifa", "description": "Premio", "price": 13});
        body[key] = value;
        (Method::POST, "/api/admin/raffles", body)
    };
    let cases = [
        raffle("price", json!("abc")),
        raffle("price", json!(true)),
        raffle("price", json!([13])),
        raffle("maxTickets", json!("x")),
        raffle("maxTickets", json!(1.5)),
        raffle("maxTickets", json!(1e20)),
        raffle("title", json!(42)),
        raffle("title", json!({"es": "Rifa"})),
        raffle("minTicketsPerPurchase", json!("dos")),
        (
            Method::POST,
            "/api/admin/login",
            json!({"username": 5, "password": "x"}),
        ),
        (
            Method::POST,
            "/api/verify-tickets",
            json!({"email": ["a@example.com"]}),
        ),
        (
            Method::POST,
            "/api/admin/exchange-rates",
            json!({"rate": "abc"}),
        ),
        (
            Method::POST,
            "/api/admin/payment-methods",
            json!({"name": "Zelle", "type": "zelle", "details": ["email"]}),
        ),
        (
            Method::POST,
            "/api/admin/payment-methods",
            json!({"name": "Zelle", "type": "zelle", "exchangeRateId": "uno"}),
        ),
        (
            Method::POST,
            "/api/admin/payment-methods",
            json!({"name": "Zelle", "type": "zelle", "active": "yes"}),
        ),
        (
            Method::PUT,
            "/api/admin/purchases/1/status",
            json!({"status": 1}),
        ),
        (
            Method::PUT,
            "/api/admin/email-settings",
            json!({"emailPort": "587"}),
        ),
        (
            Method::POST,
            "/api/admin/branding",
            json!({"primaryColor": 240}),
        ),
    ];

    for (method, path, body) in cases {
        let response = app.admin_send(method.clone(), path, &body).await;

        expect_error(response, StatusCode::BAD_REQUEST, "bad_request").await;
    }
    assert_eq!(app.admin_get("/api/admin/raffles").await, json!([]));
}

async fn a_json_body_over_64_kilobytes_is_refused_with_413(app: TestApp) {
    let long = "x".repeat(70 * 1024);
    for (method, path, body) in [
        (
            Method::POST,
            "/api/admin/raffles",
            json!({"title": "Rifa", "description": long, "price": 13}),
        ),
        (
            Method::POST,
            "/api/admin/login",
            json!({"username": "admin", "password": long}),
        ),
        (Method::POST, "/api/verify-tickets", json!({"email": long})),
        (
            Method::POST,
            "/api/admin/branding",
            json!({"description": long}),
        ),
    ] {
        let response = app.admin_send(method.clone(), path, &body).await;

        let error =
            expect_error(response, StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large").await;
        assert_eq!(
            error["message"], "La solicitud es demasiado grande",
            "{method} {path}"
        );
    }
    let just_under = app
        .admin_send(
            Method::POST,
            "/api/admin/raffles",
            &json!({"title": "Rifa", "description": "x".repeat(5_000), "price": 13}),
        )
        .await;
    assert_eq!(just_under.status(), StatusCode::CREATED);
}

async fn a_purchase_sent_as_json_gets_a_json_client_error(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let fields: serde_json::Map<String, Value> = app
        .purchase_form(method, &[1], "13.00", "a@example.com")
        .into_iter()
        .map(|(k, v)| (k.to_owned(), Value::String(v)))
        .collect();
    let path = format!("/api/raffles/{raffle}/purchase");
    let cases = [
        (
            "purchase as JSON",
            app.request(Method::POST, &path).json(&fields),
            "unsupported_media_type",
        ),
        (
            "purchase without a body",
            app.request(Method::POST, &path),
            "unsupported_media_type",
        ),
        (
            "purchase as a URL-encoded form",
            app.request(Method::POST, &path)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body("customerName=Ana"),
            "unsupported_media_type",
        ),
        (
            "multipart without a boundary",
            app.request(Method::POST, &path)
                .header("Content-Type", "multipart/form-data")
                .body("customerName=Ana"),
            "unsupported_media_type",
        ),
        (
            "a truncated multipart body",
            app.request(Method::POST, &path)
                .header("Content-Type", "multipart/form-data; boundary=XyZ")
                .body("--XyZ\r\nContent-Disposition: form-data; name=\"customerName\"\r\n\r\nAna"),
            "bad_request",
        ),
    ];

    let mut failures = Vec::new();
    for (what, request, code) in cases {
        let response = request.send().await.unwrap();
        let status = response.status();
        let text = response.text().await.unwrap();
        let body: Value = serde_json::from_str(&text).unwrap_or(Value::Null);

        if !status.is_client_error() || body["code"] != code || !body["message"].is_string() {
            failures.push(format!(
                "{what}: expected a 4xx JSON {code}, got {status} {text:?}"
            ));
        }
    }

    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(app.available(raffle).await.len(), 100, "nothing was held");
}

async fn garbage_ticket_numbers_are_reported_on_the_ticket_field(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let not_a_number = "Debe ser un número";
    let cases = [
        ("3,7", not_a_number),
        ("[\"x\"]", not_a_number),
        ("[1.5]", not_a_number),
        ("[null]", not_a_number),
        ("[[1]]", not_a_number),
        ("{\"a\": 1}", not_a_number),
        ("7", not_a_number),
        ("[99999999999999999999]", not_a_number),
        ("", "Debes seleccionar al menos 1 boleto"),
        ("[]", "Debes seleccionar al menos 1 boleto"),
        ("[101]", "El boleto 101 no existe en este sorteo (1 a 100)"),
    ];

    for (numbers, message) in cases {
        let mut form = app.purchase_form(method, &[1], "13.00", "a@example.com");
        for field in &mut form {
            if field.0 == "ticketNumbers" {
                field.1 = numbers.to_owned();
            }
        }

        let response = app
            .post_form(&format!("/api/raffles/{raffle}/purchase"), form, None)
            .await;

        let body = expect_error(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(body["fields"]["ticketNumbers"], message, "{numbers:?}");
    }
    assert_eq!(app.available(raffle).await.len(), 100);
}

async fn a_negative_ticket_number_is_named_as_sent(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let mut form = app.purchase_form(method, &[1], "13.00", "a@example.com");
    for field in &mut form {
        if field.0 == "ticketNumbers" {
            field.1 = "[-3]".to_owned();
        }
    }

    let response = app
        .post_form(&format!("/api/raffles/{raffle}/purchase"), form, None)
        .await;

    let body = expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(
        body["fields"]["ticketNumbers"],
        "El boleto -3 no existe en este sorteo (1 a 100)"
    );
}

async fn ids_that_are_not_numbers_or_overflow_are_not_found(app: TestApp) {
    for (method, path) in [
        (Method::GET, "/api/raffles/abc"),
        (Method::GET, "/api/raffles/99999999999999999999"),
        (Method::GET, "/api/raffles/1.5"),
        (Method::GET, "/api/raffles/-1"),
        (Method::GET, "/api/raffles/0"),
        (Method::GET, "/api/raffles/abc/tickets"),
        (Method::GET, "/api/raffles/abc/availability"),
        (Method::GET, "/api/raffles/abc/promotions"),
        (Method::GET, "/api/raffles/abc/quote?count=1"),
        (Method::GET, "/api/raffles/9223372036854775808"),
        (Method::GET, "/api/raffles/9223372036854775807"),
        (Method::GET, "/api/admin/raffles/abc"),
        (Method::PUT, "/api/admin/raffles/abc"),
        (Method::DELETE, "/api/admin/raffles/99999999999999999999"),
        (Method::GET, "/api/admin/purchases/abc"),
        (Method::PUT, "/api/admin/purchases/abc/status"),
        (Method::PUT, "/api/admin/payment-methods/x"),
        (Method::DELETE, "/api/admin/payment-methods/1e3"),
        (Method::PUT, "/api/admin/exchange-rates/%20"),
        (
            Method::DELETE,
            "/api/admin/exchange-rates/99999999999999999999",
        ),
    ] {
        let request = app.as_admin(method.clone(), path).json(&json!({
            "title": "Rifa", "description": "Premio", "price": 13, "status": "approved",
            "name": "Zelle", "type": "zelle", "rate": 1
        }));

        let (status, body) = client_error(request, &format!("{method} {path}")).await;

        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}: {body}");
    }
    let purchase = app
        .post_form(
            "/api/raffles/abc/purchase",
            app.purchase_form(1, &[1], "13.00", "a@example.com"),
            None,
        )
        .await;
    assert_eq!(purchase.status(), StatusCode::NOT_FOUND);
}

async fn english_is_answered_when_asked_for_and_the_language_is_named(app: TestApp) {
    let english = |request: RequestBuilder| request.header("Accept-Language", "en-US,en;q=0.9");

    let not_found = english(app.request(Method::GET, "/api/raffles/999999"))
        .send()
        .await
        .unwrap();
    let no_route = english(app.request(Method::GET, "/api/nope"))
        .send()
        .await
        .unwrap();
    let no_token = english(app.request(Method::GET, "/api/admin/me"))
        .send()
        .await
        .unwrap();
    let malformed = english(raw_json(&app, Method::POST, "/api/admin/raffles", "{"))
        .send()
        .await
        .unwrap();
    let invalid = english(app.as_admin(Method::POST, "/api/admin/raffles"))
        .json(&json!({"title": "", "description": "Premio", "price": 13}))
        .send()
        .await
        .unwrap();
    let spanish = app
        .request(Method::GET, "/api/raffles/999999")
        .header("Accept-Language", "es-VE,es;q=0.9,en;q=0.8")
        .send()
        .await
        .unwrap();
    let unspecified = app.get("/api/raffles/999999").await;
    let ok = english(app.request(Method::GET, "/api/raffles"))
        .send()
        .await
        .unwrap();

    assert_eq!(not_found.headers()["content-language"], "en");
    let body = expect_error(not_found, StatusCode::NOT_FOUND, "raffle_not_found").await;
    assert_eq!(body["message"], "Raffle not found");
    assert_eq!(no_route.headers()["content-language"], "en");
    let body = expect_error(no_route, StatusCode::NOT_FOUND, "route_not_found").await;
    assert_eq!(body["message"], "Route not found");
    let body = expect_error(no_token, StatusCode::UNAUTHORIZED, "unauthorized").await;
    assert_eq!(body["message"], "Sign in to continue");
    let body = expect_error(malformed, StatusCode::BAD_REQUEST, "bad_request").await;
    assert_eq!(body["message"], "The request is malformed");
    let body = expect_error(
        invalid,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(body["fields"]["title"], "This field is required");
    assert_eq!(spanish.headers()["content-language"], "es");
    let body = expect_error(spanish, StatusCode::NOT_FOUND, "raffle_not_found").await;
    assert_eq!(body["message"], "Sorteo no encontrado");
    assert_eq!(unspecified.headers()["content-language"], "es");
    assert_eq!(ok.status(), StatusCode::OK);
    assert_eq!(ok.headers()["content-language"], "en");
}

async fn odd_but_well_formed_inputs_never_make_the_server_fail(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let mut requests: Vec<(String, RequestBuilder)> = Vec::new();
    let mut add = |what: &str, request: RequestBuilder| requests.push((what.to_owned(), request));
    for body in [
        json!({"title": "🎟️ Rifa ✨", "description": "عربى 中文 Ελληνικά", "price": 1}),
        json!({"title": "Rifa", "description": "Premio", "price": 1e30}),
        json!({"title": "Rifa", "description": "Premio", "price": "1e3"}),
        json!({"title": "Rifa", "description": "Premio", "price": "NaN"}),
        json!({"title": "Rifa", "description": "Premio", "price": 999_999_999_999_999_999_u64}),
        json!({"title": "Rifa", "description": "Premio", "price": 1, "maxTickets": i64::MAX}),
        json!({"title": "Rifa", "description": "Premio", "price": 1, "maxTickets": i64::MIN}),
        json!({"title": "Rifa", "description": "Premio", "price": 1, "minTicketsPerPurchase": i64::MAX, "maxTicketsPerPurchase": i64::MIN}),
        json!({"title": "Rifa", "description": "Premio", "price": 1, "drawDate": "99999-12-31"}),
        json!({"title": "Rifa", "description": "Premio", "price": 1, "drawDate": "9999-12-31T23:59:59Z"}),
        json!({"title": "Rifa", "description": "Premio", "price": 1, "endDate": "0001-01-01"}),
        json!({"title": "Rifa", "description": "Premio", "price": 1, "image": format!("https://x.com/{}", "a".repeat(3_000))}),
        json!({"title": "Rifa", "description": "Premio", "price": 1, "extra": {"nested": [1, 2, 3]}}),
    ] {
        add(
            &format!("create raffle {body}"),
            app.as_admin(Method::POST, "/api/admin/raffles").json(&body),
        );
    }
    for query in ["count=0", "count=99999", "count=100000", "count=4294967295"] {
        add(
            query,
            app.request(Method::GET, &format!("/api/raffles/{raffle}/quote?{query}")),
        );
    }
    for query in [
        "page=4294967295&pageSize=4294967295",
        "raffleId=-9223372036854775808",
        "raffleId=9223372036854775807",
        "name=%25%25%25_%5C",
        "tickets=4294967295,0",
        &format!("tickets={}", vec!["1"; 600].join(",")),
        "date=9999-12-31&utcOffsetMinutes=840",
        "date=0001-01-01&utcOffsetMinutes=-840",
        "status=%20pending%20",
    ] {
        add(
            query,
            app.as_admin(Method::GET, &format!("/api/admin/purchases/search?{query}")),
        );
    }
    for body in [
        json!({"email": "a@b"}),
        json!({"email": "ñandú@ejemplo.com"}),
        json!({"phone": "+58 ☎ 414 555 0101"}),
        json!({"phone": "1".repeat(500)}),
        json!({"email": "a@example.com", "phone": "04145550101"}),
    ] {
        add(
            &format!("verify {body}"),
            app.request(Method::POST, "/api/verify-tickets").json(&body),
        );
    }
    for body in [
        json!({"username": "admin", "password": "x".repeat(10_000)}),
        json!({"username": "ádmin' OR 1=1 --", "password": "x"}),
    ] {
        add(
            "login",
            app.request(Method::POST, "/api/admin/login").json(&body),
        );
    }
    add(
        "a discount with a huge percentage",
        app.as_admin(Method::PUT, "/api/admin/discounts")
            .json(&json!({"tiers": [{"minTickets": 4294967295_u64, "percentage": "99.9999999999", "label": "x"}]})),
    );
    add(
        "a rate with many digits",
        app.as_admin(Method::POST, "/api/admin/exchange-rates")
            .json(&json!({"rate": "79228162514264337593543950335"})),
    );
    add(
        "a payment method with many details",
        app.as_admin(Method::POST, "/api/admin/payment-methods").json(&json!({
            "name": "Muchos", "type": "digital",
            "details": (0..30).map(|i| (format!("k{i}"), json!("v"))).collect::<serde_json::Map<_, _>>()
        })),
    );
    let mut form = app.purchase_form(method, &[1], "13.00", "a@example.com");
    for field in &mut form {
        if field.0 == "totalAmount" {
            field.1 = "1e400".to_owned();
        }
    }
    let form = form
        .into_iter()
        .fold(reqwest::multipart::Form::new(), |f, (k, v)| f.text(k, v));
    add(
        "a purchase total that overflows",
        app.request(Method::POST, &format!("/api/raffles/{raffle}/purchase"))
            .multipart(form),
    );

    for (what, request) in requests {
        let response = request.send().await.unwrap();
        let status = response.status();
        let text = response.text().await.unwrap();

        assert!(!status.is_server_error(), "{what}: {status} {text}");
        if !status.is_success() {
            let body: Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{what}: {status} not JSON ({e}): {text:?}"));
            assert!(body["code"].is_string(), "{what}: {body}");
        }
    }
}

async fn text_with_a_nul_character_never_makes_the_server_fail(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let nul = "Ana\u{0}Pérez";
    let mut form = app.purchase_form(method, &[1], "13.00", "a@example.com");
    for field in &mut form {
        if field.0 == "customerName" {
            field.1 = nul.to_owned();
        }
    }
    let form = form
        .into_iter()
        .fold(reqwest::multipart::Form::new(), |f, (k, v)| f.text(k, v));
    let requests: Vec<(&str, RequestBuilder)> = vec![
        (
            "raffle title",
            app.as_admin(Method::POST, "/api/admin/raffles")
                .json(&json!({"title": nul, "description": "Premio", "price": 1})),
        ),
        (
            "payment method name",
            app.as_admin(Method::POST, "/api/admin/payment-methods")
                .json(&json!({"name": nul, "type": "digital", "details": {"k": nul}})),
        ),
        (
            "branding company name",
            app.as_admin(Method::POST, "/api/admin/branding")
                .json(&json!({"companyName": nul})),
        ),
        (
            "e-mail host",
            app.as_admin(Method::PUT, "/api/admin/email-settings")
                .json(&json!({"emailHost": nul})),
        ),
        (
            "decision notes",
            app.as_admin(Method::PUT, "/api/admin/purchases/1/status")
                .json(&json!({"status": "approved", "adminNotes": nul})),
        ),
        (
            "login username",
            app.request(Method::POST, "/api/admin/login")
                .json(&json!({"username": nul, "password": "x"})),
        ),
        (
            "lookup e-mail",
            app.request(Method::POST, "/api/verify-tickets")
                .json(&json!({"email": "a\u{0}@example.com"})),
        ),
        (
            "search by name",
            app.as_admin(Method::GET, "/api/admin/purchases/search?name=Ana%00"),
        ),
        (
            "purchase customer name",
            app.request(Method::POST, &format!("/api/raffles/{raffle}/purchase"))
                .multipart(form),
        ),
    ];

    let mut failures = Vec::new();
    for (what, request) in requests {
        let response = request.send().await.unwrap();
        let status = response.status();
        let text = response.text().await.unwrap();

        if status.is_server_error() {
            failures.push(format!("{what}: {status} {text}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
