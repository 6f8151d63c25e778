//! Hostile input over HTTP: every value that once panicked a worker or slipped through a loose
//! check is now a 422 naming its field, in Spanish and English.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::admin_auth::rifa_api;
use crate::helpers::{TestApp, expect_error};
use crate::on_both;

on_both!(
    purchase_amounts_too_large_for_cents_are_a_422_not_a_panic,
    daily_stats_dates_far_in_the_past_or_future_are_a_422_not_a_panic,
    a_search_date_far_in_the_past_or_future_is_a_422_not_a_panic,
    a_raffle_price_of_1e28_is_a_422_not_a_panic,
    single_line_fields_refuse_line_breaks_and_multi_line_fields_keep_them,
    image_and_logo_urls_must_be_web_urls_or_site_paths,
    a_buyer_name_with_a_link_or_markup_is_refused_in_both_languages,
    a_buyer_email_must_be_one_plain_mailbox,
    the_create_admin_command_refuses_a_guessable_password_and_says_why,
);

/// The purchase form with `field` set to `value`.
fn form_with(app: &TestApp, method: i64, field: &str, value: &str) -> Vec<(&'static str, String)> {
    let mut form = app.purchase_form(method, &[1], "13.00", "ana@example.com");
    for entry in &mut form {
        if entry.0 == field {
            entry.1 = value.to_owned();
        }
    }
    form
}

