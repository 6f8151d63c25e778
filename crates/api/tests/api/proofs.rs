//! The payment proof's journey over HTTP (upload URL, the upload itself, attaching, the admins'
//! short-lived link) on the local store and on a real S3 server (moto), who may take each step,
//! what is refused with which message, and the buyer's invoice in HTML and PDF.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use reqwest::{Method, Response, StatusCode};
use rifa_api::Config;
use rifa_api::config::{StorageConfig, UploadSweep};
use rifa_storage::{ObjectStore as _, S3Config, S3Store};
use rifa_test_support::files::{
    HEIC_START, HTML_BEHIND_PDF_SIGNATURE, PNG_SIGNATURE_ONLY, png_claiming, webp,
};
use rifa_test_support::s3::S3Server;
use rifa_test_support::smtp::SmtpServer;
use serde_json::{Value, json};

use crate::helpers::{TestApp, expect_error, smtp_to};
use crate::live::{authenticate, next_json};
use crate::mail::{pdf_of, wait_for};
use crate::on_both;
use crate::proof_checks::checked;

on_both!(
    a_proof_travels_from_the_buyer_to_the_admins_link,
    only_the_buyers_token_opens_its_purchase,
    an_upload_url_works_once_and_only_for_its_own_purchase,
    a_decided_purchase_takes_no_new_proof,
    the_purchase_token_appears_only_in_the_purchase_answer,
    a_body_over_5_mb_is_cut_off_at_the_upload,
    a_renamed_executable_is_refused_at_attach_and_a_good_file_then_attaches,
    declared_types_and_sizes_are_judged_before_the_upload,
    attaching_with_nothing_uploaded_is_proof_missing,
    a_file_must_be_the_type_it_was_sent_as,
    an_upload_must_be_the_size_declared,
    a_purchase_gets_a_bounded_number_of_upload_urls_and_replaced_files_are_deleted,
    a_new_proof_replaces_the_old_one_and_a_refused_one_leaves_it_standing,
    the_invoice_is_for_the_buyer_and_admins_in_html_and_pdf,
    files_that_only_start_like_a_proof_are_refused_as_damaged,
    an_image_over_40_megapixels_is_refused_from_its_header,
    proofs_are_served_sandboxed_and_never_sniffed,
    an_android_webp_is_a_proof_and_an_iphone_heic_is_refused_with_what_to_do,
    the_same_file_sent_for_two_purchases_is_flagged_on_the_second,
);

mod an_upload_never_attached_is_swept_and_an_attached_proof_stays {
    use super::{TestApp, sweeping};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        super::an_upload_never_attached_is_swept_and_an_attached_proof_stays(
            TestApp::start(sweeping(TestApp::sqlite_config()), false).await,
        )
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres() {
        if let Some(config) = TestApp::postgres_config().await {
            super::an_upload_never_attached_is_swept_and_an_attached_proof_stays(
                TestApp::start(sweeping(config), true).await,
            )
            .await;
        }
    }
}

/// The configuration with abandoned uploads swept after one second, looked for four times a
/// second (production: a day, hourly).
fn sweeping(mut config: Config) -> Config {
    config.upload_sweep = UploadSweep {
        abandoned_after: Duration::from_secs(1),
        every: Duration::from_millis(250),
    };
    config
}

