//! The buyer's e-mails against a real SMTP server (aiosmtpd), the file outbox default, the
//! outbox's resilience to a server that is down, and the admins' test e-mail.

use std::time::{Duration, Instant};

use reqwest::multipart::Form;
use reqwest::{Method, StatusCode};
use rifa_api::Config;
use rifa_mail::SmtpSecurity;
use rifa_test_support::pdf::pdf_text;
use rifa_test_support::smtp::{ReceivedEmail, SmtpServer, parse_email};
use serde_json::{Value, json};

use crate::helpers::{TestApp, expect_error, smtp_to};

pub async fn wait_for(server: &SmtpServer, count: usize) -> Vec<ReceivedEmail> {
    let maildir = server.maildir().to_path_buf();
    tokio::task::spawn_blocking(move || {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let raw = rifa_test_support::smtp::read_maildir(&maildir);
            if raw.len() >= count || Instant::now() > deadline {
                return raw.iter().map(|m| parse_email(m)).collect::<Vec<_>>();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    })
    .await
    .unwrap()
}

/// Buys as a buyer whose browser speaks `lang`.
async fn buy_in(
    app: &TestApp,
    lang: &str,
    raffle: i64,
    method: i64,
    numbers: &[u32],
    email: &str,
) -> Value {
    let total = format!("{}.00", 13 * numbers.len());
    let form = app
        .purchase_form(method, numbers, &total, email)
        .into_iter()
        .fold(Form::new(), |form, (k, v)| form.text(k, v));
    let response = app
        .request(Method::POST, &format!("/api/raffles/{raffle}/purchase"))
        .header("Accept-Language", lang)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    response.json().await.unwrap()
}

pub fn pdf_of(email: &ReceivedEmail) -> String {
    let attachment = email
        .attachments
        .iter()
        .find(|a| a.content_type.as_deref() == Some("application/pdf"))
        .expect("the receipt is attached");
    pdf_text(&attachment.bytes)
}

async fn outbox(app: &TestApp) -> Vec<Value> {
    app.admin_get("/api/admin/mail-outbox")
        .await
        .as_array()
        .unwrap()
        .clone()
}

async fn buyer_e_mails_arrive_in_their_language_with_the_receipt(
    mut config: Config,
    postgres: bool,
) {
    let server = SmtpServer::start();
    smtp_to(&mut config, server.port());
    let app = TestApp::start(config, postgres).await;
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;

    let english = buy_in(
        &app,
        "en-US,en;q=0.9",
        raffle,
        method,
        &[7, 42],
        "ana@example.com",
    )
    .await;
    let reference = english["purchase"]["reference"]
        .as_str()
        .unwrap()
        .to_owned();
    let received = wait_for(&server, 1).await;
    assert_eq!(received.len(), 1);
    let mail = &received[0];
    assert_eq!(mail.to, vec!["ana@example.com".to_owned()]);
    assert_eq!(
        mail.subject,
        format!("We received your purchase {reference} – Rifa de prueba")
    );
    assert!(mail.text.as_deref().unwrap().contains("0007, 0042"));
    assert!(
        mail.text.as_deref().unwrap().contains("Total: US$ 26.00"),
        "money is written as on the receipt"
    );
    assert!(mail.html.as_deref().unwrap().contains("<html lang=\"en\""));
    let receipt = pdf_of(mail);
    assert!(receipt.contains(&reference), "{receipt}");
    assert!(
        receipt.contains("0007") && receipt.contains("0042"),
        "{receipt}"
    );

    let id = english["purchase"]["id"].as_i64().unwrap();
    assert_eq!(
        app.decide(id, "approved", None).await.status(),
        StatusCode::OK
    );
    let spanish = buy_in(&app, "es", raffle, method, &[9], "luis@example.com").await;
    let spanish_id = spanish["purchase"]["id"].as_i64().unwrap();
    let rejected = app
        .decide(spanish_id, "rejected", Some("Pago no recibido"))
        .await;
    assert_eq!(rejected.status(), StatusCode::OK);

    let received = wait_for(&server, 4).await;
    let subjects: Vec<&str> = received.iter().map(|m| m.subject.as_str()).collect();
    assert_eq!(received.len(), 4, "{subjects:?}");
    assert!(
        subjects.contains(&format!("Purchase approved: {reference} – Rifa de prueba").as_str())
    );
    let rejection = received
        .iter()
        .find(|m| m.subject.starts_with("Compra rechazada"))
        .expect("the rejection is written in Spanish");
    assert!(
        rejection
            .text
            .as_deref()
            .unwrap()
            .contains("Nota del equipo: Pago no recibido")
    );
    assert!(pdf_of(rejection).contains("Rechazada") || pdf_of(rejection).contains("rechazada"));

    let rows = outbox(&app).await;
    assert_eq!(rows.len(), 4);
    assert!(
        rows.iter()
            .all(|r| r["status"] == "sent" && r["attempts"] == 1),
        "{rows:?}"
    );
}

async fn with_the_server_down_a_message_waits_then_arrives_exactly_once(
    mut config: Config,
    postgres: bool,
) {
    let mut first = SmtpServer::start();
    let port = first.port();
    first.stop();
    smtp_to(&mut config, port);
    let app = TestApp::start(config, postgres).await;
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let bought = buy_in(&app, "es", raffle, method, &[3], "ana@example.com").await;
    let purchase = bought["purchase"]["id"].as_i64().unwrap();

    let deadline = Instant::now() + Duration::from_secs(10);
    let failed = loop {
        let rows = outbox(&app).await;
        if rows[0]["lastError"].is_string() {
            break rows;
        }
        assert!(
            Instant::now() < deadline,
            "no failed attempt recorded: {rows:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["status"], "pending", "it waits to be retried");
    assert!(
        failed[0]["lastError"]
            .as_str()
            .unwrap()
            .contains(&port.to_string())
    );

    // Approved while the server is still down: both messages wait.
    assert_eq!(
        app.decide(purchase, "approved", None).await.status(),
        StatusCode::OK
    );

    let back = SmtpServer::start_on(port);
    let mut received = wait_for(&back, 2).await;
    received.sort_by_key(|m| m.subject.starts_with("¡Compra aprobada!"));
    assert_eq!(received.len(), 2);
    assert!(received[0].subject.starts_with("Recibimos tu compra"));
    assert!(received[1].subject.starts_with("¡Compra aprobada!"));
    // Each receipt shows the purchase as it was when its message was queued.
    let (first_pdf, second_pdf) = (pdf_of(&received[0]), pdf_of(&received[1]));
    assert!(
        first_pdf.contains("Procesando pago") && !first_pdf.contains("Aprobada"),
        "{first_pdf}"
    );
    assert!(second_pdf.contains("Aprobada"), "{second_pdf}");
    // Later passes of the worker must not send them again.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(
        rifa_test_support::smtp::read_maildir(back.maildir()).len(),
        2
    );
    let rows = outbox(&app).await;
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r["status"] == "sent"), "{rows:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn buyer_e_mails_arrive_in_their_language_with_the_receipt_on_sqlite() {
    buyer_e_mails_arrive_in_their_language_with_the_receipt(TestApp::sqlite_config(), false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn buyer_e_mails_arrive_in_their_language_with_the_receipt_on_postgres() {
    if let Some(config) = TestApp::postgres_config().await {
        buyer_e_mails_arrive_in_their_language_with_the_receipt(config, true).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_server_down_a_message_waits_then_arrives_exactly_once_on_sqlite() {
    with_the_server_down_a_message_waits_then_arrives_exactly_once(TestApp::sqlite_config(), false)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_server_down_a_message_waits_then_arrives_exactly_once_on_postgres() {
    if let Some(config) = TestApp::postgres_config().await {
        with_the_server_down_a_message_waits_then_arrives_exactly_once(config, true).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_mail_server_every_message_is_written_to_the_file_outbox() {
    let config = TestApp::sqlite_config();
    let outbox_dir = config.mail.outbox_dir.clone();
    let app = TestApp::start(config, false).await;
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let bought = buy_in(&app, "es", raffle, method, &[5], "ana@example.com").await;

    let deadline = Instant::now() + Duration::from_secs(10);
    let files = loop {
        let files: Vec<_> = std::fs::read_dir(&outbox_dir)
            .map(|dir| {
                dir.filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "eml"))
                    .collect()
            })
            .unwrap_or_default();
        if !files.is_empty() {
            break files;
        }
        assert!(
            Instant::now() < deadline,
            "no .eml in {}",
            outbox_dir.display()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let mail = parse_email(&std::fs::read(&files[0]).unwrap());
    let reference = bought["purchase"]["reference"].as_str().unwrap();
    assert_eq!(
        mail.subject,
        format!("Recibimos tu compra {reference} – Rifa de prueba")
    );
    assert!(pdf_of(&mail).contains(reference));
}

/// The `.eml` files of `dir`, oldest first, once there are `count`.
async fn outbox_files(dir: &std::path::Path, count: usize) -> Vec<Vec<u8>> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map(|dir| {
                dir.filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "eml"))
                    .collect()
            })
            .unwrap_or_default();
        if files.len() >= count {
            files.sort();
            return files.iter().map(|f| std::fs::read(f).unwrap()).collect();
        }
        assert!(
            Instant::now() < deadline,
            "{} of {count} messages",
            files.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn from_header(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw)
        .lines()
        .find_map(|l| l.strip_prefix("From: "))
        .unwrap_or_else(|| panic!("no From header"))
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sender_is_named_after_the_company_as_branded_when_the_message_goes_out() {
    let config = TestApp::sqlite_config();
    let outbox_dir = config.mail.outbox_dir.clone();
    let app = TestApp::start(config, false).await;
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    buy_in(&app, "es", raffle, method, &[5], "ana@example.com").await;
    let before = outbox_files(&outbox_dir, 1).await;
    let company = app.get_json("/api/branding").await["companyName"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        from_header(&before[0]),
        format!("{company} <rifa@localhost>")
    );

    let renamed = app
        .admin_send(
            Method::POST,
            "/api/admin/branding",
            &json!({"companyName": "Sorteos Aurora"}),
        )
        .await;
    assert_eq!(renamed.status(), StatusCode::OK);
    buy_in(&app, "en", raffle, method, &[6], "ben@example.com").await;

    let after = outbox_files(&outbox_dir, 2).await;
    assert_eq!(
        from_header(&after[1]),
        "\"Sorteos Aurora\" <rifa@localhost>"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_test_e_mail_uses_the_saved_settings_and_reports_the_server_s_answer() {
    let mut server = SmtpServer::start();
    let mut config = TestApp::sqlite_config();
    config.mail.smtp.security = Some(SmtpSecurity::Plain);
    let app = TestApp::start(config, false).await;

    // Nothing configured yet: without a sender to fall back on, an address is required...
    let response = app
        .admin_send(Method::POST, "/api/admin/email-settings/test", &json!({}))
        .await;
    let error = expect_error(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(error["fields"]["to"], "Este campo es obligatorio");
    // ...and the message goes to the file outbox, and says so.
    let response = app
        .admin_send(
            Method::POST,
            "/api/admin/email-settings/test",
            &json!({"to": "ops@example.com"}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body,
        json!({"deliveredVia": "outbox", "to": "ops@example.com"})
    );

    let saved = app
        .admin_send(
            Method::PUT,
            "/api/admin/email-settings",
            &json!({"emailHost": "127.0.0.1", "emailPort": server.port(), "fromEmail": "rifa@example.com"}),
        )
        .await;
    assert_eq!(saved.status(), StatusCode::OK);
    let response = app
        .admin_send(Method::POST, "/api/admin/email-settings/test", &json!({}))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body,
        json!({"deliveredVia": "smtp", "to": "rifa@example.com"})
    );
    let received = wait_for(&server, 1).await;
    assert_eq!(received[0].subject, "Correo de prueba de Rifa");

    server.stop();
    let failed = app
        .admin_send(Method::POST, "/api/admin/email-settings/test", &json!({}))
        .await;
    let error = expect_error(
        failed,
        StatusCode::UNPROCESSABLE_ENTITY,
        "email_test_failed",
    )
    .await;
    assert!(
        error["message"].as_str().unwrap().contains("127.0.0.1"),
        "{error}"
    );

    let bad = app
        .admin_send(
            Method::POST,
            "/api/admin/email-settings/test",
            &json!({"to": "not-an-address"}),
        )
        .await;
    expect_error(bad, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;

    let clerk = app.other_admin("clerk", false).await;
    let refused = app
        .request(Method::POST, "/api/admin/email-settings/test")
        .bearer_auth(clerk)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    expect_error(refused, StatusCode::FORBIDDEN, "forbidden").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unusable_saved_settings_hold_messages_back_and_say_why() {
    let server = SmtpServer::start();
    let mut config = TestApp::sqlite_config();
    config.mail.smtp.security = Some(SmtpSecurity::Plain);
    let app = TestApp::start(config, false).await;
    // A server but no sender: nothing can be sent.
    let saved = app
        .admin_send(
            Method::PUT,
            "/api/admin/email-settings",
            &json!({"emailHost": "127.0.0.1", "emailPort": server.port()}),
        )
        .await;
    assert_eq!(saved.status(), StatusCode::OK);
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    buy_in(&app, "es", raffle, method, &[9], "luis@example.com").await;

    let deadline = Instant::now() + Duration::from_secs(10);
    let waiting = loop {
        let rows = outbox(&app).await;
        if rows[0]["lastError"].is_string() {
            break rows;
        }
        assert!(Instant::now() < deadline, "no reason recorded: {rows:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(waiting[0]["status"], "pending");
    assert_eq!(waiting[0]["attempts"], 0, "nothing was tried");
    let reason = waiting[0]["lastError"].as_str().unwrap();
    assert!(
        reason.contains("e-mail settings are unusable") && reason.contains("sender"),
        "{reason}"
    );

    // Fixed by an admin, the message goes out.
    let fixed = app
        .admin_send(
            Method::PUT,
            "/api/admin/email-settings",
            &json!({"emailHost": "127.0.0.1", "emailPort": server.port(), "fromEmail": "rifa@example.com"}),
        )
        .await;
    assert_eq!(fixed.status(), StatusCode::OK);
    let received = wait_for(&server, 1).await;
    assert_eq!(received[0].to, vec!["luis@example.com".to_owned()]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_puts_a_given_up_message_back_in_line() {
    let mut first = SmtpServer::start();
    let port = first.port();
    first.stop();
    let mut config = TestApp::sqlite_config();
    smtp_to(&mut config, port);
    config.mail.retry.max_attempts = 1;
    let app = TestApp::start(config, false).await;
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    buy_in(&app, "es", raffle, method, &[4], "eva@example.com").await;

    let deadline = Instant::now() + Duration::from_secs(10);
    let id = loop {
        let rows = outbox(&app).await;
        if rows[0]["status"] == "failed" {
            break rows[0]["id"].as_i64().unwrap();
        }
        assert!(Instant::now() < deadline, "never given up: {rows:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let path = format!("/api/admin/mail-outbox/{id}/retry");
    let anonymous = app.request(Method::POST, &path).send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let unknown = app
        .admin_send(
            Method::POST,
            "/api/admin/mail-outbox/999999/retry",
            &json!({}),
        )
        .await;
    expect_error(unknown, StatusCode::NOT_FOUND, "not_found").await;

    let back = SmtpServer::start_on(port);
    let retried = app.admin_send(Method::POST, &path, &json!({})).await;
    assert_eq!(retried.status(), StatusCode::NO_CONTENT);
    let received = wait_for(&back, 1).await;
    assert_eq!(received[0].to, vec!["eva@example.com".to_owned()]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while outbox(&app).await[0]["status"] != "sent" {
        assert!(Instant::now() < deadline, "not marked sent");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A message that did not fail cannot be retried.
    let again = app.admin_send(Method::POST, &path, &json!({})).await;
    expect_error(again, StatusCode::NOT_FOUND, "not_found").await;
}

/// A mail server in front of `real`: it accepts the first connection and never says a word on
/// it (a wedged server), and passes every later connection through to `real`.
async fn first_connection_never_answered(real: u16) -> u16 {
    let front = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = front.local_addr().unwrap().port();
    tokio::spawn(async move {
        let (wedged, _) = front.accept().await.unwrap();
        loop {
            let (mut client, _) = front.accept().await.unwrap();
            tokio::spawn(async move {
                let mut server = tokio::net::TcpStream::connect(("127.0.0.1", real))
                    .await
                    .unwrap();
                let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
            });
            // Held open, unanswered, for as long as the test runs.
            let _ = &wedged;
        }
    });
    port
}

async fn a_mail_server_that_never_answers_one_delivery_does_not_hold_back_the_next(
    mut config: Config,
    postgres: bool,
) {
    let server = SmtpServer::start();
    smtp_to(
        &mut config,
        first_connection_never_answered(server.port()).await,
    );
    let stuck_for = Duration::from_secs(6);
    config.mail.smtp.connect_timeout = stuck_for;
    config.mail.smtp.send_timeout = stuck_for;
    let app = TestApp::start(config, postgres).await;
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;

    buy_in(&app, "es", raffle, method, &[3], "ana@example.com").await;
    // The first message's delivery is now waiting on the wedged connection.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let second_bought = Instant::now();
    buy_in(&app, "es", raffle, method, &[4], "luis@example.com").await;
    let first_arrival = wait_for(&server, 1).await;
    let next_delivered_after = second_bought.elapsed();

    assert_eq!(first_arrival.len(), 1);
    assert_eq!(first_arrival[0].to, ["luis@example.com"]);
    assert!(
        next_delivered_after < stuck_for - Duration::from_secs(1),
        "the next message waited {next_delivered_after:?} behind the stuck one"
    );
    // The stuck one times out, is retried on a fresh connection and arrives too.
    let both = wait_for(&server, 2).await;
    assert_eq!(both.len(), 2);
    assert_eq!(both[1].to, ["ana@example.com"]);
    let rows = outbox(&app).await;
    let attempts = |to: &str| {
        rows.iter()
            .find(|r| r["recipient"] == to)
            .map(|r| (r["status"].clone(), r["attempts"].clone()))
    };
    assert_eq!(
        attempts("luis@example.com"),
        Some((json!("sent"), json!(1)))
    );
    assert_eq!(attempts("ana@example.com"), Some((json!("sent"), json!(2))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_server_that_never_answers_one_delivery_does_not_hold_back_the_next_on_sqlite() {
    a_mail_server_that_never_answers_one_delivery_does_not_hold_back_the_next(
        TestApp::sqlite_config(),
        false,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_server_that_never_answers_one_delivery_does_not_hold_back_the_next_on_postgres() {
    if let Some(config) = TestApp::postgres_config().await {
        a_mail_server_that_never_answers_one_delivery_does_not_hold_back_the_next(config, true)
            .await;
    }
}

#[test]
fn smtp_timeouts_default_to_fifteen_seconds() {
    let options = Config::for_tests(String::new(), std::env::temp_dir())
        .mail
        .smtp;
    assert_eq!(options.connect_timeout, Duration::from_secs(15));
    assert_eq!(options.send_timeout, Duration::from_secs(15));
}

/// Issue 31, first hour 5: the first e-mail said "Recibimos tu compra…" though the proof never
/// arrived. The confirmation waits a little for the proof uploaded right after buying (sent at
/// once when it is attached, or on a decision); past the wait without one, it asks for it.
async fn the_confirmation_waits_for_the_proof_and_goes_when_it_or_a_decision_comes(
    mut config: Config,
    postgres: bool,
) {
    let server = SmtpServer::start();
    smtp_to(&mut config, server.port());
    config.mail.received_proof_wait = chrono::TimeDelta::minutes(10);
    let app = TestApp::start(config, postgres).await;
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let ana = crate::proofs::buy(&app, (raffle, method), &[7], "ana@example.com").await;
    let luis = crate::proofs::buy(&app, (raffle, method), &[8], "luis@example.com").await;
    crate::proofs::send_proof(
        &app,
        &ana,
        rifa_test_support::files::PNG_2X2,
        "pago.png",
        "image/png",
    )
    .await;
    let received = wait_for(&server, 1).await;
    assert_eq!(received.len(), 1, "Luis's waits for his proof");
    let text = received[0].text.as_deref().unwrap();
    assert_eq!(received[0].to, ["ana@example.com"]);
    assert!(text.contains("Verificaremos tu pago"), "{text}");
    assert!(!text.contains("no nos llegó"), "{text}");
    // A decision does not wait: Luis hears of his purchase and of its approval.
    assert_eq!(
        app.decide(luis.id, "approved", None).await.status(),
        StatusCode::OK
    );
    let received = wait_for(&server, 3).await;
    let to_luis: Vec<&ReceivedEmail> = received
        .iter()
        .filter(|m| m.to == ["luis@example.com"])
        .collect();
    assert_eq!(to_luis.len(), 2, "{received:?}");
    assert!(
        to_luis
            .iter()
            .all(|m| !m.text.as_deref().unwrap().contains("no nos llegó"))
    );
}

/// Past the wait with no proof, the confirmation asks for it, with the link to send it.
async fn past_the_wait_without_a_proof_the_confirmation_asks_for_it(
    mut config: Config,
    postgres: bool,
) {
    let server = SmtpServer::start();
    smtp_to(&mut config, server.port());
    config.mail.received_proof_wait = chrono::TimeDelta::zero();
    let app = TestApp::start(config, postgres).await;
    let raffle = app.raffle("13", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let eva = crate::proofs::buy(&app, (raffle, method), &[9], "eva@example.com").await;
    let received = wait_for(&server, 1).await;
    let text = received[0].text.as_deref().unwrap();
    assert!(
        text.contains("no nos llegó tu comprobante de pago"),
        "{text}"
    );
    assert!(text.contains("Envía tu comprobante"), "{text}");
    assert!(
        text.contains(&format!("/compra/{}?lang=es#", eva.id)),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_confirmation_waits_for_the_proof_and_goes_when_it_or_a_decision_comes_on_sqlite() {
    the_confirmation_waits_for_the_proof_and_goes_when_it_or_a_decision_comes(
        TestApp::sqlite_config(),
        false,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_confirmation_waits_for_the_proof_and_goes_when_it_or_a_decision_comes_on_postgres() {
    if let Some(config) = TestApp::postgres_config().await {
        the_confirmation_waits_for_the_proof_and_goes_when_it_or_a_decision_comes(config, true)
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_wait_without_a_proof_the_confirmation_asks_for_it_on_sqlite() {
    past_the_wait_without_a_proof_the_confirmation_asks_for_it(TestApp::sqlite_config(), false)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_wait_without_a_proof_the_confirmation_asks_for_it_on_postgres() {
    if let Some(config) = TestApp::postgres_config().await {
        past_the_wait_without_a_proof_the_confirmation_asks_for_it(config, true).await;
    }
}
