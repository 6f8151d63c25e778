//! What the panel is told about each proof (issue 16), over HTTP on both databases with the
//! real readers (Tesseract, poppler) on receipts of the proof corpus: a receipt whose amount
//! and reference match is green; the same receipt saved again, cropped or retouched for
//! another purchase is red with the first purchase named; a PDF made with an editor is red.
//! And the payment reference: required per method, and one reference pays for one live
//! purchase even when many buyers send it at once.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{TestApp, expect_error};
use crate::on_both;
use crate::proofs::{bought, send_proof};
use rifa_test_support::files::PNG_2X2 as PNG;
use rifa_test_support::files::pdf_page;

on_both!(
    a_receipt_whose_amount_and_reference_match_is_green_and_its_copies_are_red,
    a_pdf_made_with_an_editor_is_red_and_its_text_is_read,
    spanish_receipts_as_png_and_pdf_are_green_at_the_total_and_red_off_it,
    a_pdf_page_five_metres_wide_is_amber_at_once_and_the_proofs_behind_it_are_read,
    a_method_may_require_a_reference_and_one_reference_pays_for_one_live_purchase,
    the_queue_lists_proofs_by_light_and_age_and_bulk_decisions_take_only_their_light,
);

fn corpus(file: &str) -> Vec<u8> {
    let path = format!(
        "{}/../adapters/proofs/tests/corpus/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The proof check of `purchase` once it is done (the checker runs every 200 ms in tests; OCR
/// takes about a second a proof).
pub(crate) async fn checked(app: &TestApp, purchase: i64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let check = app
            .admin_get(&format!("/api/admin/purchases/{purchase}/proof-check"))
            .await;
        if check["status"] != "pending" || Instant::now() > deadline {
            return check;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Buys one number at `total` with `method`, typing `reference` when given.
async fn buy(
    app: &TestApp,
    (raffle, method): (i64, i64),
    number: u32,
    total: &str,
    reference: Option<&str>,
) -> reqwest::Response {
    let email = format!("comprador{number}@example.com");
    let mut form = app.purchase_form(method, &[number], total, &email);
    if let Some(reference) = reference {
        form.push(("paymentReference", reference.to_owned()));
    }
    app.post_form(&format!("/api/raffles/{raffle}/purchase"), form, None)
        .await
}

fn kinds(check: &Value) -> Vec<&str> {
    check["signals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect()
}

fn signal<'a>(check: &'a Value, kind: &str) -> &'a Value {
    check["signals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind}: {check}"))
}

async fn a_receipt_whose_amount_and_reference_match_is_green_and_its_copies_are_red(app: TestApp) {
    // zelle-04: a Wells Fargo Zelle payment of $170.00, confirmation WFCTh87wdy6q.
    let shop = (
        app.raffle("170", 100, (1, 5)).await,
        app.payment_method("Zelle", None).await,
    );
    let honest = bought(buy(&app, shop, 1, "170.00", Some("WFCTh87wdy6q")).await).await;
    send_proof(
        &app,
        &honest,
        &corpus("zelle-04-original.png"),
        "pago.png",
        "image/png",
    )
    .await;
    let check = checked(&app, honest.id).await;
    assert_eq!(check["status"], "done", "{check}");
    assert_eq!(check["light"], "green", "{check}");
    assert_eq!(
        signal(&check, "amountMatches")["read"],
        json!({"currency": "USD", "value": "170.00"})
    );
    assert_eq!(
        signal(&check, "referenceMatches")["reference"],
        "WFCTH87WDY6Q"
    );
    assert!(
        check["text"].as_str().unwrap().contains("Wells Fargo"),
        "{check}"
    );

    // The same screenshot recompressed as JPEG, cropped, and retouched, each for another
    // purchase by someone who typed no reference.
    let mut copies = Vec::new();
    for (number, file, mime) in [
        (2, "zelle-04-jpeg.jpg", "image/jpeg"),
        (3, "zelle-04-cropped.png", "image/png"),
        (4, "zelle-04-edited.jpg", "image/jpeg"),
    ] {
        let copy = bought(buy(&app, shop, number, "170.00", None).await).await;
        send_proof(&app, &copy, &corpus(file), file, mime).await;
        copies.push(copy);
    }
    let recompressed = checked(&app, copies[0].id).await;
    assert_eq!(recompressed["light"], "red", "{recompressed}");
    let near = signal(&recompressed, "nearReuse");
    assert_eq!(near["other"], honest.id);
    assert!(near["distance"].as_u64().unwrap() <= 15, "{near}");

    let cropped = checked(&app, copies[1].id).await;
    assert_eq!(cropped["light"], "red", "{cropped}");
    assert_eq!(signal(&cropped, "referenceReused")["other"], honest.id);
    assert!(
        !kinds(&cropped).contains(&"nearReuse"),
        "a crop moves the picture: {cropped}"
    );

    let retouched = checked(&app, copies[2].id).await;
    assert_eq!(retouched["light"], "red", "{retouched}");
    assert_eq!(signal(&retouched, "editedWith")["software"], "PicsArt");
    assert_eq!(
        signal(&retouched, "amountDiffers")["read"]["value"],
        "1700.00",
        "the amount was changed to $1,700.00: {retouched}"
    );

    // The first sender is not accused by those who copied them.
    assert_eq!(checked(&app, honest.id).await["light"], "green");
}

async fn a_pdf_made_with_an_editor_is_red_and_its_text_is_read(app: TestApp) {
    // bancolombia-08: a PDF whose producer is Canva, made three weeks after the payment.
    let shop = (
        app.raffle("10", 100, (1, 5)).await,
        app.payment_method("Bancolombia", None).await,
    );
    let purchase = bought(buy(&app, shop, 7, "10.00", None).await).await;
    send_proof(
        &app,
        &purchase,
        &corpus("bancolombia-08-pdf.pdf"),
        "comprobante.pdf",
        "application/pdf",
    )
    .await;
    let check = checked(&app, purchase.id).await;
    assert_eq!(check["light"], "red", "{check}");
    assert_eq!(signal(&check, "editedWith")["software"], "Canva");
    assert_eq!(
        signal(&check, "referenceRead")["reference"],
        "6532996103",
        "{check}"
    );
    assert!(
        check["text"]
            .as_str()
            .unwrap()
            .contains("Comprobante No. 6532996103")
    );
}

/// A Banesco Pago Móvil receipt as the bank's site prints it (a PDF with its own text, no
/// metadata) for `amount` in bolívares.
fn pago_movil_pdf(amount: &str, reference: &str) -> Vec<u8> {
    pdf_page(
        420,
        595,
        &[
            "Banesco",
            "Comprobante de Pago Móvil",
            "Operación exitosa",
            &format!("Monto: Bs. {amount}"),
            "Fecha: 22/11/2026",
            &format!("Referencia: {reference}"),
            "Banco destino: 0105 - Mercantil",
        ],
    )
}

async fn spanish_receipts_as_png_and_pdf_are_green_at_the_total_and_red_off_it(app: TestApp) {
    // One number at US$ 10 paid by Pago Móvil at Bs. 1.583,90 a dollar: Bs. 15.839,00.
    let shop = (
        app.raffle("10", 100, (1, 5)).await,
        app.payment_method("Pago Móvil", Some("1583.90")).await,
    );
    let read_right = json!({"currency": "VES", "value": "15839.00"});
    // pago_movil-01: a screenshot of Bs. 15.839,00, reference 18234523281; pago_movil-06 of
    // Bs. 31.185,00.
    let png_paid = bought(buy(&app, shop, 1, "10.00", Some("18234523281")).await).await;
    send_proof(
        &app,
        &png_paid,
        &corpus("pago_movil-01-original.png"),
        "pago.png",
        "image/png",
    )
    .await;
    let png_off = bought(buy(&app, shop, 2, "10.00", None).await).await;
    send_proof(
        &app,
        &png_off,
        &corpus("pago_movil-06-original.png"),
        "pago.png",
        "image/png",
    )
    .await;
    let pdf_paid = bought(buy(&app, shop, 3, "10.00", Some("55501234")).await).await;
    send_proof(
        &app,
        &pdf_paid,
        &pago_movil_pdf("15.839,00", "55501234"),
        "pago.pdf",
        "application/pdf",
    )
    .await;
    // Its text layer says Bs. 1.300,00 where Bs. 15.839,00 was due.
    let pdf_off = bought(buy(&app, shop, 4, "10.00", None).await).await;
    send_proof(
        &app,
        &pdf_off,
        &pago_movil_pdf("1.300,00", "55509999"),
        "pago.pdf",
        "application/pdf",
    )
    .await;

    for (what, purchase) in [("PNG", &png_paid), ("PDF", &pdf_paid)] {
        let check = checked(&app, purchase.id).await;
        assert_eq!(check["light"], "green", "{what}: {check}");
        assert_eq!(
            signal(&check, "amountMatches")["read"],
            read_right,
            "{what}: {check}"
        );
    }
    for (what, purchase, read) in [("PNG", &png_off, "31185.00"), ("PDF", &pdf_off, "1300.00")] {
        let check = checked(&app, purchase.id).await;
        assert_eq!(check["light"], "red", "{what}: {check}");
        let differs = signal(&check, "amountDiffers");
        assert_eq!(
            differs["read"],
            json!({"currency": "VES", "value": read}),
            "{what}"
        );
        assert_eq!(
            differs["expected"],
            json!({"currency": "VES", "value": "15839"}),
            "{what}"
        );
    }
}

async fn a_pdf_page_five_metres_wide_is_amber_at_once_and_the_proofs_behind_it_are_read(
    app: TestApp,
) {
    // Three PDFs of a few hundred bytes whose page, rendered at 200 dpi, would be 40,000 ×
    // 40,000 pixels; then an honest proof.
    let shop = (
        app.raffle("170", 100, (1, 5)).await,
        app.payment_method("Zelle", None).await,
    );
    let mut hostile = Vec::new();
    for number in 1..=3 {
        let purchase = bought(buy(&app, shop, number, "170.00", None).await).await;
        let pdf = pdf_page(14_400, 14_400 + number, &[]);
        send_proof(&app, &purchase, &pdf, "pago.pdf", "application/pdf").await;
        hostile.push(purchase);
    }
    let honest = bought(buy(&app, shop, 9, "170.00", Some("WFCTh87wdy6q")).await).await;
    send_proof(
        &app,
        &honest,
        &corpus("zelle-04-original.png"),
        "pago.png",
        "image/png",
    )
    .await;

    assert_eq!(checked(&app, honest.id).await["light"], "green");
    for purchase in &hostile {
        let check = checked(&app, purchase.id).await;
        // Done at the first attempt: a final result, not a failure tried again.
        assert_eq!(check["status"], "done", "{check}");
        assert_eq!(check["light"], "amber", "{check}");
        let page = signal(&check, "pageTooLarge");
        assert_eq!(page["widthMm"], 5_080, "{check}");
        assert_eq!(check["text"], Value::Null, "{check}");
    }
}

async fn a_method_may_require_a_reference_and_one_reference_pays_for_one_live_purchase(
    app: TestApp,
) {
    let raffle = app.raffle("5", 1000, (1, 5)).await;
    let response = app
        .admin_send(
            Method::POST,
            "/api/admin/payment-methods",
            &json!({"name": "Pago Móvil", "type": "mobile_payment", "details": {"phone": "0414-000-0000"},
                    "referenceRequired": true, "referenceMinLength": 6}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let method: Value = response.json().await.unwrap();
    assert_eq!(
        (&method["referenceRequired"], &method["referenceMinLength"]),
        (&json!(true), &json!(6))
    );
    let shop = (raffle, method["id"].as_i64().unwrap());

    let body = expect_error(
        buy(&app, shop, 1, "5.00", None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert!(body["fields"]["paymentReference"].is_string(), "{body}");
    let body = expect_error(
        buy(&app, shop, 1, "5.00", Some("12-34")).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert!(
        body["fields"]["paymentReference"]
            .as_str()
            .unwrap()
            .contains('6'),
        "{body}"
    );

    // Eight buyers send the same reference at once, typed eight ways: one purchase is made.
    let typed = [
        "0123456789",
        "0123-456789",
        "0123 456 789",
        "0123456789 ",
        "0123.456.789",
        "0123/456789",
        "#0123456789",
        "0123_456_789",
    ];
    let answers = futures_util::future::join_all(
        (10..)
            .zip(typed)
            .map(|(number, reference)| buy(&app, shop, number, "5.00", Some(reference))),
    )
    .await;
    let mut made = Vec::new();
    for answer in answers {
        match answer.status() {
            StatusCode::CREATED => made.push(bought(answer).await),
            _ => {
                let body =
                    expect_error(answer, StatusCode::CONFLICT, "payment_reference_used").await;
                assert!(
                    body["message"].as_str().unwrap().contains("ya fue usado"),
                    "{body}"
                );
            }
        }
    }
    assert_eq!(made.len(), 1, "one reference, one purchase");

    // Another method may take the same reference; a rejected purchase frees it.
    let other = (raffle, app.payment_method("Zelle", None).await);
    bought(buy(&app, other, 30, "5.00", Some("0123456789")).await).await;
    assert_eq!(
        app.decide(made[0].id, "rejected", Some("No llegó el pago"))
            .await
            .status(),
        StatusCode::OK
    );
    bought(buy(&app, shop, 31, "5.00", Some("0123456789")).await).await;
}

fn ids(queue: &Value) -> Vec<i64> {
    queue["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["purchase"]["id"].as_i64().unwrap())
        .collect()
}

async fn the_queue_lists_proofs_by_light_and_age_and_bulk_decisions_take_only_their_light(
    app: TestApp,
) {
    let shop = (
        app.raffle("170", 100, (1, 5)).await,
        app.payment_method("Zelle", None).await,
    );
    let green = bought(buy(&app, shop, 1, "170.00", Some("WFCTh87wdy6q")).await).await;
    send_proof(
        &app,
        &green,
        &corpus("zelle-04-original.png"),
        "a.png",
        "image/png",
    )
    .await;
    assert_eq!(checked(&app, green.id).await["light"], "green");
    let red = bought(buy(&app, shop, 2, "170.00", None).await).await;
    send_proof(
        &app,
        &red,
        &corpus("zelle-04-jpeg.jpg"),
        "b.jpg",
        "image/jpeg",
    )
    .await;
    assert_eq!(checked(&app, red.id).await["light"], "red");
    let amber = bought(buy(&app, shop, 3, "170.00", None).await).await;
    send_proof(&app, &amber, PNG, "c.png", "image/png").await;
    assert_eq!(checked(&app, amber.id).await["light"], "amber");
    let without_proof = bought(buy(&app, shop, 4, "170.00", None).await).await;

    let queue = app.admin_get("/api/admin/proof-queue").await;
    assert_eq!(
        ids(&queue),
        [green.id, red.id, amber.id],
        "oldest first, proofs only: {queue}"
    );
    assert_eq!(queue["nextAfter"], Value::Null);
    assert_eq!(queue["items"][1]["light"], "red");
    assert_eq!(queue["items"][1]["signals"][0]["kind"], "nearReuse");
    let newest = app
        .admin_get("/api/admin/proof-queue?order=newest&limit=2")
        .await;
    assert_eq!(ids(&newest), [amber.id, red.id]);
    let next = app
        .admin_get(&format!(
            "/api/admin/proof-queue?order=newest&limit=2&after={}",
            newest["nextAfter"]
        ))
        .await;
    assert_eq!(ids(&next), [green.id]);
    for (light, expected) in [("green", green.id), ("red", red.id), ("amber", amber.id)] {
        let only = app
            .admin_get(&format!("/api/admin/proof-queue?light={light}"))
            .await;
        assert_eq!(ids(&only), [expected], "{light}");
    }
    expect_error(
        app.as_admin(Method::GET, "/api/admin/proof-queue?light=purple")
            .send()
            .await
            .unwrap(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;

    let everyone = [green.id, red.id, amber.id, without_proof.id];
    let approved = app
        .admin_send(
            Method::POST,
            "/api/admin/purchases/bulk-decision",
            &json!({"ids": everyone, "status": "approved"}),
        )
        .await;
    assert_eq!(approved.status(), StatusCode::OK);
    let approved: Value = approved.json().await.unwrap();
    assert_eq!(approved["decided"], 1, "{approved}");
    assert_eq!(
        approved["results"],
        json!([
            {"id": green.id, "outcome": "decided", "status": "approved", "light": null},
            {"id": red.id, "outcome": "notEligible", "status": null, "light": "red"},
            {"id": amber.id, "outcome": "notEligible", "status": null, "light": "amber"},
            {"id": without_proof.id, "outcome": "notEligible", "status": null, "light": null},
        ])
    );
    let refused = app
        .admin_send(
            Method::POST,
            "/api/admin/purchases/bulk-decision",
            &json!({"ids": [red.id], "status": "rejected"}),
        )
        .await;
    expect_error(
        refused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    let rejected: Value = app
        .admin_send(
            Method::POST,
            "/api/admin/purchases/bulk-decision",
            &json!({"ids": [red.id, green.id], "status": "rejected", "adminNotes": "Comprobante repetido"}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(rejected["decided"], 1, "{rejected}");
    assert_eq!(
        rejected["results"][1],
        json!({"id": green.id, "outcome": "notEligible", "status": null, "light": "green"}),
        "a green proof is not rejected in bulk"
    );

    // The trail names each purchase a bulk decision decided, and only those.
    let bulk = app
        .admin_get("/api/admin/audit?action=purchase.decided_in_bulk")
        .await;
    let decided: Vec<(&str, &str)> = bulk["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["target"].as_str().unwrap(),
                e["changes"][0]["after"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        decided,
        [
            (format!("purchase:{}", red.id).as_str(), "rejected"),
            (format!("purchase:{}", green.id).as_str(), "approved"),
        ]
    );

    // Each buyer decided gets their e-mail, as after a single decision.
    let outbox = app.admin_get("/api/admin/mail-outbox?limit=500").await;
    let kinds_for = |purchase: i64| -> Vec<String> {
        outbox
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["purchaseId"] == purchase)
            .map(|m| m["kind"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(
        kinds_for(green.id).contains(&"approved".to_owned()),
        "{outbox}"
    );
    assert!(
        kinds_for(red.id).contains(&"rejected".to_owned()),
        "{outbox}"
    );
    assert!(
        !kinds_for(amber.id)
            .iter()
            .any(|k| k == "approved" || k == "rejected")
    );
    assert_eq!(
        app.admin_get("/api/admin/proof-queue").await["items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// The release image reads proofs as `make run` does: its run stage installs Debian's packages
/// of the readers, without recommends (Docker has no engine where the tests run; this reads
/// the Dockerfile instead).
#[test]
fn the_release_image_installs_the_proof_readers() {
    let root = format!("{}/../..", env!("CARGO_MANIFEST_DIR"));
    let dockerfile = std::fs::read_to_string(format!("{root}/infra/Dockerfile")).unwrap();
    let (_, run_stage) = dockerfile.rsplit_once("\nFROM ").unwrap();
    let run_stage = run_stage.replace("\\\n", " ");
    let installs: Vec<&str> = run_stage
        .lines()
        .filter(|line| line.starts_with("RUN ") && line.contains("apt-get install"))
        .collect();
    assert!(!installs.is_empty(), "no apt-get install in: {run_stage}");
    for install in &installs {
        assert!(install.contains("--no-install-recommends"), "{install}");
    }
    let installed: Vec<&str> = installs
        .iter()
        .flat_map(|install| install.split_whitespace())
        .collect();
    for package in rifa_proofs::DEBIAN_PACKAGES {
        assert!(
            installed.contains(&package),
            "the image lacks {package}: {installs:?}"
        );
    }

    // `make run` and `make test-tools` install the same ones.
    let lib = std::fs::read_to_string(format!("{root}/scripts/lib.sh")).unwrap();
    for package in rifa_proofs::DEBIAN_PACKAGES {
        assert!(
            lib.contains(&format!("echo {package}")),
            "scripts/lib.sh: {package}"
        );
    }
}