/// Polls `gone` until it holds or 20 s pass; whether it held.
async fn eventually(mut gone: impl AsyncFnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if gone().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

pub(crate) use rifa_test_support::files::{PDF_ONE_PAGE as PDF, PNG_2X2 as PNG};

const WRONG_TYPE_ES: &str =
    "Tipo de archivo no válido - Solo se permiten imágenes (JPG, PNG, GIF, WEBP) y PDFs";
const WRONG_TYPE_EN: &str =
    "Invalid file type - Only images (JPG, PNG, GIF, WEBP) and PDFs are allowed";
const TOO_LARGE_ES: &str = "Archivo muy grande - El archivo debe ser menor a 5MB";
const TOO_LARGE_EN: &str = "File too large - The file must be smaller than 5MB";
const MISSING_ES: &str = "Comprobante requerido - Debes subir un comprobante de pago";
const MISSING_EN: &str = "Proof of payment required - You must upload a proof of payment";

const FIVE_MB: usize = 5 * 1024 * 1024;
const SIX_MB: usize = 6 * 1024 * 1024;

/// A Windows executable (MZ header) of `size` bytes, as a `virus.exe` renamed `proof.png`.
fn exe(size: usize) -> Vec<u8> {
    padded(b"MZ\x90\0\x03\0\0\0\x04\0\0\0\xFF\xFF\0\0", size)
}

/// `size` bytes starting with `magic`.
fn padded(magic: &[u8], size: usize) -> Vec<u8> {
    let mut bytes = magic.to_vec();
    bytes.extend((0..size.saturating_sub(magic.len())).map(|i| u8::try_from(i % 251).unwrap()));
    bytes.truncate(size);
    bytes
}

/// A purchase as its buyer holds it after buying.
pub(crate) struct Bought {
    pub(crate) id: i64,
    pub(crate) token: String,
    pub(crate) reference: String,
    pub(crate) labels: Vec<String>,
}

/// What the upload-URL answer says to do.
struct Upload {
    url: String,
    headers: Vec<(String, String)>,
}

impl Upload {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A raffle of 1,000 numbers at 13 USD (up to 10 per purchase) and a payment method.
pub(crate) async fn shop(app: &TestApp) -> (i64, i64) {
    let raffle = app.raffle("13", 1000, (1, 10)).await;
    let method = app.payment_method("Zelle", None).await;
    (raffle, method)
}

pub(crate) async fn buy(app: &TestApp, shop: (i64, i64), numbers: &[u32], email: &str) -> Bought {
    bought(app.buy(shop.0, shop.1, numbers, 1300, email).await).await
}

/// The purchase a `201 Created` answer holds.
pub(crate) async fn bought(response: Response) -> Bought {
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let token = body["purchaseToken"].as_str().unwrap().to_owned();
    assert!(token.len() >= 20, "a guessable purchase token: {token:?}");
    Bought {
        id: body["purchase"]["id"].as_i64().unwrap(),
        token,
        reference: body["purchase"]["reference"].as_str().unwrap().to_owned(),
        labels: body["purchase"]["ticketLabels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap().to_owned())
            .collect(),
    }
}

fn with_lang(request: reqwest::RequestBuilder, lang: Option<&str>) -> reqwest::RequestBuilder {
    match lang {
        Some(lang) => request.header("Accept-Language", lang),
        None => request,
    }
}

async fn ask_upload(app: &TestApp, body: &Value, lang: Option<&str>) -> Response {
    with_lang(app.request(Method::POST, "/api/objects/upload"), lang)
        .json(body)
        .send()
        .await
        .unwrap()
}

/// An upload URL for `filename` of `size` bytes declared as `content_type`, which must be
/// granted.
async fn grant(
    app: &TestApp,
    purchase: &Bought,
    filename: &str,
    content_type: &str,
    size: usize,
) -> Upload {
    let response = ask_upload(
        app,
        &json!({
            "filename": filename,
            "contentType": content_type,
            "size": size,
            "purchaseId": purchase.id,
            "purchaseToken": purchase.token,
        }),
        None,
    )
    .await;
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::OK, "{body}");
    Upload {
        url: body["uploadURL"].as_str().unwrap().to_owned(),
        headers: body["uploadHeaders"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
            .collect(),
    }
}

/// `url` as a client reaches it: relative to the API, or an object store's absolute URL.
fn absolute(app: &TestApp, url: &str) -> String {
    if url.starts_with('/') {
        app.url(url)
    } else {
        url.to_owned()
    }
}

/// What the browser does with the answer: `PUT` the bytes with exactly the listed headers.
async fn put_file(app: &TestApp, upload: &Upload, bytes: Vec<u8>) -> Response {
    let mut request = app.client.put(absolute(app, &upload.url)).body(bytes);
    for (name, value) in &upload.headers {
        request = request.header(name, value);
    }
    request.send().await.unwrap()
}

async fn put_ok(app: &TestApp, upload: &Upload, bytes: &[u8]) {
    let response = put_file(app, upload, bytes.to_vec()).await;
    let status = response.status();
    assert!(
        status.is_success(),
        "PUT {}: {status} {}",
        upload.url,
        response.text().await.unwrap()
    );
}

async fn attach(app: &TestApp, id: i64, token: &str, lang: Option<&str>) -> Response {
    with_lang(
        app.request(Method::PUT, &format!("/api/purchases/{id}/payment-proof")),
        lang,
    )
    .json(&json!({"purchaseToken": token}))
    .send()
    .await
    .unwrap()
}

async fn attach_ok(app: &TestApp, purchase: &Bought) {
    let response = attach(app, purchase.id, &purchase.token, None).await;
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({"attached": true}));
}

/// The whole buyer's side: an upload URL, the upload, the attach.
pub(crate) async fn send_proof(
    app: &TestApp,
    purchase: &Bought,
    bytes: &[u8],
    filename: &str,
    mime: &str,
) {
    let upload = grant(app, purchase, filename, mime, bytes.len()).await;
    put_ok(app, &upload, bytes).await;
    attach_ok(app, purchase).await;
}

async fn admin_purchase(app: &TestApp, id: i64) -> Value {
    app.admin_get(&format!("/api/admin/purchases/{id}")).await
}

/// The `paymentProof` link of the admin's view of the purchase.
async fn proof_link(app: &TestApp, id: i64) -> String {
    let purchase = admin_purchase(app, id).await;
    purchase["paymentProof"]
        .as_str()
        .unwrap_or_else(|| panic!("no proof link: {purchase}"))
        .to_owned()
}

/// A plain GET without any credentials, as an `<img src>` does.
async fn open(app: &TestApp, link: &str) -> Response {
    app.client.get(absolute(app, link)).send().await.unwrap()
}

/// Opens `link` and checks it serves exactly `bytes` as `mime`.
async fn assert_serves(app: &TestApp, link: &str, bytes: &[u8], mime: &str) {
    let response = open(app, link).await;
    assert_eq!(response.status(), StatusCode::OK, "GET {link}");
    assert_eq!(response.headers()["content-type"], mime, "GET {link}");
    assert_eq!(response.bytes().await.unwrap(), bytes, "GET {link}");
}

/// Flips one character in the signature part of a JWT-like token at the end of `link`.
fn tamper(link: &str) -> String {
    let mut chars: Vec<char> = link.chars().collect();
    let at = chars.len() - 3;
    chars[at] = if chars[at] == 'A' { 'B' } else { 'A' };
    chars.into_iter().collect()
}

/// The files stored for purchase `id` on the local store (`{root}/proofs/{id}/*`).
fn local_files(app: &TestApp, id: i64) -> Vec<PathBuf> {
    let StorageConfig::Local(root) = &app.config.storage else {
        panic!("not on the local store");
    };
    let dir: &Path = &root.join("proofs").join(id.to_string());
    match std::fs::read_dir(dir) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    }
}

async fn a_proof_travels_from_the_buyer_to_the_admins_link(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[7, 42], "ana@example.com").await;
    assert!(admin_purchase(&app, purchase.id).await["paymentProof"].is_null());

    let upload = grant(&app, &purchase, "comprobante.png", "image/png", PNG.len()).await;
    assert!(
        upload.url.starts_with("/api/uploads/"),
        "the local store uploads through the API: {}",
        upload.url
    );
    assert_eq!(upload.headers.len(), 1, "{:?}", upload.headers);
    assert_eq!(upload.header("content-type"), Some("image/png"));
    let response = put_file(&app, &upload, PNG.to_vec()).await;
    assert_eq!(response.status(), StatusCode::OK);
    // The spec's client sends the URL it used; the server attaches what it granted.
    let response = app
        .request(
            Method::PUT,
            &format!("/api/purchases/{}/payment-proof", purchase.id),
        )
        .json(&json!({"purchaseToken": purchase.token, "paymentProofURL": upload.url}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"attached": true})
    );

    let link = proof_link(&app, purchase.id).await;
    let token = link
        .strip_prefix("/api/proofs/")
        .unwrap_or_else(|| panic!("a link to the API's proof route: {link}"));
    let response = open(&app, &link).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "image/png");
    assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    assert!(
        response.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("no-store")
    );
    assert_eq!(response.bytes().await.unwrap(), PNG);
    // The spec's fallback path serves the same file.
    let fallback = format!("/uploads/{token}");
    assert_serves(&app, &fallback, PNG, "image/png").await;
    let response = open(&app, &fallback).await;
    assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    // The panel asks HEAD for the type before choosing an image or a PDF frame.
    let head = app.request(Method::HEAD, &fallback).send().await.unwrap();
    assert_eq!(head.status(), StatusCode::OK);
    assert_eq!(head.headers()["content-type"], "image/png");
    assert!(head.bytes().await.unwrap().is_empty());

    // The link itself is the capability: a tampered or made-up one opens nothing.
    for bad in [
        tamper(&link),
        tamper(&fallback),
        "/api/proofs/not-a-token".to_owned(),
        format!("/api/proofs/{}", app.admin_token),
        // An upload grant is not a download grant.
        format!(
            "/api/proofs/{}",
            upload.url.strip_prefix("/api/uploads/").unwrap()
        ),
    ] {
        let response = open(&app, &bad).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "GET {bad}");
    }

    // Every admin view carries a working link: the list, the search and the decision.
    let list = app.admin_get("/api/admin/purchases").await;
    let listed = list
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == purchase.id)
        .unwrap();
    assert_serves(
        &app,
        listed["paymentProof"].as_str().unwrap(),
        PNG,
        "image/png",
    )
    .await;
    let page = app.admin_get("/api/admin/purchases/search").await;
    let found = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == purchase.id)
        .unwrap();
    assert_serves(
        &app,
        found["paymentProof"].as_str().unwrap(),
        PNG,
        "image/png",
    )
    .await;

    // Attaching again with nothing new uploaded does not lose the attached proof.
    let again = attach(&app, purchase.id, &purchase.token, None).await;
    assert!(!again.status().is_server_error(), "{}", again.status());
    assert_serves(&app, &proof_link(&app, purchase.id).await, PNG, "image/png").await;

    let decided = app.decide(purchase.id, "approved", None).await;
    assert_eq!(decided.status(), StatusCode::OK);
    let decided: Value = decided.json().await.unwrap();
    assert_eq!(decided["status"], "approved");
    assert_serves(
        &app,
        decided["paymentProof"].as_str().unwrap(),
        PNG,
        "image/png",
    )
    .await;
}

