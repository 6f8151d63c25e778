//! The relay client against a local relay serving a recorded round: the request it makes and
//! what it does with every kind of answer (tests reach no network).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use rifa_drand::HttpBeacon;
use rifa_ports::{BeaconFetchError, BeaconSource};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const CHAIN: &str = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971";
const SIGNATURE: &str = "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b";

/// A relay answering each request with the status and body `answer` gives for its path.
async fn relay(answer: fn(&str) -> (u16, String)) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = vec![0; 4096];
            let read = socket.read(&mut request).await.unwrap();
            let head = String::from_utf8_lossy(&request[..read]).to_string();
            let path = head
                .split_whitespace()
                .nth(1)
                .unwrap_or_default()
                .to_owned();
            let (status, body) = answer(&path);
            let response = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            socket.write_all(response.as_bytes()).await.unwrap();
        }
    });
    format!("http://{address}/")
}

fn recorded(path: &str) -> (u16, String) {
    if path == format!("/{CHAIN}/public/657413") {
        (
            200,
            format!(
                r#"{{"round":657413,"randomness":"fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587","signature":"{SIGNATURE}"}}"#
            ),
        )
    } else if path == format!("/{CHAIN}/public/657414") {
        (
            200,
            format!(r#"{{"round":657413,"signature":"{SIGNATURE}"}}"#),
        )
    } else {
        (404, r#"{"error":"not found"}"#.to_owned())
    }
}

#[tokio::test]
async fn a_round_is_fetched_by_its_chain_and_number() {
    let beacon = HttpBeacon::new(&relay(recorded).await).unwrap();
    let signature = beacon.signature_of(657_413).await.unwrap();
    assert_eq!(
        signature
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>(),
        SIGNATURE
    );
}

#[tokio::test]
async fn a_missing_or_mismatched_round_is_unavailable() {
    let beacon = HttpBeacon::new(&relay(recorded).await).unwrap();
    for round in [657_414, 9] {
        assert!(matches!(
            beacon.signature_of(round).await,
            Err(BeaconFetchError::Unavailable(_))
        ));
    }
    let nobody = HttpBeacon::new("http://127.0.0.1:9").unwrap();
    assert!(nobody.signature_of(657_413).await.is_err());
}
