//! Sessions that end and the audit trail (issue 17), over HTTP on both databases: signing out
//! ends a token at once and "everywhere" ends them all, closing live connections within a
//! second, as does deleting the admin; every sign-in and decision is in the trail, concurrent
//! decisions still make one chain, and an edited, deleted or cut-off entry is found.

use std::time::{Duration, Instant};

use futures_util::future::join_all;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::admin_auth::rifa_api;
use crate::helpers::{Role, TestApp, expect_error, run_sql};
use crate::live::{Socket, authenticate, close_reason};
use crate::on_both;

on_both!(
    signing_out_ends_that_token_and_everywhere_ends_every_device,
    a_live_connection_closes_within_a_second_when_its_session_or_admin_ends,
    every_sign_in_and_decision_is_in_one_chain_even_when_decisions_race,
    an_edited_a_deleted_and_a_cut_off_entry_are_each_found,
    a_row_edited_into_nonsense_is_a_break_not_a_failure,
    the_verify_audit_command_passes_an_untouched_trail,
    payment_methods_and_rates_leave_what_changed_in_the_trail,
    settings_saves_are_in_the_trail_without_the_e_mail_password,
    each_persons_figures_count_their_decisions_and_the_wait_for_them,
    the_trail_exports_as_csv_with_its_filters_and_no_formula,
    an_admin_s_test_purchase_is_in_the_trail_and_a_buyer_s_is_not,
);

async fn me(app: &TestApp, token: &str) -> reqwest::Response {
    app.request(Method::GET, "/api/admin/me")
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
}

async fn post(app: &TestApp, path: &str, token: &str) -> StatusCode {
    app.request(Method::POST, path)
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .status()
}

async fn signing_out_ends_that_token_and_everywhere_ends_every_device(app: TestApp) {
    let phone = app.other_admin("ana", false).await;
    let laptop = app.login_ok("ana", "a-long-test-password").await;
    let tablet = app.login_ok("ana", "a-long-test-password").await;

    assert_eq!(
        post(&app, "/api/admin/logout", &phone).await,
        StatusCode::NO_CONTENT
    );
    let refused = expect_error(
        me(&app, &phone).await,
        StatusCode::UNAUTHORIZED,
        "session_ended",
    )
    .await;
    assert!(
        refused["message"].as_str().unwrap().contains("sesión"),
        "{refused}"
    );
    assert_eq!(me(&app, &laptop).await.status(), StatusCode::OK);

    assert_eq!(
        post(&app, "/api/admin/logout-everywhere", &laptop).await,
        StatusCode::NO_CONTENT
    );
    for token in [&laptop, &tablet] {
        expect_error(
            me(&app, token).await,
            StatusCode::UNAUTHORIZED,
            "session_ended",
        )
        .await;
    }
    // Another admin's session is not theirs to end, and a new sign-in works.
    assert_eq!(me(&app, &app.admin_token).await.status(), StatusCode::OK);
    let again = app.login_ok("ana", "a-long-test-password").await;
    assert_eq!(me(&app, &again).await.status(), StatusCode::OK);
    // A token that was signed out cannot sign out again.
    assert_eq!(
        post(&app, "/api/admin/logout", &phone).await,
        StatusCode::UNAUTHORIZED
    );
}

/// Waits for the server to close `socket` and says how long it took.
async fn closed_after(socket: &mut Socket, since: Instant) -> ((CloseCode, String), Duration) {
    let reason = close_reason(socket).await;
    (reason, since.elapsed())
}

