//! LocalStore on a real directory: the upload and download routes' side of it.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::{Stream, stream};
use rifa_domain::proof::{MAX_PROOF_BYTES, ProofError, ProofKind, check_proof};
use rifa_storage::local::{DOWNLOAD_PREFIX, UPLOAD_PREFIX};
use rifa_storage::{DownloadError, LocalStore, ObjectStore, UploadError};
use tokio::io::AsyncReadExt;

use crate::{EXE, PDF, PNG, file, fresh_key};

const SECRET: &[u8] = b"a test secret of at least thirty-two bytes";
const TTL: Duration = Duration::from_secs(300);

fn store() -> LocalStore {
    LocalStore::new(rifa_test_support::scratch_dir().join("proofs"), SECRET).unwrap()
}

/// `bytes` in chunks of 64 KiB, as an HTTP body arrives.
fn body(bytes: &[u8]) -> impl Stream<Item = Result<Vec<u8>, std::io::Error>> + use<> {
    let chunks: Vec<_> = bytes.chunks(64 * 1024).map(|c| Ok(c.to_vec())).collect();
    stream::iter(chunks)
}

async fn upload_token(
    store: &LocalStore,
    key: &str,
    content_type: &str,
    size: u64,
    ttl: Duration,
) -> String {
    let upload = store
        .presign_upload(key, content_type, size, ttl)
        .await
        .unwrap();
    assert_eq!(
        upload.headers,
        vec![("Content-Type".to_owned(), content_type.to_owned())]
    );
    upload
        .url
        .strip_prefix(UPLOAD_PREFIX)
        .expect("a relative upload URL")
        .to_owned()
}

async fn download_token(store: &LocalStore, key: &str, ttl: Duration) -> String {
    let url = store.presign_download(key, ttl).await.unwrap();
    url.strip_prefix(DOWNLOAD_PREFIX)
        .expect("a relative download URL")
        .to_owned()
}

fn tmp_entries(store: &LocalStore) -> usize {
    std::fs::read_dir(store.root().join(".tmp"))
        .unwrap()
        .count()
}

/// Flips one character of a JWT's signature.
fn tamper(token: &str) -> String {
    let mut chars: Vec<char> = token.chars().collect();
    let last = chars.len() - 2;
    chars[last] = if chars[last] == 'A' { 'B' } else { 'A' };
    chars.into_iter().collect()
}

#[tokio::test]
async fn an_upload_through_its_url_is_stored_and_head_reads_it_back() {
    let store = store();
    let key = fresh_key("png");
    let bytes = file(PNG, 300_000);
    let token = upload_token(&store, &key, "image/png", 300_000, TTL).await;

    let accepted = store
        .accept_upload(&token, "image/png", body(&bytes))
        .await
        .unwrap();

    assert_eq!(accepted.key, key);
    assert_eq!(accepted.size, 300_000);
    let head = store.head(&key).await.unwrap().unwrap();
    assert_eq!(head.size, 300_000);
    assert_eq!(head.first_bytes, bytes[..16]);
    assert_eq!(
        check_proof(head.size, &head.first_bytes),
        Ok(ProofKind::Png)
    );
    assert_eq!(std::fs::read(store.root().join(&key)).unwrap(), bytes);
    assert_eq!(tmp_entries(&store), 0, "the temporary file is gone");
}

#[tokio::test]
async fn the_content_type_is_compared_without_parameters_or_case() {
    let store = store();
    let key = fresh_key("pdf");
    let token = upload_token(&store, &key, "application/pdf", 10, TTL).await;

    let accepted = store
        .accept_upload(
            &token,
            "Application/PDF; charset=binary",
            body(&file(PDF, 10)),
        )
        .await;

    assert!(accepted.is_ok(), "{accepted:?}");
}

