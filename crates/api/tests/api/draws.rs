//! The verifiable draw over HTTP on both databases (issue 15, decision 0020): prizes locked by
//! the first purchase, the freeze refused while sales are open or a purchase is pending, the
//! frozen ledger that no code path can change, each prize drawn by the published rule, the
//! winners, the claim window and the delivery, and the published file checked offline.

use chrono::{TimeDelta, Utc};
use reqwest::{Method, StatusCode};
use rifa_api::verify_draw::verify;
use rifa_domain::Lang;
use serde_json::{Value, json};

use rifa_api::Config;
use rifa_test_support::pdf::pdf_text;
use rifa_test_support::smtp::SmtpServer;

use crate::helpers::{Role, TestApp, count_rows, expect_error, run_sql, smtp_to};
use crate::mail::{pdf_of, wait_for};
use crate::on_both;

on_both!(
    a_raffle_is_drawn_by_its_published_rule_and_anyone_can_check_it,
    a_frozen_ledger_and_a_recorded_draw_cannot_change_even_in_the_database,
    prizes_are_checked_field_by_field_and_test_purchases_lock_nothing,
    two_freezes_or_two_draws_at_once_record_one,
    a_beacon_prize_takes_a_round_after_the_freeze_and_only_drands_signature,
    the_size_that_reads_the_result_cannot_move_after_the_first_sale,
    a_lottery_that_draws_before_the_freeze_decides_nothing,
);

/// A prize drawn by the Táchira the night after the test raffles' draw day (2030-01-15): sales
/// close at 19:59 that day in Caracas.
fn lottery_prize(title: &str) -> Value {
    json!({"title": title, "description": "Entregado en Caracas", "image": null,
           "source": {"kind": "lottery", "lotteryName": "Lotería del Táchira",
                      "drawDate": "2030-01-16", "drawTime": "21:00", "timeZone": "America/Caracas",
                      "sourceUrl": "https://loteria.example/resultados"}})
}

/// The day the tests' lotteries are moved to once they "have drawn".
fn drawn_day() -> String {
    (Utc::now() - TimeDelta::days(2))
        .format("%Y-%m-%d")
        .to_string()
}

/// Moves `raffle`'s lotteries two days back, as if they had drawn, with a week to record
/// their results: the time passing that an instance under test cannot wait for.
async fn the_lotteries_have_drawn(app: &TestApp, raffle: i64) {
    let day = drawn_day();
    rewrite_sources(
        app,
        raffle,
        "lottery",
        &format!("lottery_draw_date = '{day}', lottery_deadline_hours = 168"),
    )
    .await;
}

/// Sets `assignment` on `raffle`'s prizes of `kind` with the prizes' lock lifted around this one
/// statement: a source moved as time or a postponement would move it against the freeze.
async fn rewrite_sources(app: &TestApp, raffle: i64, kind: &str, assignment: &str) {
    use sea_orm::{ConnectionTrait as _, Database, Statement};
    let update = format!(
        "UPDATE raffle_prizes SET {assignment} WHERE raffle_id = {raffle} AND source_kind = '{kind}'"
    );
    let sql = if app.postgres {
        format!(
            "ALTER TABLE raffle_prizes DISABLE TRIGGER raffle_prizes_locked; {update}; \
             ALTER TABLE raffle_prizes ENABLE TRIGGER raffle_prizes_locked;"
        )
    } else {
        let db = Database::connect(&app.config.database_url).await.unwrap();
        let trigger: String = db
            .query_one_raw(Statement::from_string(
                db.get_database_backend(),
                "SELECT sql FROM sqlite_master WHERE name = 'raffle_prizes_locked_update'",
            ))
            .await
            .unwrap()
            .unwrap()
            .try_get("", "sql")
            .unwrap();
        db.close().await.unwrap();
        // One transaction: the trigger is never left dropped by a statement that failed.
        format!(
            "BEGIN IMMEDIATE; DROP TRIGGER IF EXISTS raffle_prizes_locked_update; {update}; \
             {trigger}; COMMIT;"
        )
    };
    assert_eq!(run_sql(app, &sql).await, None);
}

/// Sets the prizes under `rifa-number-v2`, whose winners these tests read off the results.
async fn set_prizes(app: &TestApp, raffle: i64, prizes: &[Value]) -> reqwest::Response {
    set_rules(app, raffle, "rifa-number-v2", prizes).await
}

async fn set_rules(app: &TestApp, raffle: i64, rule: &str, prizes: &[Value]) -> reqwest::Response {
    app.admin_send(
        Method::PUT,
        &format!("/api/admin/raffles/{raffle}/prizes"),
        &json!({ "rule": rule, "prizes": prizes }),
    )
    .await
}

async fn freeze(app: &TestApp, raffle: i64) -> reqwest::Response {
    app.admin_send(
        Method::POST,
        &format!("/api/admin/raffles/{raffle}/draw/freeze"),
        &json!({}),
    )
    .await
}

/// Records `result` for `prize` once its lottery has drawn (see [`the_lotteries_have_drawn`]).
async fn record_result(app: &TestApp, raffle: i64, prize: i64, result: &str) -> reqwest::Response {
    the_lotteries_have_drawn(app, raffle).await;
    app.admin_send(
        Method::POST,
        &format!("/api/admin/raffles/{raffle}/prizes/{prize}/result"),
        &json!({"kind": "lottery", "result": result, "publishedOn": drawn_day(),
                "officialUrl": "https://loteria.example/resultados/hoy"}),
    )
    .await
}