async fn a_live_connection_closes_within_a_second_when_its_session_or_admin_ends(app: TestApp) {
    let token = app.other_admin("ana", false).await;
    let elsewhere = app.login_ok("ana", "a-long-test-password").await;
    let mut socket = authenticate(&app.ws_url(), &token).await;

    let signed_out = Instant::now();
    assert_eq!(
        post(&app, "/api/admin/logout-everywhere", &elsewhere).await,
        StatusCode::NO_CONTENT
    );
    let (reason, took) = closed_after(&mut socket, signed_out).await;
    assert_eq!(reason, (CloseCode::Policy, "session ended".to_owned()));
    // One check a second, plus a loaded test machine's scheduling.
    assert!(took < Duration::from_millis(2_500), "closed after {took:?}");

    // An admin deleted from the database (the command line's way) loses their connection too.
    let doomed = app.other_admin("beto", false).await;
    let mut socket = authenticate(&app.ws_url(), &doomed).await;
    let deleted = Instant::now();
    run_sql(&app, "DELETE FROM admins WHERE username = 'beto'").await;
    let (reason, took) = closed_after(&mut socket, deleted).await;
    assert_eq!(reason, (CloseCode::Policy, "session ended".to_owned()));
    assert!(took < Duration::from_millis(2_500), "closed after {took:?}");
    expect_error(
        me(&app, &doomed).await,
        StatusCode::UNAUTHORIZED,
        "session_ended",
    )
    .await;
}

async fn trail(app: &TestApp, query: &str) -> Vec<Value> {
    app.admin_get(&format!("/api/admin/audit?{query}")).await["items"]
        .as_array()
        .unwrap()
        .clone()
}

async fn verification(app: &TestApp) -> Value {
    app.admin_get("/api/admin/audit/verification").await
}

