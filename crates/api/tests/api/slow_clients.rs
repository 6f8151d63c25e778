//! Clients that send their body slowly or stop halfway: answered 408 in time, in the caller's
//! language, without leaving temporary files behind.

use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use rifa_api::config::BodyTimeouts;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::TestApp;

const TIMEOUTS: BodyTimeouts = BodyTimeouts {
    read: Duration::from_secs(1),
    total: Duration::from_secs(3),
};

async fn app_with_short_body_timeouts() -> TestApp {
    let mut config = TestApp::sqlite_config();
    config.body_timeouts = TIMEOUTS;
    TestApp::start(config, false).await
}

/// Sends `head` (request line and headers), then each piece of the body after its pause, over a
/// raw connection; returns the status, the JSON body and when the answer came.
async fn trickle(
    app: &TestApp,
    head: String,
    pieces: Vec<(Duration, Vec<u8>)>,
) -> (u16, Value, Duration) {
    let address = app.base.trim_start_matches("http://").to_owned();
    let stream = TcpStream::connect(address).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let started = Instant::now();
    writer.write_all(head.as_bytes()).await.unwrap();
    let sender = tokio::spawn(async move {
        for (pause, piece) in pieces {
            tokio::time::sleep(pause).await;
            if writer.write_all(&piece).await.is_err() {
                return;
            }
        }
        // Then silence, with the connection left open.
        tokio::time::sleep(Duration::from_secs(60)).await;
    });
    let mut answer = Vec::new();
    let mut buffer = [0_u8; 4096];
    let read_all = async {
        loop {
            let n = reader.read(&mut buffer).await.unwrap_or(0);
            if n == 0 {
                break;
            }
            answer.extend_from_slice(&buffer[..n]);
            if complete(&answer) {
                break;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), read_all)
        .await
        .expect("the server never answered");
    let took = started.elapsed();
    sender.abort();
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").unwrap().1;
    (
        status,
        serde_json::from_str(body).unwrap_or(Value::Null),
        took,
    )
}

/// Whether `answer` holds a whole response with a `content-length` body.
fn complete(answer: &[u8]) -> bool {
    let text = String::from_utf8_lossy(answer);
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return false;
    };
    head.lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse::<usize>().ok())
                .flatten()
        })
        .is_some_and(|length| body.len() >= length)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_purchase_whose_body_stops_arriving_is_answered_408_in_the_callers_language() {
    let app = app_with_short_body_timeouts().await;
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let head = format!(
        "POST /api/raffles/{raffle}/purchase HTTP/1.1\r\nHost: localhost\r\n\
         Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 5000\r\n\
         Accept-Language: en\r\n\r\n"
    );
    let start_of_body =
        b"--XyZ\r\nContent-Disposition: form-data; name=\"customerName\"\r\n\r\nAna".to_vec();

    let (status, body, took) = trickle(&app, head, vec![(Duration::ZERO, start_of_body)]).await;

    assert_eq!(status, 408, "{body}");
    assert_eq!(body["code"], "request_timeout");
    assert_eq!(
        body["message"],
        "The request took too long to arrive. Check your connection and try again."
    );
    assert!(took < TIMEOUTS.read * 3, "answered after {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_json_body_that_stops_arriving_is_answered_408() {
    let app = app_with_short_body_timeouts().await;
    let head = "POST /api/admin/login HTTP/1.1\r\nHost: localhost\r\n\
                Content-Type: application/json\r\nContent-Length: 200\r\n\r\n"
        .to_owned();

    let (status, body, _) = trickle(&app, head, vec![(Duration::ZERO, b"{\"user".to_vec())]).await;

    assert_eq!(status, 408, "{body}");
    assert_eq!(body["code"], "request_timeout");
    assert_eq!(
        body["message"],
        "La solicitud tardó demasiado en llegar. Revisa tu conexión e inténtalo de nuevo."
    );
}

fn partial_uploads(data_dir: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(data_dir.join("uploads").join(".tmp"))
        .map(|entries| entries.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_trickled_past_the_total_timeout_is_refused_408_and_leaves_no_partial_file() {
    let app = app_with_short_body_timeouts().await;
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let bought: Value = app
        .buy(raffle, method, &[3], 1300, "ana@example.com")
        .await
        .json()
        .await
        .unwrap();
    let size = 40;
    let granted: Value = app
        .client
        .post(app.url("/api/objects/upload"))
        .json(&json!({
            "filename": "proof.png",
            "contentType": "image/png",
            "size": size,
            "purchaseId": bought["purchase"]["id"],
            "purchaseToken": bought["purchaseToken"],
        }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let url = granted["uploadURL"].as_str().unwrap();
    assert!(url.starts_with("/api/uploads/"), "{granted}");
    let head = format!(
        "PUT {url} HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/png\r\n\
         Content-Length: {size}\r\n\r\n"
    );
    // One byte every 300 ms: never a pause past the read timeout, far past the total.
    let pieces = (0..size)
        .map(|_| (Duration::from_millis(300), vec![0x89]))
        .collect();

    let (status, body, took) = trickle(&app, head, pieces).await;

    assert_eq!(status, 408, "{body}");
    assert_eq!(body["code"], "request_timeout");
    assert!(
        took >= TIMEOUTS.total && took < TIMEOUTS.total + Duration::from_secs(2),
        "answered after {took:?}"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        partial_uploads(&app.config.data_dir),
        Vec::<std::path::PathBuf>::new()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partial_uploads_a_crash_left_behind_are_deleted_at_start() {
    let config = TestApp::sqlite_config();
    let tmp = config.data_dir.join("uploads").join(".tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let crashed = tmp.join("left-by-a-crash");
    let running = tmp.join("still-uploading");
    std::fs::write(&crashed, b"half a proof").unwrap();
    std::fs::write(&running, b"half a proof").unwrap();
    let long_ago = SystemTime::now() - config.body_timeouts.total - Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(&crashed)
        .unwrap()
        .set_modified(long_ago)
        .unwrap();

    let app = TestApp::start(config, false).await;

    assert_eq!(partial_uploads(&app.config.data_dir), vec![running]);
}
