//! The staff's photos: uploaded from the panel, encoded by the API, served to everyone, on the
//! local store and on S3.

use reqwest::{Method, Response, StatusCode};
use rifa_api::config::StorageConfig;
use rifa_storage::{S3Config, S3Store};
use rifa_test_support::files::{HEIC_START, PDF_ONE_PAGE, decoded, webp};
use rifa_test_support::s3::S3Server;
use serde_json::{Value, json};

use crate::helpers::{Role, TestApp, expect_error};
use crate::on_both;

on_both!(
    a_photo_is_served_resized_to_everyone_and_cached_for_good,
    a_file_that_is_not_a_photo_we_serve_is_refused_in_the_admin_s_language,
    only_staff_who_set_raffles_or_prizes_upload_photos,
);

async fn upload(app: &TestApp, token: &str, bytes: Vec<u8>, lang: &str) -> Response {
    app.request(Method::POST, "/api/admin/photos")
        .bearer_auth(token)
        .header("Content-Type", "image/webp")
        .header("Accept-Language", lang)
        .body(bytes)
        .send()
        .await
        .unwrap()
}

async fn uploaded_url(app: &TestApp, bytes: Vec<u8>) -> String {
    let response = upload(app, &app.admin_token, bytes, "es").await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.unwrap();
    body["url"].as_str().unwrap().to_owned()
}

async fn a_photo_is_served_resized_to_everyone_and_cached_for_good(app: TestApp) {
    let url = uploaded_url(&app, webp(3_000, 1_000)).await;
    let again = uploaded_url(&app, webp(3_000, 1_000)).await;

    assert!(
        url.starts_with("/api/photos/") && url.ends_with(".jpg"),
        "{url}"
    );
    assert_eq!(again, url, "the same picture is one photo");
    // No session needed: it is the raffle's public picture.
    let served = app.get(&url).await;
    assert_eq!(served.status(), StatusCode::OK);
    let headers = served.headers().clone();
    assert_eq!(headers["content-type"], "image/jpeg");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    let cache = headers["cache-control"].to_str().unwrap();
    assert!(
        cache.contains("public")
            && cache.contains("max-age=31536000")
            && cache.contains("immutable"),
        "{cache}"
    );
    let bytes = served.bytes().await.unwrap();
    assert_eq!(decoded(&bytes), (image::ImageFormat::Jpeg, 1_600, 533));
    let revalidated = app
        .request(Method::GET, &url)
        .header("If-None-Match", headers["etag"].to_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(revalidated.status(), StatusCode::NOT_MODIFIED);

    // It is what a raffle's image may be.
    let raffle = app.raffle("5", 100, (1, 5)).await;
    let saved = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/raffles/{raffle}"),
            &json!({"title": "Moto", "description": "Una moto", "price": 5, "maxTickets": 100, "image": url}),
        )
        .await;
    assert_eq!(saved.status(), StatusCode::OK);
    assert_eq!(
        app.get_json(&format!("/api/raffles/{raffle}")).await["image"],
        url
    );

    let missing = format!("/api/photos/{}.jpg", "0".repeat(64));
    for path in [
        missing.as_str(),
        "/api/photos/..%2Fjwt-secret",
        "/api/photos/abc.jpg",
    ] {
        assert_eq!(
            app.get(path).await.status(),
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
}

async fn a_file_that_is_not_a_photo_we_serve_is_refused_in_the_admin_s_language(app: TestApp) {
    let token = app.admin_token.clone();
    let heic = [HEIC_START, &[0; 64]].concat();

    let pdf = upload(&app, &token, PDF_ONE_PAGE.to_vec(), "es").await;
    let iphone = upload(&app, &token, heic, "en").await;
    let huge = upload(&app, &token, vec![0; 15 * 1024 * 1024 + 1], "es").await;
    let truncated = upload(&app, &token, webp(64, 64)[..40].to_vec(), "es").await;

    let body = expect_error(pdf, StatusCode::UNPROCESSABLE_ENTITY, "photo_not_a_picture").await;
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("JPG, PNG, GIF o WEBP"),
        "{body}"
    );
    let body = expect_error(iphone, StatusCode::UNPROCESSABLE_ENTITY, "photo_heif").await;
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("iPhone HEIC photos"),
        "{body}"
    );
    let body = expect_error(huge, StatusCode::PAYLOAD_TOO_LARGE, "photo_too_large").await;
    assert!(
        body["message"].as_str().unwrap().contains("15 MB"),
        "{body}"
    );
    expect_error(
        truncated,
        StatusCode::UNPROCESSABLE_ENTITY,
        "photo_unreadable",
    )
    .await;
}

async fn only_staff_who_set_raffles_or_prizes_upload_photos(app: TestApp) {
    let reviewer = app.staff_member("rita", Role::Reviewer).await;
    let catalogue = app.staff_member("carla", Role::Catalogue).await;

    let anonymous = app
        .request(Method::POST, "/api/admin/photos")
        .body(webp(8, 8))
        .send()
        .await
        .unwrap();
    let refused = upload(&app, &reviewer, webp(8, 8), "es").await;
    let allowed = upload(&app, &catalogue, webp(8, 8), "es").await;

    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let body = expect_error(refused, StatusCode::FORBIDDEN, "forbidden").await;
    assert_eq!(body["permission"], "catalogue");
    assert_eq!(allowed.status(), StatusCode::CREATED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_s3_a_photo_is_stored_in_the_bucket_and_served_by_the_api() {
    let server = tokio::task::spawn_blocking(S3Server::moto).await.unwrap();
    let s3 = S3Config {
        bucket: "rifa-photos".to_owned(),
        region: "us-east-1".to_owned(),
        endpoint_url: Some(server.endpoint()),
        force_path_style: true,
        access_key_id: server.access_key.clone(),
        secret_access_key: server.secret_key.clone().into(),
        conditional_writes: true,
    };
    S3Store::new(s3.clone())
        .create_bucket_if_missing()
        .await
        .unwrap();
    let mut config = TestApp::sqlite_config();
    config.storage = StorageConfig::S3(s3.clone());
    let app = TestApp::start(config, false).await;

    let url = uploaded_url(&app, webp(400, 300)).await;

    let key = format!("photos/{}", url.rsplit('/').next().unwrap());
    let stored = rifa_storage::ObjectStore::read(&S3Store::new(s3), &key, 1 << 20)
        .await
        .unwrap()
        .expect("the photo is in the bucket");
    let served = app.get(&url).await.bytes().await.unwrap();
    assert_eq!(stored.first_bytes, served.to_vec());
    assert_eq!(decoded(&served), (image::ImageFormat::Jpeg, 400, 300));
}
