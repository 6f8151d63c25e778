//! The streamed CSV export: what it holds, in which order, with which filters, and that no
//! cell of it runs as a spreadsheet formula however the file is opened.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::helpers::{TestApp, expect_error};
use crate::on_both;

on_both!(
    the_export_streams_every_match_newest_first_with_the_search_filters,
    no_cell_of_the_export_runs_as_a_formula_with_either_separator,
    bad_export_filters_are_refused_like_the_searchs,
);

/// ID documents buyers may type (free text on one line) that a spreadsheet would run as
/// formulas, read with either separator.
const HOSTILE_DOCUMENTS: [&str; 5] = [
    "V-1;=1+1;",
    "V-2,=1+1,",
    "V-3;+58 412;-x;@SUM(A1)",
    "V-4; =2*3",
    "\"=1\";=2",
];

/// Buys `number` as `name` with ID document `document`, a buyer of their own; answers the
/// purchase's id.
async fn buy_as(
    app: &TestApp,
    raffle: i64,
    method: i64,
    number: u32,
    name: &str,
    document: Option<&str>,
) -> i64 {
    let email = format!("buyer-{number}@example.com");
    let mut form = app.purchase_form(method, &[number], "10.00", &email);
    for field in &mut form {
        match (field.0, document) {
            ("customerName", _) => field.1 = name.to_owned(),
            ("customerId", Some(document)) => field.1 = document.to_owned(),
            _ => {}
        }
    }
    let response = app
        .post_form(&format!("/api/raffles/{raffle}/purchase"), form, None)
        .await;
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["purchase"]["id"].as_i64().unwrap()
}

/// The export's text for `query`, after checking how it is served.
async fn export(app: &TestApp, query: &str) -> String {
    let response = app
        .as_admin(Method::GET, &format!("/api/admin/purchases/export?{query}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{query}");
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
    };
    assert_eq!(
        header("content-type").as_deref(),
        Some("text/csv; charset=utf-8")
    );
    assert_eq!(
        header("content-disposition").as_deref(),
        Some("attachment; filename=\"compras.csv\"")
    );
    assert_eq!(header("content-length"), None, "streamed, not buffered");
    let text = response.text().await.unwrap();
    text.strip_prefix('\u{FEFF}')
        .expect("a byte-order mark first")
        .to_owned()
}

/// RFC 4180 as a spreadsheet reads it with `separator`: quoted cells may hold anything.
pub(crate) fn parse_csv(text: &str, separator: char) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut cell, mut quoted) = (Vec::new(), Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            c if !quoted && c == separator => row.push(std::mem::take(&mut cell)),
            '\r' if !quoted && chars.peek() == Some(&'\n') => {
                chars.next();
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            c => cell.push(c),
        }
    }
    if !cell.is_empty() || !row.is_empty() {
        row.push(cell);
        rows.push(row);
    }
    rows
}

/// What a spreadsheet would run: `=`, `+`, `-` or `@` first (after spaces), or a tab or CR
/// first, unless the cell is a plain number.
pub(crate) fn runs_as_formula(cell: &str) -> bool {
    let trimmed = cell.trim_start();
    let starts = trimmed.starts_with(['=', '+', '-', '@']) || cell.starts_with(['\t', '\r']);
    let digits = cell.strip_prefix('-').unwrap_or(cell);
    let number = !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        && !digits.starts_with('.')
        && !digits.ends_with('.')
        && digits.matches('.').count() <= 1;
    starts && !number
}

/// The cell as typed: each `'` the guard put before a formula taken out again.
fn without_guards(cell: &str) -> String {
    let mut typed = String::new();
    for (at, c) in cell.char_indices() {
        let guards = c == '\''
            && cell[at + 1..]
                .trim_start_matches(' ')
                .starts_with(['=', '+', '-', '@']);
        if !guards {
            typed.push(c);
        }
    }
    typed
}