/// A purchase of `numbers`, returning its id and reference.
async fn bought(
    app: &TestApp,
    raffle: i64,
    method: i64,
    numbers: &[u32],
    email: &str,
) -> (i64, String) {
    let response = app.buy(raffle, method, numbers, 500, email).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.unwrap();
    (
        body["purchase"]["id"].as_i64().unwrap(),
        body["purchase"]["reference"].as_str().unwrap().to_owned(),
    )
}

/// Moves the draw date to an hour ago, as if the raffle had reached it: sales close at the
/// draw. Written in the database, so the instance's cached terms still say open and a purchase
/// meets the database's own refusal.
async fn reach_the_draw(app: &TestApp, raffle: i64) {
    use sea_orm::{ConnectionTrait as _, Database, Statement};
    let db = Database::connect(&app.config.database_url).await.unwrap();
    db.execute_raw(Statement::from_sql_and_values(
        db.get_database_backend(),
        "UPDATE raffles SET draw_date = $1 WHERE id = $2",
        [(Utc::now() - TimeDelta::hours(1)).into(), raffle.into()],
    ))
    .await
    .unwrap();
    db.close().await.unwrap();
}

/// A 999-number raffle (results are read by their last 3 digits) with two prizes, and its
/// prizes' ids.
async fn raffle_with_two_prizes(app: &TestApp) -> (i64, i64, i64) {
    let raffle = app.raffle("5", 999, (1, 10)).await;
    let response = set_prizes(
        app,
        raffle,
        &[lottery_prize("Moto"), lottery_prize("Televisor")],
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    let view: Value = response.json().await.unwrap();
    assert_eq!(view["rulesLocked"], false);
    assert_eq!(view["digitsUsed"], 3);
    let ids: Vec<i64> = view["prizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    (raffle, ids[0], ids[1])
}

async fn a_raffle_is_drawn_by_its_published_rule_and_anyone_can_check_it(app: TestApp) {
    let method = app.payment_method("Zelle", None).await;
    let (raffle, first, second) = raffle_with_two_prizes(&app).await;

    // On sale: the rule and the sources are public, nothing is frozen.
    let public = app.get_json(&format!("/api/raffles/{raffle}/draw")).await;
    assert_eq!(public["prizes"][0]["title"], "Moto");
    assert_eq!(public["prizes"][1]["position"], 2);
    assert_eq!(
        public["prizes"][0]["source"],
        json!({"kind": "lottery", "lotteryName": "Lotería del Táchira", "drawDate": "2030-01-16",
               "drawTime": "21:00", "timeZone": "America/Caracas",
               "drawsAt": "2030-01-17T01:00:00.000Z", "sourceUrl": "https://loteria.example/resultados",
               "digits": null, "deadlineHours": 24, "deadline": "2030-01-18T01:00:00.000Z",
               "fallbackRound": 67_375_212})
    );
    assert_eq!(public["commitment"], Value::Null);
    expect_error(
        freeze(&app, raffle).await,
        StatusCode::CONFLICT,
        "draw_sales_still_open",
    )
    .await;
    expect_error(
        app.get(&format!("/api/raffles/{raffle}/draw/ledger")).await,
        StatusCode::CONFLICT,
        "draw_not_frozen",
    )
    .await;

    let (ana, ana_reference) = bought(&app, raffle, method, &[5, 46], "ana@example.com").await;
    let (beto, _) = bought(&app, raffle, method, &[50], "beto@example.com").await;
    let (carla, _) = bought(&app, raffle, method, &[80], "carla@example.com").await;
    let (dario, _) = bought(&app, raffle, method, &[998], "dario@example.com").await;
    for (id, status) in [(ana, "approved"), (carla, "rejected"), (dario, "approved")] {
        let notes = (status == "rejected").then_some("Pago no recibido");
        assert_eq!(app.decide(id, status, notes).await.status(), StatusCode::OK);
    }

    // The first purchase locked the rules.
    let locked = expect_error(
        set_prizes(&app, raffle, &[lottery_prize("Otra cosa")]).await,
        StatusCode::CONFLICT,
        "draw_rules_locked",
    )
    .await;
    assert!(locked["message"].as_str().unwrap().contains("nueva rifa"));

    reach_the_draw(&app, raffle).await;
    let pending = expect_error(
        freeze(&app, raffle).await,
        StatusCode::CONFLICT,
        "draw_purchases_pending",
    )
    .await;
    assert_eq!(pending["pendingPurchases"][0]["id"], beto);
    assert_eq!(
        pending["message"],
        "Hay 1 compra pendiente: apruébala o recházala antes de congelar la lista de números."
    );
    let view = app
        .admin_get(&format!("/api/admin/raffles/{raffle}/draw"))
        .await;
    assert_eq!(view["pendingPurchases"].as_array().unwrap().len(), 1);
    assert_eq!(view["salesOpen"], false);
    assert_eq!(view["rulesLocked"], true);
    assert_eq!(
        app.decide(beto, "approved", None).await.status(),
        StatusCode::OK
    );

    let response = freeze(&app, raffle).await;
    assert_eq!(response.status(), StatusCode::OK);
    let frozen: Value = response.json().await.unwrap();
    let root = frozen["commitment"]["root"].as_str().unwrap().to_owned();
    assert_eq!(root.len(), 64);
    assert_eq!(
        frozen["commitment"]["size"], 4,
        "5, 46, 50 and 998; 80 was rejected"
    );
    assert_eq!(frozen["pendingPurchases"], json!([]));
    // The root is pinned in the audit trail, written by the freeze's own transaction.
    let trail = app
        .admin_get(&format!("/api/admin/audit?target=raffle:{raffle}"))
        .await;
    let actions: Vec<&str> = trail["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        ["draw.ledger_frozen", "draw.prizes_set", "raffle.created"],
        "{trail}"
    );
    assert_eq!(
        trail["items"][0]["changes"],
        json!([
            {"field": "root", "before": null, "after": root},
            {"field": "size", "before": null, "after": "4"},
        ])
    );
    expect_error(
        freeze(&app, raffle).await,
        StatusCode::CONFLICT,
        "draw_already_frozen",
    )
    .await;

    // Frozen: nobody buys, whatever the raffle's terms say.
    expect_error(
        app.buy(raffle, method, &[7], 500, "tarde@example.com")
            .await,
        StatusCode::CONFLICT,
        "sales_closed",
    )
    .await;

    // No result exists before the lottery draws, nor one published before its draw day or
    // after today.
    let result_on = |published_on: &str| {
        app.request(
            Method::POST,
            &format!("/api/admin/raffles/{raffle}/prizes/{first}/result"),
        )
        .bearer_auth(&app.admin_token)
        .json(
            &json!({"kind": "lottery", "result": "12-0046", "publishedOn": published_on,
                      "officialUrl": "https://loteria.example/resultados/hoy"}),
        )
        .send()
    };
    let early = expect_error(
        result_on("2030-01-16").await.unwrap(),
        StatusCode::CONFLICT,
        "prize_source_not_drawn_yet",
    )
    .await;
    assert_eq!(early["drawsAt"], "2030-01-17T01:00:00.000Z");
    assert!(
        early["message"]
            .as_str()
            .unwrap()
            .contains("2030-01-16 21:00"),
        "{early}"
    );
    the_lotteries_have_drawn(&app, raffle).await;
    let tomorrow = (Utc::now() + TimeDelta::days(2))
        .format("%Y-%m-%d")
        .to_string();
    for published_on in ["1999-01-01", tomorrow.as_str()] {
        let refused = expect_error(
            result_on(published_on).await.unwrap(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert!(
            refused["fields"]["publishedOn"]
                .as_str()
                .unwrap()
                .contains(&drawn_day()),
            "{refused}"
        );
    }

    // A later prize's result may come first: it waits for the earlier prize's winner.
    let response = record_result(&app, raffle, second, "1005").await;
    assert_eq!(response.status(), StatusCode::OK);
    let waiting: Value = response.json().await.unwrap();
    assert_eq!(waiting["prizes"][1]["draw"], Value::Null);
    assert_eq!(
        waiting["prizes"][1]["results"][0]["result"]["result"],
        "1005"
    );
    assert_eq!(
        waiting["awaiting"],
        json!({"prizeId": first, "source": 0}),
        "{waiting}"
    );
    let unreadable = expect_error(
        record_result(&app, raffle, first, "12a").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert!(unreadable["fields"]["result"].is_string());
    // Before recording, the panel sees what the result would decide, and nothing is stored.
    let preview = app
        .admin_send(
            Method::POST,
            &format!("/api/admin/raffles/{raffle}/prizes/{first}/result/preview"),
            &json!({"result": "12-0046", "publishedOn": drawn_day(),
                    "officialUrl": "https://loteria.example/resultados/hoy"}),
        )
        .await;
    assert_eq!(preview.status(), StatusCode::OK);
    let preview: Value = preview.json().await.unwrap();
    assert_eq!(
        preview["prizes"],
        json!([
            {"prizeId": first, "position": 1, "title": "Moto", "outcome": "winner",
             "winningNumber": 46, "displayName": "María G."},
            {"prizeId": second, "position": 2, "title": "Televisor", "outcome": "winner",
             "winningNumber": 5, "displayName": "María G."}
        ])
    );
    let unchanged = app
        .admin_get(&format!("/api/admin/raffles/{raffle}/draw"))
        .await;
    assert_eq!(unchanged["prizes"][0]["results"], json!([]));
    assert_eq!(
        unchanged["awaiting"],
        json!({"prizeId": first, "source": 0})
    );
    let response = record_result(&app, raffle, first, "12-0046").await;
    assert_eq!(response.status(), StatusCode::OK);
    let drawn: Value = response.json().await.unwrap();
    let moto = &drawn["prizes"][0]["draw"];
    assert_eq!(moto["drawnNumber"], 46);
    assert_eq!(moto["winningNumber"], 46);
    assert_eq!(moto["source"], 0);
    assert_eq!(
        moto["steps"],
        json!([{"step": "digits", "result": "12-0046", "digits": 3, "used": "046"},
               {"step": "names", "number": 46},
               {"step": "wins", "number": 46}])
    );
    assert_eq!(moto["winner"]["purchaseId"], ana);
    assert_eq!(moto["winner"]["customerEmail"], "ana@example.com");
    assert_eq!(drawn["prizes"][0]["claim"]["daysLeft"], 30);
    assert_eq!(drawn["prizes"][0]["claim"]["deliveredAt"], Value::Null);
    expect_error(
        record_result(&app, raffle, first, "0005").await,
        StatusCode::CONFLICT,
        "prize_already_drawn",
    )
    .await;

    // The waiting prize settled with it: its "1005" names 5, sold and not yet a winner.
    let tv = &drawn["prizes"][1]["draw"];
    assert_eq!(tv["winningNumber"], 5);
    assert_eq!(
        tv["steps"],
        json!([{"step": "digits", "result": "1005", "digits": 3, "used": "005"},
               {"step": "names", "number": 5},
               {"step": "wins", "number": 5}])
    );
    assert_eq!(drawn["awaiting"], Value::Null);
    // Both prizes drawn: the raffle finished itself and left the raffles on sale.
    let page = app.get_json(&format!("/api/raffles/{raffle}")).await;
    assert_eq!(page["status"], "finished", "{page}");
    let on_sale = app.get_json("/api/raffles").await;
    assert!(
        on_sale
            .as_array()
            .or_else(|| on_sale["raffles"].as_array())
            .is_some_and(|list| list.iter().all(|r| r["id"] != raffle)),
        "{on_sale}"
    );

    // The public sees a first name, an initial and a country; never a contact.
    let public = app.get_json(&format!("/api/raffles/{raffle}/draw")).await;
    assert_eq!(
        public["prizes"][0]["draw"]["winner"],
        json!({"number": 46, "displayName": "María G.", "country": "venezuela"})
    );
    assert_eq!(public["commitment"]["root"], root.as_str());
    let winners = app.get_json("/api/winners").await;
    let ours: Vec<&Value> = winners["winners"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["raffleId"] == raffle)
        .collect();
    assert_eq!(ours.len(), 2);
    assert!(ours.iter().all(|w| w["displayName"] == "María G."));

    // Delivery, once.
    let response = app
        .admin_send(
            Method::POST,
            &format!("/api/admin/raffles/{raffle}/prizes/{first}/delivered"),
            &json!({"photo": "https://cdn.example/entrega.jpg"}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let delivered: Value = response.json().await.unwrap();
    assert!(delivered["prizes"][0]["claim"]["deliveredAt"].is_string());
    assert_eq!(
        delivered["prizes"][0]["claim"]["deliveryPhoto"],
        "https://cdn.example/entrega.jpg"
    );
    expect_error(
        app.admin_send(
            Method::POST,
            &format!("/api/admin/raffles/{raffle}/prizes/{first}/delivered"),
            &json!({"photo": null}),
        )
        .await,
        StatusCode::CONFLICT,
        "prize_already_delivered",
    )
    .await;

    // The published file holds by itself, offline; one changed entry does not.
    let file = app
        .get(&format!("/api/raffles/{raffle}/draw/ledger"))
        .await
        .text()
        .await
        .unwrap();
    let published: Value = serde_json::from_str(&file).unwrap();
    assert_eq!(published["format"], "rifa-draw-v2");
    assert_eq!(published["rule"], "rifa-number-v2");
    assert_eq!(published["root"], root.as_str());
    let numbers: Vec<u64> = published["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e[0].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [5, 46, 50, 998]);
    assert!(!file.contains("ana@example.com") && !file.contains("María"));
    let report = verify(&file, Some(&ana_reference.to_lowercase()), Lang::Es).unwrap();
    assert!(report.holds, "{:#?}", report.lines);
    assert!(
        report
            .lines
            .iter()
            .any(|l| l.contains("2 números en la lista: 0005, 0046")),
        "{:#?}",
        report.lines
    );
    let mut tampered = published.clone();
    tampered["entries"][2][0] = json!(51);
    let report = verify(&tampered.to_string(), None, Lang::En).unwrap();
    assert!(!report.holds);
    assert!(
        report.lines.iter().any(|l| l.contains("does NOT match")),
        "{:#?}",
        report.lines
    );

    // The same check as a command anyone runs on the downloaded file.
    let dir = std::env::temp_dir().join(format!(
        "rifa-verify-{}-{}",
        std::process::id(),
        if app.postgres { "pg" } else { "sqlite" }
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |name: &str, contents: &str, extra: &[&str]| {
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_rifa-api"))
            .arg("verify-draw")
            .arg(&path)
            .args(extra)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stdout).unwrap(),
        )
    };
    let (code, out) = run("sorteo.json", &file, &["--reference", &ana_reference]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("✓ La huella de la lista (4 números vendidos) coincide"),
        "{out}"
    );
    assert!(out.contains("Gana el número 0046."), "{out}");
    let (code, out) = run("alterado.json", &tampered.to_string(), &["--lang", "en"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("✗ The list's fingerprint does NOT match"),
        "{out}"
    );
    assert_eq!(run("roto.json", "{", &[]).0, Some(2));

    // The page offers a verifier a buyer can keep: the Python script this build was tested
    // with, which runs with Python alone.
    let served = app.get("/api/draw/verifier/verify_draw.py").await;
    assert_eq!(served.status(), StatusCode::OK);
    assert!(
        served.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("verify_draw.py")
    );
    let script = dir.join("verify_draw.py");
    std::fs::write(&script, served.text().await.unwrap()).unwrap();
    let vectors = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/formats/draw-vectors.json"
    );
    let checked = std::process::Command::new("python3")
        .arg(&script)
        .args(["--vectors", vectors])
        .output()
        .unwrap();
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stdout)
    );
    let document = app.get("/api/draw/verifier/VERIFYING.md").await;
    assert_eq!(document.status(), StatusCode::OK);
    assert!(
        document
            .text()
            .await
            .unwrap()
            .starts_with("# Verifying a Rifa draw")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

async fn a_frozen_ledger_and_a_recorded_draw_cannot_change_even_in_the_database(app: TestApp) {
    let method = app.payment_method("Zelle", None).await;
    let (raffle, first, _) = raffle_with_two_prizes(&app).await;
    let (ana, _) = bought(&app, raffle, method, &[7], "ana@example.com").await;
    assert_eq!(
        app.decide(ana, "approved", None).await.status(),
        StatusCode::OK
    );
    reach_the_draw(&app, raffle).await;
    assert_eq!(freeze(&app, raffle).await.status(), StatusCode::OK);
    assert_eq!(
        record_result(&app, raffle, first, "007").await.status(),
        StatusCode::OK
    );

    for sql in [
        format!("UPDATE draw_ledger_entries SET tag = '00' WHERE raffle_id = {raffle}"),
        format!("DELETE FROM draw_ledger_entries WHERE raffle_id = {raffle}"),
        format!("UPDATE draw_ledgers SET root = '00' WHERE raffle_id = {raffle}"),
        format!("DELETE FROM prize_draws WHERE raffle_id = {raffle}"),
        format!("UPDATE prize_draws SET winning_number = 8 WHERE raffle_id = {raffle}"),
    ] {
        let refused = run_sql(&app, &sql).await;
        assert!(
            refused
                .as_deref()
                .is_some_and(|e| e.contains("append_only")),
            "{sql}: {refused:?}"
        );
    }
    let refused = run_sql(
        &app,
        &format!("UPDATE purchases SET status = 'rejected' WHERE id = {ana}"),
    )
    .await;
    assert!(
        refused
            .as_deref()
            .is_some_and(|e| e.contains("draw_ledger_frozen")),
        "{refused:?}"
    );
    let refused = run_sql(
        &app,
        &format!("DELETE FROM raffle_prizes WHERE raffle_id = {raffle}"),
    )
    .await;
    assert!(
        refused
            .as_deref()
            .is_some_and(|e| e.contains("draw_rules_locked")),
        "{refused:?}"
    );
    assert_eq!(
        count_rows(
            &app,
            &format!("SELECT COUNT(*) AS n FROM draw_ledger_entries WHERE raffle_id = {raffle}")
        )
        .await,
        1
    );
}

/// The reproduction of issue 32: an account with the catalogue role edited the size after the
/// freeze, so the result was read with another count of digits and another number won.
async fn the_size_that_reads_the_result_cannot_move_after_the_first_sale(app: TestApp) {
    let method = app.payment_method("Zelle", None).await;
    let (raffle, first, _) = raffle_with_two_prizes(&app).await;
    let catalogue = app.staff_member("carla", Role::Catalogue).await;
    let resize = |token: String, max: u32| {
        app.request(Method::PUT, &format!("/api/admin/raffles/{raffle}"))
            .bearer_auth(token)
            .json(
                &json!({"title": "Rifa de prueba", "description": "Un premio de prueba",
                          "price": "5", "maxTickets": max, "maxTicketsPerPurchase": 10,
                          "drawDate": "2030-01-15"}),
            )
            .send()
    };
    // Before the first sale the size is the catalogue's to set.
    assert_eq!(
        resize(catalogue.clone(), 5000).await.unwrap().status(),
        StatusCode::OK
    );
    assert_eq!(
        resize(catalogue.clone(), 999).await.unwrap().status(),
        StatusCode::OK
    );

    let (ana, _) = bought(&app, raffle, method, &[42], "ana@example.com").await;
    let (beto, _) = bought(&app, raffle, method, &[600], "beto@example.com").await;
    for token in [catalogue.clone(), app.admin_token.clone()] {
        let refused = resize(token, 5000).await.unwrap();
        expect_error(refused, StatusCode::CONFLICT, "raffle_size_locked").await;
    }
    for purchase in [ana, beto] {
        assert_eq!(
            app.decide(purchase, "approved", None).await.status(),
            StatusCode::OK
        );
    }
    reach_the_draw(&app, raffle).await;
    assert_eq!(freeze(&app, raffle).await.status(), StatusCode::OK);
    expect_error(
        resize(catalogue, 5000).await.unwrap(),
        StatusCode::CONFLICT,
        "raffle_size_locked",
    )
    .await;
    // Whoever holds the database's keys meets the same refusal.
    let refused = run_sql(
        &app,
        &format!("UPDATE raffles SET max_tickets = 5000 WHERE id = {raffle}"),
    )
    .await;
    assert!(
        refused
            .as_deref()
            .is_some_and(|e| e.contains("draw_size_locked")),
        "{refused:?}"
    );
    // The rule is locked the same way, whoever writes.
    let refused = run_sql(
        &app,
        &format!("UPDATE raffles SET draw_rule = 'rifa-among-sold-v2' WHERE id = {raffle}"),
    )
    .await;
    assert!(
        refused
            .as_deref()
            .is_some_and(|e| e.contains("draw_rules_locked")),
        "{refused:?}"
    );

    // And were the row changed around the trigger, the draw reads the size frozen with the
    // ledger: `1600` read with 3 digits names 600, sold, which wins (with the 4 digits of 5000
    // it would name 1600, unsold, and pass to the prize's round).
    let drop_trigger = if app.postgres {
        "DROP TRIGGER raffles_size_locked ON raffles"
    } else {
        "DROP TRIGGER raffles_size_locked"
    };
    assert_eq!(run_sql(&app, drop_trigger).await, None);
    assert_eq!(
        run_sql(
            &app,
            &format!("UPDATE raffles SET max_tickets = 5000 WHERE id = {raffle}")
        )
        .await,
        None
    );
    let drawn: Value = record_result(&app, raffle, first, "1600")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(drawn["digitsUsed"], 3, "{drawn}");
    assert_eq!(drawn["prizes"][0]["draw"]["winningNumber"], 600, "{drawn}");
    let ledger = app
        .get_json(&format!("/api/raffles/{raffle}/draw/ledger"))
        .await;
    assert_eq!(ledger["maxTickets"], 999, "{ledger}");
}

/// Issue 32: a prize whose lottery drew on 2026-11-20 was frozen on 2026-12-01 and its result
/// entered. A source must draw after the sales close (the form says so) and after the freeze.
async fn a_lottery_that_draws_before_the_freeze_decides_nothing(app: TestApp) {
    let method = app.payment_method("Zelle", None).await;
    let raffle = app.raffle("5", 100, (1, 10)).await;
    let mut same_evening = lottery_prize("Moto");
    same_evening["source"]["drawDate"] = json!("2030-01-15");
    same_evening["source"]["drawTime"] = json!("19:30");
    let mut in_bogota = lottery_prize("Televisor");
    in_bogota["source"]["timeZone"] = json!("America/Bogota");
    in_bogota["source"]["drawTime"] = json!("20:00");
    in_bogota["source"]["drawDate"] = json!("2030-01-15");
    let refused = expect_error(
        set_prizes(&app, raffle, &[same_evening, in_bogota.clone()]).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    // Sales close at 19:59 in Caracas, 18:59 in Bogotá; a source must draw 10 minutes later:
    // 20:00 there is after, 19:30 here not.
    assert_eq!(
        refused["fields"],
        json!({"prizes[0].source.drawDate": "Debe ser después de 2030-01-15 20:09"}),
        "{refused}"
    );
    let mut elsewhere = lottery_prize("Moto");
    elsewhere["source"]["timeZone"] = json!("Asia/Tokyo");
    let refused = expect_error(
        set_prizes(&app, raffle, &[elsewhere]).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert!(refused["fields"]["prizes[0].source.timeZone"].is_string());
    let set = set_prizes(&app, raffle, &[in_bogota]).await;
    assert_eq!(set.status(), StatusCode::OK);
    let view: Value = set.json().await.unwrap();
    assert_eq!(
        view["prizes"][0]["source"]["drawsAt"],
        "2030-01-16T01:00:00.000Z"
    );

    let (ana, _) = bought(&app, raffle, method, &[7], "ana@example.com").await;
    assert_eq!(
        app.decide(ana, "approved", None).await.status(),
        StatusCode::OK
    );
    // The raffle was postponed past its lottery: freezing now would fix the list after the
    // result is known.
    reach_the_draw(&app, raffle).await;
    the_lotteries_have_drawn(&app, raffle).await;
    let refused = expect_error(
        freeze(&app, raffle).await,
        StatusCode::CONFLICT,
        "draw_source_before_freeze",
    )
    .await;
    assert_eq!(refused["position"], 1);
    assert_eq!(
        count_rows(
            &app,
            &format!("SELECT COUNT(*) AS n FROM draw_ledgers WHERE raffle_id = {raffle}")
        )
        .await,
        0
    );
}

async fn prizes_are_checked_field_by_field_and_test_purchases_lock_nothing(app: TestApp) {
    let raffle = app.raffle("5", 100, (1, 10)).await;
    let body = expect_error(
        set_prizes(
            &app,
            raffle,
            &[
                json!({"title": "", "description": "", "source": {"kind": "lottery", "lotteryName": "Lotería",
                        "drawDate": "15/01/2030", "sourceUrl": "javascript:alert(1)"}}),
                json!({"title": "Bici", "description": "", "source": {"kind": "beacon", "round": 0}}),
            ],
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    let fields: Vec<&str> = body["fields"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        fields,
        [
            "prizes[0].title",
            "prizes[0].source.drawDate",
            "prizes[0].source.sourceUrl",
            "prizes[1].source.round"
        ]
    );
    expect_error(
        set_prizes(&app, 999_999, &[lottery_prize("Moto")]).await,
        StatusCode::NOT_FOUND,
        "raffle_not_found",
    )
    .await;
    let beacon = json!({"title": "Bici", "description": "", "image": "/uploads/bici.jpg",
                        "source": {"kind": "beacon", "round": 999_000_000}});
    assert_eq!(
        set_prizes(&app, raffle, std::slice::from_ref(&beacon))
            .await
            .status(),
        StatusCode::OK
    );

    // An admin's test purchase is a rehearsal: the rules stay open.
    let method = app.payment_method("Zelle", None).await;
    let form = app.purchase_form(method, &[3], "5.00", "prueba@example.com");
    let response = app
        .post_form(
            &format!("/api/admin/raffles/{raffle}/purchase"),
            form,
            Some(&app.admin_token),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let view = app
        .admin_get(&format!("/api/admin/raffles/{raffle}/draw"))
        .await;
    assert_eq!(view["rulesLocked"], false);
    assert_eq!(
        view["prizes"][0]["source"],
        json!({"kind": "beacon", "round": 999_000_000})
    );
    assert_eq!(view["prizes"][0]["image"], "/uploads/bici.jpg");
    // On sale, the last prize stays; off sale, it may go.
    expect_error(
        set_prizes(&app, raffle, &[]).await,
        StatusCode::CONFLICT,
        "draw_on_sale_needs_prize",
    )
    .await;
    let off_sale = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/raffles/{raffle}"),
            &json!({"title": "Rifa de prueba", "description": "Un premio", "price": 5, "maxTickets": 100, "status": "inactive"}),
        )
        .await;
    assert_eq!(off_sale.status(), StatusCode::OK);
    assert_eq!(set_prizes(&app, raffle, &[]).await.status(), StatusCode::OK);

    // Frozen without prizes: refused.
    reach_the_draw(&app, raffle).await;
    expect_error(
        freeze(&app, raffle).await,
        StatusCode::CONFLICT,
        "draw_no_prizes",
    )
    .await;
    // With prizes but nothing sold (a test purchase sells nothing): no draw, and the raffle
    // can still be deleted.
    assert_eq!(
        set_prizes(&app, raffle, &[lottery_prize("Moto")])
            .await
            .status(),
        StatusCode::OK
    );
    expect_error(
        freeze(&app, raffle).await,
        StatusCode::CONFLICT,
        "draw_nothing_sold",
    )
    .await;
    let deleted = app
        .admin_send(
            Method::DELETE,
            &format!("/api/admin/raffles/{raffle}"),
            &json!({}),
        )
        .await;
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
}

async fn two_freezes_or_two_draws_at_once_record_one(app: TestApp) {
    let method = app.payment_method("Zelle", None).await;
    let (raffle, first, _) = raffle_with_two_prizes(&app).await;
    for (numbers, email) in [(&[1, 2][..], "a@example.com"), (&[3][..], "b@example.com")] {
        let (id, _) = bought(&app, raffle, method, numbers, email).await;
        assert_eq!(
            app.decide(id, "approved", None).await.status(),
            StatusCode::OK
        );
    }
    reach_the_draw(&app, raffle).await;
    let (one, two) = tokio::join!(freeze(&app, raffle), freeze(&app, raffle));
    let mut statuses = [one.status(), two.status()];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT]);
    assert_eq!(
        count_rows(
            &app,
            &format!("SELECT COUNT(*) AS n FROM draw_ledgers WHERE raffle_id = {raffle}")
        )
        .await,
        1
    );
    let (one, two) = tokio::join!(
        record_result(&app, raffle, first, "002"),
        record_result(&app, raffle, first, "003")
    );
    let mut statuses = [one.status(), two.status()];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT]);
    assert_eq!(
        count_rows(
            &app,
            &format!("SELECT COUNT(*) AS n FROM prize_draws WHERE raffle_id = {raffle}")
        )
        .await,
        1
    );
}

/// Round 657413 of drand's quicknet, as api.drand.sh published it (recorded).
const RECORDED_SIGNATURE: &str = "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b";

fn beacon_prize(round: u64) -> Value {
    json!({"title": "Bici", "description": "", "image": null,
           "source": {"kind": "beacon", "round": round}})
}

/// A raffle whose one prize is drawn from `round`, with one approved purchase and its draw
/// date passed; its prize's id. The prize was set with a round after the raffle's first draw
/// date, then the raffle postponed to `round`'s side of it.
async fn beacon_raffle(app: &TestApp, method: i64, round: u64) -> (i64, i64) {
    let raffle = app.raffle("5", 999, (1, 10)).await;
    let view: Value = set_prizes(app, raffle, &[beacon_prize(999_000_000)])
        .await
        .json()
        .await
        .unwrap();
    let (ana, _) = bought(app, raffle, method, &[7], "ana@example.com").await;
    assert_eq!(
        app.decide(ana, "approved", None).await.status(),
        StatusCode::OK
    );
    reach_the_draw(app, raffle).await;
    rewrite_sources(app, raffle, "beacon", &format!("beacon_round = {round}")).await;
    (raffle, view["prizes"][0]["id"].as_i64().unwrap())
}

async fn a_beacon_prize_takes_a_round_after_the_freeze_and_only_drands_signature(app: TestApp) {
    let method = app.payment_method("Zelle", None).await;
    // A round published years ago: its randomness was known before the ledger. The form
    // refuses it against the sales close; a raffle postponed past it, the freeze.
    let fresh = app.raffle("5", 999, (1, 10)).await;
    let refused = expect_error(
        set_prizes(&app, fresh, &[beacon_prize(657_413)]).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(
        refused["fields"]["prizes[0].source.round"], "Debe ser después de 2030-01-16 00:09",
        "{refused}"
    );
    let (stale, _) = beacon_raffle(&app, method, 657_413).await;
    let body = expect_error(
        freeze(&app, stale).await,
        StatusCode::CONFLICT,
        "draw_beacon_round_too_early",
    )
    .await;
    assert!(
        body["message"].as_str().unwrap().contains("657413"),
        "{body}"
    );

    // A round a day ahead: the freeze takes it, and the draw waits for it.
    let genesis = 1_692_803_367;
    let tomorrow = (Utc::now() + TimeDelta::days(1)).timestamp();
    let round = u64::try_from((tomorrow - genesis) / 3 + 1).unwrap();
    let (raffle, prize) = beacon_raffle(&app, method, round).await;
    assert_eq!(freeze(&app, raffle).await.status(), StatusCode::OK);
    let path = format!("/api/admin/raffles/{raffle}/prizes/{prize}/result");
    let draw = async |body: Value| app.admin_send(Method::POST, &path, &body).await;
    let early = expect_error(
        draw(json!({"kind": "beacon", "signature": null})).await,
        StatusCode::CONFLICT,
        "beacon_round_not_yet",
    )
    .await;
    let published_at: chrono::DateTime<Utc> =
        early["publishedAt"].as_str().unwrap().parse().unwrap();
    assert!(
        (published_at - (Utc::now() + TimeDelta::days(1)))
            .num_seconds()
            .abs()
            < 10
    );
    // Another round's real signature is not this round's.
    expect_error(
        draw(json!({"kind": "beacon", "signature": RECORDED_SIGNATURE})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "beacon_signature_invalid",
    )
    .await;
    expect_error(
        draw(json!({"kind": "beacon", "signature": "not hex"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "beacon_signature_invalid",
    )
    .await;
    expect_error(
        record_result(&app, raffle, prize, "0007").await,
        StatusCode::CONFLICT,
        "prize_wrong_source",
    )
    .await;
    let view = app
        .admin_get(&format!("/api/admin/raffles/{raffle}/draw"))
        .await;
    assert_eq!(view["prizes"][0]["draw"], Value::Null);
}

/// Buyers get the commitment and their proof when the ledger is frozen, the winner the
/// certificate, through a real SMTP server; the certificate is also public.
async fn the_draws_emails_carry_the_proof_and_the_certificate(mut config: Config, postgres: bool) {
    let server = SmtpServer::start();
    smtp_to(&mut config, server.port());
    let app = TestApp::start(config, postgres).await;
    let method = app.payment_method("Zelle", None).await;
    let (raffle, first, _) = raffle_with_two_prizes(&app).await;
    let (ana, reference) = bought(&app, raffle, method, &[5, 46], "ana@example.com").await;
    let (luis, _) = bought(&app, raffle, method, &[50], "luis@example.com").await;
    for id in [ana, luis] {
        assert_eq!(
            app.decide(id, "approved", None).await.status(),
            StatusCode::OK
        );
    }
    // Two received, two approved.
    assert_eq!(wait_for(&server, 4).await.len(), 4);
    reach_the_draw(&app, raffle).await;
    let frozen: Value = freeze(&app, raffle).await.json().await.unwrap();
    let root = frozen["commitment"]["root"].as_str().unwrap().to_owned();

    let received = wait_for(&server, 6).await;
    let to_ana = received
        .iter()
        .find(|m| m.to == ["ana@example.com"] && m.subject.contains("congelada"))
        .expect("Ana's proof");
    let text = to_ana.text.as_deref().unwrap();
    assert!(text.contains(&root), "{text}");
    assert!(text.contains("0005, 0046"), "{text}");
    assert!(text.contains(&format!(
        "/sorteo/{raffle}/verificacion?lang=es&ref={reference}"
    )));
    let proof = &to_ana.attachments[0];
    assert_eq!(proof.content_type.as_deref(), Some("application/json"));
    let proof: Value = serde_json::from_slice(&proof.bytes).unwrap();
    assert_eq!(proof["format"], "rifa-inclusion-v1");
    assert_eq!(proof["root"], root.as_str());
    assert_eq!(proof["numbers"][1]["number"], 46);
    assert_eq!(proof["numbers"][1]["index"], 1);

    assert_eq!(
        record_result(&app, raffle, first, "046").await.status(),
        StatusCode::OK
    );
    let received = wait_for(&server, 7).await;
    let won = received
        .iter()
        .find(|m| m.subject.starts_with("¡Ganaste"))
        .expect("the winner's message");
    assert_eq!(won.to, ["ana@example.com"]);
    let certificate = pdf_of(won);
    assert!(certificate.contains("ACTA DE SORTEO"), "{certificate}");
    assert!(certificate.contains("Gana el número 0046"), "{certificate}");
    assert!(certificate.contains("María G."), "{certificate}");
    assert!(certificate.contains(&root[..32]), "{certificate}");

    let public = app
        .request(
            Method::GET,
            &format!("/api/raffles/{raffle}/prizes/{first}/certificate"),
        )
        .header("Accept-Language", "en")
        .send()
        .await
        .unwrap();
    assert_eq!(public.status(), StatusCode::OK);
    assert_eq!(public.headers()["content-type"], "application/pdf");
    let english = pdf_text(&public.bytes().await.unwrap());
    assert!(
        english.contains("DRAW CERTIFICATE") && english.contains("Number 0046 wins."),
        "{english}"
    );
    let second = first + 1;
    expect_error(
        app.get(&format!(
            "/api/raffles/{raffle}/prizes/{second}/certificate"
        ))
        .await,
        StatusCode::CONFLICT,
        "prize_not_drawn",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_draws_emails_carry_the_proof_and_the_certificate_on_sqlite() {
    the_draws_emails_carry_the_proof_and_the_certificate(TestApp::sqlite_config(), false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_draws_emails_carry_the_proof_and_the_certificate_on_postgres() {
    if let Some(config) = TestApp::postgres_config().await {
        the_draws_emails_carry_the_proof_and_the_certificate(config, true).await;
    }
}
