//! Admin sign-in, sessions, privileges, the sign-in rate limit and the `create-admin` command.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use chrono::{DateTime, Utc};
use reqwest::{Method, Response, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{Role, TestApp, command_line, expect_error, first_prize};
use crate::on_both;

on_both!(
    an_admin_signs_in_and_gets_a_token_with_role_privilege_and_expiry,
    blank_credentials_are_refused_with_the_form_message,
    a_wrong_password_and_an_unknown_user_get_the_same_answer,
    every_admin_route_refuses_a_request_without_a_token,
    every_admin_route_refuses_a_garbage_or_tampered_token,
    me_answers_who_the_token_belongs_to,
    a_manager_is_forbidden_the_owners_calls,
    a_non_privileged_admin_may_make_every_other_admin_call,
    the_create_admin_command_adds_an_admin_who_can_sign_in,
    the_create_admin_command_refuses_a_short_password_and_a_taken_username,
);

/// The password `TestApp::other_admin` gives the admins it creates.
const OTHER_PASSWORD: &str = "a-long-test-password";

/// Every admin route except sign-in, with a plausible id where the path takes one.
fn admin_routes() -> Vec<(Method, &'static str)> {
    vec![
        (Method::GET, "/api/admin/me"),
        (Method::GET, "/api/admin/stats"),
        (Method::GET, "/api/admin/raffles"),
        (Method::POST, "/api/admin/raffles"),
        (Method::GET, "/api/admin/raffles/1"),
        (Method::PUT, "/api/admin/raffles/1"),
        (Method::DELETE, "/api/admin/raffles/1"),
        (Method::GET, "/api/admin/raffles/1/tickets"),
        (Method::GET, "/api/admin/raffles/1/availability"),
        (Method::GET, "/api/admin/raffles/1/promotions"),
        (Method::POST, "/api/admin/raffles/1/purchase"),
        (Method::GET, "/api/admin/purchases"),
        (Method::GET, "/api/admin/purchases/search"),
        (Method::GET, "/api/admin/purchases/1"),
        (Method::PUT, "/api/admin/purchases/1/status"),
        (Method::GET, "/api/admin/payment-methods"),
        (Method::POST, "/api/admin/payment-methods"),
        (Method::PUT, "/api/admin/payment-methods/1"),
        (Method::DELETE, "/api/admin/payment-methods/1"),
        (Method::GET, "/api/admin/exchange-rates"),
        (Method::POST, "/api/admin/exchange-rates"),
        (Method::PUT, "/api/admin/exchange-rates/1"),
        (Method::DELETE, "/api/admin/exchange-rates/1"),
        (Method::POST, "/api/admin/branding"),
        (Method::GET, "/api/admin/email-settings"),
        (Method::PUT, "/api/admin/email-settings"),
        (Method::GET, "/api/admin/discounts"),
        (Method::PUT, "/api/admin/discounts"),
    ]
}

/// A JSON body that would be valid for most admin writes, so only the token can be at fault.
fn some_body() -> Value {
    json!({"title": "Rifa", "description": "Premio", "price": 1, "status": "approved", "adminNotes": "ok"})
}

async fn send_with(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> Response {
    let mut request = app.request(method, path).json(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

async fn an_admin_signs_in_and_gets_a_token_with_role_privilege_and_expiry(app: TestApp) {
    app.other_admin("gerente", true).await;
    app.other_admin("operador", false).await;

    let response = app.login("gerente", OTHER_PASSWORD).await;

    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    let token = body["token"].as_str().unwrap();
    assert_eq!(token.split('.').count(), 3, "a JWT: {token}");
    assert_eq!(body["user"]["role"], "admin");
    assert_eq!(body["user"]["username"], "gerente");
    assert_eq!(body["user"]["authenticated"], true);
    assert_eq!(body["user"]["privileged"], true);
    assert!(body["user"]["id"].as_i64().is_some(), "{body}");
    let expires: DateTime<Utc> = body["expiresAt"].as_str().unwrap().parse().unwrap();
    let left = expires - Utc::now();
    assert!(
        left > chrono::Duration::minutes(55) && left <= chrono::Duration::minutes(61),
        "the test token lives an hour, not {left}"
    );
    let me = app
        .request(Method::GET, "/api/admin/me")
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), StatusCode::OK, "the token opens admin calls");

    let operator: Value = app
        .login("  Operador ", OTHER_PASSWORD)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(operator["user"]["username"], "operador");
    assert_eq!(operator["user"]["privileged"], false);
}

async fn blank_credentials_are_refused_with_the_form_message(app: TestApp) {
    let cases = [
        json!({"username": "", "password": OTHER_PASSWORD}),
        json!({"username": "   ", "password": OTHER_PASSWORD}),
        json!({"username": "admin", "password": ""}),
        json!({"username": "admin"}),
        json!({"password": OTHER_PASSWORD}),
        json!({}),
    ];
    for case in cases {
        let response = app
            .request(Method::POST, "/api/admin/login")
            .json(&case)
            .send()
            .await
            .unwrap();
        let body = expect_error(response, StatusCode::UNPROCESSABLE_ENTITY, "missing_fields").await;
        assert_eq!(
            body["message"], "Por favor completa todos los campos",
            "{case}"
        );
    }
    let english = app
        .request(Method::POST, "/api/admin/login")
        .header("Accept-Language", "en")
        .json(&json!({"username": "", "password": ""}))
        .send()
        .await
        .unwrap();
    let body = expect_error(english, StatusCode::UNPROCESSABLE_ENTITY, "missing_fields").await;
    assert_eq!(body["message"], "Please fill in all fields");
}

async fn a_wrong_password_and_an_unknown_user_get_the_same_answer(app: TestApp) {
    app.other_admin("gerente", true).await;

    let wrong_password = app.login("gerente", "not-the-password").await;
    let unknown_user = app.login("nadie", OTHER_PASSWORD).await;

    let wrong = expect_error(
        wrong_password,
        StatusCode::UNAUTHORIZED,
        "invalid_credentials",
    )
    .await;
    let unknown = expect_error(
        unknown_user,
        StatusCode::UNAUTHORIZED,
        "invalid_credentials",
    )
    .await;
    assert_eq!(wrong["message"], "Credenciales inválidas");
    assert_eq!(wrong, unknown, "nothing tells the two cases apart");
    let wrong_case = app.login("gerente", &OTHER_PASSWORD.to_uppercase()).await;
    expect_error(wrong_case, StatusCode::UNAUTHORIZED, "invalid_credentials").await;
}

async fn every_admin_route_refuses_a_request_without_a_token(app: TestApp) {
    for (method, path) in admin_routes() {
        let response = send_with(&app, method.clone(), path, None, &some_body()).await;

        let body = expect_error(response, StatusCode::UNAUTHORIZED, "unauthorized").await;
        assert_eq!(
            body["message"], "Inicia sesión para continuar",
            "{method} {path}"
        );
    }
    for header in [
        format!("Basic {}", app.admin_token),
        app.admin_token.clone(),
        "Bearer ".to_owned(),
        "Bearer    ".to_owned(),
    ] {
        let response = app
            .request(Method::GET, "/api/admin/me")
            .header("Authorization", header.clone())
            .send()
            .await
            .unwrap();
        expect_error(response, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
}

async fn every_admin_route_refuses_a_garbage_or_tampered_token(app: TestApp) {
    let (head, signature) = app.admin_token.rsplit_once('.').unwrap();
    let first = signature.chars().next().unwrap();
    let swapped = if first == 'A' { 'B' } else { 'A' };
    let tampered = format!("{head}.{swapped}{}", &signature[1..]);
    let other_secret = {
        let issuer = rifa_security::JwtIssuer::new(
            b"another-secret-another-secret-another!",
            Duration::from_secs(600),
        )
        .unwrap();
        rifa_ports::TokenIssuer::issue(&issuer, rifa_domain::admin::AdminId::new(1), "admin")
            .unwrap()
            .token
    };

    for token in ["garbage", "a.b.c", tampered.as_str(), other_secret.as_str()] {
        for (method, path) in admin_routes() {
            let response = send_with(&app, method.clone(), path, Some(token), &some_body()).await;

            let body = expect_error(response, StatusCode::UNAUTHORIZED, "token_invalid").await;
            assert_eq!(
                body["message"], "Sesión no válida; inicia sesión de nuevo",
                "{method} {path} with {token}"
            );
        }
    }
}

async fn me_answers_who_the_token_belongs_to(app: TestApp) {
    let operator = app.other_admin("operador", false).await;

    let admin = app.admin_get("/api/admin/me").await;
    let response = app
        .request(Method::GET, "/api/admin/me")
        .bearer_auth(&operator)
        .send()
        .await
        .unwrap();

    assert_eq!(admin["username"], "admin");
    assert_eq!(admin["role"], "admin");
    assert_eq!(admin["authenticated"], true);
    assert_eq!(admin["privileged"], true);
    assert_eq!(response.status(), StatusCode::OK);
    let operator: Value = response.json().await.unwrap();
    assert_eq!(operator["username"], "operador");
    assert_eq!(operator["privileged"], false);
    assert_ne!(operator["id"], admin["id"]);
}

async fn a_manager_is_forbidden_the_owners_calls(app: TestApp) {
    let operator = app.other_admin("operador", false).await;
    let rate: Value = app
        .admin_send(
            Method::POST,
            "/api/admin/exchange-rates",
            &json!({"rate": 36.5}),
        )
        .await
        .json()
        .await
        .unwrap();
    let rate_path = format!("/api/admin/exchange-rates/{}", rate["id"]);
    let calls = [
        (
            Method::POST,
            "/api/admin/branding".to_owned(),
            json!({"primaryColor": "10 50% 50%"}),
        ),
        (
            Method::GET,
            "/api/admin/email-settings".to_owned(),
            json!({}),
        ),
        (
            Method::PUT,
            "/api/admin/email-settings".to_owned(),
            json!({"emailHost": "smtp.example.com"}),
        ),
        (
            Method::PUT,
            "/api/admin/discounts".to_owned(),
            json!({"tiers": [{"minTickets": 5, "percentage": 10, "label": "10%"}]}),
        ),
    ];

    for (method, path, body) in calls {
        let response = send_with(&app, method.clone(), &path, Some(&operator), &body).await;

        let body = expect_error(response, StatusCode::FORBIDDEN, "forbidden").await;
        assert_eq!(
            body["message"],
            "Tu rol (encargado) no permite cambiar la configuración ni el correo. Pídeselo a un dueño de la cuenta.",
            "{method} {path}"
        );
        assert_eq!(body["permission"], "settings");
    }
    // Deleting a rate is the spec's privileged admin's alone (§6): the owners'.
    let refused = send_with(
        &app,
        Method::DELETE,
        &rate_path,
        Some(&operator),
        &json!({}),
    )
    .await;
    let refused = expect_error(refused, StatusCode::FORBIDDEN, "forbidden").await;
    assert_eq!(refused["permission"], "settings");
    let branding = app.get_json("/api/branding").await;
    assert_eq!(branding["primaryColor"], "240 9% 3.9%", "nothing changed");
    let rates = app.admin_get("/api/admin/exchange-rates").await;
    assert_eq!(
        rates.as_array().map(Vec::len),
        Some(1),
        "the rate is still there"
    );
    let deleted = app.admin_send(Method::DELETE, &rate_path, &json!({})).await;
    assert_eq!(
        deleted.status(),
        StatusCode::NO_CONTENT,
        "an owner deletes it"
    );
    let discounts = app.admin_get("/api/admin/discounts").await;
    assert_eq!(discounts["tiers"], json!([]));
    let email = app.admin_get("/api/admin/email-settings").await;
    assert_eq!(email["emailHost"], "");
}

async fn a_non_privileged_admin_may_make_every_other_admin_call(app: TestApp) {
    let op = app.other_admin("operador", false).await;
    let send = |method: Method, path: String, body: Value| {
        let request = app.request(method, &path).bearer_auth(&op).json(&body);
        async move {
            let response = request.send().await.unwrap();
            let status = response.status();
            let text = response.text().await.unwrap();
            assert!(status.is_success(), "{path}: {status} {text}");
            if text.is_empty() {
                Value::Null
            } else {
                serde_json::from_str::<Value>(&text).unwrap_or(Value::Null)
            }
        }
    };

    let raffle = send(
        Method::POST,
        "/api/admin/raffles".into(),
        json!({"title": "Rifa", "description": "Premio", "price": 2, "maxTickets": 50, "maxTicketsPerPurchase": 5, "prizes": [first_prize()]}),
    )
    .await;
    let raffle = raffle["id"].as_i64().unwrap();
    send(
        Method::PUT,
        format!("/api/admin/raffles/{raffle}"),
        json!({"title": "Rifa 2", "description": "Premio", "price": 2, "maxTickets": 50, "maxTicketsPerPurchase": 5}),
    )
    .await;
    for path in [
        "/api/admin/me".to_owned(),
        "/api/admin/stats".to_owned(),
        "/api/admin/raffles".to_owned(),
        format!("/api/admin/raffles/{raffle}"),
        format!("/api/admin/raffles/{raffle}/tickets"),
        format!("/api/admin/raffles/{raffle}/availability"),
        format!("/api/admin/raffles/{raffle}/promotions"),
        "/api/admin/payment-methods".to_owned(),
        "/api/admin/exchange-rates".to_owned(),
        "/api/admin/discounts".to_owned(),
    ] {
        let response = app
            .request(Method::GET, &path)
            .bearer_auth(&op)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "GET {path}");
    }
    let rate = send(
        Method::POST,
        "/api/admin/exchange-rates".into(),
        json!({"rate": "36.5"}),
    )
    .await;
    send(
        Method::PUT,
        format!("/api/admin/exchange-rates/{}", rate["id"]),
        json!({"rate": "37"}),
    )
    .await;
    let method = send(
        Method::POST,
        "/api/admin/payment-methods".into(),
        json!({"name": "Zelle", "type": "zelle", "details": {"email": "z@example.com"}}),
    )
    .await;
    let method = method["id"].as_i64().unwrap();
    send(
        Method::PUT,
        format!("/api/admin/payment-methods/{method}"),
        json!({"name": "Zelle USA", "type": "zelle", "details": {"email": "z@example.com"}}),
    )
    .await;
    let test_purchase = app
        .post_form(
            &format!("/api/admin/raffles/{raffle}/purchase"),
            app.purchase_form(method, &[1], "2.00", "prueba@example.com"),
            Some(&op),
        )
        .await;
    assert_eq!(test_purchase.status(), StatusCode::CREATED);
    let bought: Value = app
        .buy(raffle, method, &[2], 200, "real@example.com")
        .await
        .json()
        .await
        .unwrap();
    let purchase = bought["purchase"]["id"].as_i64().unwrap();
    for path in [
        "/api/admin/purchases".to_owned(),
        "/api/admin/purchases/search?status=pending".to_owned(),
        format!("/api/admin/purchases/{purchase}"),
    ] {
        let response = app
            .request(Method::GET, &path)
            .bearer_auth(&op)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "GET {path}");
    }
    let decided = send(
        Method::PUT,
        format!("/api/admin/purchases/{purchase}/status"),
        json!({"status": "approved"}),
    )
    .await;
    assert_eq!(decided["status"], "approved");
    let deleted = app
        .request(
            Method::DELETE,
            &format!("/api/admin/payment-methods/{method}"),
        )
        .bearer_auth(&op)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let other = send(
        Method::POST,
        "/api/admin/raffles".into(),
        json!({"title": "Otra", "description": "Premio", "price": 1}),
    )
    .await;
    let gone = app
        .request(
            Method::DELETE,
            &format!("/api/admin/raffles/{}", other["id"]),
        )
        .bearer_auth(&op)
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), StatusCode::NO_CONTENT);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_stops_opening_admin_calls_once_it_expires() {
    let mut config = TestApp::sqlite_config();
    config.token_ttl = Duration::from_secs(1);
    let app = TestApp::start(config, false).await;

    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let response = app
        .as_admin(Method::GET, "/api/admin/me")
        .send()
        .await
        .unwrap();

    let body = expect_error(response, StatusCode::UNAUTHORIZED, "token_expired").await;
    assert_eq!(body["message"], "Tu sesión expiró; inicia sesión de nuevo");
}

/// Signs in as `username` from `ip` (the test app trusts `X-Forwarded-For`).
async fn login_from(app: &TestApp, ip: &str, username: &str, password: &str) -> Response {
    app.request(Method::POST, "/api/admin/login")
        .header("X-Forwarded-For", ip)
        .json(&json!({"username": username, "password": password}))
        .send()
        .await
        .unwrap()
}

async fn app_limiting_failed_logins_to(per_minute: u32, trust_proxy: bool) -> TestApp {
    let mut config = TestApp::sqlite_config();
    config.logins_per_minute = per_minute;
    config.trust_proxy = trust_proxy;
    let app = TestApp::start(config, false).await;
    let staff = rifa_api::staff_accounts(&app.config).await.unwrap();
    staff
        .create_account(
            &command_line(),
            "jefe",
            Some(OTHER_PASSWORD.to_owned()),
            Role::Owner,
        )
        .await
        .unwrap();
    app
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_sign_ins_lock_the_username_and_say_how_long_to_wait() {
    let app = app_limiting_failed_logins_to(2, false).await;

    let first = app.login("jefe", "wrong-password").await;
    let second = app.login("jefe", "wrong-password").await;
    // Locked before the password is checked: the right one waits too.
    let third = app.login("jefe", OTHER_PASSWORD).await;
    let spoofed = app
        .request(Method::POST, "/api/admin/login")
        .header("X-Forwarded-For", "203.0.113.9")
        .json(&json!({"username": "jefe", "password": "wrong-password"}))
        .send()
        .await
        .unwrap();

    expect_error(first, StatusCode::UNAUTHORIZED, "invalid_credentials").await;
    expect_error(second, StatusCode::UNAUTHORIZED, "invalid_credentials").await;
    let retry_after: u64 = third.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    let body = expect_error(third, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    let message = body["message"].as_str().unwrap();
    assert!(message.contains("Demasiados intentos"), "{message}");
    assert!(message.contains(&retry_after.to_string()), "{message}");
    assert_eq!(body["retryAfterSeconds"], retry_after);
    expect_error(spoofed, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    let lookup = app
        .request(Method::POST, "/api/verify-tickets")
        .json(&json!({"email": "nadie@example.com"}))
        .send()
        .await
        .unwrap();
    expect_error(lookup, StatusCode::NOT_FOUND, "no_tickets_found").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correct_password_signs_in_though_others_failed_from_the_same_proxy_address() {
    let app = app_limiting_failed_logins_to(2, false).await;

    for _ in 0..5 {
        let failed = app.login("colega", "mistyped-password").await;
        assert_ne!(failed.status(), StatusCode::OK);
    }
    let mine = app.login("jefe", OTHER_PASSWORD).await;
    let again = app.login("jefe", OTHER_PASSWORD).await;

    assert_eq!(mine.status(), StatusCode::OK);
    assert_eq!(again.status(), StatusCode::OK, "successes are not counted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_username_under_attack_is_locked_across_addresses() {
    let app = app_limiting_failed_logins_to(3, true).await;

    for n in 1..=3 {
        let failed = login_from(&app, &format!("198.51.100.{n}"), "jefe", "guess").await;
        expect_error(failed, StatusCode::UNAUTHORIZED, "invalid_credentials").await;
    }
    let fresh_address = login_from(&app, "198.51.100.200", "JEFE", "guess").await;
    let other_user = login_from(&app, "198.51.100.200", "admin", "guess").await;

    expect_error(fresh_address, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    expect_error(other_user, StatusCode::UNAUTHORIZED, "invalid_credentials").await;
}

/// Issue 31, attack 2: five wrong passwords for a username, each from another address, kept
/// its owner out even with the right password. A browser that signed in before is not held
/// back by other people's failures; a new one still is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_that_signed_in_before_is_not_locked_out_by_others_guesses() {
    let app = app_limiting_failed_logins_to(5, true).await;
    let first = login_from(&app, "198.51.100.1", "jefe", OTHER_PASSWORD).await;
    assert_eq!(first.status(), StatusCode::OK);
    let set_cookie = first.headers()["set-cookie"].to_str().unwrap().to_owned();
    for attribute in [
        "rifa_device=",
        "HttpOnly",
        "SameSite=Strict",
        "Path=/api/admin",
    ] {
        assert!(set_cookie.contains(attribute), "{set_cookie}");
    }
    let device = set_cookie.split(';').next().unwrap().to_owned();
    let with_device = |ip: &str, username: &str, password: &str| {
        app.request(Method::POST, "/api/admin/login")
            .header("X-Forwarded-For", ip)
            .header("Cookie", device.clone())
            .json(&json!({"username": username, "password": password}))
            .send()
    };

    for n in 1..=5 {
        let guess = login_from(&app, &format!("203.0.113.{n}"), "jefe", "guess").await;
        expect_error(guess, StatusCode::UNAUTHORIZED, "invalid_credentials").await;
    }
    let stranger = login_from(&app, "203.0.113.99", "jefe", OTHER_PASSWORD).await;
    expect_error(stranger, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    // The owner, on the move (a fresh address), with the browser they signed in with before.
    let owner = with_device("192.0.2.44", "JEFE", OTHER_PASSWORD)
        .await
        .unwrap();
    assert_eq!(owner.status(), StatusCode::OK);
    // The cookie names one account: it does not open another's lock.
    app.staff_member("ana", Role::Reviewer).await;
    for n in 1..=5 {
        let guess = login_from(&app, &format!("203.0.113.{}", 10 + n), "ana", "guess").await;
        assert_eq!(guess.status(), StatusCode::UNAUTHORIZED);
    }
    let borrowed = with_device("192.0.2.45", "ana", "guess").await.unwrap();
    expect_error(borrowed, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    // A forged or tampered cookie is no cookie.
    let forged = app
        .request(Method::POST, "/api/admin/login")
        .header("X-Forwarded-For", "192.0.2.46")
        .header("Cookie", format!("{device}x"))
        .json(&json!({"username": "jefe", "password": OTHER_PASSWORD}))
        .send()
        .await
        .unwrap();
    expect_error(forged, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
}

/// Issue 31, attack 3: 200 simultaneous guesses from 200 addresses were all checked. The count
/// is taken with the check, so only the budget's worth reach a password.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simultaneous_guesses_at_one_username_are_counted_one_by_one() {
    let app = app_limiting_failed_logins_to(5, true).await;
    let guesses = (0..200).map(|n| {
        let ip = format!("10.{}.{}.1", n / 250, n % 250);
        let app = &app;
        async move { login_from(app, &ip, "jefe", "guess").await.status() }
    });
    let statuses = futures_util::future::join_all(guesses).await;
    let checked = statuses
        .iter()
        .filter(|s| **s == StatusCode::UNAUTHORIZED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!((checked, refused), (5, 195), "{statuses:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_spraying_usernames_is_limited() {
    // An address may fail four times the per-username budget.
    let app = app_limiting_failed_logins_to(1, true).await;

    for n in 0..4 {
        let failed = login_from(&app, "198.51.100.7", &format!("user{n}"), "guess").await;
        expect_error(failed, StatusCode::UNAUTHORIZED, "invalid_credentials").await;
    }
    let fifth = login_from(&app, "198.51.100.7", "user-new", "guess").await;
    let elsewhere = login_from(&app, "198.51.100.8", "jefe", OTHER_PASSWORD).await;

    expect_error(fifth, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    assert_eq!(elsewhere.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_cannot_pick_its_address_with_forwarded_for_lines_before_the_proxys_own() {
    let mut config = TestApp::sqlite_config();
    config.trust_proxy = true;
    config.lookups_per_minute = 2;
    let app = TestApp::start(config, false).await;

    let mut statuses = Vec::new();
    for n in 0..3 {
        // The client's own line first, then the one the proxy appended (HAProxy's
        // `option forwardfor`): the key is the proxy's hop whatever the client wrote.
        let response = app
            .request(Method::POST, "/api/verify-tickets")
            .header("X-Forwarded-For", format!("10.9.8.{n}, 10.0.0.{n}"))
            .header("X-Forwarded-For", "203.0.113.50")
            .json(&json!({"email": "nadie@example.com"}))
            .send()
            .await
            .unwrap();
        statuses.push(response.status());
    }
    let other_client = app
        .request(Method::POST, "/api/verify-tickets")
        .header("X-Forwarded-For", "203.0.113.51")
        .json(&json!({"email": "nadie@example.com"}))
        .send()
        .await
        .unwrap();

    assert_eq!(
        statuses,
        [
            StatusCode::NOT_FOUND,
            StatusCode::NOT_FOUND,
            StatusCode::TOO_MANY_REQUESTS
        ]
    );
    assert_eq!(other_client.status(), StatusCode::NOT_FOUND);
}

/// Runs `rifa-api <args>` against the test app's own database, `stdin` piped in.
pub(crate) async fn rifa_api(app: &TestApp, args: &[&str], stdin: &str) -> Output {
    let binary = env!("CARGO_BIN_EXE_rifa-api");
    let data_dir = app.config.data_dir.clone();
    let database = app.config.database_url.clone();
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    let stdin = stdin.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut child = Command::new(binary)
            .args(&args)
            .env("RIFA_DATA_DIR", data_dir)
            .env("DATABASE_URL", database)
            .env_remove("RIFA_JWT_SECRET")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A command that exits before reading its input closes the pipe: what it printed, not
        // the pipe, says why.
        if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
        }
        child.wait_with_output().unwrap()
    })
    .await
    .unwrap()
}

async fn the_create_admin_command_adds_an_admin_who_can_sign_in(app: TestApp) {
    let operator = rifa_api(
        &app,
        &["create-admin", "--username", "cli-op"],
        "una-clave-muy-larga\n",
    )
    .await;
    let boss = rifa_api(
        &app,
        &["create-admin", "--username", "cli-jefe", "--privileged"],
        "otra-clave-muy-larga\n",
    )
    .await;

    let stdout = String::from_utf8_lossy(&operator.stdout);
    assert!(
        operator.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&operator.stderr)
    );
    assert!(
        stdout.contains("Admin cli-op created (manager)."),
        "{stdout}"
    );
    assert!(
        !stdout.contains("una-clave-muy-larga"),
        "the password is not echoed"
    );
    let signed_in = app.login("cli-op", "una-clave-muy-larga").await;
    assert_eq!(signed_in.status(), StatusCode::OK);
    let signed_in: Value = signed_in.json().await.unwrap();
    assert_eq!(signed_in["user"]["username"], "cli-op");
    assert_eq!(signed_in["user"]["privileged"], false);
    assert!(boss.status.success());
    assert!(String::from_utf8_lossy(&boss.stdout).contains("(owner)"));
    let boss: Value = app
        .login("cli-jefe", "otra-clave-muy-larga")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(boss["user"]["privileged"], true);
    assert_eq!(boss["user"]["staffRole"], "owner");

    let reviewer = rifa_api(
        &app,
        &[
            "create-admin",
            "--username",
            "cli-rita",
            "--role",
            "reviewer",
        ],
        "una-clave-muy-larga\n",
    )
    .await;
    assert!(reviewer.status.success());
    let reviewer: Value = app
        .login("cli-rita", "una-clave-muy-larga")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(reviewer["user"]["permissions"], json!(["purchases"]));
    let unknown = rifa_api(
        &app,
        &["create-admin", "--username", "cli-x", "--role", "boss"],
        "una-clave-muy-larga\n",
    )
    .await;
    assert!(!unknown.status.success());
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("owner, manager, reviewer, catalogue")
    );
}

async fn the_create_admin_command_refuses_a_short_password_and_a_taken_username(app: TestApp) {
    let short = rifa_api(&app, &["create-admin", "--username", "cli-op"], "corta\n").await;
    let taken = rifa_api(
        &app,
        &["create-admin", "--username", "admin"],
        "una-clave-muy-larga\n",
    )
    .await;

    assert!(!short.status.success(), "a short password is refused");
    let stderr = String::from_utf8_lossy(&short.stderr);
    assert!(stderr.contains("password"), "{stderr}");
    assert!(stderr.contains("12"), "the minimum is named: {stderr}");
    expect_error(
        app.login("cli-op", "corta").await,
        StatusCode::UNAUTHORIZED,
        "invalid_credentials",
    )
    .await;
    assert!(!taken.status.success(), "a taken username is refused");
    let stderr = String::from_utf8_lossy(&taken.stderr);
    assert!(stderr.contains("already taken"), "{stderr}");
    expect_error(
        app.login("admin", "una-clave-muy-larga").await,
        StatusCode::UNAUTHORIZED,
        "invalid_credentials",
    )
    .await;
}