async fn every_sign_in_and_decision_is_in_one_chain_even_when_decisions_race(app: TestApp) {
    let reviewer = app.other_admin("rita", false).await;
    let failed = app.login("rita", "not-her-password").await;
    assert_eq!(failed.status(), StatusCode::UNAUTHORIZED);

    let raffle = app.raffle("5", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let mut purchases = Vec::new();
    for number in 1..=12 {
        let response = app
            .buy(
                raffle,
                method,
                &[number],
                500,
                &format!("b{number}@example.com"),
            )
            .await;
        assert_eq!(response.status(), StatusCode::CREATED);
        let body: Value = response.json().await.unwrap();
        purchases.push(body["purchase"]["id"].as_i64().unwrap());
    }
    // Two admins decide twelve purchases at once: every append takes the chain's head in turn.
    let decisions = purchases.iter().enumerate().map(|(i, id)| {
        let token = if i % 2 == 0 {
            app.admin_token.clone()
        } else {
            reviewer.clone()
        };
        let request = app
            .request(Method::PUT, &format!("/api/admin/purchases/{id}/status"))
            .bearer_auth(token)
            .json(&json!({"status": "approved"}));
        async move { request.send().await.unwrap().status() }
    });
    for status in join_all(decisions).await {
        assert_eq!(status, StatusCode::OK);
    }

    let decided = trail(&app, "action=purchase.decided&limit=50").await;
    assert_eq!(decided.len(), 12);
    let by_rita = trail(&app, "action=purchase.decided&actor=rita").await;
    assert_eq!(by_rita.len(), 6);
    let entry = &by_rita[0];
    assert_eq!(entry["ip"], "127.0.0.1");
    assert_eq!(
        entry["changes"][0],
        json!({"field": "status", "before": "pending", "after": "approved"})
    );
    let failures = trail(&app, "action=auth.sign_in_failed").await;
    assert_eq!(failures.len(), 1);
    assert_eq!(
        (&failures[0]["actor"], &failures[0]["actorId"]),
        (&json!("rita"), &Value::Null)
    );
    let purchase = format!("purchase:{}", purchases[3]);
    let one = trail(&app, &format!("target={purchase}")).await;
    assert_eq!(one.len(), 1);
    // Issue 31: the trail names the purchase by its reference, not its internal id.
    let reference = app
        .admin_get(&format!("/api/admin/purchases/{}", purchases[3]))
        .await["reference"]
        .clone();
    assert!(
        reference.as_str().is_some_and(|r| r.starts_with("RF-")),
        "{reference}"
    );
    assert_eq!(one[0]["targetName"], reference);

    // Newest first, keyset-paged.
    let first = app.admin_get("/api/admin/audit?limit=5").await;
    let before = first["nextBefore"].as_u64().unwrap();
    let second = trail(&app, &format!("limit=5&before={before}")).await;
    assert_eq!(second[0]["seq"].as_u64().unwrap(), before - 1);

    let found = verification(&app).await;
    assert_eq!(found["intact"], true, "{found}");
    assert_eq!(found["verified"], found["headSeq"]);
    // The first admin's creation and sign-in, Rita's creation, sign-in and failure, the raffle,
    // the method, the twelve decisions.
    assert_eq!(found["headSeq"], 19, "{found}");

    // A raffle's edit names only what changed, with the state the edit replaced.
    let edited = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/raffles/{raffle}"),
            &json!({
                "title": "Rifa de prueba",
                "description": "Un premio de prueba",
                "price": "7.5",
                "maxTickets": 100,
                "minTicketsPerPurchase": 1,
                "maxTicketsPerPurchase": 5,
                "drawDate": "2030-01-15",
            }),
        )
        .await;
    assert_eq!(edited.status(), StatusCode::OK);
    let entries = trail(&app, &format!("target=raffle:{raffle}")).await;
    assert_eq!(entries[0]["action"], "raffle.updated");
    assert_eq!(entries[1]["action"], "raffle.created");
    assert!(
        entries.iter().all(|e| e["targetName"] == "Rifa de prueba"),
        "every entry of the raffle names it as it is called now: {entries:?}"
    );
    assert_eq!(
        entries[0]["changes"],
        json!([{"field": "price", "before": "5.00", "after": "7.50"}]),
        "{}",
        entries[0]
    );

    // Only owners read the trail.
    let refused = app
        .request(Method::GET, "/api/admin/audit")
        .bearer_auth(&reviewer)
        .send()
        .await
        .unwrap();
    expect_error(refused, StatusCode::FORBIDDEN, "forbidden").await;
    let bad = app
        .as_admin(
            Method::GET,
            "/api/admin/audit?action=purchase.stolen&limit=0",
        )
        .send()
        .await
        .unwrap();
    let body = expect_error(bad, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;
    assert!(body["fields"].get("action").is_some(), "{body}");
    assert!(body["fields"].get("limit").is_some(), "{body}");
}

async fn an_edited_a_deleted_and_a_cut_off_entry_are_each_found(app: TestApp) {
    app.other_admin("ana", false).await;
    for _ in 0..3 {
        app.login_ok("ana", "a-long-test-password").await;
    }
    // The first admin's creation and sign-in, Ana's creation, then her four sign-ins.
    assert_eq!(verification(&app).await["headSeq"], 7);

    // No code path rewrites the trail: the database refuses.
    let refused = run_sql(&app, "UPDATE audit_log SET actor = 'eve' WHERE seq = 2").await;
    assert!(
        refused
            .as_deref()
            .is_some_and(|e| e.contains("append_only")),
        "{refused:?}"
    );
    assert!(
        run_sql(&app, "DELETE FROM audit_log WHERE seq = 2")
            .await
            .is_some()
    );

    // Someone with the database's keys goes around the triggers.
    let unguard = if app.postgres {
        "ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only"
    } else {
        "DROP TRIGGER audit_log_append_only_update; DROP TRIGGER audit_log_append_only_delete"
    };
    assert_eq!(run_sql(&app, unguard).await, None);

    assert_eq!(
        run_sql(&app, "DELETE FROM audit_log WHERE seq = 7").await,
        None
    );
    let found = verification(&app).await;
    assert_eq!(
        (&found["intact"], &found["problem"], &found["atSeq"]),
        (&json!(false), &json!("truncated"), &json!(6)),
        "{found}"
    );

    assert_eq!(
        run_sql(&app, "UPDATE audit_log SET actor = 'eve' WHERE seq = 2").await,
        None
    );
    let found = verification(&app).await;
    assert_eq!(
        (&found["problem"], &found["atSeq"], &found["verified"]),
        (&json!("edited"), &json!(2), &json!(1)),
        "{found}"
    );

    assert_eq!(
        run_sql(&app, "DELETE FROM audit_log WHERE seq = 2").await,
        None
    );
    let found = verification(&app).await;
    assert_eq!(
        (&found["problem"], &found["atSeq"]),
        (&json!("missing"), &json!(3)),
        "{found}"
    );

    // The same check from the command line, for a cron job or an auditor.
    let output = rifa_api(&app, &["verify-audit"], "").await;
    let said = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("Missing { seq: 3 }"), "{said}");
}

