//! Settings and system calls: branding, payment methods, exchange rates, e-mail, discounts,
//! dev mode, health and the API document.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use reqwest::{Method, Response, StatusCode};
use serde_json::{Value, json};

use futures_util::future::join_all;

use crate::helpers::{TestApp, count_rows, expect_error};
use crate::on_both;

on_both!(
    the_branding_starts_with_the_spec_defaults,
    a_branding_update_changes_only_the_fields_sent,
    a_bad_branding_value_is_refused_and_changes_nothing,
    branding_saves_of_different_fields_at_once_all_keep_theirs,
    the_sites_contact_links_and_figures_are_saved_and_served_publicly,
    payment_methods_are_created_listed_updated_and_deleted,
    bank_and_crypto_methods_need_their_details_and_types_come_from_the_list,
    a_payment_method_cannot_point_to_an_unknown_exchange_rate,
    exchange_rates_are_created_listed_updated_and_deleted,
    bad_exchange_rates_are_refused_with_the_field_named,
    a_second_rate_for_a_pair_is_refused_naming_the_existing_one,
    a_rate_cannot_be_moved_onto_a_pair_that_has_one,
    of_two_racing_creates_of_a_pair_exactly_one_is_stored,
    methods_using_a_deleted_rate_are_left_without_one,
    email_settings_start_with_port_587_and_no_password,
    the_panel_is_told_while_the_sender_is_a_placeholder,
    the_email_password_is_write_only_and_kept_when_not_resent,
    the_stored_email_password_is_deleted_only_on_request_of_a_privileged_admin,
    bad_email_settings_are_refused_and_change_nothing,
    discounts_start_empty_and_a_tier_changes_quotes_and_purchases,
    bad_discount_tiers_are_refused,
    dev_mode_is_off_by_default,
    health_and_readiness_answer_ok,
    the_openapi_document_describes_the_api,
    every_documented_operation_is_served_and_only_those_at_its_path,
);

async fn json_of(response: Response, status: StatusCode) -> Value {
    let actual = response.status();
    let text = response.text().await.unwrap();
    assert_eq!(actual, status, "{text}");
    serde_json::from_str(&text).unwrap()
}

async fn validation(response: Response) -> Value {
    expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await
}

async fn create_method(app: &TestApp, body: &Value) -> Response {
    app.admin_send(Method::POST, "/api/admin/payment-methods", body)
        .await
}

async fn create_rate(app: &TestApp, body: &Value) -> Response {
    app.admin_send(Method::POST, "/api/admin/exchange-rates", body)
        .await
}

const DEFAULT_COLOURS: [(&str, &str); 5] = [
    ("primaryColor", "240 9% 3.9%"),
    ("secondaryColor", "240 4.8% 95.9%"),
    ("accentColor", "240 4.8% 95.9%"),
    ("dangerColor", "0 84.2% 60.2%"),
    ("successColor", "142 76% 36%"),
];

async fn the_branding_starts_with_the_spec_defaults(app: TestApp) {
    let branding = app.get_json("/api/branding").await;

    for (field, colour) in DEFAULT_COLOURS {
        assert_eq!(branding[field], colour, "{field}");
    }
    assert!(
        branding["companyName"]
            .as_str()
            .is_some_and(|n| !n.is_empty())
    );
    assert!(branding["description"].is_string());
    assert_eq!(branding["logoUrl"], "");
}

async fn a_branding_update_changes_only_the_fields_sent(app: TestApp) {
    let response = app
        .admin_send(
            Method::POST,
            "/api/admin/branding",
            &json!({"primaryColor": " 10  50%   50% ", "companyName": " Rifas Ve ", "description": "Sorteos en Caracas"}),
        )
        .await;

    let saved = json_of(response, StatusCode::OK).await;
    assert_eq!(saved["primaryColor"], "10 50% 50%");
    assert_eq!(saved["companyName"], "Rifas Ve");
    assert_eq!(saved["description"], "Sorteos en Caracas");
    assert_eq!(saved["secondaryColor"], "240 4.8% 95.9%");
    assert_eq!(saved["successColor"], "142 76% 36%");
    let public = app.get_json("/api/branding").await;
    assert_eq!(public, saved);
    let logo = app
        .admin_send(
            Method::POST,
            "/api/admin/branding",
            &json!({"logoUrl": "https://cdn.example.com/logo.png", "successColor": "120 50.5% 40%"}),
        )
        .await;
    let after = json_of(logo, StatusCode::OK).await;
    assert_eq!(after["logoUrl"], "https://cdn.example.com/logo.png");
    assert_eq!(after["successColor"], "120 50.5% 40%");
    assert_eq!(
        after["primaryColor"], "10 50% 50%",
        "kept from the first update"
    );
    assert_eq!(after["companyName"], "Rifas Ve");
    let cleared = app
        .admin_send(
            Method::POST,
            "/api/admin/branding",
            &json!({"logoUrl": " "}),
        )
        .await;
    assert_eq!(json_of(cleared, StatusCode::OK).await["logoUrl"], "");
}

