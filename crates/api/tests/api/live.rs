//! The admin panel's live connection: a real WebSocket client against the running server.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use rifa_api::Application;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

use crate::helpers::TestApp;
use crate::on_both;

pub(crate) type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

on_both!(
    an_authenticated_admin_hears_every_new_purchase,
    a_bad_token_or_a_wrong_first_message_is_closed_with_a_reason_and_nothing_else,
    a_signed_out_connection_hears_nothing_raised_after_the_sign_out,
    a_demoted_admins_connection_closes_before_the_next_notice,
);

async fn open(url: &str) -> Socket {
    connect_async(url).await.unwrap().0
}

pub async fn authenticate(url: &str, token: &str) -> Socket {
    let mut socket = open(url).await;
    socket
        .send(Message::text(
            json!({"type": "admin_auth", "token": token}).to_string(),
        ))
        .await
        .unwrap();
    let reply = next_json(&mut socket).await;
    assert_eq!(reply["type"], "authenticated", "{reply}");
    socket
}

/// The next text message as JSON, skipping pings; fails after 10 s.
pub async fn next_json(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("no message within 10 s")
            .expect("the connection ended")
            .unwrap();
        match message {
            Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            Message::Ping(_) | Message::Pong(_) => {}
            other => panic!("unexpected {other:?}"),
        }
    }
}

/// The close frame the server ends with, failing on anything else it sends first.
pub(crate) async fn close_reason(socket: &mut Socket) -> (CloseCode, String) {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(15), socket.next())
            .await
            .expect("not closed within 15 s")
            .expect("ended without a close frame")
            .unwrap();
        match message {
            Message::Close(Some(frame)) => return (frame.code, frame.reason.to_string()),
            Message::Ping(_) | Message::Pong(_) => {}
            other => panic!("an unauthenticated client received {other:?}"),
        }
    }
}

async fn an_authenticated_admin_hears_every_new_purchase(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let mut socket = authenticate(&app.ws_url(), &app.admin_token).await;

    let bought: Value = app
        .buy(raffle, method, &[7, 8], 1300, "ana@example.com")
        .await
        .json()
        .await
        .unwrap();
    let notice = next_json(&mut socket).await;
    assert_eq!(notice["type"], "new_purchase", "{notice}");
    assert_eq!(notice["data"]["customerName"], "María González");
    assert_eq!(notice["data"]["purchaseId"], bought["purchase"]["id"]);
    assert_eq!(notice["data"]["reference"], bought["purchase"]["reference"]);
    assert_eq!(notice["data"]["ticketCount"], 2);
    assert_eq!(notice["data"]["totalAmount"], "26.00");

    // An admin's test purchase is not news.
    let form = app.purchase_form(method, &[9], "13.00", "test@example.com");
    let test = app
        .post_form(
            &format!("/api/admin/raffles/{raffle}/purchase"),
            form,
            Some(&app.admin_token),
        )
        .await;
    assert_eq!(test.status(), reqwest::StatusCode::CREATED);
    app.buy(raffle, method, &[10], 1300, "luis@example.com")
        .await;
    let second = next_json(&mut socket).await;
    assert_eq!(second["data"]["ticketCount"], 1, "{second}");
}

/// Issue 31, attack 5: a notice with a buyer's name reached a live connection after its
/// sign-out (the session was polled once a second). The sign-out now travels the same road as
/// the notices, ahead of them: the next frame is the close.
async fn a_signed_out_connection_hears_nothing_raised_after_the_sign_out(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let token = app.other_admin("ana", false).await;
    let mut socket = authenticate(&app.ws_url(), &token).await;
    let signed_out = app
        .request(reqwest::Method::POST, "/api/admin/logout")
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(signed_out.status(), reqwest::StatusCode::NO_CONTENT);
    let bought = app.buy(raffle, method, &[7], 1300, "ana@example.com").await;
    assert_eq!(bought.status(), reqwest::StatusCode::CREATED);
    // `close_reason` fails on any other frame: a `new_purchase` first is the leak.
    assert_eq!(
        close_reason(&mut socket).await,
        (CloseCode::Policy, "session ended".to_owned())
    );
}

async fn a_demoted_admins_connection_closes_before_the_next_notice(app: TestApp) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let token = app
        .staff_member("rita", crate::helpers::Role::Reviewer)
        .await;
    let mut socket = authenticate(&app.ws_url(), &token).await;
    let me: Value = app
        .request(reqwest::Method::GET, "/api/admin/me")
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let rita = me["id"].as_i64().unwrap();
    let demoted = app
        .admin_send(
            reqwest::Method::PATCH,
            &format!("/api/admin/staff/{rita}"),
            &json!({"role": "catalogue"}),
        )
        .await;
    assert_eq!(demoted.status(), reqwest::StatusCode::OK);
    let bought = app
        .buy(raffle, method, &[8], 1300, "luis@example.com")
        .await;
    assert_eq!(bought.status(), reqwest::StatusCode::CREATED);
    assert_eq!(
        close_reason(&mut socket).await,
        (CloseCode::Policy, "not allowed".to_owned())
    );
}

