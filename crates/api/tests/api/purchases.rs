//! Buying tickets: the server prices, holds and refuses.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{TestApp, expect_error};
use crate::on_both;

on_both!(
    a_purchase_holds_its_numbers_and_answers_a_receipt,
    a_number_held_by_someone_else_is_named_in_a_409,
    a_client_total_that_differs_from_the_server_price_writes_nothing,
    a_rejection_releases_the_numbers_for_the_next_buyer,
    limits_and_ranges_are_enforced_by_the_server,
    every_purchase_field_reports_the_spec_message,
    a_raffle_not_on_sale_cannot_be_bought_by_the_public,
    an_admin_test_purchase_holds_nothing_and_says_so,
    the_converted_total_uses_the_method_rate,
);

async fn a_purchase_holds_its_numbers_and_answers_a_receipt(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;

    let response = app
        .buy(raffle, method, &[42, 7], 1300, "Ana@Example.com")
        .await;

    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["testMode"], false);
    assert_eq!(body["ticketNumbers"], json!([7, 42]));
    assert_eq!(body["totalAmount"], "26.00");
    assert_eq!(body["quote"]["basePrice"], "13.00");
    assert_eq!(body["quote"]["ticketCount"], 2);
    let purchase = &body["purchase"];
    assert_eq!(purchase["status"], "pending");
    assert_eq!(purchase["customerEmail"], "ana@example.com");
    assert_eq!(purchase["ticketLabels"], json!(["0007", "0042"]));
    assert_eq!(purchase["paymentMethod"], "Zelle");
    assert!(purchase["reference"].as_str().unwrap().starts_with("RF-"));
    assert!(
        purchase.get("customerId").is_none(),
        "the receipt does not echo the ID document"
    );

    let available = app.available(raffle).await;
    assert_eq!(available.len(), 98);
    assert!(!available.contains(&7) && !available.contains(&42));
    let raffle_json = app.get_json(&format!("/api/raffles/{raffle}")).await;
    assert_eq!(raffle_json["ticketsSold"], 2);
    assert_eq!(raffle_json["ticketsAvailable"], 98);
    let tickets = app
        .get_json(&format!("/api/raffles/{raffle}/tickets"))
        .await;
    assert_eq!(tickets.as_array().unwrap().len(), 98);
    assert_eq!(
        tickets[0],
        json!({"id": 1, "ticketNumber": 1, "status": "available"})
    );
}