async fn only_the_buyers_token_opens_its_purchase(app: TestApp) {
    let shop = shop(&app).await;
    let mine = buy(&app, shop, &[1], "mia@example.com").await;
    let theirs = buy(&app, shop, &[2], "otro@example.com").await;
    let wrong = "x".repeat(mine.token.len());

    // Wrong token, another purchase's token, an unknown purchase: all one 404.
    for (id, token) in [
        (mine.id, wrong.as_str()),
        (mine.id, theirs.token.as_str()),
        (mine.id, ""),
        (999_999, mine.token.as_str()),
    ] {
        let response = ask_upload(
            &app,
            &json!({"filename": "a.png", "contentType": "image/png", "size": 74, "purchaseId": id, "purchaseToken": token}),
            None,
        )
        .await;
        let body = expect_error(response, StatusCode::NOT_FOUND, "purchase_not_found").await;
        assert_eq!(body["message"], "Compra no encontrada");

        let response = attach(&app, id, token, None).await;
        expect_error(response, StatusCode::NOT_FOUND, "purchase_not_found").await;

        let response = app
            .get(&format!("/api/purchases/{id}/invoice?token={token}"))
            .await;
        expect_error(response, StatusCode::NOT_FOUND, "purchase_not_found").await;
        let response = app
            .get(&format!(
                "/api/purchases/{id}/invoice?token={token}&format=pdf"
            ))
            .await;
        expect_error(response, StatusCode::NOT_FOUND, "purchase_not_found").await;
    }

    // The other buyer uploads a proof of their own and tries to attach it to mine.
    let upload = grant(&app, &theirs, "pago.png", "image/png", PNG.len()).await;
    put_ok(&app, &upload, PNG).await;
    let response = attach(&app, mine.id, &theirs.token, None).await;
    expect_error(response, StatusCode::NOT_FOUND, "purchase_not_found").await;
    assert!(admin_purchase(&app, mine.id).await["paymentProof"].is_null());
    // Theirs still attaches to theirs.
    attach_ok(&app, &theirs).await;
    assert!(admin_purchase(&app, mine.id).await["paymentProof"].is_null());
    assert_serves(&app, &proof_link(&app, theirs.id).await, PNG, "image/png").await;
}

async fn an_upload_url_works_once_and_only_for_its_own_purchase(app: TestApp) {
    let shop = shop(&app).await;
    let a = buy(&app, shop, &[10], "a@example.com").await;
    let b = buy(&app, shop, &[11], "b@example.com").await;

    let for_a = grant(&app, &a, "a.png", "image/png", PNG.len()).await;
    let for_b = grant(&app, &b, "b.png", "image/png", PNG.len()).await;
    assert_ne!(for_a.url, for_b.url);
    put_ok(&app, &for_a, PNG).await;

    // A used URL is refused, whatever is sent the second time.
    let reused = put_file(&app, &for_a, exe(1000)).await;
    expect_error(reused, StatusCode::CONFLICT, "upload_url_used").await;

    // The upload must be what was declared, and the grant must be genuine.
    let mut as_gif = Upload {
        url: for_b.url.clone(),
        headers: vec![("Content-Type".to_owned(), "image/gif".to_owned())],
    };
    let response = put_file(&app, &as_gif, b"GIF89a....".to_vec()).await;
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    as_gif.url = tamper(&for_b.url);
    as_gif.headers = for_b.headers.clone();
    let response = put_file(&app, &as_gif, PNG.to_vec()).await;
    expect_error(response, StatusCode::FORBIDDEN, "upload_url_invalid").await;
    for url in [
        format!("/api/uploads/{}", app.admin_token),
        "/api/uploads/garbage".to_owned(),
    ] {
        let fake = Upload {
            url,
            headers: for_b.headers.clone(),
        };
        let response = put_file(&app, &fake, PNG.to_vec()).await;
        assert!(
            response.status().is_client_error(),
            "PUT {}: {}",
            fake.url,
            response.status()
        );
    }

    // A's upload does not become B's proof, even when B names A's URL.
    let response = app
        .request(
            Method::PUT,
            &format!("/api/purchases/{}/payment-proof", b.id),
        )
        .json(&json!({"purchaseToken": b.token, "paymentProofURL": for_a.url}))
        .send()
        .await
        .unwrap();
    expect_error(response, StatusCode::UNPROCESSABLE_ENTITY, "proof_missing").await;
    assert!(admin_purchase(&app, b.id).await["paymentProof"].is_null());

    attach_ok(&app, &a).await;
    assert_serves(&app, &proof_link(&app, a.id).await, PNG, "image/png").await;
    assert!(admin_purchase(&app, b.id).await["paymentProof"].is_null());
    // Every upload lives under its own purchase.
    assert!(local_files(&app, b.id).is_empty());
    assert_eq!(local_files(&app, a.id).len(), 1);
}

async fn a_decided_purchase_takes_no_new_proof(app: TestApp) {
    let shop = shop(&app).await;
    let approved = buy(&app, shop, &[20], "a@example.com").await;
    let rejected = buy(&app, shop, &[21], "r@example.com").await;
    send_proof(&app, &approved, PNG, "pago.png", "image/png").await;
    // A URL granted before the decision, used after it.
    let late = grant(&app, &approved, "otro.pdf", "application/pdf", PDF.len()).await;
    let unused = grant(&app, &rejected, "pago.png", "image/png", PNG.len()).await;

    assert_eq!(
        app.decide(approved.id, "approved", None).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        app.decide(rejected.id, "rejected", Some("Pago no recibido"))
            .await
            .status(),
        StatusCode::OK
    );

    for purchase in [&approved, &rejected] {
        let response = ask_upload(
            &app,
            &json!({"filename": "a.png", "contentType": "image/png", "size": 74, "purchaseId": purchase.id, "purchaseToken": purchase.token}),
            None,
        )
        .await;
        expect_error(response, StatusCode::CONFLICT, "purchase_not_pending").await;
        let response = attach(&app, purchase.id, &purchase.token, None).await;
        expect_error(response, StatusCode::CONFLICT, "purchase_not_pending").await;
    }
    // Whatever reaches the store through an old URL is never attached.
    let _ = put_file(&app, &late, PDF.to_vec()).await;
    let _ = put_file(&app, &unused, PNG.to_vec()).await;
    let response = attach(&app, approved.id, &approved.token, None).await;
    expect_error(response, StatusCode::CONFLICT, "purchase_not_pending").await;
    let response = attach(&app, rejected.id, &rejected.token, Some("en")).await;
    let body = expect_error(response, StatusCode::CONFLICT, "purchase_not_pending").await;
    assert!(
        body["message"].as_str().unwrap().contains("already"),
        "{body}"
    );
    assert_serves(&app, &proof_link(&app, approved.id).await, PNG, "image/png").await;
    assert!(admin_purchase(&app, rejected.id).await["paymentProof"].is_null());
}

