//! Purchases of numbers the server draws (`randomCount`): drawn among the free ones, never
//! shared, refused with how many are left, and one or the other of the two ways of choosing.

use std::collections::HashSet;
use std::sync::Arc;

use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::helpers::{TestApp, expect_error};
use crate::on_both;

on_both!(
    a_random_purchase_draws_free_numbers_and_answers_them,
    a_random_purchase_past_what_is_left_says_how_many_are_left,
    a_random_count_is_checked_like_a_selection,
    random_buyers_on_two_instances_never_share_a_number,
);

/// The purchase form of `count` numbers the server draws, at `unit` each.
fn random_form(
    app: &TestApp,
    method: i64,
    count: u32,
    unit: u32,
    email: &str,
) -> Vec<(&'static str, String)> {
    let mut form = app.purchase_form(method, &[], &format!("{}.00", count * unit), email);
    form.retain(|(field, _)| *field != "ticketNumbers");
    form.push(("randomCount", count.to_string()));
    form
}

fn numbers(body: &Value) -> Vec<u32> {
    body["ticketNumbers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| u32::try_from(n.as_u64().unwrap()).unwrap())
        .collect()
}

async fn a_random_purchase_draws_free_numbers_and_answers_them(app: TestApp) {
    let raffle = app.raffle("2", 20, (1, 10)).await;
    let method = app.payment_method("Zelle", None).await;
    let chosen = app
        .buy(raffle, method, &[1, 2, 3, 4, 5], 200, "a@example.com")
        .await;
    assert_eq!(chosen.status(), StatusCode::CREATED);

    let response = app
        .post_form(
            &format!("/api/raffles/{raffle}/purchase"),
            random_form(&app, method, 4, 2, "b@example.com"),
            None,
        )
        .await;

    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.unwrap();
    let drawn = numbers(&body);
    assert_eq!(drawn.len(), 4);
    assert!(drawn.windows(2).all(|w| w[0] < w[1]), "{drawn:?}");
    assert!(drawn.iter().all(|n| (6..=20).contains(n)), "{drawn:?}");
    assert_eq!(body["totalAmount"], "8.00");
    assert_eq!(body["purchase"]["status"], "pending");
    let available = app.available(raffle).await;
    assert_eq!(available.len(), 11);
    assert!(drawn.iter().all(|n| !available.contains(n)));
}

async fn a_random_purchase_past_what_is_left_says_how_many_are_left(app: TestApp) {
    let raffle = app.raffle("1", 10, (1, 10)).await;
    let method = app.payment_method("Zelle", None).await;
    let chosen = app
        .buy(
            raffle,
            method,
            &[1, 2, 3, 4, 5, 6, 7, 8],
            100,
            "a@example.com",
        )
        .await;
    assert_eq!(chosen.status(), StatusCode::CREATED);
    let path = format!("/api/raffles/{raffle}/purchase");

    let spanish = expect_error(
        app.post_form(
            &path,
            random_form(&app, method, 3, 1, "b@example.com"),
            None,
        )
        .await,
        StatusCode::CONFLICT,
        "too_few_left",
    )
    .await;
    let english = app
        .request(Method::POST, &path)
        .header("Accept-Language", "en")
        .multipart(
            random_form(&app, method, 3, 1, "b@example.com")
                .into_iter()
                .fold(reqwest::multipart::Form::new(), |f, (k, v)| f.text(k, v)),
        )
        .send()
        .await
        .unwrap();
    let english = expect_error(english, StatusCode::CONFLICT, "too_few_left").await;

    assert_eq!(spanish["available"], 2);
    assert_eq!(
        spanish["message"],
        "Solo quedan 2 números disponibles en este sorteo: pide 2 o menos."
    );
    assert_eq!(
        english["message"],
        "Only 2 numbers are left in this raffle: ask for 2 or fewer."
    );
    assert_eq!(app.available(raffle).await, [9, 10], "nothing was written");
    let last_two = app
        .post_form(
            &path,
            random_form(&app, method, 2, 1, "b@example.com"),
            None,
        )
        .await;
    assert_eq!(last_two.status(), StatusCode::CREATED);
    let body: Value = last_two.json().await.unwrap();
    assert_eq!(numbers(&body), [9, 10]);
    let none_left = app
        .post_form(
            &path,
            random_form(&app, method, 1, 1, "c@example.com"),
            None,
        )
        .await;
    let body = expect_error(none_left, StatusCode::CONFLICT, "too_few_left").await;
    assert_eq!(
        body["message"],
        "Ya no quedan números disponibles en este sorteo."
    );
}

async fn a_random_count_is_checked_like_a_selection(app: TestApp) {
    let raffle = app.raffle("1", 50, (2, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let path = format!("/api/raffles/{raffle}/purchase");
    let cases: [(&str, Option<&str>, &str); 5] = [
        (
            "6",
            None,
            "Límite de Boletos: Solo puedes comprar máximo 5 boletos en esta compra.",
        ),
        (
            "1",
            None,
            "Compra Mínima: Debes seleccionar al menos 2 boleto(s).",
        ),
        ("0", None, "Debes seleccionar al menos 1 boleto"),
        ("tres", None, "Debe ser un número"),
        (
            "2",
            Some("[4, 5]"),
            "Elige tus números o pide números al azar, no las dos cosas",
        ),
    ];
    for (count, chosen, message) in cases {
        let mut form = random_form(&app, method, 2, 1, "x@example.com");
        form.retain(|(field, _)| *field != "randomCount");
        form.push(("randomCount", count.to_owned()));
        if let Some(chosen) = chosen {
            form.push(("ticketNumbers", chosen.to_owned()));
        }
        let body = expect_error(
            app.post_form(&path, form, None).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(
            body["fields"]["randomCount"], message,
            "{count} {chosen:?}: {body}"
        );
    }
    // An empty list beside the count is how a form without numbers says so.
    let mut form = random_form(&app, method, 2, 1, "y@example.com");
    form.push(("ticketNumbers", "[]".to_owned()));
    let response = app.post_form(&path, form, None).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(app.available(raffle).await.len(), 48);
}

const BUYERS: usize = 30;
const NUMBERS: u32 = 60;

/// Two instances, each with its own copy of the availability, drawing for 90 numbers wanted
/// out of 60: the database's index is what keeps every number sold once.
async fn random_buyers_on_two_instances_never_share_a_number(app: TestApp) {
    let raffle = app.raffle("1", NUMBERS, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let other = Arc::new(app.another_instance().await);
    let app = Arc::new(app);
    // Both copies loaded before the race, so each instance draws from what it saw then.
    app.available(raffle).await;
    other.available(raffle).await;

    let tasks: Vec<_> = (0..BUYERS)
        .map(|i| {
            let instance = Arc::clone(if i % 2 == 0 { &app } else { &other });
            tokio::spawn(async move {
                let form = random_form(&instance, method, 3, 1, &format!("buyer{i}@example.com"));
                let response = instance
                    .post_form(&format!("/api/raffles/{raffle}/purchase"), form, None)
                    .await;
                let status = response.status();
                let body: Value = response.json().await.unwrap();
                (status, body)
            })
        })
        .collect();

    let mut sold = HashSet::new();
    let mut successes = 0;
    for task in tasks {
        let (status, body) = task.await.unwrap();
        match status {
            StatusCode::CREATED => {
                successes += 1;
                let drawn = numbers(&body);
                assert_eq!(drawn.len(), 3, "{body}");
                for n in drawn {
                    assert!(sold.insert(n), "number {n} was sold twice");
                }
            }
            StatusCode::CONFLICT => assert!(
                ["too_few_left", "random_draw_contended"].contains(&body["code"].as_str().unwrap()),
                "{body}"
            ),
            other => panic!("unexpected {other}: {body}"),
        }
    }

    assert!(successes >= 1);
    // A third instance's copy is read now from the database: the racers' copies may be a
    // second behind each other's sales.
    let available = app.another_instance().await.available(raffle).await;
    assert_eq!(available.len() + sold.len(), NUMBERS as usize);
    assert!(available.iter().all(|n| !sold.contains(n)));
    let page = app
        .admin_get(&format!(
            "/api/admin/purchases/search?raffleId={raffle}&pageSize=100"
        ))
        .await;
    assert_eq!(page["total"], successes);
}