#[tokio::test]
async fn a_used_upload_url_cannot_write_again() {
    let store = store();
    let key = fresh_key("png");
    let token = upload_token(&store, &key, "image/png", 1000, TTL).await;
    let first = file(PNG, 1000);
    store
        .accept_upload(&token, "image/png", body(&first))
        .await
        .unwrap();

    let again = store
        .accept_upload(&token, "image/png", body(&file(EXE, 1000)))
        .await;

    assert!(matches!(again, Err(UploadError::AlreadyUsed)), "{again:?}");
    assert_eq!(std::fs::read(store.root().join(&key)).unwrap(), first);
}

#[tokio::test]
async fn of_many_simultaneous_uses_of_one_url_exactly_one_wins() {
    let store = Arc::new(store());
    let key = fresh_key("pdf");
    let token = upload_token(&store, &key, "application/pdf", 200_000, TTL).await;

    let tasks: Vec<_> = (0..8u8)
        .map(|i| {
            let store = Arc::clone(&store);
            let token = token.clone();
            tokio::spawn(async move {
                let mut bytes = file(PDF, 200_000);
                bytes[100] = i;
                let result = store
                    .accept_upload(&token, "application/pdf", body(&bytes))
                    .await;
                (result, bytes)
            })
        })
        .collect();
    let mut winners = Vec::new();
    for task in tasks {
        match task.await.unwrap() {
            (Ok(_), bytes) => winners.push(bytes),
            (Err(UploadError::AlreadyUsed), _) => {}
            (Err(other), _) => panic!("unexpected {other:?}"),
        }
    }

    assert_eq!(winners.len(), 1, "exactly one upload wins");
    assert_eq!(std::fs::read(store.root().join(&key)).unwrap(), winners[0]);
    assert_eq!(tmp_entries(&store), 0);
}

#[tokio::test]
async fn a_tampered_or_foreign_token_is_refused_and_nothing_is_stored() {
    let store = store();
    let key = fresh_key("png");
    let token = upload_token(&store, &key, "image/png", 100, TTL).await;
    let other = LocalStore::new(
        rifa_test_support::scratch_dir(),
        b"another secret of at least thirty-two bytes!",
    )
    .unwrap();
    let forged = upload_token(&other, &key, "image/png", 100, TTL).await;
    let download = download_token(&store, &key, TTL).await;

    let cases = [
        ("tampered signature", tamper(&token), "bad signature"),
        ("signed with another secret", forged, "bad signature"),
        ("a download token", download, "malformed"),
        ("garbage", "not-a-token".to_owned(), "malformed"),
        ("empty", String::new(), "malformed"),
    ];
    for (what, token, expected) in cases {
        let result = store
            .accept_upload(&token, "image/png", body(&file(PNG, 100)))
            .await;
        let got = match result {
            Err(UploadError::BadSignature) => "bad signature",
            Err(UploadError::Malformed) => "malformed",
            other => panic!("{what}: unexpected {other:?}"),
        };
        assert_eq!(got, expected, "{what}");
    }
    assert!(store.head(&key).await.unwrap().is_none());
}

#[tokio::test]
async fn an_expired_upload_url_is_refused() {
    let store = store();
    let key = fresh_key("png");
    let token = upload_token(&store, &key, "image/png", 100, Duration::from_secs(1)).await;

    tokio::time::sleep(Duration::from_millis(2100)).await;
    let result = store
        .accept_upload(&token, "image/png", body(&file(PNG, 100)))
        .await;

    assert!(matches!(result, Err(UploadError::Expired)), "{result:?}");
    assert!(store.head(&key).await.unwrap().is_none());
}

#[tokio::test]
async fn an_upload_of_another_content_type_than_granted_is_refused() {
    let store = store();
    let key = fresh_key("png");
    let token = upload_token(&store, &key, "image/png", 8, TTL).await;

    let result = store
        .accept_upload(&token, "text/html", body(b"<script>"))
        .await;

    match result {
        Err(UploadError::ContentTypeMismatch { expected }) => assert_eq!(expected, "image/png"),
        other => panic!("unexpected {other:?}"),
    }
    assert!(store.head(&key).await.unwrap().is_none());
}

