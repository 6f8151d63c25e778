//! Staff and roles over HTTP: each role against each admin route, the owners' staff screen,
//! own password changes, revocation reaching live connections, and owners racing each other.

use std::time::{Duration, Instant};

use reqwest::{Method, Response, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{Role, TestApp, count_rows, expect_error};
use crate::live::{authenticate, close_reason};
use crate::on_both;

on_both!(
    each_role_reaches_only_its_routes_and_hears_why_not,
    an_owner_hands_over_an_account_that_must_choose_its_own_password,
    disabling_or_demoting_closes_the_live_connection_within_a_second,
    owners_cannot_remove_their_own_ownership_and_racing_owners_leave_one,
    the_first_admin_is_an_owner_with_every_permission,
);

const PASSWORD: &str = "a-long-test-password";
const CHOSEN: &str = "tangerine-lighthouse-41-oboe";

/// What a route needs: `None` for any role.
type Need = Option<&'static str>;

/// Every admin route but the `auth` ones (which need only a session), with what it needs and a
/// request that cannot change anything when allowed: missing ids, and a JSON body of the wrong
/// shape (`[]`), which the route refuses after deciding who may call it.
const ROUTES: &[(&str, &str, Need)] = &[
    ("GET", "/api/admin/audit", Some("audit")),
    ("GET", "/api/admin/audit/verification", Some("audit")),
    ("GET", "/api/admin/audit/figures", Some("audit")),
    ("GET", "/api/admin/audit/export", Some("audit")),
    ("POST", "/api/admin/branding", Some("settings")),
    // Catalogue or draws: no role has draws without catalogue, so the table names catalogue.
    ("POST", "/api/admin/photos", Some("catalogue")),
    ("GET", "/api/admin/discounts", None),
    ("PUT", "/api/admin/discounts", Some("settings")),
    ("GET", "/api/admin/email-settings", Some("settings")),
    ("PUT", "/api/admin/email-settings", Some("settings")),
    ("POST", "/api/admin/email-settings/test", Some("settings")),
    ("GET", "/api/admin/exchange-rates", None),
    ("POST", "/api/admin/exchange-rates", Some("catalogue")),
    ("PUT", "/api/admin/exchange-rates/999999", Some("catalogue")),
    // The spec's privileged admin alone (§6): the owners, by the settings permission.
    (
        "DELETE",
        "/api/admin/exchange-rates/999999",
        Some("settings"),
    ),
    ("GET", "/api/admin/mail-outbox", Some("settings")),
    (
        "POST",
        "/api/admin/mail-outbox/999999/retry",
        Some("settings"),
    ),
    ("GET", "/api/admin/payment-methods", None),
    ("POST", "/api/admin/payment-methods", Some("catalogue")),
    (
        "PUT",
        "/api/admin/payment-methods/999999",
        Some("catalogue"),
    ),
    (
        "DELETE",
        "/api/admin/payment-methods/999999",
        Some("catalogue"),
    ),
    ("GET", "/api/admin/proof-queue", Some("purchases")),
    ("GET", "/api/admin/purchases", Some("purchases")),
    (
        "POST",
        "/api/admin/purchases/bulk-decision",
        Some("purchases"),
    ),
    ("GET", "/api/admin/purchases/export", Some("purchases")),
    ("GET", "/api/admin/purchases/search", Some("purchases")),
    ("GET", "/api/admin/purchases/999999", Some("purchases")),
    (
        "GET",
        "/api/admin/purchases/999999/proof-check",
        Some("purchases"),
    ),
    (
        "POST",
        "/api/admin/purchases/999999/reopen",
        Some("purchases"),
    ),
    (
        "PUT",
        "/api/admin/purchases/999999/status",
        Some("purchases"),
    ),
    ("GET", "/api/admin/raffles", None),
    ("POST", "/api/admin/raffles", Some("catalogue")),
    ("GET", "/api/admin/raffles/999999", None),
    ("PUT", "/api/admin/raffles/999999", Some("catalogue")),
    ("DELETE", "/api/admin/raffles/999999", Some("catalogue")),
    ("GET", "/api/admin/raffles/999999/availability", None),
    ("GET", "/api/admin/raffles/999999/draw", Some("draws")),
    (
        "POST",
        "/api/admin/raffles/999999/draw/freeze",
        Some("draws"),
    ),
    ("PUT", "/api/admin/raffles/999999/prizes", Some("draws")),
    (
        "POST",
        "/api/admin/raffles/999999/prizes/1/delivered",
        Some("draws"),
    ),
    (
        "POST",
        "/api/admin/raffles/999999/prizes/1/result",
        Some("draws"),
    ),
    (
        "POST",
        "/api/admin/raffles/999999/prizes/1/result/preview",
        Some("draws"),
    ),
    ("GET", "/api/admin/raffles/999999/promotions", None),
    (
        "POST",
        "/api/admin/raffles/999999/purchase",
        Some("catalogue"),
    ),
    ("GET", "/api/admin/raffles/999999/quote", None),
    ("GET", "/api/admin/raffles/999999/tickets", None),
    ("GET", "/api/admin/staff", Some("staff")),
    ("POST", "/api/admin/staff", Some("staff")),
    ("PATCH", "/api/admin/staff/999999", Some("staff")),
    (
        "POST",
        "/api/admin/staff/999999/password-reset",
        Some("staff"),
    ),
    ("GET", "/api/admin/stats", Some("reports")),
    ("GET", "/api/admin/stats/daily", Some("reports")),
];

/// The roles, their Spanish names as the 403 says them, and what each may do.
const ROLES: &[(Role, &str, &[&str])] = &[
    (
        Role::Owner,
        "dueño",
        &[
            "purchases",
            "reports",
            "catalogue",
            "draws",
            "settings",
            "staff",
            "audit",
        ],
    ),
    (
        Role::Manager,
        "encargado",
        &["purchases", "reports", "catalogue", "draws"],
    ),
    (Role::Reviewer, "revisor", &["purchases"]),
    (Role::Catalogue, "catálogo", &["catalogue"]),
];

fn method(name: &str) -> Method {
    Method::from_bytes(name.as_bytes()).unwrap()
}

async fn call(app: &TestApp, token: &str, verb: &str, path: &str) -> Response {
    let request = app.request(method(verb), path).bearer_auth(token);
    let request = if matches!(verb, "POST" | "PUT" | "PATCH") {
        request.json(&json!([]))
    } else {
        request
    };
    request.send().await.unwrap()
}

fn with(token: &str) -> impl Fn(reqwest::RequestBuilder) -> reqwest::RequestBuilder + '_ {
    move |request| request.bearer_auth(token)
}