async fn branding_saves_of_different_fields_at_once_all_keep_theirs(app: TestApp) {
    let app = &app;
    let fields = ["companyName", "description", "contactEmail", "prizes"];
    for round in 0..5 {
        let value = |field: &str| match field {
            "contactEmail" => format!("ronda{round}@rifas.example"),
            _ => format!("{field} ronda {round}"),
        };
        let saves = fields.map(|field| {
            let body = json!({ field: value(field) });
            async move {
                app.admin_send(Method::POST, "/api/admin/branding", &body)
                    .await
            }
        });
        for response in join_all(saves).await {
            assert_eq!(response.status(), StatusCode::OK);
        }

        let branding = app.get_json("/api/branding").await;
        for field in fields {
            assert_eq!(branding[field], value(field), "round {round}: {field}");
        }
    }
    let entries = count_rows(
        app,
        "SELECT COUNT(*) AS n FROM audit_log WHERE action = 'settings.branding_updated'",
    )
    .await;
    assert_eq!(entries, 20, "one entry per save");
}

async fn the_sites_contact_links_and_figures_are_saved_and_served_publicly(app: TestApp) {
    let defaults = app.get_json("/api/branding").await;
    assert_eq!(defaults["contactEmail"], "soporte@rifa.app");
    assert_eq!(defaults["participants"], 50_000);

    let response = app
        .admin_send(
            Method::POST,
            "/api/admin/branding",
            &json!({
                "contactEmail": " ayuda@rifasve.com ",
                "contactPhone": "+58 414 000 1122",
                "whatsappUrl": "https://wa.me/584140001122",
                "instagramUrl": "",
                "lotteryResultsUrl": "https://resultados.example.com/hoy",
                "videoUrls": ["https://www.youtube-nocookie.com/embed/abc", ""],
                "participants": 1200,
                "prizes": "$5K+",
                "rafflesPageWinners": 12
            }),
        )
        .await;

    let saved = json_of(response, StatusCode::OK).await;
    assert_eq!(saved["contactEmail"], "ayuda@rifasve.com");
    assert_eq!(saved["contactPhone"], "+58 414 000 1122");
    assert_eq!(saved["whatsappUrl"], "https://wa.me/584140001122");
    assert_eq!(saved["instagramUrl"], "", "a blank link hides it");
    assert_eq!(
        saved["lotteryResultsUrl"],
        "https://resultados.example.com/hoy"
    );
    assert_eq!(
        saved["videoUrls"],
        json!(["https://www.youtube-nocookie.com/embed/abc", ""])
    );
    assert_eq!(saved["participants"], 1200);
    assert_eq!(saved["prizes"], "$5K+");
    assert_eq!(saved["rafflesPageWinners"], 12);
    assert_eq!(
        saved["facebookUrl"], defaults["facebookUrl"],
        "fields not sent keep their value"
    );
    assert_eq!(app.get_json("/api/branding").await, saved);

    let refused = app
        .admin_send(
            Method::POST,
            "/api/admin/branding",
            &json!({"tiktokUrl": "javascript:alert(1)", "participants": -1}),
        )
        .await;
    let body = json_of(refused, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert!(body["fields"]["tiktokUrl"].is_string(), "{body}");
    assert!(body["fields"]["participants"].is_string(), "{body}");
    assert_eq!(
        app.get_json("/api/branding").await,
        saved,
        "nothing changed"
    );
}

async fn a_bad_branding_value_is_refused_and_changes_nothing(app: TestApp) {
    let hsl = "Color no válido; usa el formato HSL \"240 9% 3.9%\"";
    let cases = [
        (json!({"primaryColor": "red"}), "primaryColor", hsl),
        (json!({"primaryColor": ""}), "primaryColor", hsl),
        (
            json!({"secondaryColor": "361 9% 3%"}),
            "secondaryColor",
            hsl,
        ),
        (json!({"accentColor": "240 101% 3%"}), "accentColor", hsl),
        (
            json!({"dangerColor": "hsl(240, 9%, 3%)"}),
            "dangerColor",
            hsl,
        ),
        (json!({"successColor": "-1 9% 3%"}), "successColor", hsl),
        (
            json!({"companyName": "   "}),
            "companyName",
            "Este campo es obligatorio",
        ),
        (
            json!({"description": "x".repeat(501)}),
            "description",
            "Debe tener como máximo 500 caracteres",
        ),
        (
            json!({"logoUrl": "javascript:alert(1)"}),
            "logoUrl",
            "URL no válida",
        ),
    ];

    for (body, field, message) in cases {
        let response = app
            .admin_send(Method::POST, "/api/admin/branding", &body)
            .await;

        let error = validation(response).await;
        assert_eq!(error["fields"][field], message, "{body}");
    }
    let mixed = app
        .admin_send(
            Method::POST,
            "/api/admin/branding",
            &json!({"primaryColor": "10 50% 50%", "dangerColor": "red"}),
        )
        .await;
    let error = validation(mixed).await;
    assert_eq!(error["fields"]["dangerColor"], hsl);
    let branding = app.get_json("/api/branding").await;
    for (field, colour) in DEFAULT_COLOURS {
        assert_eq!(branding[field], colour, "{field} unchanged");
    }
}

async fn payment_methods_are_created_listed_updated_and_deleted(app: TestApp) {
    let created = create_method(
        &app,
        &json!({"name": " Pago Móvil ", "type": "Digital", "details": {"zeta": "1", "alfa": 2, "medio": " tres ", "vacio": ""}, "exchangeRateId": null}),
    )
    .await;

    let method = json_of(created, StatusCode::CREATED).await;
    let id = method["id"].as_i64().unwrap();
    assert_eq!(method["name"], "Pago Móvil");
    assert_eq!(method["type"], "digital");
    assert_eq!(method["active"], true, "created active");
    let keys: Vec<&String> = method["details"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["zeta", "alfa", "medio"],
        "order kept, blanks dropped"
    );
    assert_eq!(method["details"]["alfa"], "2");
    assert_eq!(method["details"]["medio"], "tres");
    assert_eq!(method["exchangeRateId"], Value::Null);
    assert_eq!(method["exchangeRate"], Value::Null);
    let listed = app.admin_get("/api/admin/payment-methods").await;
    assert_eq!(listed, json!([method.clone()]));
    assert_eq!(app.get_json("/api/payment-methods").await, listed);

    let updated = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/payment-methods/{id}"),
            &json!({"name": "Pago Móvil BDV", "type": "mobile_payment", "details": {"telefono": "0414-5550101", "banco": "BDV"}, "active": false}),
        )
        .await;
    let updated = json_of(updated, StatusCode::OK).await;
    assert_eq!(updated["id"], id);
    assert_eq!(updated["name"], "Pago Móvil BDV");
    assert_eq!(updated["type"], "mobile_payment");
    assert_eq!(updated["active"], false);
    assert_eq!(
        updated["details"],
        json!({"telefono": "0414-5550101", "banco": "BDV"})
    );
    assert_eq!(
        app.admin_get("/api/admin/payment-methods").await[0],
        updated
    );
    assert_eq!(app.get_json("/api/payment-methods").await, json!([]));

    let path = format!("/api/admin/payment-methods/{id}");
    let deleted = app.as_admin(Method::DELETE, &path).send().await.unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_eq!(app.admin_get("/api/admin/payment-methods").await, json!([]));
    let again = app.as_admin(Method::DELETE, &path).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_FOUND);
    let missing = app
        .admin_send(
            Method::PUT,
            &path,
            &json!({"name": "X", "type": "digital", "details": {}}),
        )
        .await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let body: Value = missing.json().await.unwrap();
    assert_eq!(body["code"], "not_found");
}