#[tokio::test]
async fn an_upload_stops_being_read_as_soon_as_it_passes_the_limit() {
    let store = store();
    let key = fresh_key("pdf");
    let token = upload_token(&store, &key, "application/pdf", MAX_PROOF_BYTES, TTL).await;
    // An endless body: only the limit can end it.
    let chunk = file(PDF, 64 * 1024);
    let pulled = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&pulled);
    let endless = stream::repeat_with(move || {
        counter.fetch_add(1, Ordering::SeqCst);
        Ok::<_, std::io::Error>(chunk.clone())
    });

    let result = store
        .accept_upload(&token, "application/pdf", endless)
        .await;

    assert!(
        matches!(result, Err(UploadError::TooLarge { limit }) if limit == MAX_PROOF_BYTES),
        "{result:?}"
    );
    let chunks_in_limit = usize::try_from(MAX_PROOF_BYTES).unwrap() / (64 * 1024);
    assert_eq!(pulled.load(Ordering::SeqCst), chunks_in_limit + 1);
    assert!(store.head(&key).await.unwrap().is_none());
    assert_eq!(tmp_entries(&store), 0, "the partial file is removed");
}

#[tokio::test]
async fn an_upload_of_exactly_the_limit_is_accepted_and_one_byte_more_is_not() {
    let store = store().with_max_upload_bytes(1000);
    let exact = fresh_key("png");
    let over = fresh_key("png");
    let exact_token = upload_token(&store, &exact, "image/png", 1000, TTL).await;
    let over_token = upload_token(&store, &over, "image/png", 1001, TTL).await;

    let at_limit = store
        .accept_upload(&exact_token, "image/png", body(&file(PNG, 1000)))
        .await;
    let past_limit = store
        .accept_upload(&over_token, "image/png", body(&file(PNG, 1001)))
        .await;

    assert_eq!(at_limit.unwrap().size, 1000);
    assert!(
        matches!(past_limit, Err(UploadError::TooLarge { limit: 1000 })),
        "{past_limit:?}"
    );
    assert!(store.head(&over).await.unwrap().is_none());
}

#[tokio::test]
async fn an_upload_must_be_exactly_the_size_it_was_granted_for() {
    let store = store();
    for (sent, expected) in [(1001, "stopped"), (999, "short"), (1000, "stored")] {
        let key = fresh_key("png");
        let token = upload_token(&store, &key, "image/png", 1000, TTL).await;

        let result = store
            .accept_upload(&token, "image/png", body(&file(PNG, sent)))
            .await;

        let got = match result {
            Ok(accepted) if accepted.size == 1000 => "stored",
            Err(UploadError::SizeMismatch { declared: 1000 }) if sent > 1000 => "stopped",
            Err(UploadError::SizeMismatch { declared: 1000 }) => "short",
            other => panic!("{sent} bytes: unexpected {other:?}"),
        };
        assert_eq!(got, expected, "{sent} bytes");
        assert_eq!(store.head(&key).await.unwrap().is_some(), sent == 1000);
    }
    assert_eq!(tmp_entries(&store), 0);
}

#[tokio::test]
async fn a_half_received_upload_is_never_visible_under_its_key() {
    let store = Arc::new(store());
    let key = fresh_key("png");
    let token = upload_token(&store, &key, "image/png", 3 * 4096, TTL).await;
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(1);
    let slow_body = stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|c| (c, rx)) });
    let uploading = {
        let store = Arc::clone(&store);
        tokio::spawn(async move { store.accept_upload(&token, "image/png", slow_body).await })
    };

    tx.send(Ok(file(PNG, 4096))).await.unwrap();
    tx.send(Ok(vec![7; 4096])).await.unwrap();
    let midway = store.head(&key).await.unwrap();
    tx.send(Ok(vec![7; 4096])).await.unwrap();
    drop(tx);
    let done = uploading.await.unwrap();

    assert!(
        midway.is_none(),
        "nothing under the key while the body arrives"
    );
    assert_eq!(done.unwrap().size, 3 * 4096);
    assert_eq!(store.head(&key).await.unwrap().unwrap().size, 3 * 4096);
}