/// Issue 31: an action renamed to an unknown one made the verification, every page holding
/// that row and `verify-audit` fail (500, an error exit) instead of reporting the break.
async fn a_row_edited_into_nonsense_is_a_break_not_a_failure(app: TestApp) {
    app.other_admin("ana", false).await;
    let unguard = if app.postgres {
        "ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only"
    } else {
        "DROP TRIGGER audit_log_append_only_update"
    };
    assert_eq!(run_sql(&app, unguard).await, None);
    for (edit, seq) in [
        ("action = 'purchase.stolen'", 3),
        ("changes = 'not json'", 2),
        ("prev_hash = 'zz'", 4),
    ] {
        assert_eq!(
            run_sql(
                &app,
                &format!("UPDATE audit_log SET {edit} WHERE seq = {seq}")
            )
            .await,
            None
        );
    }
    let found = verification(&app).await;
    assert_eq!(
        (&found["intact"], &found["problem"], &found["atSeq"]),
        (&json!(false), &json!("edited"), &json!(2)),
        "{found}"
    );
    let page = trail(&app, "").await;
    let unknown = page
        .iter()
        .find(|e| e["seq"] == 3)
        .expect("the renamed row is listed");
    assert_eq!(unknown["action"], "unrecognised");
    let output = rifa_api(&app, &["verify-audit"], "").await;
    let said = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("Edited { seq: 2 }"), "{said}");
}

async fn the_verify_audit_command_passes_an_untouched_trail(app: TestApp) {
    app.other_admin("ana", false).await;
    let output = rifa_api(&app, &["verify-audit"], "").await;
    let said = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{said}");
    // The first admin's creation and sign-in, Ana's creation and sign-in.
    assert!(said.contains("holds: 4 entries"), "{said}");
}

async fn payment_methods_and_rates_leave_what_changed_in_the_trail(app: TestApp) {
    let method = app.payment_method("Pago Móvil", Some("36.5")).await;
    let rate = app.admin_get("/api/admin/exchange-rates").await[0]["id"]
        .as_i64()
        .unwrap();
    let edited = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/payment-methods/{method}"),
            &json!({"name": "Pago Móvil", "type": "digital", "active": false, "details": {"email": "nuevo@example.com"}, "exchangeRateId": rate}),
        )
        .await;
    assert_eq!(edited.status(), StatusCode::OK);
    let rated = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/exchange-rates/{rate}"),
            &json!({"fromCurrency": "USD", "toCurrency": "VES", "rate": "40"}),
        )
        .await;
    assert_eq!(rated.status(), StatusCode::OK);
    for path in [
        format!("/api/admin/payment-methods/{method}"),
        format!("/api/admin/exchange-rates/{rate}"),
    ] {
        let deleted = app.as_admin(Method::DELETE, &path).send().await.unwrap();
        assert_eq!(deleted.status(), StatusCode::NO_CONTENT, "{path}");
    }

    let of = |entries: &[Value]| -> Vec<(String, Vec<String>)> {
        entries
            .iter()
            .map(|e| {
                (
                    e["action"].as_str().unwrap().to_owned(),
                    e["changes"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c["field"].as_str().unwrap().to_owned())
                        .collect(),
                )
            })
            .collect()
    };
    let methods = trail(&app, &format!("target=payment_method:{method}")).await;
    // A record gone has no name left; the trail keeps its id.
    assert!(
        methods.iter().all(|e| e["targetName"].is_null()),
        "{methods:?}"
    );
    let methods = of(&methods);
    assert_eq!(methods[1].0, "payment_method.updated");
    assert_eq!(methods[1].1, ["active", "details"], "{methods:?}");
    assert_eq!(methods[0].0, "payment_method.deleted");
    assert_eq!(methods[2].0, "payment_method.created");
    let rates = trail(&app, &format!("target=exchange_rate:{rate}")).await;
    assert_eq!(
        rates[1]["changes"],
        json!([{"field": "rate", "before": "36.5", "after": "40"}])
    );
    assert_eq!(
        of(&rates)
            .iter()
            .map(|(a, _)| a.as_str())
            .collect::<Vec<_>>(),
        [
            "exchange_rate.deleted",
            "exchange_rate.updated",
            "exchange_rate.created"
        ]
    );
    assert_eq!(verification(&app).await["intact"], true);
}