async fn bank_and_crypto_methods_need_their_details_and_types_come_from_the_list(app: TestApp) {
    let bank = |details: Value| json!({"name": "Banesco", "type": "bank", "details": details});
    let crypto = |details: Value| json!({"name": "USDT", "type": "crypto", "details": details});
    let required = "Este campo es obligatorio";
    let cases = [
        (
            bank(json!({"bankName": "Banesco", "accountNumber": "0134"})),
            "details",
            required.to_owned(),
        ),
        (
            bank(json!({"bankName": "Banesco", "accountType": "ahorro"})),
            "details",
            required.to_owned(),
        ),
        (
            bank(json!({"accountNumber": "0134", "accountType": "ahorro"})),
            "details",
            required.to_owned(),
        ),
        (
            bank(json!({"bankName": "Banesco", "accountNumber": "0134", "accountType": "plazo"})),
            "details",
            "Valor no válido; opciones: corriente, ahorro".to_owned(),
        ),
        (crypto(json!({"walletAddress": "TXk9"})), "details", required.to_owned()),
        (crypto(json!({"network": "tron"})), "details", required.to_owned()),
        (
            crypto(json!({"walletAddress": "TXk9", "network": "solana"})),
            "details",
            "Valor no válido; opciones: bitcoin, ethereum, bsc, tron, polygon".to_owned(),
        ),
        (
            json!({"name": "   ", "type": "digital"}),
            "name",
            required.to_owned(),
        ),
        (json!({"name": "Caja", "details": {}}), "type", required.to_owned()),
        (
            json!({"name": "Caja", "type": "cash"}),
            "type",
            "Valor no válido; opciones: digital, zelle, binance, crypto, bank, bank_transfer, transfer, mobile_payment, mobile".to_owned(),
        ),
        (
            json!({"name": "x".repeat(101), "type": "digital"}),
            "name",
            "Debe tener como máximo 100 caracteres".to_owned(),
        ),
    ];

    for (body, field, message) in cases {
        let error = validation(create_method(&app, &body).await).await;
        assert_eq!(error["fields"][field], message.as_str(), "{body}");
    }
    let good_bank = create_method(
        &app,
        &bank(json!({"bankName": "Banesco", "accountNumber": "0134-0000-00", "accountType": "corriente"})),
    )
    .await;
    let good_bank = json_of(good_bank, StatusCode::CREATED).await;
    assert_eq!(good_bank["details"]["accountType"], "corriente");
    let good_crypto = create_method(
        &app,
        &crypto(json!({"walletAddress": "TXk9abc", "network": "tron"})),
    )
    .await;
    assert_eq!(good_crypto.status(), StatusCode::CREATED);
    for kind in [
        "zelle",
        "binance",
        "bank_transfer",
        "transfer",
        "mobile_payment",
        "mobile",
    ] {
        let response = create_method(
            &app,
            &json!({"name": kind, "type": kind, "details": {"cuenta": "x"}}),
        )
        .await;
        assert_eq!(response.status(), StatusCode::CREATED, "{kind}");
    }
    assert_eq!(
        app.admin_get("/api/admin/payment-methods")
            .await
            .as_array()
            .unwrap()
            .len(),
        8,
        "refused methods were not stored"
    );
}