async fn the_purchase_token_appears_only_in_the_purchase_answer(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[30, 31], "leak@example.com").await;
    let token = purchase.token.clone();
    let mut answers: Vec<(String, String)> = Vec::new();

    let response = ask_upload(
        &app,
        &json!({"filename": "p.png", "contentType": "image/png", "size": 74, "purchaseId": purchase.id, "purchaseToken": token}),
        None,
    )
    .await;
    let upload_answer = response.text().await.unwrap();
    answers.push(("upload URL".into(), upload_answer.clone()));
    let upload_answer: Value = serde_json::from_str(&upload_answer).unwrap();
    let upload = Upload {
        url: upload_answer["uploadURL"].as_str().unwrap().to_owned(),
        headers: vec![("Content-Type".to_owned(), "image/png".to_owned())],
    };
    let response = put_file(&app, &upload, PNG.to_vec()).await;
    answers.push(("upload".into(), response.text().await.unwrap()));
    let response = attach(&app, purchase.id, &token, None).await;
    answers.push(("attach".into(), response.text().await.unwrap()));

    let admin_paths = [
        format!("/api/admin/purchases/{}", purchase.id),
        "/api/admin/purchases".to_owned(),
        "/api/admin/purchases/search?status=all".to_owned(),
        format!(
            "/api/admin/purchases/search?name=Mar%C3%ADa&raffleId={}",
            shop.0
        ),
        "/api/admin/mail-outbox".to_owned(),
        format!("/api/purchases/{}/invoice", purchase.id),
        format!("/api/purchases/{}/invoice?format=pdf", purchase.id),
        "/api/admin/stats".to_owned(),
    ];
    for path in admin_paths {
        let response = app.as_admin(Method::GET, &path).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "GET {path}");
        answers.push((
            path,
            String::from_utf8_lossy(&response.bytes().await.unwrap()).into(),
        ));
    }
    let response = app
        .request(Method::POST, "/api/verify-tickets")
        .json(&json!({"email": "leak@example.com"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    answers.push(("verify-tickets".into(), response.text().await.unwrap()));
    for path in [
        format!("/api/raffles/{}", shop.0),
        format!("/api/raffles/{}/tickets", shop.0),
        format!("/api/purchases/{}/invoice?token={token}", purchase.id),
    ] {
        let response = app.get(&path).await;
        assert_eq!(response.status(), StatusCode::OK, "GET {path}");
        let text = response.text().await.unwrap();
        answers.push((path.replace(&token, "<token>"), text));
    }
    let link = proof_link(&app, purchase.id).await;
    answers.push(("proof link".into(), link));
    let decided = app.decide(purchase.id, "approved", Some("ok")).await;
    answers.push(("decision".into(), decided.text().await.unwrap()));

    for (what, text) in &answers {
        assert!(
            !text.contains(&token),
            "{what} gives out the purchase token"
        );
    }
    assert!(
        !upload.url.contains(&token),
        "the upload URL names the token"
    );

    // An admin's test purchase holds nothing and has no token to give.
    let form = app.purchase_form(shop.1, &[99], "13.00", "test@example.com");
    let response = app
        .post_form(
            &format!("/api/admin/raffles/{}/purchase", shop.0),
            form,
            Some(&app.admin_token),
        )
        .await;
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert!(status.is_success(), "{body}");
    assert_eq!(body["testMode"], true);
    assert!(body["purchaseToken"].is_null(), "{body}");
}

/// Sends `total` bytes of PNG-looking data in chunks with no `Content-Length`, as a client that
/// does not say how much it sends; answers the status code the server gave.
fn put_chunked(base: &str, path: &str, content_type: &str, total: usize) -> u16 {
    let address = base.strip_prefix("http://").unwrap();
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    let mut reader = stream.try_clone().unwrap();
    let read = std::thread::spawn(move || {
        let mut answer = Vec::new();
        let mut buffer = [0_u8; 4096];
        while let Ok(n) = reader.read(&mut buffer) {
            if n == 0 {
                break;
            }
            answer.extend_from_slice(&buffer[..n]);
            if answer.windows(4).any(|w| w == b"\r\n\r\n") {
                break;
            }
        }
        answer
    });
    let head = format!(
        "PUT {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: {content_type}\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    let body = padded(&PNG[..16], total);
    let mut write = || -> std::io::Result<()> {
        stream.write_all(head.as_bytes())?;
        for chunk in body.chunks(64 * 1024) {
            write!(stream, "{:x}\r\n", chunk.len())?;
            stream.write_all(chunk)?;
            stream.write_all(b"\r\n")?;
        }
        stream.write_all(b"0\r\n\r\n")
    };
    // The server may stop reading (and close) once past the limit.
    let _ = write();
    let answer = read.join().unwrap();
    let status_line = String::from_utf8_lossy(&answer);
    status_line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP answer: {status_line:?}"))
}

async fn a_body_over_5_mb_is_cut_off_at_the_upload(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[40], "big@example.com").await;

    // Declared by Content-Length (the URL was asked for a 5 MB file).
    let upload = grant(&app, &purchase, "grande.png", "image/png", FIVE_MB).await;
    let response = put_file(&app, &upload, padded(PNG, SIX_MB)).await;
    let body = expect_error(response, StatusCode::PAYLOAD_TOO_LARGE, "proof_too_large").await;
    assert_eq!(body["message"], TOO_LARGE_ES);
    let response = attach(&app, purchase.id, &purchase.token, None).await;
    expect_error(response, StatusCode::UNPROCESSABLE_ENTITY, "proof_missing").await;

    // Streamed without a length: reading stops at the limit and nothing is kept.
    let upload = grant(&app, &purchase, "grande.png", "image/png", FIVE_MB).await;
    let base = app.base.clone();
    let url = upload.url.clone();
    let status = tokio::task::spawn_blocking(move || put_chunked(&base, &url, "image/png", SIX_MB))
        .await
        .unwrap();
    assert_eq!(status, 413);
    assert!(local_files(&app, purchase.id).is_empty());
    let response = attach(&app, purchase.id, &purchase.token, Some("en")).await;
    let body = expect_error(response, StatusCode::UNPROCESSABLE_ENTITY, "proof_missing").await;
    assert_eq!(body["message"], MISSING_EN);

    // Exactly 5 MB is allowed.
    let upload = grant(&app, &purchase, "justo.png", "image/png", FIVE_MB).await;
    let exactly = padded(PNG, FIVE_MB);
    put_ok(&app, &upload, &exactly).await;
    attach_ok(&app, &purchase).await;
    let link = proof_link(&app, purchase.id).await;
    assert_serves(&app, &link, &exactly, "image/png").await;
}

async fn a_renamed_executable_is_refused_at_attach_and_a_good_file_then_attaches(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[50], "exe@example.com").await;

    // Its name and declared type say PNG; its bytes say Windows executable.
    let upload = grant(&app, &purchase, "proof.png", "image/png", 20_000).await;
    put_ok(&app, &upload, &exe(20_000)).await;
    assert_eq!(local_files(&app, purchase.id).len(), 1);
    let response = attach(&app, purchase.id, &purchase.token, None).await;
    let body = expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "proof_wrong_type",
    )
    .await;
    assert_eq!(body["message"], WRONG_TYPE_ES);
    assert!(
        local_files(&app, purchase.id).is_empty(),
        "a refused file is deleted"
    );
    let seen = admin_purchase(&app, purchase.id).await;
    assert!(seen["paymentProof"].is_null());
    assert_eq!(
        seen["proofProblem"], "wrong_type",
        "admins see why the proof was refused"
    );

    // Again, in English; and an empty file is no proof either.
    let upload = grant(&app, &purchase, "proof.pdf", "application/pdf", 300).await;
    put_ok(&app, &upload, &exe(300)).await;
    let response = attach(&app, purchase.id, &purchase.token, Some("en")).await;
    let body = expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "proof_wrong_type",
    )
    .await;
    assert_eq!(body["message"], WRONG_TYPE_EN);
    let empty = json!({
        "filename": "vacio.png",
        "contentType": "image/png",
        "size": 0,
        "purchaseId": purchase.id,
        "purchaseToken": purchase.token,
    });
    let response = ask_upload(&app, &empty, None).await;
    let body = expect_error(response, StatusCode::UNPROCESSABLE_ENTITY, "proof_missing").await;
    assert_eq!(body["message"], MISSING_ES);
    assert!(local_files(&app, purchase.id).is_empty());

    // A good file after the refusals attaches, and is served as what its bytes are.
    send_proof(&app, &purchase, PDF, "recibo.pdf", "application/pdf").await;
    assert!(
        admin_purchase(&app, purchase.id)
            .await
            .get("proofProblem")
            .is_none(),
        "an attached proof clears the refusal"
    );
    let link = proof_link(&app, purchase.id).await;
    assert_serves(&app, &link, PDF, "application/pdf").await;
    assert_eq!(
        open(&app, &link).await.headers()["x-content-type-options"],
        "nosniff"
    );
}