async fn the_export_streams_every_match_newest_first_with_the_search_filters(app: TestApp) {
    let raffle = app.raffle("10", 100, (1, 5)).await;
    let other = app.raffle("10", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let first = buy_as(&app, raffle, method, 7, "Carla Pérez", None).await;
    let second = buy_as(&app, raffle, method, 42, "Luis Mora", None).await;
    let elsewhere = buy_as(&app, other, method, 9, "Carla Ruiz", None).await;
    assert_eq!(
        app.decide(first, "approved", None).await.status(),
        StatusCode::OK
    );

    let all = parse_csv(&export(&app, "").await, ',');
    let of_raffle = parse_csv(&export(&app, &format!("raffleId={raffle}")).await, ',');
    let approved = parse_csv(&export(&app, "status=approved").await, ',');
    let carlas = parse_csv(&export(&app, "name=carla").await, ',');
    let holding_42 = parse_csv(&export(&app, "tickets=42").await, ',');
    let nobody = parse_csv(&export(&app, "name=nadie").await, ',');

    let header = &all[0];
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let ids = |rows: &[Vec<String>]| -> Vec<i64> {
        rows[1..].iter().map(|r| r[0].parse().unwrap()).collect()
    };
    assert_eq!(header.len(), 18);
    assert!(all.iter().all(|row| row.len() == 18), "{all:?}");
    assert_eq!(ids(&all), [elsewhere, second, first], "newest first");
    assert_eq!(ids(&of_raffle), [second, first]);
    assert_eq!(ids(&approved), [first]);
    assert_eq!(ids(&carlas), [elsewhere, first]);
    assert_eq!(ids(&holding_42), [second]);
    assert_eq!(nobody.len(), 1, "the header alone");
    assert_eq!(&nobody[0], header);
    let row = &all[3];
    assert_eq!(row[column("status")], "approved");
    assert_eq!(
        row[column("ticketNumbers")],
        "0007",
        "padded as people read it"
    );
    assert_eq!(row[column("ticketCount")], "1");
    assert_eq!(row[column("totalAmount")], "10.00");
    assert_eq!(row[column("customerName")], "Carla Pérez");
    assert_eq!(row[column("customerEmail")], "buyer-7@example.com");
    assert!(!row[column("decidedAt")].is_empty());
}

async fn no_cell_of_the_export_runs_as_a_formula_with_either_separator(app: TestApp) {
    let raffle = app.raffle("10", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let mut bought = Vec::new();
    for (number, document) in (1..).zip(HOSTILE_DOCUMENTS) {
        // A name may start with a dash, and hold commas.
        let name = "-Ana, -Luis";
        bought.push(buy_as(&app, raffle, method, number, name, Some(document)).await);
    }
    // An admin's note may hold line breaks: a reader that ignores quotes splits there.
    let rejected = app
        .decide(bought[0], "rejected", Some("pagó\r\n=HYPERLINK(\"x\")\n@a"))
        .await;
    assert_eq!(rejected.status(), StatusCode::OK);

    let text = export(&app, "").await;

    for separator in [',', ';'] {
        let formulas: Vec<String> = parse_csv(&text, separator)
            .into_iter()
            .flatten()
            .filter(|cell| runs_as_formula(cell))
            .collect();
        assert_eq!(formulas, Vec::<String>::new(), "read with {separator:?}");
    }
    let naive: Vec<&str> = text
        .split([',', ';', '\r', '\n'])
        .map(|cell| cell.strip_prefix('"').unwrap_or(cell))
        .filter(|cell| runs_as_formula(cell))
        .collect();
    assert_eq!(naive, Vec::<&str>::new(), "split at every separator");
    // Read with commas, every value is whole in its column, the guard its only change.
    let rows = parse_csv(&text, ',');
    let column = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    let typed = |name: &str| -> Vec<String> {
        rows[1..]
            .iter()
            .map(|r| without_guards(&r[column(name)]))
            .collect()
    };
    let mut documents: Vec<&str> = HOSTILE_DOCUMENTS.to_vec();
    documents.reverse();
    assert_eq!(typed("customerId"), documents);
    assert!(typed("customerName").iter().all(|n| n == "-Ana, -Luis"));
    assert_eq!(
        typed("adminNotes").last().unwrap(),
        "pagó\r\n=HYPERLINK(\"x\")\n@a"
    );
}

async fn bad_export_filters_are_refused_like_the_searchs(app: TestApp) {
    let bad_status = app
        .as_admin(Method::GET, "/api/admin/purchases/export?status=paid")
        .send()
        .await
        .unwrap();
    expect_error(
        bad_status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    let paged = app
        .as_admin(Method::GET, "/api/admin/purchases/export?page=2")
        .send()
        .await
        .unwrap();
    expect_error(paged, StatusCode::BAD_REQUEST, "bad_request").await;
    let anonymous = app.get("/api/admin/purchases/export").await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
}