async fn a_payment_method_cannot_point_to_an_unknown_exchange_rate(app: TestApp) {
    let body = json!({"name": "Pago Móvil", "type": "digital", "details": {"telefono": "0414"}, "exchangeRateId": 999_999});

    let created = create_method(&app, &body).await;

    let error = validation(created).await;
    assert!(error["fields"]["exchangeRateId"].is_string(), "{error}");
    assert_eq!(app.admin_get("/api/admin/payment-methods").await, json!([]));
    let method = app.payment_method("Zelle", None).await;
    let updated = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/payment-methods/{method}"),
            &body,
        )
        .await;
    let error = validation(updated).await;
    assert!(error["fields"]["exchangeRateId"].is_string(), "{error}");
    let rate = json_of(
        create_rate(&app, &json!({"rate": "36.5"})).await,
        StatusCode::CREATED,
    )
    .await;
    let mut linked = body.clone();
    linked["exchangeRateId"] = rate["id"].clone();
    let linked = json_of(create_method(&app, &linked).await, StatusCode::CREATED).await;
    assert_eq!(linked["exchangeRateId"], rate["id"]);
    assert_eq!(
        linked["exchangeRate"],
        json!({"id": rate["id"], "fromCurrency": "USD", "toCurrency": "VES", "rate": "36.5"})
    );
}

async fn exchange_rates_are_created_listed_updated_and_deleted(app: TestApp) {
    let default = json_of(
        create_rate(&app, &json!({"rate": 36.5})).await,
        StatusCode::CREATED,
    )
    .await;
    let euro = json_of(
        create_rate(
            &app,
            &json!({"fromCurrency": " eur ", "toCurrency": "cop", "rate": "4300.25"}),
        )
        .await,
        StatusCode::CREATED,
    )
    .await;

    assert_eq!(default["fromCurrency"], "USD");
    assert_eq!(default["toCurrency"], "VES");
    assert_eq!(default["rate"], "36.5");
    assert!(
        default["updatedAt"]
            .as_str()
            .unwrap()
            .parse::<chrono::DateTime<chrono::Utc>>()
            .is_ok()
    );
    assert_eq!(euro["fromCurrency"], "EUR");
    assert_eq!(euro["toCurrency"], "COP");
    assert_eq!(euro["rate"], "4300.25");
    let listed = app.admin_get("/api/admin/exchange-rates").await;
    assert_eq!(listed.as_array().unwrap().len(), 2);
    assert!(listed.as_array().unwrap().contains(&default));
    assert!(listed.as_array().unwrap().contains(&euro));

    let path = format!("/api/admin/exchange-rates/{}", default["id"]);
    let updated = app
        .admin_send(
            Method::PUT,
            &path,
            &json!({"fromCurrency": "USD", "toCurrency": "VES", "rate": "40.12345678"}),
        )
        .await;
    let updated = json_of(updated, StatusCode::OK).await;
    assert_eq!(updated["id"], default["id"]);
    assert_eq!(updated["rate"], "40.12345678");
    let missing = app
        .admin_send(
            Method::PUT,
            "/api/admin/exchange-rates/999999",
            &json!({"rate": 1}),
        )
        .await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);

    let deleted = app.as_admin(Method::DELETE, &path).send().await.unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        app.admin_get("/api/admin/exchange-rates").await,
        json!([euro])
    );
    let again = app.as_admin(Method::DELETE, &path).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_FOUND);
}

async fn bad_exchange_rates_are_refused_with_the_field_named(app: TestApp) {
    let rate_range = "Debe estar entre 0.00000001 y 999999999999";
    let currencies = "Valor no válido; opciones: USD, EUR, VES, COP";
    let cases = [
        (
            json!({"fromCurrency": "USD", "toCurrency": "USD", "rate": 1}),
            "toCurrency",
            "Las monedas de origen y destino deben ser distintas",
        ),
        (
            json!({"fromCurrency": "VES", "rate": 1}),
            "toCurrency",
            "Las monedas de origen y destino deben ser distintas",
        ),
        (json!({"rate": 0}), "rate", rate_range),
        (json!({"rate": "0.000"}), "rate", rate_range),
        (json!({"rate": -36.5}), "rate", rate_range),
        (json!({"rate": "1000000000000"}), "rate", rate_range),
        (json!({}), "rate", "Este campo es obligatorio"),
        (json!({"rate": null}), "rate", "Este campo es obligatorio"),
        (
            json!({"rate": "1.123456789"}),
            "rate",
            "Como máximo 8 decimales",
        ),
        (
            json!({"fromCurrency": "BTC", "rate": 1}),
            "fromCurrency",
            currencies,
        ),
        (
            json!({"toCurrency": "", "rate": 1}),
            "toCurrency",
            currencies,
        ),
    ];

    for (body, field, message) in cases {
        let error = validation(create_rate(&app, &body).await).await;
        assert_eq!(error["fields"][field], message, "{body}");
    }
    let as_string = create_rate(&app, &json!({"rate": "36.5"})).await;
    let as_string = json_of(as_string, StatusCode::CREATED).await;
    assert_eq!(as_string["rate"], "36.5");
    let path = format!("/api/admin/exchange-rates/{}", as_string["id"]);
    let bad_update = app
        .admin_send(Method::PUT, &path, &json!({"rate": 0}))
        .await;
    let error = validation(bad_update).await;
    assert_eq!(error["fields"]["rate"], rate_range);
    let text = create_rate(&app, &json!({"rate": "abc"})).await;
    expect_error(text, StatusCode::BAD_REQUEST, "bad_request").await;
    assert_eq!(
        app.admin_get("/api/admin/exchange-rates").await,
        json!([as_string]),
        "only the good rate was stored, unchanged"
    );
}