async fn a_number_held_by_someone_else_is_named_in_a_409(app: TestApp) {
    let raffle = app.raffle("5", 50, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    assert_eq!(
        app.buy(raffle, method, &[3, 4], 500, "first@example.com")
            .await
            .status(),
        StatusCode::CREATED
    );

    let response = app
        .buy(raffle, method, &[2, 3, 4], 500, "second@example.com")
        .await;

    let body = expect_error(response, StatusCode::CONFLICT, "tickets_taken").await;
    assert_eq!(body["numbers"], json!([3, 4]));
    assert!(
        body["message"].as_str().unwrap().contains("0003, 0004"),
        "numbers are named as the buyer sees them: {body}"
    );
    assert!(
        app.available(raffle).await.contains(&2),
        "the losing purchase held nothing"
    );
    let page = app
        .admin_get(&format!("/api/admin/purchases/search?raffleId={raffle}"))
        .await;
    assert_eq!(page["total"], 1, "and wrote nothing");
}

async fn a_client_total_that_differs_from_the_server_price_writes_nothing(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let form = app.purchase_form(method, &[1, 2], "1.00", "cheap@example.com");

    let response = app
        .post_form(&format!("/api/raffles/{raffle}/purchase"), form, None)
        .await;

    let body = expect_error(response, StatusCode::CONFLICT, "total_mismatch").await;
    assert_eq!(body["expectedTotal"], "26.00");
    assert_eq!(app.available(raffle).await.len(), 100);
    let mut discounted = app.purchase_form(method, &[1, 2], "26.00", "cheap@example.com");
    discounted.retain(|(k, _)| *k != "discountApplied");
    discounted.push(("discountApplied", "5.00".into()));
    let response = app
        .post_form(&format!("/api/raffles/{raffle}/purchase"), discounted, None)
        .await;
    expect_error(response, StatusCode::CONFLICT, "total_mismatch").await;
}

async fn a_rejection_releases_the_numbers_for_the_next_buyer(app: TestApp) {
    let raffle = app.raffle("10", 20, (1, 3)).await;
    let method = app.payment_method("Zelle", None).await;
    let first: Value = app
        .buy(raffle, method, &[5, 6], 1000, "a@example.com")
        .await
        .json()
        .await
        .unwrap();
    let id = first["purchase"]["id"].as_i64().unwrap();

    let blank = app.decide(id, "rejected", Some("   ")).await;
    let body = expect_error(blank, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;
    assert_eq!(
        body["fields"]["adminNotes"],
        "Debes indicar el motivo del rechazo en las notas"
    );
    let rejected = app
        .decide(id, "rejected", Some("Comprobante ilegible"))
        .await;
    assert_eq!(rejected.status(), StatusCode::OK);
    let rejected: Value = rejected.json().await.unwrap();
    assert_eq!(rejected["status"], "rejected");
    assert_eq!(rejected["adminNotes"], "Comprobante ilegible");

    assert_eq!(app.available(raffle).await.len(), 20);
    assert_eq!(
        app.buy(raffle, method, &[5, 6], 1000, "b@example.com")
            .await
            .status(),
        StatusCode::CREATED
    );
    let again = app.decide(id, "approved", None).await;
    let body = expect_error(again, StatusCode::CONFLICT, "purchase_not_pending").await;
    assert!(body["message"].as_str().unwrap().contains("rechazada"));
}

async fn limits_and_ranges_are_enforced_by_the_server(app: TestApp) {
    let raffle = app.raffle("1", 10, (2, 3)).await;
    let method = app.payment_method("Zelle", None).await;
    let cases: [(&[u32], &str); 4] = [
        (
            &[1],
            "Compra Mínima: Debes seleccionar al menos 2 boleto(s).",
        ),
        (
            &[1, 2, 3, 4],
            "Límite de Boletos: Solo puedes comprar máximo 3 boletos en esta compra.",
        ),
        (&[1, 11], "El boleto 11 no existe en este sorteo (1 a 10)"),
        (&[0, 1], "El boleto 0 no existe en este sorteo (1 a 10)"),
    ];
    for (numbers, message) in cases {
        let response = app.buy(raffle, method, numbers, 100, "x@example.com").await;
        let body = expect_error(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(body["fields"]["ticketNumbers"], message, "{numbers:?}");
    }
    let repeated = app.purchase_form(method, &[4, 4], "2.00", "x@example.com");
    let body = expect_error(
        app.post_form(&format!("/api/raffles/{raffle}/purchase"), repeated, None)
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(body["fields"]["ticketNumbers"], "El boleto 4 está repetido");
    assert_eq!(app.available(raffle).await.len(), 10);
}

async fn every_purchase_field_reports_the_spec_message(app: TestApp) {
    let raffle = app.raffle("1", 10, (1, 3)).await;
    let method = app.payment_method("Zelle", None).await;
    let form = vec![
        ("customerName", "A".to_owned()),
        ("customerId", "123".to_owned()),
        ("customerEmail", "no-es-un-email".to_owned()),
        ("customerPhone", "12345".to_owned()),
        ("customerCountry", String::new()),
        ("paymentMethod", String::new()),
        ("ticketNumbers", "[1]".to_owned()),
        ("totalAmount", "1.00".to_owned()),
        ("acceptTerms", "false".to_owned()),
    ];
    let path = format!("/api/raffles/{raffle}/purchase");

    let spanish = expect_error(
        app.post_form(&path, form.clone(), None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    let english = app
        .request(Method::POST, &path)
        .header("Accept-Language", "en-US,en;q=0.9")
        .multipart(
            form.into_iter()
                .fold(reqwest::multipart::Form::new(), |f, (k, v)| f.text(k, v)),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(english.headers()["content-language"], "en");
    let english = expect_error(
        english,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;

    let expected = [
        (
            "customerName",
            "Nombre debe tener al menos 2 caracteres",
            "Name must be at least 2 characters",
        ),
        (
            "customerId",
            "Debe tener al menos 5 caracteres",
            "Must be at least 5 characters",
        ),
        ("customerEmail", "Email inválido", "Invalid email"),
        (
            "customerPhone",
            "El teléfono debe tener al menos 10 dígitos",
            "Phone number must have at least 10 digits",
        ),
        (
            "customerCountry",
            "Este campo es obligatorio",
            "This field is required",
        ),
        (
            "paymentMethod",
            "Método de pago requerido",
            "Payment method is required",
        ),
        (
            "acceptTerms",
            "Debes aceptar los términos",
            "You must accept the terms",
        ),
    ];
    for (field, es, en) in expected {
        assert_eq!(spanish["fields"][field], es, "{field}");
        assert_eq!(english["fields"][field], en, "{field}");
    }
    assert_eq!(spanish["message"], "Revisa los campos marcados");
    assert_eq!(english["message"], "Please check the highlighted fields");
    let _ = method;
}

async fn a_raffle_not_on_sale_cannot_be_bought_by_the_public(app: TestApp) {
    let raffle = app.raffle("1", 10, (1, 3)).await;
    let method = app.payment_method("Zelle", None).await;
    let update = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/raffles/{raffle}"),
            &json!({"title": "Rifa", "description": "Premio", "price": 1, "maxTickets": 10, "status": "finished"}),
        )
        .await;
    assert_eq!(update.status(), StatusCode::OK);

    let body = expect_error(
        app.buy(raffle, method, &[1], 100, "x@example.com").await,
        StatusCode::CONFLICT,
        "raffle_not_on_sale",
    )
    .await;
    assert_eq!(
        body["message"],
        "Sorteo No Disponible - Este sorteo ha finalizado o no está disponible en este momento."
    );
    assert_eq!(
        app.get_json(&format!("/api/raffles/{raffle}")).await["status"],
        "finished"
    );
    assert!(
        app.get_json("/api/raffles")
            .await
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["id"] != raffle)
    );
}

async fn an_admin_test_purchase_holds_nothing_and_says_so(app: TestApp) {
    let raffle = app.raffle("2.50", 10, (1, 3)).await;
    let method = app.payment_method("Zelle", None).await;
    let form = app.purchase_form(method, &[1, 2], "5.00", "admin-test@example.com");

    let anonymous = app
        .post_form(
            &format!("/api/admin/raffles/{raffle}/purchase"),
            form.clone(),
            None,
        )
        .await;
    expect_error(anonymous, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let response = app
        .post_form(
            &format!("/api/admin/raffles/{raffle}/purchase"),
            form,
            Some(&app.admin_token),
        )
        .await;

    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["testMode"], true);
    assert_eq!(body["purchase"]["status"], "test");
    assert_eq!(app.available(raffle).await.len(), 10);
    let stats = app.admin_get("/api/admin/stats").await;
    assert_eq!(stats["pendingPurchases"], 0);
    assert_eq!(
        app.buy(raffle, method, &[1, 2], 250, "real@example.com")
            .await
            .status(),
        StatusCode::CREATED
    );
}

async fn the_converted_total_uses_the_method_rate(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Pago Móvil", Some("36.5012")).await;

    let body: Value = app
        .buy(raffle, method, &[1, 2], 1300, "ves@example.com")
        .await
        .json()
        .await
        .unwrap();

    assert_eq!(
        body["purchase"]["convertedTotal"],
        json!({"currency": "VES", "rate": "36.5012", "amount": "949.03"})
    );
}