async fn settings_saves_are_in_the_trail_without_the_e_mail_password(app: TestApp) {
    let saved = app
        .admin_send(
            Method::PUT,
            "/api/admin/email-settings",
            &json!({"emailHost": "smtp.rifa.test", "emailPort": 587, "emailUser": "ventas", "emailPass": "clave-muy-secreta-1", "fromEmail": "ventas@rifa.test"}),
        )
        .await;
    assert_eq!(saved.status(), StatusCode::OK);
    let branded = app
        .admin_send(
            Method::POST,
            "/api/admin/branding",
            &json!({"companyName": "Rifas Ana"}),
        )
        .await;
    assert_eq!(branded.status(), StatusCode::OK);

    let raw = app
        .as_admin(Method::GET, "/api/admin/audit?target=settings:1")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!raw.contains("clave-muy-secreta"), "{raw}");
    let entries = trail(&app, "target=settings:1").await;
    assert_eq!(entries[0]["action"], "settings.branding_updated");
    assert_eq!(
        entries[0]["changes"],
        json!([{"field": "companyName", "before": "Rifa", "after": "Rifas Ana"}])
    );
    assert_eq!(entries[1]["action"], "settings.email_updated");
    let password = entries[1]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["field"] == "password")
        .unwrap();
    assert_eq!(
        (&password["before"], &password["after"]),
        (&Value::Null, &json!("[redacted]"))
    );
}

async fn each_persons_figures_count_their_decisions_and_the_wait_for_them(app: TestApp) {
    use crate::proofs::{PNG, buy, send_proof, shop};

    let reviewer = app.staff_member("rita", Role::Reviewer).await;
    let shop = shop(&app).await;
    let mut with_proofs = Vec::new();
    for (number, email) in [(1, "f1@example.com"), (2, "f2@example.com")] {
        let purchase = buy(&app, shop, &[number], email).await;
        send_proof(&app, &purchase, PNG, "comprobante.png", "image/png").await;
        with_proofs.push(purchase.id);
    }
    let without = buy(&app, shop, &[3], "f3@example.com").await;
    for id in &with_proofs {
        let decided = app
            .request(Method::PUT, &format!("/api/admin/purchases/{id}/status"))
            .bearer_auth(&reviewer)
            .json(&json!({"status": "approved"}))
            .send()
            .await
            .unwrap();
        assert_eq!(decided.status(), StatusCode::OK);
    }
    let rejected = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/purchases/{}/status", without.id),
            &json!({"status": "rejected", "adminNotes": "Sin pago"}),
        )
        .await;
    assert_eq!(rejected.status(), StatusCode::OK);

    let today = chrono::Utc::now()
        .date_naive()
        .format("%Y-%m-%d")
        .to_string();
    let people = app
        .admin_get(&format!("/api/admin/audit/figures?from={today}&to={today}"))
        .await;
    let people = people.as_array().unwrap();
    assert_eq!(people.len(), 2, "{people:?}");
    assert_eq!(people[0]["actor"], "rita", "busiest first");
    assert_eq!(people[0]["decisions"], 2);
    assert_eq!(
        people[0]["perDay"],
        json!([{"date": today, "decisions": 2}])
    );
    let wait = people[0]["medianProofToDecisionSeconds"].as_i64().unwrap();
    assert!(
        (0..60).contains(&wait),
        "decided right after the proof: {wait}"
    );
    assert_eq!(people[1]["actor"], "admin");
    assert_eq!(people[1]["medianProofToDecisionSeconds"], Value::Null);

    let yesterday = (chrono::Utc::now().date_naive() - chrono::Days::new(1))
        .format("%Y-%m-%d")
        .to_string();
    let before = app
        .admin_get(&format!(
            "/api/admin/audit/figures?from={yesterday}&to={yesterday}"
        ))
        .await;
    assert_eq!(before, json!([]));
    let too_long = app
        .as_admin(
            Method::GET,
            "/api/admin/audit/figures?from=2020-01-01&to=2026-01-01",
        )
        .send()
        .await
        .unwrap();
    expect_error(
        too_long,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
}