async fn a_second_rate_for_a_pair_is_refused_naming_the_existing_one(app: TestApp) {
    let first = json_of(
        create_rate(
            &app,
            &json!({"fromCurrency": "USD", "toCurrency": "COP", "rate": "4000.5"}),
        )
        .await,
        StatusCode::CREATED,
    )
    .await;
    let id = &first["id"];

    let second = create_rate(
        &app,
        &json!({"fromCurrency": "usd", "toCurrency": "COP", "rate": "4100"}),
    )
    .await;

    let error = expect_error(second, StatusCode::CONFLICT, "exchange_rate_pair_taken").await;
    assert_eq!(
        error["message"],
        format!(
            "Ya existe la tasa USD → COP (n.º {id}: 1 USD = 4000.5 COP). \
             Cada par de monedas tiene una sola tasa: edita esa."
        )
    );
    let english = app
        .as_admin(Method::POST, "/api/admin/exchange-rates")
        .header("Accept-Language", "en")
        .json(&json!({"fromCurrency": "USD", "toCurrency": "COP", "rate": "4100"}))
        .send()
        .await
        .unwrap();
    let error = expect_error(english, StatusCode::CONFLICT, "exchange_rate_pair_taken").await;
    assert_eq!(
        error["message"],
        format!(
            "A USD → COP rate already exists (no. {id}: 1 USD = 4000.5 COP). \
             Each currency pair has one rate: edit that one."
        )
    );
    assert_eq!(
        app.admin_get("/api/admin/exchange-rates").await,
        json!([first])
    );
    // The reverse pair is another pair.
    let reverse = create_rate(
        &app,
        &json!({"fromCurrency": "COP", "toCurrency": "USD", "rate": "0.00025"}),
    )
    .await;
    assert_eq!(reverse.status(), StatusCode::CREATED);
}

async fn a_rate_cannot_be_moved_onto_a_pair_that_has_one(app: TestApp) {
    let ves = json_of(
        create_rate(&app, &json!({"rate": "36.5"})).await,
        StatusCode::CREATED,
    )
    .await;
    let cop = json_of(
        create_rate(
            &app,
            &json!({"fromCurrency": "USD", "toCurrency": "COP", "rate": "4000"}),
        )
        .await,
        StatusCode::CREATED,
    )
    .await;
    let cop_path = format!("/api/admin/exchange-rates/{}", cop["id"]);

    let moved = app
        .admin_send(
            Method::PUT,
            &cop_path,
            &json!({"fromCurrency": "USD", "toCurrency": "VES", "rate": "40"}),
        )
        .await;

    let error = expect_error(moved, StatusCode::CONFLICT, "exchange_rate_pair_taken").await;
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains(&format!("n.º {}: 1 USD = 36.5 VES", ves["id"])),
        "{error}"
    );
    let kept = app
        .admin_send(
            Method::PUT,
            &cop_path,
            &json!({"fromCurrency": "USD", "toCurrency": "COP", "rate": "4100"}),
        )
        .await;
    assert_eq!(json_of(kept, StatusCode::OK).await["rate"], "4100");
    let listed = app.admin_get("/api/admin/exchange-rates").await;
    assert_eq!(listed[0], ves, "the VES rate is untouched");
}

async fn of_two_racing_creates_of_a_pair_exactly_one_is_stored(app: TestApp) {
    for to in ["VES", "COP", "EUR"] {
        let body = |rate: &str| json!({"fromCurrency": "USD", "toCurrency": to, "rate": rate});
        let (one, two) = (body("1"), body("2"));
        let (a, b) = tokio::join!(create_rate(&app, &one), create_rate(&app, &two));

        let mut statuses = [a.status(), b.status()];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::CREATED, StatusCode::CONFLICT],
            "USD → {to}"
        );
    }
    let listed = app.admin_get("/api/admin/exchange-rates").await;
    assert_eq!(listed.as_array().unwrap().len(), 3, "{listed}");
}