async fn declared_types_and_sizes_are_judged_before_the_upload(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[60], "declare@example.com").await;
    let ask = |filename: &str, content_type: Option<&str>, size: Option<u64>| {
        json!({
            "filename": filename,
            "contentType": content_type,
            "size": size,
            "purchaseId": purchase.id,
            "purchaseToken": purchase.token,
        })
    };

    for body in [
        ask("virus.exe", Some("application/x-msdownload"), Some(1000)),
        ask("proof.png", Some("application/x-msdownload"), Some(1000)),
        ask("virus.exe", None, Some(1000)),
        ask("sin-extension", None, Some(1000)),
        ask("pagina.html", Some("text/html"), Some(1000)),
    ] {
        let response = ask_upload(&app, &body, None).await;
        let error = expect_error(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "proof_wrong_type",
        )
        .await;
        assert_eq!(error["message"], WRONG_TYPE_ES, "{body}");
        let response = ask_upload(&app, &body, Some("en")).await;
        let error = expect_error(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "proof_wrong_type",
        )
        .await;
        assert_eq!(error["message"], WRONG_TYPE_EN, "{body}");
    }

    let too_big = ask("grande.png", Some("image/png"), Some(5 * 1024 * 1024 + 1));
    let response = ask_upload(&app, &too_big, None).await;
    let error = expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "proof_too_large",
    )
    .await;
    assert_eq!(error["message"], TOO_LARGE_ES);
    let response = ask_upload(&app, &too_big, Some("en")).await;
    let error = expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "proof_too_large",
    )
    .await;
    assert_eq!(error["message"], TOO_LARGE_EN);

    // Accepted: each allowed type, by its declared type or (with none) by its name, up to 5 MB;
    // the URL is bound to the canonical type.
    // The size must be declared: the URL is bound to it.
    let response = ask_upload(&app, &ask("a.png", Some("image/png"), None), None).await;
    let error = expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert!(error["fields"]["size"].is_string(), "{error}");

    for (body, mime) in [
        (ask("foto.JPEG", None, Some(10)), "image/jpeg"),
        (ask("foto", Some("image/jpg"), Some(10)), "image/jpeg"),
        (ask("a.gif", Some("image/gif"), Some(10)), "image/gif"),
        (
            ask("recibo.pdf", Some("application/pdf"), Some(10)),
            "application/pdf",
        ),
        (
            ask("a.png", Some("image/png"), Some(5 * 1024 * 1024)),
            "image/png",
        ),
    ] {
        let response = ask_upload(&app, &body, None).await;
        let status = response.status();
        let answer: Value = response.json().await.unwrap();
        assert_eq!(status, StatusCode::OK, "{body}: {answer}");
        let content_type = answer["uploadHeaders"]
            .as_object()
            .unwrap()
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
            .map(|(_, v)| v.clone());
        assert_eq!(content_type, Some(json!(mime)), "{body}");
    }
}

async fn attaching_with_nothing_uploaded_is_proof_missing(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[70], "nada@example.com").await;

    // Never asked for an upload URL.
    let response = attach(&app, purchase.id, &purchase.token, None).await;
    let body = expect_error(response, StatusCode::UNPROCESSABLE_ENTITY, "proof_missing").await;
    assert_eq!(body["message"], MISSING_ES);

    // Asked, but sent nothing.
    let _unused = grant(&app, &purchase, "pago.png", "image/png", PNG.len()).await;
    let response = attach(&app, purchase.id, &purchase.token, None).await;
    let body = expect_error(response, StatusCode::UNPROCESSABLE_ENTITY, "proof_missing").await;
    assert_eq!(body["message"], MISSING_ES);
    assert!(admin_purchase(&app, purchase.id).await["paymentProof"].is_null());

    // The buyer starts over and it works.
    send_proof(&app, &purchase, PNG, "pago.png", "image/png").await;
    assert_serves(&app, &proof_link(&app, purchase.id).await, PNG, "image/png").await;
}

async fn a_file_must_be_the_type_it_was_sent_as(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[71], "tipo@example.com").await;

    // A PDF named `pago.png`: an accepted kind, but it would be stored and shown as a PNG.
    let upload = grant(&app, &purchase, "pago.png", "image/png", PDF.len()).await;
    put_ok(&app, &upload, PDF).await;
    let response = attach(&app, purchase.id, &purchase.token, None).await;
    let body = expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "proof_type_mismatch",
    )
    .await;
    assert_eq!(
        body["message"],
        "Tipo de archivo no válido - El archivo es un PDF pero se envió como PNG; guárdalo con la extensión .pdf y súbelo de nuevo"
    );
    assert!(local_files(&app, purchase.id).is_empty());
    assert_eq!(
        admin_purchase(&app, purchase.id).await["proofProblem"],
        "wrong_type"
    );

    send_proof(&app, &purchase, PDF, "pago.pdf", "application/pdf").await;
    assert_serves(
        &app,
        &proof_link(&app, purchase.id).await,
        PDF,
        "application/pdf",
    )
    .await;
}

async fn an_upload_must_be_the_size_declared(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[72], "talla@example.com").await;
    let upload = grant(&app, &purchase, "pago.png", "image/png", PNG.len()).await;

    for bytes in [padded(PNG, PNG.len() + 26), PNG[..50].to_vec()] {
        let response = put_file(&app, &upload, bytes).await;
        expect_error(response, StatusCode::BAD_REQUEST, "upload_size_mismatch").await;
        assert!(local_files(&app, purchase.id).is_empty());
    }
    put_ok(&app, &upload, PNG).await;
    attach_ok(&app, &purchase).await;
}

async fn a_purchase_gets_a_bounded_number_of_upload_urls_and_replaced_files_are_deleted(
    app: TestApp,
) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[73], "muchos@example.com").await;

    let first = grant(&app, &purchase, "a.png", "image/png", PNG.len()).await;
    put_ok(&app, &first, PNG).await;
    assert_eq!(local_files(&app, purchase.id).len(), 1);
    // A new URL replaces the grant, and the upload it replaces is deleted.
    let second = grant(&app, &purchase, "b.png", "image/png", PNG.len()).await;
    assert!(local_files(&app, purchase.id).is_empty());
    put_ok(&app, &second, PNG).await;
    for _ in 3..=rifa_app::proofs::MAX_UPLOAD_GRANTS {
        grant(&app, &purchase, "c.png", "image/png", PNG.len()).await;
    }
    assert!(local_files(&app, purchase.id).is_empty());

    let body = json!({
        "filename": "d.png",
        "contentType": "image/png",
        "size": PNG.len(),
        "purchaseId": purchase.id,
        "purchaseToken": purchase.token,
    });
    let response = ask_upload(&app, &body, None).await;
    let error = expect_error(response, StatusCode::TOO_MANY_REQUESTS, "too_many_uploads").await;
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("demasiadas cargas"),
        "{error}"
    );
    let response = ask_upload(&app, &body, Some("en")).await;
    let error = expect_error(response, StatusCode::TOO_MANY_REQUESTS, "too_many_uploads").await;
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("Too many proof uploads"),
        "{error}"
    );
}