#[tokio::test]
async fn a_body_that_breaks_off_stores_nothing() {
    let store = store();
    let key = fresh_key("png");
    let token = upload_token(&store, &key, "image/png", 4096, TTL).await;
    let broken = stream::iter(vec![
        Ok(file(PNG, 4096)),
        Err(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "client went away",
        )),
    ]);

    let result = store.accept_upload(&token, "image/png", broken).await;

    assert!(matches!(result, Err(UploadError::Body(_))), "{result:?}");
    assert!(store.head(&key).await.unwrap().is_none());
    assert_eq!(tmp_entries(&store), 0);
}

#[tokio::test]
async fn keys_that_could_leave_the_directory_are_refused_everywhere() {
    let store = store();
    let outside = store.root().parent().unwrap().join("outside.pdf");
    std::fs::write(&outside, file(PDF, 100)).unwrap();
    let bad_keys = [
        "../outside.pdf",
        "proofs/../../outside.pdf",
        "/etc/passwd",
        outside.to_str().unwrap(),
        "proofs\\..\\..\\outside.pdf",
        "proofs/.tmp/x",
        "",
    ];
    for key in bad_keys {
        assert!(
            store
                .presign_upload(key, "application/pdf", 100, TTL)
                .await
                .is_err(),
            "upload {key:?}"
        );
        assert!(
            store.presign_download(key, TTL).await.is_err(),
            "download {key:?}"
        );
        assert!(store.head(key).await.is_err(), "head {key:?}");
        assert!(store.delete(key).await.is_err(), "delete {key:?}");
    }
    assert!(
        outside.exists(),
        "nothing outside the directory was touched"
    );
}

#[tokio::test]
async fn a_validly_signed_grant_naming_a_path_outside_is_still_refused() {
    #[derive(serde::Serialize)]
    struct Grant<'a> {
        aud: &'a str,
        sub: &'a str,
        ct: &'a str,
        exp: u64,
    }
    let store = store();
    let sign = |aud, sub| {
        jsonwebtoken::encode(
            &jsonwebtoken::Header::default(),
            &Grant {
                aud,
                sub,
                ct: "application/pdf",
                exp: jsonwebtoken::get_current_timestamp() + 60,
            },
            &jsonwebtoken::EncodingKey::from_secret(SECRET),
        )
        .unwrap()
    };

    let upload = store
        .accept_upload(
            &sign("rifa-proof-upload", "../escaped.pdf"),
            "application/pdf",
            body(&file(PDF, 100)),
        )
        .await;
    let download = store
        .open_download(&sign("rifa-proof-download", "../../etc/passwd"))
        .await;

    assert!(matches!(upload, Err(UploadError::Malformed)), "{upload:?}");
    assert!(
        matches!(download, Err(DownloadError::Malformed)),
        "{download:?}"
    );
    assert!(!store.root().parent().unwrap().join("escaped.pdf").exists());
}

#[tokio::test]
async fn a_download_url_opens_the_file_with_the_type_its_bytes_show() {
    let store = store();
    let key = fresh_key("pdf");
    // A PNG uploaded under a PDF name and type is served as the PNG it is.
    let bytes = file(PNG, 70_000);
    let token = upload_token(&store, &key, "application/pdf", 70_000, TTL).await;
    store
        .accept_upload(&token, "application/pdf", body(&bytes))
        .await
        .unwrap();
    let download = download_token(&store, &key, TTL).await;

    let mut opened = store.open_download(&download).await.unwrap();

    assert_eq!(opened.key, key);
    assert_eq!(opened.size, 70_000);
    assert_eq!(opened.content_type, "image/png");
    assert_eq!(opened.path, store.root().join(&key));
    let mut read = Vec::new();
    opened.file.read_to_end(&mut read).await.unwrap();
    assert_eq!(read, bytes);
}