async fn methods_using_a_deleted_rate_are_left_without_one(app: TestApp) {
    let method = app.payment_method("Pago Móvil", Some("36.5")).await;
    let listed = app.admin_get("/api/admin/payment-methods").await;
    let rate_id = listed[0]["exchangeRateId"].as_i64().unwrap();
    assert_eq!(listed[0]["exchangeRate"]["rate"], "36.5");

    let deleted = app
        .as_admin(
            Method::DELETE,
            &format!("/api/admin/exchange-rates/{rate_id}"),
        )
        .send()
        .await
        .unwrap();

    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let listed = app.admin_get("/api/admin/payment-methods").await;
    assert_eq!(listed[0]["id"], method, "the method survives");
    assert_eq!(listed[0]["exchangeRate"], Value::Null);
    assert_eq!(listed[0]["exchangeRateId"], Value::Null);
    let public = app.get_json("/api/payment-methods").await;
    assert_eq!(public[0]["exchangeRate"], Value::Null);
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let bought = app.buy(raffle, method, &[1], 1300, "a@example.com").await;
    let bought = json_of(bought, StatusCode::CREATED).await;
    assert_eq!(bought["purchase"]["convertedTotal"], Value::Null);
}

async fn the_panel_is_told_while_the_sender_is_a_placeholder(app: TestApp) {
    let placeholder = app.admin_get("/api/admin/email-settings").await;
    assert_eq!(placeholder["senderIsPlaceholder"], true, "no sender yet");

    let real = app
        .admin_send(
            Method::PUT,
            "/api/admin/email-settings",
            &json!({"fromEmail": "pagos@rifasve.com"}),
        )
        .await;
    assert_eq!(
        json_of(real, StatusCode::OK).await["senderIsPlaceholder"],
        false
    );
    let local = app
        .admin_send(
            Method::PUT,
            "/api/admin/email-settings",
            &json!({"fromEmail": "no-reply@example.com"}),
        )
        .await;
    assert_eq!(
        json_of(local, StatusCode::OK).await["senderIsPlaceholder"],
        true
    );
}

async fn email_settings_start_with_port_587_and_no_password(app: TestApp) {
    let settings = app.admin_get("/api/admin/email-settings").await;

    assert_eq!(
        settings,
        json!({"emailHost": "", "emailPort": 587, "emailUser": "", "hasPassword": false, "fromEmail": "", "senderIsPlaceholder": true})
    );
}

async fn the_email_password_is_write_only_and_kept_when_not_resent(app: TestApp) {
    let password = "s3cret-Pa55-word";

    let saved = app
        .as_admin(Method::PUT, "/api/admin/email-settings")
        .json(&json!({"emailHost": " smtp.gmail.com ", "emailPort": 465, "emailUser": "rifa@gmail.com", "emailPass": password, "fromEmail": "Rifa@Example.com"}))
        .send()
        .await
        .unwrap();

    assert_eq!(saved.status(), StatusCode::OK);
    let text = saved.text().await.unwrap();
    assert!(!text.contains(password), "{text}");
    let saved: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        saved,
        json!({"emailHost": "smtp.gmail.com", "emailPort": 465, "emailUser": "rifa@gmail.com", "hasPassword": true, "fromEmail": "rifa@example.com", "senderIsPlaceholder": true})
    );
    let read = app
        .as_admin(Method::GET, "/api/admin/email-settings")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!read.contains(password), "{read}");
    assert_eq!(serde_json::from_str::<Value>(&read).unwrap(), saved);
    let without = app
        .admin_send(
            Method::PUT,
            "/api/admin/email-settings",
            &json!({"emailHost": "smtp.otro.com", "emailPort": 587}),
        )
        .await;
    let without = json_of(without, StatusCode::OK).await;
    assert_eq!(without["hasPassword"], true, "left out keeps the password");
    assert_eq!(without["emailHost"], "smtp.otro.com");
    let blank = app
        .admin_send(
            Method::PUT,
            "/api/admin/email-settings",
            &json!({"emailHost": "smtp.otro.com", "emailPass": ""}),
        )
        .await;
    assert_eq!(
        json_of(blank, StatusCode::OK).await["hasPassword"],
        true,
        "blank keeps the password"
    );
    let english = app
        .as_admin(Method::GET, "/api/admin/email-settings")
        .header("Accept-Language", "en")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!english.contains(password));
}