async fn a_new_proof_replaces_the_old_one_and_a_refused_one_leaves_it_standing(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[74], "otra@example.com").await;
    send_proof(&app, &purchase, PNG, "pago.png", "image/png").await;

    send_proof(&app, &purchase, PDF, "recibo.pdf", "application/pdf").await;
    let files = local_files(&app, purchase.id);
    assert_eq!(files.len(), 1, "the replaced proof is deleted: {files:?}");
    assert_serves(
        &app,
        &proof_link(&app, purchase.id).await,
        PDF,
        "application/pdf",
    )
    .await;

    // A bad file afterwards is refused and deleted; the attached proof stands, unblemished.
    let upload = grant(&app, &purchase, "otro.png", "image/png", 300).await;
    put_ok(&app, &upload, &exe(300)).await;
    let response = attach(&app, purchase.id, &purchase.token, None).await;
    expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "proof_wrong_type",
    )
    .await;
    let seen = admin_purchase(&app, purchase.id).await;
    assert!(seen.get("proofProblem").is_none(), "{seen}");
    assert_serves(
        &app,
        seen["paymentProof"].as_str().unwrap(),
        PDF,
        "application/pdf",
    )
    .await;
    assert_eq!(local_files(&app, purchase.id).len(), 1);
}

async fn the_invoice_is_for_the_buyer_and_admins_in_html_and_pdf(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[613, 7, 42], "factura@example.com").await;
    assert_eq!(purchase.labels, ["0007", "0042", "0613"]);
    let base = format!("/api/purchases/{}/invoice", purchase.id);

    let response = app.get(&format!("{base}?token={}", purchase.token)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let headers = response.headers().clone();
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"),
        "{headers:?}"
    );
    let csp = headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("default-src 'none'"), "{csp}");
    assert!(
        headers["cache-control"]
            .to_str()
            .unwrap()
            .contains("no-store")
    );
    let html = response.text().await.unwrap();
    assert!(html.contains(&purchase.reference), "{html}");
    for label in &purchase.labels {
        assert!(
            html.contains(&format!("<span>{label}</span>")),
            "{label} in {html}"
        );
    }

    let response = app
        .get(&format!("{base}?token={}&format=pdf", purchase.token))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/pdf");
    let pdf = response.bytes().await.unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    let text = rifa_test_support::pdf::pdf_text(&pdf);
    assert!(text.contains(&purchase.reference), "{text}");
    for label in &purchase.labels {
        assert!(text.contains(label.as_str()), "{label} in {text}");
    }

    // An admin needs no buyer token, in either format.
    let response = app.as_admin(Method::GET, &base).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.text().await.unwrap().contains(&purchase.reference));
    let response = app
        .as_admin(Method::GET, &format!("{base}?format=pdf"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let text = rifa_test_support::pdf::pdf_text(&response.bytes().await.unwrap());
    assert!(text.contains(&purchase.reference), "{text}");

    // Nobody else.
    for path in [
        base.clone(),
        format!("{base}?format=pdf"),
        format!("{base}?token="),
    ] {
        let response = app.get(&path).await;
        expect_error(response, StatusCode::NOT_FOUND, "purchase_not_found").await;
    }
    let response = app
        .request(Method::GET, &base)
        .bearer_auth("not-a-token")
        .send()
        .await
        .unwrap();
    assert!(
        matches!(
            response.status(),
            StatusCode::NOT_FOUND | StatusCode::UNAUTHORIZED
        ),
        "{}",
        response.status()
    );
    let response = app
        .as_admin(Method::GET, "/api/purchases/999999/invoice")
        .send()
        .await
        .unwrap();
    expect_error(response, StatusCode::NOT_FOUND, "purchase_not_found").await;

    // Only HTML and PDF.
    let response = app
        .get(&format!("{base}?token={}&format=xml", purchase.token))
        .await;
    expect_error(response, StatusCode::BAD_REQUEST, "bad_request").await;
    // The invoice window's `print=1` is the only other parameter.
    let printing = app
        .get(&format!("{base}?token={}&print=1", purchase.token))
        .await;
    assert_eq!(printing.status(), StatusCode::OK);
    for extra in ["print=yes", "lang=en"] {
        let response = app
            .get(&format!("{base}?token={}&{extra}", purchase.token))
            .await;
        expect_error(response, StatusCode::BAD_REQUEST, "bad_request").await;
    }
}

async fn an_upload_never_attached_is_swept_and_an_attached_proof_stays(app: TestApp) {
    let shop = shop(&app).await;
    let abandoned = buy(&app, shop, &[80], "abandona@example.com").await;
    let upload = grant(&app, &abandoned, "pago.png", "image/png", PNG.len()).await;
    put_ok(&app, &upload, PNG).await;
    let kept = buy(&app, shop, &[81], "adjunta@example.com").await;
    send_proof(&app, &kept, PNG, "pago.png", "image/png").await;

    assert!(
        eventually(async || local_files(&app, abandoned.id).is_empty()).await,
        "the upload nobody attached is deleted"
    );
    let response = attach(&app, abandoned.id, &abandoned.token, None).await;
    let body = expect_error(response, StatusCode::UNPROCESSABLE_ENTITY, "proof_missing").await;
    assert_eq!(body["message"], MISSING_ES, "its grant is withdrawn too");

    assert_eq!(
        local_files(&app, kept.id).len(),
        1,
        "an attached proof is never swept"
    );
    assert_serves(&app, &proof_link(&app, kept.id).await, PNG, "image/png").await;

    // The buyer can still start over.
    send_proof(&app, &abandoned, PNG, "otra.png", "image/png").await;
    assert_serves(
        &app,
        &proof_link(&app, abandoned.id).await,
        PNG,
        "image/png",
    )
    .await;
}

// ---------------------------------------------------------------------------------------------
// On S3: a real S3-compatible server (moto, from PyPI) started by the test.

const BUCKET: &str = "rifa-proofs";

/// An API whose proofs live in a fresh bucket on its own moto server, and whose e-mails go to
/// its own SMTP server: the production configuration, with real servers.
struct OnS3 {
    app: TestApp,
    /// The same bucket as the API sees it, to look behind its back.
    store: S3Store,
    server: S3Server,
    smtp: SmtpServer,
}

impl OnS3 {
    /// On SQLite, or on PostgreSQL (`None` when PostgreSQL is unreachable and not required,
    /// as [`TestApp::postgres`] does).
    async fn start(postgres: bool) -> Option<Self> {
        Self::start_with(postgres, |config| config).await
    }

    async fn start_with(postgres: bool, adjust: impl FnOnce(Config) -> Config) -> Option<Self> {
        let mut config = if postgres {
            let url = rifa_test_support::postgres_database().await?;
            let mut config = Config::for_tests(url, rifa_test_support::scratch_dir());
            config.db_max_connections = 10;
            config
        } else {
            TestApp::sqlite_config()
        };
        let server = tokio::task::spawn_blocking(S3Server::moto).await.unwrap();
        let s3 = S3Config {
            bucket: BUCKET.to_owned(),
            region: "us-east-1".to_owned(),
            endpoint_url: Some(server.endpoint()),
            force_path_style: true,
            access_key_id: server.access_key.clone(),
            secret_access_key: server.secret_key.clone().into(),
            conditional_writes: true,
        };
        let store = S3Store::new(s3.clone());
        store.create_bucket_if_missing().await.unwrap();
        config.storage = StorageConfig::S3(s3);
        let smtp = tokio::task::spawn_blocking(SmtpServer::start)
            .await
            .unwrap();
        smtp_to(&mut config, smtp.port());
        let app = TestApp::start(adjust(config), postgres).await;
        Some(Self {
            app,
            store,
            server,
            smtp,
        })
    }

    /// The object key an upload URL writes (`{endpoint}/{bucket}/{key}?X-Amz-…`).
    fn key_of(&self, upload: &Upload) -> String {
        let prefix = format!("{}/{BUCKET}/", self.server.endpoint());
        let rest = upload
            .url
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("not a path-style URL of the bucket: {}", upload.url));
        rest.split('?').next().unwrap().to_owned()
    }
}