async fn each_role_reaches_only_its_routes_and_hears_why_not(app: TestApp) {
    // The table is every admin route the API documents: a new route cannot skip it.
    let document: Value = app
        .request(Method::GET, "/api/openapi.json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut documented = Vec::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for (verb, operation) in item.as_object().unwrap() {
            let secured = operation["security"]
                .as_array()
                .is_some_and(|s| !s.is_empty());
            if secured && operation["tags"][0] != "auth" {
                documented.push(format!("{} {path}", verb.to_uppercase()));
            }
        }
    }
    let mut tabled: Vec<String> = ROUTES
        .iter()
        .map(|(verb, path, _)| {
            let shape = path
                .replace("999999/prizes/1", "{id}/prizes/{prizeId}")
                .replace("999999", "{id}");
            format!("{verb} {shape}")
        })
        .collect();
    documented.sort();
    tabled.sort();
    assert_eq!(tabled, documented);

    for (role, spanish, allowed) in ROLES {
        let token = if *role == Role::Owner {
            app.admin_token.clone()
        } else {
            app.staff_member(&format!("as-{}", role.as_str()), *role)
                .await
        };
        for (verb, path, need) in ROUTES {
            let response = call(&app, &token, verb, path).await;
            let status = response.status();
            let may = need.is_none_or(|need| allowed.contains(&need));
            if may {
                assert!(
                    status != StatusCode::FORBIDDEN
                        && status != StatusCode::UNAUTHORIZED
                        && !status.is_server_error(),
                    "{} {verb} {path} → {status}",
                    role.as_str()
                );
            } else {
                assert_eq!(
                    status,
                    StatusCode::FORBIDDEN,
                    "{} {verb} {path}",
                    role.as_str()
                );
                let body = expect_error(response, StatusCode::FORBIDDEN, "forbidden").await;
                let message = body["message"].as_str().unwrap();
                assert!(
                    message.starts_with(&format!("Tu rol ({spanish}) no permite")),
                    "{message}"
                );
                assert_eq!(body["permission"], need.unwrap(), "{verb} {path}");
            }
        }
    }

    let catalogue = app.login_ok("as-catalogue", PASSWORD).await;
    let english: Value = app
        .request(Method::GET, "/api/admin/stats")
        .bearer_auth(&catalogue)
        .header("Accept-Language", "en")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        english["message"],
        "Your role (catalogue) does not allow seeing sales figures. Ask an owner of the account."
    );
}