async fn the_stored_email_password_is_deleted_only_on_request_of_a_privileged_admin(app: TestApp) {
    let saved = app
        .admin_send(
            Method::PUT,
            "/api/admin/email-settings",
            &json!({"emailHost": "smtp.gmail.com", "emailUser": "rifa@gmail.com", "emailPass": "s3cret"}),
        )
        .await;
    assert_eq!(json_of(saved, StatusCode::OK).await["hasPassword"], true);
    let operator = app.other_admin("operador", false).await;

    let refused = app
        .request(Method::PUT, "/api/admin/email-settings")
        .bearer_auth(&operator)
        .json(&json!({"emailHost": "smtp.gmail.com", "clearPassword": true}))
        .send()
        .await
        .unwrap();
    let kept = app.admin_get("/api/admin/email-settings").await;
    let not_asked = app
        .admin_send(
            Method::PUT,
            "/api/admin/email-settings",
            &json!({"emailHost": "smtp.gmail.com", "emailUser": "rifa@gmail.com", "clearPassword": false}),
        )
        .await;
    let cleared = app
        .admin_send(
            Method::PUT,
            "/api/admin/email-settings",
            &json!({"emailHost": "smtp.gmail.com", "emailUser": "rifa@gmail.com", "emailPass": "", "clearPassword": true}),
        )
        .await;
    let read = app.admin_get("/api/admin/email-settings").await;
    let replaced = app
        .admin_send(
            Method::PUT,
            "/api/admin/email-settings",
            &json!({"emailPass": "otra-clave", "clearPassword": true}),
        )
        .await;

    expect_error(refused, StatusCode::FORBIDDEN, "forbidden").await;
    assert_eq!(kept["hasPassword"], true, "a refused call changes nothing");
    assert_eq!(
        json_of(not_asked, StatusCode::OK).await["hasPassword"],
        true
    );
    assert_eq!(
        json_of(cleared, StatusCode::OK).await,
        json!({"emailHost": "smtp.gmail.com", "emailPort": 587, "emailUser": "rifa@gmail.com", "hasPassword": false, "fromEmail": "", "senderIsPlaceholder": true})
    );
    assert_eq!(read["hasPassword"], false);
    assert_eq!(
        json_of(replaced, StatusCode::OK).await["hasPassword"],
        true,
        "a new password sent with the flag is stored"
    );
}

async fn bad_email_settings_are_refused_and_change_nothing(app: TestApp) {
    let port = "Debe estar entre 1 y 65535";
    let cases = [
        (json!({"emailPort": 70_000}), "emailPort", port),
        (json!({"emailPort": 0}), "emailPort", port),
        (json!({"emailPort": -25}), "emailPort", port),
        (json!({"fromEmail": "nope"}), "fromEmail", "Email inválido"),
        (
            json!({"emailHost": "h".repeat(254)}),
            "emailHost",
            "Debe tener como máximo 253 caracteres",
        ),
        (
            json!({"emailPass": "p".repeat(513)}),
            "emailPass",
            "Debe tener como máximo 512 caracteres",
        ),
    ];

    for (body, field, message) in cases {
        let response = app
            .admin_send(Method::PUT, "/api/admin/email-settings", &body)
            .await;

        let error = validation(response).await;
        assert_eq!(error["fields"][field], message, "{body}");
    }
    let text_port = app
        .admin_send(
            Method::PUT,
            "/api/admin/email-settings",
            &json!({"emailPort": "abc"}),
        )
        .await;
    expect_error(text_port, StatusCode::BAD_REQUEST, "bad_request").await;
    assert_eq!(
        app.admin_get("/api/admin/email-settings").await,
        json!({"emailHost": "", "emailPort": 587, "emailUser": "", "hasPassword": false, "fromEmail": "", "senderIsPlaceholder": true})
    );
}

fn percentage_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

async fn discounts_start_empty_and_a_tier_changes_quotes_and_purchases(app: TestApp) {
    assert_eq!(
        app.admin_get("/api/admin/discounts").await,
        json!({"tiers": []})
    );
    let raffle = app.raffle("10", 100, (1, 10)).await;
    let method = app.payment_method("Zelle", None).await;

    let saved = app
        .admin_send(
            Method::PUT,
            "/api/admin/discounts",
            &json!({"tiers": [{"minTickets": 5, "percentage": 10, "label": "10% desde 5 boletos"}]}),
        )
        .await;

    let saved = json_of(saved, StatusCode::OK).await;
    let tiers = saved["tiers"].as_array().unwrap();
    assert_eq!(tiers.len(), 1);
    assert_eq!(tiers[0]["minTickets"], 5);
    assert_eq!(percentage_text(&tiers[0]["percentage"]), "10");
    assert_eq!(tiers[0]["label"], "10% desde 5 boletos");
    assert_eq!(app.admin_get("/api/admin/discounts").await, saved);
    let five = app
        .get_json(&format!("/api/raffles/{raffle}/quote?count=5"))
        .await;
    assert_eq!(five["subtotal"], "50.00");
    assert_eq!(five["discount"], "5.00");
    assert_eq!(five["discountPercentage"], "10");
    assert_eq!(five["total"], "45.00");
    assert_eq!(
        five["appliedDiscount"],
        json!({"label": "10% desde 5 boletos", "percentage": "10"})
    );
    let four = app
        .get_json(&format!("/api/raffles/{raffle}/quote?count=4"))
        .await;
    assert_eq!(four["discount"], "0.00");
    assert_eq!(four["total"], "40.00");
    assert_eq!(four["appliedDiscount"], Value::Null);

    let full_price = app
        .buy(raffle, method, &[1, 2, 3, 4, 5], 1000, "a@example.com")
        .await;
    let body = expect_error(full_price, StatusCode::CONFLICT, "total_mismatch").await;
    assert_eq!(body["expectedTotal"], "45.00");
    let mut form = app.purchase_form(method, &[1, 2, 3, 4, 5], "45.00", "a@example.com");
    for field in &mut form {
        if field.0 == "discountApplied" {
            field.1 = "5.00".to_owned();
        }
    }
    let discounted = app
        .post_form(&format!("/api/raffles/{raffle}/purchase"), form, None)
        .await;
    let discounted = json_of(discounted, StatusCode::CREATED).await;
    assert_eq!(discounted["totalAmount"], "45.00");
    assert_eq!(discounted["purchase"]["discountApplied"], "5.00");
    assert_eq!(discounted["quote"]["discount"], "5.00");
    let cleared = app
        .admin_send(Method::PUT, "/api/admin/discounts", &json!({"tiers": []}))
        .await;
    assert_eq!(json_of(cleared, StatusCode::OK).await, json!({"tiers": []}));
    let after = app
        .get_json(&format!("/api/raffles/{raffle}/quote?count=5"))
        .await;
    assert_eq!(after["total"], "50.00");
}