async fn a_bad_token_or_a_wrong_first_message_is_closed_with_a_reason_and_nothing_else(
    app: TestApp,
) {
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;

    let mut forged = open(&app.ws_url()).await;
    let tampered = format!("{}x", app.admin_token);
    forged
        .send(Message::text(
            json!({"type": "admin_auth", "token": tampered}).to_string(),
        ))
        .await
        .unwrap();
    let mut chatty = open(&app.ws_url()).await;
    chatty
        .send(Message::text(json!({"type": "hello"}).to_string()))
        .await
        .unwrap();
    // A purchase while they wait must not reach them.
    app.buy(raffle, method, &[1], 1300, "ana@example.com").await;

    assert_eq!(
        close_reason(&mut forged).await,
        (CloseCode::Policy, "invalid token".to_owned())
    );
    assert_eq!(
        close_reason(&mut chatty).await,
        (CloseCode::Policy, "expected admin_auth".to_owned())
    );
}

/// Two API instances on one PostgreSQL database, as behind a load balancer: a purchase made
/// through one reaches an admin connected to the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_purchase_on_one_instance_reaches_an_admin_connected_to_another() {
    let Some(config) = TestApp::postgres_config().await else {
        return;
    };
    let first = TestApp::start(config.clone(), true).await;
    let second = Application::build(config).await.unwrap();
    let second_ws = format!("ws://127.0.0.1:{}/ws", second.port());
    tokio::spawn(second.run_until_stopped());

    let raffle = first.raffle("13", 100, (1, 5)).await;
    let method = first.payment_method("Zelle", None).await;
    let mut on_second = authenticate(&second_ws, &first.admin_token).await;
    let mut on_first = authenticate(&first.ws_url(), &first.admin_token).await;

    first
        .buy(raffle, method, &[42], 1300, "ana@example.com")
        .await;

    for socket in [&mut on_second, &mut on_first] {
        let notice = next_json(socket).await;
        assert_eq!(notice["type"], "new_purchase");
        assert_eq!(notice["data"]["customerName"], "María González");
    }
}

/// A session ends with its token: the server closes the connection when the token expires,
/// and an expired token is refused with its own reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_connection_closes_when_the_admin_token_expires() {
    let mut config = TestApp::sqlite_config();
    config.token_ttl = Duration::from_secs(2);
    let app = TestApp::start(config, false).await;
    let mut socket = authenticate(&app.ws_url(), &app.admin_token).await;

    assert_eq!(
        close_reason(&mut socket).await,
        (CloseCode::Policy, "token expired".to_owned())
    );
    // `exp` counts whole seconds: past the second it names, the token is refused outright.
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let mut late = open(&app.ws_url()).await;
    late.send(Message::text(
        json!({"type": "admin_auth", "token": app.admin_token}).to_string(),
    ))
    .await
    .unwrap();
    assert_eq!(
        close_reason(&mut late).await,
        (CloseCode::Policy, "token expired".to_owned())
    );
}

/// Heartbeat timings short enough to watch: pings every 100 ms, dead after 1 s of silence.
fn quick_heartbeat() -> rifa_api::Config {
    let mut config = TestApp::sqlite_config();
    config.live = rifa_api::config::LiveTimings {
        auth_timeout: Duration::from_millis(500),
        ping_every: Duration::from_millis(100),
        idle_limit: Duration::from_millis(1_000),
        session_check: Duration::from_secs(1),
    };
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pings_keep_a_listening_admin_connected_and_drop_one_that_stopped_answering() {
    let app = TestApp::start(quick_heartbeat(), false).await;
    let mut listening = authenticate(&app.ws_url(), &app.admin_token).await;
    let mut gone = authenticate(&app.ws_url(), &app.admin_token).await;

    // The listening client reads, and so answers every ping (tungstenite pongs as it reads),
    // for well over the idle limit; the other one reads nothing meanwhile.
    let until = tokio::time::Instant::now() + Duration::from_millis(2_500);
    let mut pings = 0;
    while let Ok(message) = tokio::time::timeout_at(until, listening.next()).await {
        match message.expect("the connection ended").unwrap() {
            Message::Ping(_) => pings += 1,
            other => panic!("a listening admin received {other:?}"),
        }
    }

    assert!(pings >= 10, "only {pings} pings in 2.5 s");
    // Reading through tungstenite would answer the queued pings and fail on the closed socket,
    // so read the raw bytes: the server's frames are unmasked, its close frame is plain to see.
    let mut raw = Vec::new();
    tokio::time::timeout(
        Duration::from_secs(5),
        tokio::io::AsyncReadExt::read_to_end(gone.get_mut(), &mut raw),
    )
    .await
    .expect("the server kept the silent connection open")
    .unwrap();
    let reason = b"no answer to pings";
    let close_frame = [&[0x88, 2 + reason.len() as u8, 0x03, 0xF0][..], reason].concat();
    assert!(
        raw.windows(close_frame.len()).any(|w| w == close_frame),
        "no close frame 1008 'no answer to pings' in {raw:?}"
    );
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    app.buy(raffle, method, &[3], 1300, "ana@example.com").await;
    assert_eq!(next_json(&mut listening).await["type"], "new_purchase");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_never_authenticates_is_closed_in_time() {
    let app = TestApp::start(quick_heartbeat(), false).await;
    let mut socket = open(&app.ws_url()).await;

    let started = std::time::Instant::now();
    let (code, reason) = close_reason(&mut socket).await;

    assert_eq!(
        (code, reason.as_str()),
        (CloseCode::Policy, "authentication timed out")
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}