async fn me(app: &TestApp, token: &str) -> Value {
    let response = app
        .request(Method::GET, "/api/admin/me")
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

async fn as_owner(app: &TestApp, verb: &str, path: &str, body: &Value) -> Response {
    app.admin_send(method(verb), path, body).await
}

async fn change_password(app: &TestApp, token: &str, current: &str, new: &str) -> Response {
    with(token)(app.request(Method::POST, "/api/admin/password"))
        .json(&json!({"currentPassword": current, "newPassword": new}))
        .send()
        .await
        .unwrap()
}

async fn an_owner_hands_over_an_account_that_must_choose_its_own_password(app: TestApp) {
    let created = as_owner(
        &app,
        "POST",
        "/api/admin/staff",
        &json!({"username": "Rita", "role": "reviewer"}),
    )
    .await;
    assert_eq!(created.status(), StatusCode::CREATED);
    let created: Value = created.json().await.unwrap();
    let id = created["member"]["id"].as_i64().unwrap();
    assert_eq!(created["member"]["username"], "rita");
    assert_eq!(created["member"]["role"], "reviewer");
    assert_eq!(created["member"]["mustChangePassword"], true);
    let handed = created["temporaryPassword"].as_str().unwrap().to_owned();
    assert!(handed.len() >= 18, "{handed}");
    assert_eq!(
        count_rows(
            &app,
            &format!("SELECT COUNT(*) AS n FROM admins WHERE password_hash LIKE '%{handed}%'")
        )
        .await,
        0,
        "stored only hashed"
    );

    // The handed-over password serves only to choose another.
    let first = app.login_ok("rita", &handed).await;
    let who = me(&app, &first).await;
    assert_eq!(
        (
            &who["staffRole"],
            &who["mustChangePassword"],
            &who["permissions"]
        ),
        (&json!("reviewer"), &json!(true), &json!([]))
    );
    expect_error(
        call(&app, &first, "GET", "/api/admin/purchases").await,
        StatusCode::FORBIDDEN,
        "password_change_required",
    )
    .await;
    let wrong = change_password(&app, &first, "not-it", CHOSEN).await;
    let wrong = expect_error(wrong, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;
    assert_eq!(
        wrong["fields"]["currentPassword"],
        "La contraseña actual no es correcta"
    );
    for (new, said) in [
        (
            handed.as_str(),
            "La nueva contraseña debe ser distinta de la actual",
        ),
        ("password1234", "adivinar"),
        ("short", "Debe tener al menos 12 caracteres"),
    ] {
        let refused = change_password(&app, &first, &handed, new).await;
        let body = expect_error(
            refused,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        let message = body["fields"]["newPassword"].as_str().unwrap_or_default();
        assert!(message.contains(said), "{new}: {body}");
    }
    let changed = change_password(&app, &first, &handed, CHOSEN).await;
    assert_eq!(changed.status(), StatusCode::OK);
    let changed: Value = changed.json().await.unwrap();
    let renewed = changed["token"].as_str().unwrap().to_owned();
    assert_eq!(changed["user"]["permissions"], json!(["purchases"]));
    expect_error(
        call(&app, &first, "GET", "/api/admin/me").await,
        StatusCode::UNAUTHORIZED,
        "session_ended",
    )
    .await;
    assert_eq!(
        call(&app, &renewed, "GET", "/api/admin/purchases")
            .await
            .status(),
        StatusCode::OK
    );

    // The owner's screen: list, role, reset, disable; each in the trail.
    let staff = app.admin_get("/api/admin/staff").await;
    let rita = staff
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == id)
        .unwrap();
    assert_eq!(rita["mustChangePassword"], false);
    assert!(rita["lastSignInAt"].is_string());
    let promoted = as_owner(
        &app,
        "PATCH",
        &format!("/api/admin/staff/{id}"),
        &json!({"role": "manager"}),
    )
    .await;
    assert_eq!(promoted.status(), StatusCode::OK);
    assert_eq!(
        call(&app, &renewed, "GET", "/api/admin/stats")
            .await
            .status(),
        StatusCode::OK,
        "the new role counts at once"
    );
    let reset = as_owner(
        &app,
        "POST",
        &format!("/api/admin/staff/{id}/password-reset"),
        &json!({}),
    )
    .await;
    assert_eq!(reset.status(), StatusCode::OK);
    let reset: Value = reset.json().await.unwrap();
    assert_ne!(reset["temporaryPassword"], json!(handed));
    expect_error(
        call(&app, &renewed, "GET", "/api/admin/me").await,
        StatusCode::UNAUTHORIZED,
        "session_ended",
    )
    .await;
    let disabled = as_owner(
        &app,
        "PATCH",
        &format!("/api/admin/staff/{id}"),
        &json!({"disabled": true}),
    )
    .await;
    assert_eq!(disabled.status(), StatusCode::OK);
    expect_error(
        app.login("rita", reset["temporaryPassword"].as_str().unwrap())
            .await,
        StatusCode::UNAUTHORIZED,
        "invalid_credentials",
    )
    .await;

    expect_error(
        as_owner(
            &app,
            "POST",
            "/api/admin/staff",
            &json!({"username": "RITA", "role": "reviewer"}),
        )
        .await,
        StatusCode::CONFLICT,
        "username_taken",
    )
    .await;
    let bad = as_owner(
        &app,
        "POST",
        "/api/admin/staff",
        &json!({"username": "x", "role": "boss"}),
    )
    .await;
    let bad = expect_error(bad, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;
    assert_eq!(
        bad["fields"]["username"], "Debe tener al menos 3 caracteres",
        "{bad}"
    );
    assert!(
        bad["fields"]["role"]
            .as_str()
            .is_some_and(|m| m.contains("owner, manager, reviewer, catalogue")),
        "{bad}"
    );
    expect_error(
        as_owner(
            &app,
            "PATCH",
            "/api/admin/staff/999999",
            &json!({"disabled": true}),
        )
        .await,
        StatusCode::NOT_FOUND,
        "staff_not_found",
    )
    .await;
    // An object, not the fields as an array (which serde would read in order).
    expect_error(
        as_owner(
            &app,
            "PATCH",
            &format!("/api/admin/staff/{id}"),
            &json!([null, null]),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;

    let actions: Vec<Value> = app
        .admin_get(&format!("/api/admin/audit?target=admin:{id}&limit=50"))
        .await["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].clone())
        .collect();
    assert_eq!(
        actions,
        [
            "staff.updated",
            "staff.password_reset",
            "staff.updated",
            "auth.password_changed",
            "staff.created"
        ]
    );
}

async fn disabling_or_demoting_closes_the_live_connection_within_a_second(app: TestApp) {
    let reviewer = app.staff_member("vera", Role::Reviewer).await;
    let id = me(&app, &reviewer).await["id"].as_i64().unwrap();
    for (change, reason) in [
        (json!({"role": "catalogue"}), "not allowed"),
        (json!({"disabled": true}), "session ended"),
    ] {
        as_owner(
            &app,
            "PATCH",
            &format!("/api/admin/staff/{id}"),
            &json!({"role": "reviewer", "disabled": false}),
        )
        .await;
        let token = app.login_ok("vera", PASSWORD).await;
        let mut socket = authenticate(&app.ws_url(), &token).await;
        let changed = Instant::now();
        let response = as_owner(&app, "PATCH", &format!("/api/admin/staff/{id}"), &change).await;
        assert_eq!(response.status(), StatusCode::OK);
        let (code, said) = close_reason(&mut socket).await;
        let took = changed.elapsed();
        assert_eq!((u16::from(code), said.as_str()), (1008, reason));
        // One check a second, plus a loaded test machine's scheduling.
        assert!(took < Duration::from_millis(2_500), "closed after {took:?}");
    }
}

async fn owners_cannot_remove_their_own_ownership_and_racing_owners_leave_one(app: TestApp) {
    let owner_id = me(&app, &app.admin_token).await["id"].as_i64().unwrap();
    for change in [json!({"role": "manager"}), json!({"disabled": true})] {
        expect_error(
            as_owner(
                &app,
                "PATCH",
                &format!("/api/admin/staff/{owner_id}"),
                &change,
            )
            .await,
            StatusCode::CONFLICT,
            "own_account",
        )
        .await;
    }
    expect_error(
        as_owner(
            &app,
            "POST",
            &format!("/api/admin/staff/{owner_id}/password-reset"),
            &json!({}),
        )
        .await,
        StatusCode::CONFLICT,
        "own_account",
    )
    .await;

    // Pairs of owners demote each other at the same instant: one wins, the other is refused
    // (by the route when it reads the new role, or by the change's transaction otherwise).
    for round in 0..6 {
        let (a_name, b_name) = (format!("ana{round}"), format!("beto{round}"));
        let a = app.staff_member(&a_name, Role::Owner).await;
        let b = app.staff_member(&b_name, Role::Owner).await;
        let (a_id, b_id) = (
            me(&app, &a).await["id"].clone(),
            me(&app, &b).await["id"].clone(),
        );
        let demote = |token: &str, target: &Value| {
            with(token)(app.request(Method::PATCH, &format!("/api/admin/staff/{target}")))
                .json(&json!({"role": "manager"}))
                .send()
        };
        let (by_a, by_b) = tokio::join!(demote(&a, &b_id), demote(&b, &a_id));
        let mut statuses = [by_a.unwrap().status(), by_b.unwrap().status()];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::FORBIDDEN],
            "round {round}"
        );
        let owners_left = count_rows(
            &app,
            &format!(
                "SELECT COUNT(*) AS n FROM admins WHERE role = 'owner' \
                 AND username IN ('{a_name}', '{b_name}')"
            ),
        )
        .await;
        assert_eq!(owners_left, 1, "round {round}");
    }
    let verification = app.admin_get("/api/admin/audit/verification").await;
    assert_eq!(verification["intact"], true, "{verification}");
}

async fn the_first_admin_is_an_owner_with_every_permission(app: TestApp) {
    let who = me(&app, &app.admin_token).await;
    assert_eq!(who["role"], "admin", "the spec's value stays");
    assert_eq!(who["privileged"], true);
    assert_eq!(who["staffRole"], "owner");
    assert_eq!(
        who["permissions"],
        json!([
            "purchases",
            "reports",
            "catalogue",
            "draws",
            "settings",
            "staff",
            "audit"
        ])
    );
    assert_eq!(who["mustChangePassword"], false);
    assert_eq!(
        count_rows(
            &app,
            "SELECT COUNT(*) AS n FROM admins WHERE role = 'owner'"
        )
        .await,
        1
    );
}
