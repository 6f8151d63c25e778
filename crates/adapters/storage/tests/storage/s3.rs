//! S3Store against real servers: s3s-fs checks signatures and expiry like AWS; moto is the
//! server a browser can upload to (CORS) and checks neither. Both honour conditional writes.

use std::time::Duration;

use rifa_domain::proof::{ProofError, ProofKind, check_proof};
use rifa_storage::{ObjectStore, PresignedUpload, S3Config, S3Store};
use rifa_test_support::s3::S3Server;

use crate::{EXE, PDF, PNG, file, fresh_key};

const TTL: Duration = Duration::from_secs(300);

async fn store_on(server: &S3Server) -> S3Store {
    let store = S3Store::new(S3Config {
        bucket: "rifa-proofs".to_owned(),
        region: "us-east-1".to_owned(),
        endpoint_url: Some(server.endpoint()),
        force_path_style: true,
        access_key_id: server.access_key.clone(),
        secret_access_key: server.secret_key.clone().into(),
        conditional_writes: true,
    });
    store.create_bucket_if_missing().await.unwrap();
    store
}

/// What a browser does with the answer: `PUT` the bytes with every listed header, and its own
/// `Content-Length` (which reqwest leaves out of an empty body). `Err` when the server cut the
/// connection while the body was still being sent.
async fn try_put(
    upload: &PresignedUpload,
    bytes: Vec<u8>,
) -> Result<reqwest::StatusCode, reqwest::Error> {
    let mut request = reqwest::Client::new()
        .put(&upload.url)
        .header("content-length", bytes.len())
        .body(bytes);
    for (name, value) in &upload.headers {
        request = request.header(name, value);
    }
    Ok(request.send().await?.status())
}

async fn put(upload: &PresignedUpload, bytes: Vec<u8>) -> reqwest::StatusCode {
    try_put(upload, bytes).await.unwrap()
}

async fn get(url: &str) -> (reqwest::StatusCode, Vec<u8>) {
    let response = reqwest::get(url).await.unwrap();
    let status = response.status();
    (status, response.bytes().await.unwrap().to_vec())
}

fn header<'a>(upload: &'a PresignedUpload, name: &str) -> Option<&'a str> {
    upload
        .headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

#[tokio::test]
async fn a_presigned_put_stores_the_file_and_head_reads_its_size_and_first_bytes() {
    let server = S3Server::s3s_fs();
    let store = store_on(&server).await;
    let key = fresh_key("png");
    let bytes = file(PNG, 250_000);

    let upload = store
        .presign_upload(&key, "image/png", 250_000, TTL)
        .await
        .unwrap();
    let status = put(&upload, bytes.clone()).await;

    assert!(status.is_success(), "{status}");
    assert_eq!(header(&upload, "content-type"), Some("image/png"));
    assert_eq!(header(&upload, "if-none-match"), Some("*"));
    assert!(header(&upload, "host").is_none());
    assert!(
        header(&upload, "content-length").is_none(),
        "signed, but sent by the client's HTTP stack itself"
    );
    let head = store.head(&key).await.unwrap().unwrap();
    assert_eq!(head.size, 250_000);
    assert_eq!(head.first_bytes, bytes[..16]);
    assert_eq!(
        check_proof(head.size, &head.first_bytes),
        Ok(ProofKind::Png)
    );
}

async fn assert_a_used_upload_url_cannot_overwrite_the_file(server: &S3Server) {
    let store = store_on(server).await;
    let key = fresh_key("pdf");
    let upload = store
        .presign_upload(&key, "application/pdf", 1000, TTL)
        .await
        .unwrap();
    assert!(put(&upload, file(PDF, 1000)).await.is_success());

    let again = put(&upload, file(EXE, 1000)).await;

    assert_eq!(again, reqwest::StatusCode::PRECONDITION_FAILED);
    let head = store.head(&key).await.unwrap().unwrap();
    assert_eq!((head.size, &head.first_bytes[..4]), (1000, &PDF[..4]));
}

#[tokio::test]
async fn a_used_upload_url_cannot_overwrite_the_file_on_s3s_fs() {
    assert_a_used_upload_url_cannot_overwrite_the_file(&S3Server::s3s_fs()).await;
}

#[tokio::test]
async fn a_used_upload_url_cannot_overwrite_the_file_on_moto() {
    assert_a_used_upload_url_cannot_overwrite_the_file(&S3Server::moto()).await;
}