async fn the_trail_exports_as_csv_with_its_filters_and_no_formula(app: TestApp) {
    use crate::export::{parse_csv, runs_as_formula};

    let hostile = "=HYPERLINK(\"http://x\";\"y\")";
    let created = app
        .admin_send(
            Method::POST,
            "/api/admin/raffles",
            &json!({
                "title": hostile,
                "description": "Un premio; =1+1",
                "price": "5",
                "maxTickets": 100,
                "minTicketsPerPurchase": 1,
                "maxTicketsPerPurchase": 5,
                "drawDate": "2030-01-15",
            }),
        )
        .await;
    assert_eq!(created.status(), StatusCode::CREATED);
    for n in 1..=3 {
        app.other_admin(&format!("staff-{n}"), false).await;
    }

    let response = app
        .as_admin(Method::GET, "/api/admin/audit/export")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-disposition"],
        "attachment; filename=\"registro.csv\""
    );
    let text = response.text().await.unwrap();
    let text = text
        .strip_prefix('\u{FEFF}')
        .expect("a byte-order mark first");
    let rows = parse_csv(text, ',');
    assert_eq!(
        rows[0],
        [
            "seq", "at", "actor", "actorId", "ip", "action", "target", "changes", "hash",
            "prevHash"
        ]
    );
    let head = verification(&app).await;
    assert_eq!(
        rows.len() - 1,
        head["headSeq"].as_u64().unwrap() as usize,
        "every entry"
    );
    assert_eq!(rows[1][0], head["headSeq"].to_string(), "newest first");
    assert_eq!(rows[1][8], head["headHash"].as_str().unwrap());
    let raffle = rows.iter().find(|r| r[5] == "raffle.created").unwrap();
    assert!(raffle[7].contains("HYPERLINK"), "{raffle:?}");
    for separator in [',', ';'] {
        for row in parse_csv(text, separator) {
            for cell in row {
                assert!(!runs_as_formula(&cell), "{separator:?}: {cell:?}");
            }
        }
    }

    let filtered = app
        .as_admin(Method::GET, "/api/admin/audit/export?action=staff.created")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let filtered = parse_csv(filtered.trim_start_matches('\u{FEFF}'), ',');
    // The first admin's and the three created here.
    assert_eq!(filtered.len() - 1, 4);
    assert!(filtered[1..].iter().all(|r| r[5] == "staff.created"));
    let bad = app
        .as_admin(
            Method::GET,
            "/api/admin/audit/export?action=purchase.stolen",
        )
        .send()
        .await
        .unwrap();
    expect_error(bad, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;

    // PostgreSQL text holds no NUL: the filter is refused before the stream starts, not midway.
    for path in ["/api/admin/audit", "/api/admin/audit/export"] {
        for field in ["actor", "action", "target"] {
            let bad = app
                .as_admin(Method::GET, &format!("{path}?{field}=purchase%3A1%00"))
                .send()
                .await
                .unwrap();
            let body =
                expect_error(bad, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;
            assert!(
                body["fields"].get(field).is_some(),
                "{path} {field}: {body}"
            );
        }
    }
}

async fn an_admin_s_test_purchase_is_in_the_trail_and_a_buyer_s_is_not(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let head = verification(&app).await["headSeq"].as_u64().unwrap();
    let bought = app.buy(raffle, method, &[1], 1300, "a@example.com").await;
    assert_eq!(bought.status(), StatusCode::CREATED);
    assert_eq!(
        verification(&app).await["headSeq"],
        head,
        "a buyer's purchase"
    );

    let test = app
        .post_form(
            &format!("/api/admin/raffles/{raffle}/purchase"),
            app.purchase_form(method, &[2, 3], "26.00", "prueba@example.com"),
            Some(&app.admin_token),
        )
        .await;
    assert_eq!(test.status(), StatusCode::CREATED);
    let test: Value = test.json().await.unwrap();

    let entries = trail(&app, "action=purchase.test_created").await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0]["actor"], "admin");
    assert_eq!(
        entries[0]["target"],
        format!("purchase:{}", test["purchase"]["id"])
    );
    let changes = entries[0]["changes"].to_string();
    assert!(
        changes.contains("\"tickets\"") && changes.contains("26.00"),
        "{changes}"
    );
    assert_eq!(verification(&app).await["intact"], true);
}