macro_rules! on_both_with_s3 {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name(super::OnS3::start(false).await.unwrap()).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(s3) = super::OnS3::start(true).await {
                    super::$name(s3).await;
                }
            }
        }
    )+};
}

on_both_with_s3!(
    on_s3_the_whole_sequence_works_through_presigned_urls,
    on_s3_refused_files_are_deleted_from_the_bucket,
);

mod on_s3_an_upload_never_attached_is_swept_from_the_bucket {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        let s3 = super::OnS3::start_with(false, super::sweeping)
            .await
            .unwrap();
        super::on_s3_an_upload_never_attached_is_swept_from_the_bucket(s3).await;
    }
}

async fn on_s3_an_upload_never_attached_is_swept_from_the_bucket(s3: OnS3) {
    let app = &s3.app;
    let shop = shop(app).await;
    let abandoned = buy(app, shop, &[90], "s3-abandona@example.com").await;
    let upload = grant(app, &abandoned, "pago.pdf", "application/pdf", PDF.len()).await;
    let key = s3.key_of(&upload);
    put_ok(app, &upload, PDF).await;
    let kept = buy(app, shop, &[91], "s3-adjunta@example.com").await;
    send_proof(app, &kept, PNG, "pago.png", "image/png").await;

    assert!(
        eventually(async || s3.store.head(&key).await.unwrap().is_none()).await,
        "the upload nobody attached is deleted from the bucket"
    );
    let response = attach(app, abandoned.id, &abandoned.token, None).await;
    expect_error(response, StatusCode::UNPROCESSABLE_ENTITY, "proof_missing").await;
    // An attached proof is never swept.
    assert_serves(app, &proof_link(app, kept.id).await, PNG, "image/png").await;
}

async fn on_s3_the_whole_sequence_works_through_presigned_urls(s3: OnS3) {
    let app = &s3.app;
    let shop = shop(app).await;
    let mut admin_panel = authenticate(&app.ws_url(), &app.admin_token).await;
    let purchase = buy(app, shop, &[5, 6], "s3@example.com").await;
    let notice = next_json(&mut admin_panel).await;
    assert_eq!(
        notice["data"]["purchaseId"], purchase.id,
        "the panel hears it live"
    );

    let upload = grant(app, &purchase, "comprobante.png", "image/png", PNG.len()).await;
    let key = s3.key_of(&upload);
    assert!(
        key.starts_with(&format!("proofs/{}/", purchase.id)) && key.ends_with(".png"),
        "{key}"
    );
    assert!(upload.url.contains("X-Amz-Signature="), "{}", upload.url);
    assert_eq!(upload.header("content-type"), Some("image/png"));
    assert_eq!(upload.header("if-none-match"), Some("*"));
    assert!(upload.header("host").is_none());

    // The browser sends the bytes straight to the bucket.
    let response = put_file(app, &upload, PNG.to_vec()).await;
    assert!(response.status().is_success(), "{}", response.status());
    // Once.
    let response = put_file(app, &upload, exe(PNG.len())).await;
    assert_eq!(response.status(), StatusCode::PRECONDITION_FAILED);
    assert_eq!(s3.store.head(&key).await.unwrap().unwrap().size, 74);

    attach_ok(app, &purchase).await;
    let link = proof_link(app, purchase.id).await;
    assert!(
        link.starts_with(&s3.server.endpoint()) && link.contains(&key),
        "an object-store link: {link}"
    );
    assert_serves(app, &link, PNG, "image/png").await;
    // The local store's routes are not there to reach the bucket.
    let token = link.rsplit('/').next().unwrap();
    for path in [format!("/uploads/{token}"), format!("/api/proofs/{token}")] {
        assert_eq!(
            open(app, &path).await.status(),
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    let local = Upload {
        url: "/api/uploads/anything".to_owned(),
        headers: upload.headers.clone(),
    };
    assert_eq!(
        put_file(app, &local, PNG.to_vec()).await.status(),
        StatusCode::NOT_FOUND
    );

    // The invoice and the decision work the same.
    let response = app
        .get(&format!(
            "/api/purchases/{}/invoice?token={}",
            purchase.id, purchase.token
        ))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let decided = app.decide(purchase.id, "approved", None).await;
    assert_eq!(decided.status(), StatusCode::OK);
    let decided: Value = decided.json().await.unwrap();
    // The buyer hears twice over SMTP, each time with the receipt.
    let mails = wait_for(&s3.smtp, 2).await;
    assert_eq!(mails.len(), 2);
    for mail in &mails {
        assert_eq!(mail.to, vec!["s3@example.com".to_owned()]);
        assert!(
            pdf_of(mail).contains("0005"),
            "the receipt lists the numbers"
        );
    }
    assert!(
        mails
            .iter()
            .any(|m| m.subject.starts_with("¡Compra aprobada!"))
    );
    assert_serves(
        app,
        decided["paymentProof"].as_str().unwrap(),
        PNG,
        "image/png",
    )
    .await;
    let response = ask_upload(
        app,
        &json!({"filename": "a.png", "contentType": "image/png", "size": 74, "purchaseId": purchase.id, "purchaseToken": purchase.token}),
        None,
    )
    .await;
    expect_error(response, StatusCode::CONFLICT, "purchase_not_pending").await;
}

async fn on_s3_refused_files_are_deleted_from_the_bucket(s3: OnS3) {
    let app = &s3.app;
    let shop = shop(app).await;
    let purchase = buy(app, shop, &[8], "s3-exe@example.com").await;

    // A renamed executable reaches the bucket (a presigned PUT cannot look inside)…
    let upload = grant(app, &purchase, "proof.png", "image/png", 4096).await;
    let key = s3.key_of(&upload);
    let response = put_file(app, &upload, exe(4096)).await;
    assert!(response.status().is_success(), "{}", response.status());
    assert!(s3.store.head(&key).await.unwrap().is_some());
    // …and is judged by its bytes on attach, then deleted.
    let response = attach(app, purchase.id, &purchase.token, None).await;
    let body = expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "proof_wrong_type",
    )
    .await;
    assert_eq!(body["message"], WRONG_TYPE_ES);
    assert!(s3.store.head(&key).await.unwrap().is_none());
    let response = app
        .client
        .get(format!("{}/{BUCKET}/{key}", s3.server.endpoint()))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert!(admin_purchase(app, purchase.id).await["paymentProof"].is_null());

    // The URL is signed for 5 MB, but moto checks no signature (AWS and s3s-fs refuse the
    // longer body: rifa-storage's tests), so 6 MB reaches the bucket; the attach refuses it.
    let upload = grant(app, &purchase, "grande.png", "image/png", FIVE_MB).await;
    let key = s3.key_of(&upload);
    let response = put_file(app, &upload, padded(PNG, SIX_MB)).await;
    assert!(response.status().is_success(), "{}", response.status());
    let response = attach(app, purchase.id, &purchase.token, Some("en")).await;
    let body = expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "proof_too_large",
    )
    .await;
    assert_eq!(body["message"], TOO_LARGE_EN);
    assert!(s3.store.head(&key).await.unwrap().is_none());

    // Nothing uploaded at all.
    let _unused = grant(app, &purchase, "pago.pdf", "application/pdf", PDF.len()).await;
    let response = attach(app, purchase.id, &purchase.token, None).await;
    expect_error(response, StatusCode::UNPROCESSABLE_ENTITY, "proof_missing").await;

    // Then a real proof attaches.
    let upload = grant(app, &purchase, "recibo.pdf", "application/pdf", PDF.len()).await;
    put_ok(app, &upload, PDF).await;
    attach_ok(app, &purchase).await;
    assert_serves(
        app,
        &proof_link(app, purchase.id).await,
        PDF,
        "application/pdf",
    )
    .await;
}