async fn bad_discount_tiers_are_refused(app: TestApp) {
    let tier = |min: Value, percentage: Value, label: &str| json!({"tiers": [{"minTickets": min, "percentage": percentage, "label": label}]});
    let range = "Debe estar entre 0 y 100";
    let cases = [
        (tier(json!(5), json!(0), "x"), range),
        (tier(json!(5), json!(100), "x"), range),
        (tier(json!(5), json!(-5), "x"), range),
        (tier(json!(0), json!(10), "x"), range),
        (
            tier(json!(5), json!(10), "   "),
            "Este campo es obligatorio",
        ),
    ];

    for (body, message) in cases {
        let response = app
            .admin_send(Method::PUT, "/api/admin/discounts", &body)
            .await;

        let error = validation(response).await;
        assert_eq!(error["fields"]["tiers"], message, "{body}");
    }
    for body in [
        json!({}),
        tier(json!(-1), json!(10), "x"),
        tier(json!("cinco"), json!(10), "x"),
        tier(json!(5), json!("diez"), "x"),
        json!({"tiers": [{"minTickets": 5, "percentage": 10}]}),
    ] {
        let response = app
            .admin_send(Method::PUT, "/api/admin/discounts", &body)
            .await;
        expect_error(response, StatusCode::BAD_REQUEST, "bad_request").await;
    }
    assert_eq!(
        app.admin_get("/api/admin/discounts").await,
        json!({"tiers": []})
    );
}

async fn dev_mode_is_off_by_default(app: TestApp) {
    let response = app.get("/api/dev-mode").await;

    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["cache-control"], "public, max-age=300");
    assert_eq!(response.text().await.unwrap(), "false");
}

async fn health_and_readiness_answer_ok(app: TestApp) {
    let live = app.get_json("/healthz").await;
    let ready = app.get_json("/readyz").await;

    assert_eq!(live, json!({"status": "ok"}));
    assert_eq!(ready, json!({"status": "ready"}));
}

async fn the_openapi_document_describes_the_api(app: TestApp) {
    let response = app.get("/api/openapi.json").await;

    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let document: Value = response.json().await.unwrap();
    assert!(
        document["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3.")),
        "{}",
        document["openapi"]
    );
    let paths = document["paths"].as_object().unwrap();
    for path in [
        "/api/raffles",
        "/api/raffles/{id}",
        "/api/raffles/{id}/purchase",
        "/api/verify-tickets",
        "/api/admin/login",
        "/api/admin/purchases/search",
        "/api/admin/stats/daily",
        "/api/admin/branding",
    ] {
        assert!(paths.contains_key(path), "{path} is documented");
    }
    let daily = &paths["/api/admin/stats/daily"]["get"]["parameters"];
    let required: Vec<&str> = daily
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["required"] == true)
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(required, ["from", "to"]);
    let search = &paths["/api/admin/purchases/search"]["get"]["parameters"];
    assert!(
        search
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "maxId"),
        "{search}"
    );
}

/// Both directions, seen from outside: each documented operation reaches a handler (whatever it
/// answers, it is not "no such route"), and any other method on a documented path is a 405.
async fn every_documented_operation_is_served_and_only_those_at_its_path(app: TestApp) {
    let document = app.get_json("/api/openapi.json").await;
    let paths = document["paths"].as_object().unwrap();
    assert!(paths.len() > 30, "{}", paths.len());
    for (path, item) in paths {
        let concrete = path
            .split('/')
            .map(|segment| {
                if segment.starts_with('{') {
                    "1"
                } else {
                    segment
                }
            })
            .collect::<Vec<_>>()
            .join("/");
        let documented: Vec<&str> = item
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        for method in ["get", "head", "post", "put", "patch", "delete"] {
            let response = app
                .as_admin(
                    Method::from_bytes(method.to_uppercase().as_bytes()).unwrap(),
                    &concrete,
                )
                .json(&json!({}))
                .send()
                .await
                .unwrap();
            let status = response.status();
            let text = response.text().await.unwrap();
            if documented.contains(&method) {
                assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
                assert!(
                    !text.contains("route_not_found"),
                    "{method} {path}: {status} {text}"
                );
            } else {
                assert_eq!(
                    status,
                    StatusCode::METHOD_NOT_ALLOWED,
                    "{method} {path}: {text}"
                );
            }
        }
    }
}