#[tokio::test]
async fn a_tampered_upload_url_is_refused() {
    let server = S3Server::s3s_fs();
    let store = store_on(&server).await;
    let key = fresh_key("png");
    let other_key = fresh_key("png");
    let upload = store
        .presign_upload(&key, "image/png", 100, TTL)
        .await
        .unwrap();

    let to_other_key = PresignedUpload {
        url: upload.url.replace(&key, &other_key),
        headers: upload.headers.clone(),
    };
    let signature_at = upload.url.find("X-Amz-Signature=").unwrap() + "X-Amz-Signature=".len();
    let mut bad_signature = upload.url.clone();
    let flipped = if &bad_signature[signature_at..=signature_at] == "0" {
        "1"
    } else {
        "0"
    };
    bad_signature.replace_range(signature_at..=signature_at, flipped);
    let other_type = PresignedUpload {
        url: upload.url.clone(),
        headers: vec![
            ("content-type".to_owned(), "text/html".to_owned()),
            ("if-none-match".to_owned(), "*".to_owned()),
        ],
    };
    let without_condition = PresignedUpload {
        url: upload.url.clone(),
        headers: vec![("content-type".to_owned(), "image/png".to_owned())],
    };

    for (what, tampered) in [
        ("another key", to_other_key),
        (
            "a changed signature",
            PresignedUpload {
                url: bad_signature,
                headers: upload.headers.clone(),
            },
        ),
        ("another content type", other_type),
        ("the condition left out", without_condition),
    ] {
        let status = put(&tampered, file(PNG, 100)).await;
        assert_eq!(status, reqwest::StatusCode::FORBIDDEN, "{what}");
    }
    assert!(store.head(&key).await.unwrap().is_none());
    assert!(store.head(&other_key).await.unwrap().is_none());
}

#[tokio::test]
async fn an_upload_url_takes_only_the_size_it_was_signed_for() {
    let server = S3Server::s3s_fs();
    let store = store_on(&server).await;
    let key = fresh_key("png");
    let upload = store
        .presign_upload(&key, "image/png", 1_000, TTL)
        .await
        .unwrap();

    for size in [6 * 1024 * 1024, 1_001, 999] {
        // A large body may be cut off before its end rather than answered.
        let refused = try_put(&upload, file(PNG, size))
            .await
            .map_or(true, |status| status == reqwest::StatusCode::FORBIDDEN);
        assert!(refused, "{size} bytes");
        assert!(store.head(&key).await.unwrap().is_none(), "{size} bytes");
    }
    assert!(put(&upload, file(PNG, 1_000)).await.is_success());
}

#[tokio::test]
async fn an_expired_upload_url_is_refused() {
    let server = S3Server::s3s_fs();
    let store = store_on(&server).await;
    let key = fresh_key("png");
    let upload = store
        .presign_upload(&key, "image/png", 100, Duration::from_secs(1))
        .await
        .unwrap();

    tokio::time::sleep(Duration::from_millis(2100)).await;
    let status = put(&upload, file(PNG, 100)).await;

    assert_eq!(status, reqwest::StatusCode::FORBIDDEN);
    assert!(store.head(&key).await.unwrap().is_none());
}