#[tokio::test]
async fn a_download_of_unknown_bytes_is_served_as_octet_stream() {
    let store = store();
    let key = fresh_key("pdf");
    let token = upload_token(&store, &key, "application/pdf", 14, TTL).await;
    store
        .accept_upload(&token, "application/pdf", body(b"<html><script>"))
        .await
        .unwrap();

    let opened = store
        .open_download(&download_token(&store, &key, TTL).await)
        .await
        .unwrap();

    assert_eq!(opened.content_type, "application/octet-stream");
}

#[tokio::test]
async fn bad_download_urls_are_refused_each_for_its_reason() {
    let store = store();
    let key = fresh_key("png");
    let token = upload_token(&store, &key, "image/png", 100, TTL).await;
    store
        .accept_upload(&token, "image/png", body(&file(PNG, 100)))
        .await
        .unwrap();
    let good = download_token(&store, &key, TTL).await;
    let short = download_token(&store, &key, Duration::from_secs(1)).await;
    let missing = download_token(&store, &fresh_key("png"), TTL).await;

    tokio::time::sleep(Duration::from_millis(2100)).await;

    assert!(store.open_download(&good).await.is_ok());
    assert!(matches!(
        store.open_download(&tamper(&good)).await,
        Err(DownloadError::BadSignature)
    ));
    assert!(matches!(
        store.open_download(&short).await,
        Err(DownloadError::Expired)
    ));
    assert!(matches!(
        store.open_download(&token).await,
        Err(DownloadError::Malformed)
    ));
    assert!(matches!(
        store.open_download(&missing).await,
        Err(DownloadError::NotFound)
    ));
}

#[tokio::test]
async fn refused_proofs_are_judged_from_head_and_deleted() {
    let store = store().with_max_upload_bytes(7 * 1024 * 1024);
    let large = fresh_key("jpg");
    let renamed_exe = fresh_key("pdf");
    for (key, bytes, content_type) in [
        (
            &large,
            file(b"\xFF\xD8\xFF\xE0", 6 * 1024 * 1024),
            "image/jpeg",
        ),
        (&renamed_exe, file(EXE, 50_000), "application/pdf"),
    ] {
        let token = upload_token(&store, key, content_type, bytes.len() as u64, TTL).await;
        store
            .accept_upload(&token, content_type, body(&bytes))
            .await
            .unwrap();
    }

    let large_head = store.head(&large).await.unwrap().unwrap();
    let exe_head = store.head(&renamed_exe).await.unwrap().unwrap();
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
    store.delete(&renamed_exe).await.unwrap();
    assert!(store.head(&large).await.unwrap().is_none());
    assert!(store.head(&renamed_exe).await.unwrap().is_none());
}

#[test]
fn a_short_secret_is_refused() {
    let result = LocalStore::new(rifa_test_support::scratch_dir(), b"too short");
    assert!(result.is_err());
}

#[tokio::test]
async fn an_object_the_api_writes_is_read_back_owner_only_and_never_replaced() {
    let store = store();
    let key = "photos/0a1b.jpg";

    store.put(key, PNG.to_vec(), "image/png").await.unwrap();
    store
        .put(key, b"other bytes".to_vec(), "image/png")
        .await
        .unwrap();

    let read = store.read(key, 1 << 20).await.unwrap().unwrap();
    assert_eq!(
        read.first_bytes, PNG,
        "the first write stays: keys name their content"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(store.root().join(key))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    assert_eq!(tmp_entries(&store), 0);
    assert!(
        store
            .put("../escape.jpg", PNG.to_vec(), "image/png")
            .await
            .is_err()
    );
}