/// Uploads `bytes` as `filename` of type `mime` and tries to attach them, in `lang`.
async fn try_proof(
    app: &TestApp,
    purchase: &Bought,
    bytes: &[u8],
    filename: &str,
    mime: &str,
    lang: Option<&str>,
) -> Response {
    let upload = grant(app, purchase, filename, mime, bytes.len()).await;
    put_ok(app, &upload, bytes).await;
    attach(app, purchase.id, &purchase.token, lang).await
}

async fn files_that_only_start_like_a_proof_are_refused_as_damaged(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[60], "dano@example.com").await;

    let signature = try_proof(
        &app,
        &purchase,
        PNG_SIGNATURE_ONLY,
        "pago.png",
        "image/png",
        None,
    )
    .await;
    let html = try_proof(
        &app,
        &purchase,
        HTML_BEHIND_PDF_SIGNATURE,
        "pago.pdf",
        "application/pdf",
        Some("en"),
    )
    .await;

    let body = expect_error(
        signature,
        StatusCode::UNPROCESSABLE_ENTITY,
        "proof_unreadable",
    )
    .await;
    assert_eq!(
        body["message"],
        "Archivo dañado - El archivo no es un PNG válido; ábrelo para comprobarlo y súbelo de nuevo"
    );
    let body = expect_error(html, StatusCode::UNPROCESSABLE_ENTITY, "proof_unreadable").await;
    assert_eq!(
        body["message"],
        "Damaged file - The file is not a valid PDF; open it to check it and upload it again"
    );
    assert!(
        local_files(&app, purchase.id).is_empty(),
        "refused files are deleted"
    );
    assert!(admin_purchase(&app, purchase.id).await["paymentProof"].is_null());
    // A real file then attaches.
    send_proof(&app, &purchase, PDF, "pago.pdf", "application/pdf").await;
}

async fn an_image_over_40_megapixels_is_refused_from_its_header(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[61], "grande@example.com").await;
    let huge = png_claiming(30_000, 30_000);

    let response = try_proof(&app, &purchase, &huge, "pago.png", "image/png", Some("en")).await;

    let body = expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "proof_too_many_pixels",
    )
    .await;
    assert_eq!(
        body["message"],
        "Image too large - The image is 30000×30000 pixels; it must have at most 40 megapixels"
    );
    assert!(local_files(&app, purchase.id).is_empty());
}

async fn proofs_are_served_sandboxed_and_never_sniffed(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[62], "sandbox@example.com").await;
    send_proof(&app, &purchase, PDF, "pago.pdf", "application/pdf").await;
    let link = proof_link(&app, purchase.id).await;
    let token = link.rsplit('/').next().unwrap();

    for path in [link.clone(), format!("/uploads/{token}")] {
        let response = open(&app, &path).await;
        assert_eq!(response.status(), StatusCode::OK, "GET {path}");
        let headers = response.headers();
        assert_eq!(headers["content-security-policy"], "sandbox", "GET {path}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "GET {path}");
        assert_eq!(headers["content-type"], "application/pdf", "GET {path}");
    }
}

async fn an_android_webp_is_a_proof_and_an_iphone_heic_is_refused_with_what_to_do(app: TestApp) {
    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[81], "android@example.com").await;
    let screenshot = webp(3, 2);
    send_proof(
        &app,
        &purchase,
        &screenshot,
        "Screenshot_2026.webp",
        "image/webp",
    )
    .await;
    assert_serves(
        &app,
        &proof_link(&app, purchase.id).await,
        &screenshot,
        "image/webp",
    )
    .await;

    // Declared as HEIC, or named .heic with no type: refused before any upload, saying what
    // to send instead, in the buyer's language.
    let iphone = buy(&app, shop, &[82], "iphone@example.com").await;
    for (filename, content_type, lang, expected) in [
        (
            "IMG_0042.HEIC",
            "image/heic",
            None,
            "Toma una captura de pantalla",
        ),
        ("IMG_0042.heic", "", Some("en"), "Take a screenshot"),
    ] {
        let body = expect_error(
            ask_upload(
                &app,
                &json!({"filename": filename, "contentType": content_type, "size": 900,
                        "purchaseId": iphone.id, "purchaseToken": iphone.token}),
                lang,
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "proof_heif",
        )
        .await;
        assert!(
            body["message"].as_str().unwrap().contains(expected),
            "{body}"
        );
    }
    // Sent as a PNG, the bytes tell: refused at attach the same way, and nothing is kept.
    let response = try_proof(&app, &iphone, HEIC_START, "pago.png", "image/png", None).await;
    expect_error(response, StatusCode::UNPROCESSABLE_ENTITY, "proof_heif").await;
    assert!(local_files(&app, iphone.id).is_empty());
}

async fn the_same_file_sent_for_two_purchases_is_flagged_on_the_second(app: TestApp) {
    let shop = shop(&app).await;
    let first = buy(&app, shop, &[91], "primero@example.com").await;
    let second = buy(&app, shop, &[92], "segundo@example.com").await;
    let other_raffle = (app.raffle("13", 100, (1, 5)).await, shop.1);
    let elsewhere = buy(&app, other_raffle, &[3], "otro@example.com").await;
    assert_eq!(
        app.admin_get(&format!("/api/admin/purchases/{}/proof-check", first.id))
            .await["status"],
        "none"
    );

    send_proof(&app, &first, PNG, "pago.png", "image/png").await;
    let check = checked(&app, first.id).await;
    assert_eq!(check["status"], "done", "{check}");
    assert_eq!(check["light"], "amber", "a picture without text: {check}");
    assert_eq!(check["signals"], json!([{"kind": "unreadable"}]));

    // The same screenshot again, for another purchase and for another raffle.
    send_proof(&app, &second, PNG, "captura.png", "image/png").await;
    send_proof(&app, &elsewhere, PNG, "pago.png", "image/png").await;
    let check = checked(&app, second.id).await;
    assert_eq!(check["light"], "red", "{check}");
    assert_eq!(
        check["signals"][0],
        json!({"kind": "exactReuse", "other": first.id})
    );
    let check = checked(&app, elsewhere.id).await;
    assert_eq!(check["light"], "red", "{check}");
    let others: Vec<&Value> = check["signals"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "exactReuse")
        .map(|s| &s["other"])
        .collect();
    assert!(others.contains(&&json!(first.id)), "{check}");

    // Another file is nobody else's.
    let third = buy(&app, shop, &[93], "tercero@example.com").await;
    send_proof(&app, &third, &webp(2, 2), "pago.webp", "image/webp").await;
    assert_eq!(checked(&app, third.id).await["light"], "amber");
}