/// The field's message in Spanish and English for a purchase with `field` set to `value`.
async fn purchase_field_error(
    app: &TestApp,
    raffle: i64,
    method: i64,
    field: &str,
    value: &str,
) -> (Value, Value) {
    let path = format!("/api/raffles/{raffle}/purchase");
    let form = form_with(app, method, field, value);
    let spanish = expect_error(
        app.post_form(&path, form.clone(), None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    let english = app
        .request(Method::POST, &path)
        .header("Accept-Language", "en")
        .multipart(
            form.into_iter()
                .fold(reqwest::multipart::Form::new(), |f, (k, v)| f.text(k, v)),
        )
        .send()
        .await
        .unwrap();
    let english = expect_error(
        english,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    (
        spanish["fields"][field].clone(),
        english["fields"][field].clone(),
    )
}

async fn purchase_amounts_too_large_for_cents_are_a_422_not_a_panic(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;

    for field in ["totalAmount", "discountApplied"] {
        for amount in [
            "1000000000000000000000000000",
            "79228162514264337593543950335",
            "1000000000000000000000000.01",
            "-1000000000000000000000000000",
        ] {
            let (es, en) = purchase_field_error(&app, raffle, method, field, amount).await;

            assert_eq!(es, "Debe estar entre 0 y 1000000000.00", "{field}={amount}");
            assert_eq!(
                en, "Must be between 0 and 1000000000.00",
                "{field}={amount}"
            );
        }
    }
    assert_eq!(app.available(raffle).await.len(), 100);
}

async fn daily_stats_dates_far_in_the_past_or_future_are_a_422_not_a_panic(app: TestApp) {
    for (query, field) in [
        ("from=-262143-01-01&to=2025-01-01", "from"),
        (
            "from=-262143-01-01&to=-262143-01-02&utcOffsetMinutes=840",
            "from",
        ),
        ("from=2025-01-01&to=%2B262142-12-31", "to"),
        (
            "from=%2B262142-12-31&to=%2B262142-12-31&utcOffsetMinutes=-840",
            "from",
        ),
        ("from=9999-12-31&to=9999-12-31&utcOffsetMinutes=-840", ""),
        ("from=1970-01-01&to=1970-01-01&utcOffsetMinutes=840", ""),
    ] {
        let response = app
            .as_admin(Method::GET, &format!("/api/admin/stats/daily?{query}"))
            .send()
            .await
            .unwrap();

        if field.is_empty() {
            assert_eq!(response.status(), StatusCode::OK, "{query}");
            continue;
        }
        let body = expect_error(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(
            body["fields"][field], "Debe estar entre 1970-01-01 y 9999-12-31",
            "{query}: {body}"
        );
    }
}

async fn a_search_date_far_in_the_past_or_future_is_a_422_not_a_panic(app: TestApp) {
    for query in [
        "date=-262143-01-01",
        "date=-262143-01-01&utcOffsetMinutes=840",
        "date=%2B262142-12-31&utcOffsetMinutes=-840",
    ] {
        let response = app
            .as_admin(Method::GET, &format!("/api/admin/purchases/search?{query}"))
            .header("Accept-Language", "en")
            .send()
            .await
            .unwrap();

        let body = expect_error(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(
            body["fields"]["date"], "Must be between 1970-01-01 and 9999-12-31",
            "{query}: {body}"
        );
    }
    let edge = app
        .admin_get("/api/admin/purchases/search?date=9999-12-31&utcOffsetMinutes=-840")
        .await;
    assert_eq!(edge["total"], 0, "{edge}");
}

async fn a_raffle_price_of_1e28_is_a_422_not_a_panic(app: TestApp) {
    for price in [
        json!("1e28"),
        json!("79228162514264337593543950335"),
        json!(1e28),
    ] {
        let response = app
            .admin_send(
                Method::POST,
                "/api/admin/raffles",
                &json!({"title": "Moto", "description": "Una moto", "price": price}),
            )
            .await;

        let body = expect_error(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(
            body["fields"]["price"], "Debe estar entre 0.01 y 1000000.00",
            "{price}: {body}"
        );
    }
}

async fn single_line_fields_refuse_line_breaks_and_multi_line_fields_keep_them(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let (es, en) =
        purchase_field_error(&app, raffle, method, "customerName", "Ana\r\nBcc: x@y.z").await;
    assert_eq!(es, "Contiene caracteres no permitidos");
    assert_eq!(en, "Contains characters that are not allowed");

    let refused: [(&str, &str, Value); 5] = [
        (
            "/api/admin/raffles",
            "title",
            json!({"title": "Moto\n0km", "description": "x", "price": "1"}),
        ),
        (
            "/api/admin/payment-methods",
            "name",
            json!({"name": "Zelle\r\nX", "type": "digital"}),
        ),
        (
            "/api/admin/payment-methods",
            "details",
            json!({"name": "Zelle", "type": "digital", "details": {"email": "a@b.c\tx"}}),
        ),
        (
            "/api/admin/branding",
            "companyName",
            json!({"companyName": "Rifa\rX"}),
        ),
        (
            "/api/admin/email-settings",
            "emailHost",
            json!({"emailHost": "smtp.example.com\r\nX"}),
        ),
    ];
    for (path, field, body) in refused {
        let method = if path == "/api/admin/email-settings" {
            Method::PUT
        } else {
            Method::POST
        };
        let response = app.admin_send(method, path, &body).await;
        let body = expect_error(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(
            body["fields"][field], "Contiene caracteres no permitidos",
            "{path}: {body}"
        );
    }

    let response = app
        .admin_send(
            Method::POST,
            "/api/admin/raffles",
            &json!({"title": "Moto", "description": "Línea 1\nLínea 2", "price": "1"}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let created: Value = response.json().await.unwrap();
    assert_eq!(created["description"], "Línea 1\nLínea 2");
}

async fn image_and_logo_urls_must_be_web_urls_or_site_paths(app: TestApp) {
    for bad in [
        "/\\evil.example/x.png",
        "//evil.example/x.png",
        "https://x.example/a.png\" onerror=\"alert(1)",
        "https://x.example/a'.png",
        "javascript:alert(1)",
        "https:evil.example",
    ] {
        let raffle = app
            .admin_send(
                Method::POST,
                "/api/admin/raffles",
                &json!({"title": "Moto", "description": "x", "price": "1", "image": bad}),
            )
            .await;
        let raffle = expect_error(
            raffle,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(raffle["fields"]["image"], "URL no válida", "{bad}");

        let logo = app
            .as_admin(Method::POST, "/api/admin/branding")
            .header("Accept-Language", "en")
            .json(&json!({"logoUrl": bad}))
            .send()
            .await
            .unwrap();
        let logo = expect_error(logo, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;
        assert_eq!(logo["fields"]["logoUrl"], "Invalid URL", "{bad}");
    }
    for good in ["https://cdn.example.com/moto.jpg?v=2", "/images/moto.jpg"] {
        let response = app
            .admin_send(
                Method::POST,
                "/api/admin/raffles",
                &json!({"title": "Moto", "description": "x", "price": "1", "image": good}),
            )
            .await;
        assert_eq!(response.status(), StatusCode::CREATED, "{good}");
    }
}

async fn a_buyer_name_with_a_link_or_markup_is_refused_in_both_languages(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    for name in [
        "Gana en http://evil.example/premio",
        "Visita www.evil.example",
        "Ana evil.com",
        "<b>Ana</b>",
    ] {
        let (es, en) = purchase_field_error(&app, raffle, method, "customerName", name).await;

        assert_eq!(
            es,
            "El nombre solo puede tener letras, números, espacios y . , ' -, sin enlaces ni etiquetas",
            "{name}"
        );
        assert_eq!(
            en,
            "The name may only hold letters, digits, spaces and . , ' -, with no links or markup",
            "{name}"
        );
    }
    assert_eq!(app.available(raffle).await.len(), 100);
}

async fn a_buyer_email_must_be_one_plain_mailbox(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    for email in [
        "ana@example.com?bcc=everyone@example.com",
        "ana?bcc=x@example.com",
        "Ana <ana@example.com>",
        "ana(x)@example.com",
        "\"ana\"@example.com",
        "ana@example.com,luis@example.com",
    ] {
        let (es, en) = purchase_field_error(&app, raffle, method, "customerEmail", email).await;

        assert_eq!(es, "Email inválido", "{email}");
        assert_eq!(en, "Invalid email", "{email}");
    }
    assert_eq!(app.available(raffle).await.len(), 100);
}

async fn the_create_admin_command_refuses_a_guessable_password_and_says_why(app: TestApp) {
    for (weak, reason) in [
        ("aaaaaaaaaaaa", "Repeats like"),
        ("password1234", "Password too easy to guess"),
        ("qwertyuiop123", "Password too easy to guess"),
    ] {
        let refused = rifa_api(
            &app,
            &["create-admin", "--username", "cli-op"],
            &format!("{weak}\n"),
        )
        .await;

        assert!(!refused.status.success(), "{weak} is refused");
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(stderr.contains("password: "), "{weak}: {stderr}");
        assert!(stderr.contains(reason), "{weak}: {stderr}");
        expect_error(
            app.login("cli-op", weak).await,
            StatusCode::UNAUTHORIZED,
            "invalid_credentials",
        )
        .await;
    }
    let strong = rifa_api(
        &app,
        &["create-admin", "--username", "cli-op"],
        "pradera naranja tiza cometa\n",
    )
    .await;
    assert!(
        strong.status.success(),
        "{}",
        String::from_utf8_lossy(&strong.stderr)
    );
}