#[tokio::test]
async fn a_download_url_gets_the_bytes_until_it_expires() {
    let server = S3Server::s3s_fs();
    let store = store_on(&server).await;
    let key = fresh_key("pdf");
    let bytes = file(PDF, 123_456);
    let upload = store
        .presign_upload(&key, "application/pdf", 123_456, TTL)
        .await
        .unwrap();
    assert!(put(&upload, bytes.clone()).await.is_success());

    let url = store.presign_download(&key, TTL).await.unwrap();
    let short = store
        .presign_download(&key, Duration::from_secs(1))
        .await
        .unwrap();
    let (status, body) = get(&url).await;
    assert!(status.is_success(), "{status}");
    assert_eq!(body, bytes);

    let (tampered, _) = get(&url.replace(&key, &fresh_key("pdf"))).await;
    assert_eq!(tampered, reqwest::StatusCode::FORBIDDEN);
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let (expired, _) = get(&short).await;
    assert_eq!(expired, reqwest::StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_six_megabyte_file_and_a_renamed_exe_are_refused_on_what_head_returns() {
    let server = S3Server::s3s_fs();
    let store = store_on(&server).await;
    let large = fresh_key("jpg");
    let renamed_exe = fresh_key("pdf");
    for (key, bytes, content_type) in [
        (
            &large,
            file(b"\xFF\xD8\xFF\xE0", 6 * 1024 * 1024),
            "image/jpeg",
        ),
        (&renamed_exe, file(EXE, 40_000), "application/pdf"),
    ] {
        let upload = store
            .presign_upload(key, content_type, bytes.len() as u64, TTL)
            .await
            .unwrap();
        assert!(put(&upload, bytes).await.is_success());
    }

    let large_head = store.head(&large).await.unwrap().unwrap();
    let exe_head = store.head(&renamed_exe).await.unwrap().unwrap();

    assert_eq!(
        large_head.first_bytes.len(),
        16,
        "a ranged read, not the whole file"
    );
    assert_eq!(
        check_proof(large_head.size, &large_head.first_bytes),
        Err(ProofError::TooLarge {
            size: 6 * 1024 * 1024
        })
    );
    assert_eq!(
        check_proof(exe_head.size, &exe_head.first_bytes),
        Err(ProofError::WrongType)
    );
    store.delete(&large).await.unwrap();
    store.delete(&renamed_exe).await.unwrap();
    assert!(store.head(&large).await.unwrap().is_none());
    assert!(store.head(&renamed_exe).await.unwrap().is_none());
}

#[tokio::test]
async fn head_tells_a_missing_an_empty_and_a_tiny_object_apart() {
    let server = S3Server::s3s_fs();
    let store = store_on(&server).await;
    let empty = fresh_key("pdf");
    let tiny = fresh_key("gif");
    for (key, bytes) in [(&empty, Vec::new()), (&tiny, b"GIF89a".to_vec())] {
        let upload = store
            .presign_upload(key, "image/gif", bytes.len() as u64, TTL)
            .await
            .unwrap();
        assert!(put(&upload, bytes).await.is_success());
    }

    let missing = store.head(&fresh_key("pdf")).await.unwrap();
    let empty = store.head(&empty).await.unwrap().unwrap();
    let tiny = store.head(&tiny).await.unwrap().unwrap();

    assert!(missing.is_none());
    assert_eq!((empty.size, empty.first_bytes.len()), (0, 0));
    assert_eq!(
        (tiny.size, tiny.first_bytes.as_slice()),
        (6, &b"GIF89a"[..])
    );
    assert_eq!(
        check_proof(tiny.size, &tiny.first_bytes),
        Ok(ProofKind::Gif)
    );
}

#[tokio::test]
async fn odd_keys_are_refused_before_anything_is_signed() {
    let server = S3Server::s3s_fs();
    let store = store_on(&server).await;

    for key in [
        "../x.pdf",
        "/abs.pdf",
        "proofs//x.pdf",
        "proofs/a b.pdf",
        "",
    ] {
        assert!(
            store
                .presign_upload(key, "application/pdf", 10, TTL)
                .await
                .is_err(),
            "{key:?}"
        );
        assert!(store.presign_download(key, TTL).await.is_err(), "{key:?}");
        assert!(store.head(key).await.is_err(), "{key:?}");
        assert!(store.delete(key).await.is_err(), "{key:?}");
    }
    assert!(
        store
            .presign_upload("proofs/1/a.pdf", "application/pdf\r\nX-Evil: 1", 10, TTL)
            .await
            .is_err()
    );
}

#[tokio::test]
async fn wrong_credentials_and_a_stopped_server_are_errors_not_missing_objects() {
    let mut server = S3Server::s3s_fs();
    let store = store_on(&server).await;
    let impostor = S3Store::new(S3Config {
        bucket: "rifa-proofs".to_owned(),
        region: "us-east-1".to_owned(),
        endpoint_url: Some(server.endpoint()),
        force_path_style: true,
        access_key_id: server.access_key.clone(),
        secret_access_key: "not-the-secret".into(),
        conditional_writes: true,
    });

    assert!(impostor.head(&fresh_key("pdf")).await.is_err());
    server.stop();
    assert!(store.head(&fresh_key("pdf")).await.is_err());
}

#[tokio::test]
async fn moto_takes_a_presigned_upload_too() {
    let server = S3Server::moto();
    let store = store_on(&server).await;
    let key = fresh_key("png");
    let bytes = file(PNG, 20_000);

    let upload = store
        .presign_upload(&key, "image/png", 20_000, TTL)
        .await
        .unwrap();
    assert!(put(&upload, bytes.clone()).await.is_success());

    let head = store.head(&key).await.unwrap().unwrap();
    assert_eq!(
        (head.size, head.first_bytes.as_slice()),
        (20_000, &bytes[..16])
    );
    let (status, body) = get(&store.presign_download(&key, TTL).await.unwrap()).await;
    assert!(status.is_success(), "{status}");
    assert_eq!(body, bytes);
}

#[tokio::test]
async fn an_object_the_api_writes_is_stored_with_its_type_and_read_back() {
    let server = S3Server::s3s_fs();
    let store = store_on(&server).await;
    let key = "photos/0a1b.png";

    store.put(key, PNG.to_vec(), "image/png").await.unwrap();

    let read = store.read(key, 1 << 20).await.unwrap().unwrap();
    assert_eq!(
        (read.size, read.first_bytes.as_slice()),
        (PNG.len() as u64, PNG)
    );
    let url = store.presign_download(key, TTL).await.unwrap();
    let (status, bytes) = get(&url).await;
    assert_eq!((status.as_u16(), bytes.as_slice()), (200, PNG));
}
