//! The mailers against a real SMTP server (aiosmtpd, started per test) and a real directory.

#![allow(clippy::unwrap_used)]

use std::net::TcpListener;
use std::time::{Duration, Instant};

use rifa_domain::email_settings::EmailSettings;
use rifa_mail::{AnyMailer, FileOutbox, SmtpErrorKind, SmtpMailer, SmtpOptions, SmtpSecurity};
use rifa_ports::outbound::{Attachment, Mailer, OutgoingEmail};
use rifa_test_support::smtp::{ServerTls, SmtpServer, parse_email};
use secrecy::SecretString;

const PASSWORD: &str = "contraseña-MUY-secreta-42";

/// Bytes that survive only a binary-safe transfer encoding: every byte value, CR and LF alone,
/// and a line that is just a dot.
fn pdf_bytes() -> Vec<u8> {
    let mut bytes = b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n.\r\n.\n\r".to_vec();
    bytes.extend(0..=255u8);
    bytes.extend(b"\n%%EOF\n");
    bytes
}

fn receipt_email() -> OutgoingEmail {
    OutgoingEmail {
        sender_name: String::new(),
        to: "María Núñez <maria@compradores.example>".into(),
        subject: "¡Tu compra está confirmada! Año de la piñata".into(),
        text_body: "¡Hola, María!\nTus boletos 0007 y 0008 están aprobados.\nAño: ñandú.\n".into(),
        html_body: "<p>¡Hola, <b>María</b>!</p><p>Tus boletos 0007 y 0008 están aprobados.</p>"
            .into(),
        attachments: vec![Attachment {
            filename: "recibo-señor.pdf".into(),
            content_type: "application/pdf".into(),
            bytes: pdf_bytes(),
        }],
    }
}

fn local_settings(port: u16) -> EmailSettings {
    EmailSettings {
        host: "127.0.0.1".into(),
        port,
        user: String::new(),
        password: None,
        from_email: "Sorteos Rifa <sorteos@rifa.example>".into(),
    }
}

fn with_login(mut settings: EmailSettings) -> EmailSettings {
    settings.user = "admin@rifa.example".into();
    settings.password = Some(SecretString::from(PASSWORD));
    settings
}

fn options(security: SmtpSecurity) -> SmtpOptions {
    SmtpOptions {
        security: Some(security),
        ..SmtpOptions::default()
    }
}

#[tokio::test]
async fn a_spanish_message_with_a_pdf_arrives_intact_at_a_real_smtp_server() {
    let server = SmtpServer::start();
    let mailer = AnyMailer::from_settings(
        &local_settings(server.port()),
        &options(SmtpSecurity::Plain),
        &rifa_test_support::scratch_dir(),
    )
    .unwrap();
    assert!(matches!(mailer, AnyMailer::Smtp(_)));

    mailer.send(&receipt_email()).await.unwrap();

    let received = server.wait_for_messages(1);
    assert_eq!(received.len(), 1);
    let message = &received[0];
    let sent = receipt_email();
    assert_eq!(message.subject, sent.subject);
    assert_eq!(message.from.as_deref(), Some("sorteos@rifa.example"));
    assert_eq!(message.to, ["maria@compradores.example"]);
    assert_eq!(message.content_type.as_deref(), Some("multipart/mixed"));
    assert_eq!(
        message.text.as_deref().map(|t| t.replace("\r\n", "\n")),
        Some(sent.text_body.clone())
    );
    assert_eq!(message.html.as_deref(), Some(sent.html_body.as_str()));
    assert_eq!(message.attachments.len(), 1);
    let attachment = &message.attachments[0];
    assert_eq!(attachment.filename.as_deref(), Some("recibo-señor.pdf"));
    assert_eq!(attachment.content_type.as_deref(), Some("application/pdf"));
    assert_eq!(attachment.bytes, pdf_bytes());
    assert!(message.date.as_deref().is_some_and(|d| !d.is_empty()));
    assert!(
        message
            .message_id
            .as_deref()
            .is_some_and(|id| id.ends_with("@rifa.example")),
        "{:?}",
        message.message_id
    );
}

#[tokio::test]
async fn a_check_logs_in_without_sending_anything() {
    let server = SmtpServer::start();
    let mailer = SmtpMailer::with_options(
        &local_settings(server.port()),
        &options(SmtpSecurity::Plain),
    )
    .unwrap();

    mailer.check().await.unwrap();

    std::thread::sleep(Duration::from_millis(200));
    assert!(server.raw_messages().is_empty());
}

#[tokio::test]
async fn a_server_that_is_down_fails_fast_with_a_readable_error_and_no_password() {
    let mut server = SmtpServer::start();
    let port = server.port();
    server.stop();
    let settings = with_login(local_settings(port));
    // The default for the port (STARTTLS) and plain text fail alike: nothing answers.
    for options in [SmtpOptions::default(), options(SmtpSecurity::Plain)] {
        let mailer = SmtpMailer::with_options(&settings, &options).unwrap();

        let started = Instant::now();
        let error = mailer.deliver(&receipt_email()).await.unwrap_err();
        let check = mailer.check().await.unwrap_err();

        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        for error in [&error, &check] {
            assert_eq!(error.kind(), SmtpErrorKind::Connect, "{error}");
            assert!(error.is_transient());
            let text = error.to_string();
            assert!(text.contains(&format!("127.0.0.1:{port}")), "{text}");
            assert!(!text.contains(PASSWORD), "{text}");
        }
    }
    // Through the port, the same text.
    let mailer = SmtpMailer::new(&settings).unwrap();
    let error = Mailer::send(&mailer, &receipt_email()).await.unwrap_err();
    assert!(
        format!("{error:#}").contains("could not connect to"),
        "{error:#}"
    );
    assert!(!format!("{error:#} {error:?}").contains(PASSWORD));
}

#[tokio::test]
async fn a_server_that_accepts_and_then_says_nothing_times_out() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    // Holds every connection open without a greeting, until the test process ends.
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            held.push(stream);
        }
    });
    let options = SmtpOptions {
        security: Some(SmtpSecurity::Plain),
        connect_timeout: Duration::from_secs(1),
        send_timeout: Duration::from_secs(1),
        ..SmtpOptions::default()
    };
    let mailer = SmtpMailer::with_options(&with_login(local_settings(port)), &options).unwrap();

    let started = Instant::now();
    let error = mailer.deliver(&receipt_email()).await.unwrap_err();

    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(error.kind(), SmtpErrorKind::Timeout, "{error}");
    assert!(
        error.to_string().contains("did not answer within 1 s"),
        "{error}"
    );
}

#[tokio::test]
async fn starttls_is_required_so_a_server_without_it_gets_no_password_and_no_message() {
    let server = SmtpServer::start();
    // aiosmtpd here offers no STARTTLS: what a man in the middle stripping it would look like.
    let settings = with_login(local_settings(server.port()));
    let mailer = SmtpMailer::with_options(&settings, &options(SmtpSecurity::StartTls)).unwrap();

    let error = mailer.deliver(&receipt_email()).await.unwrap_err();

    assert_eq!(error.kind(), SmtpErrorKind::Tls, "{error}");
    assert!(error.to_string().contains("STARTTLS"), "{error}");
    assert!(!error.to_string().contains(PASSWORD), "{error}");
    std::thread::sleep(Duration::from_millis(200));
    assert!(server.raw_messages().is_empty());
}

fn trusting(server: &SmtpServer, security: Option<SmtpSecurity>) -> SmtpOptions {
    SmtpOptions {
        security,
        extra_root_certificates: vec![server.certificate_pem().unwrap().to_vec()],
        ..SmtpOptions::default()
    }
}

#[tokio::test]
async fn a_port_other_than_465_delivers_over_starttls() {
    let server = SmtpServer::start_with_tls(ServerTls::StartTls);
    // The server refuses MAIL before STARTTLS, so an arrival proves the upgrade happened.
    let mailer =
        SmtpMailer::with_options(&local_settings(server.port()), &trusting(&server, None)).unwrap();
    assert_eq!(mailer.security(), SmtpSecurity::StartTls);

    mailer.check().await.unwrap();
    mailer.deliver(&receipt_email()).await.unwrap();

    let received = server.wait_for_messages(1);
    assert_eq!(received[0].subject, receipt_email().subject);
    assert_eq!(received[0].attachments[0].bytes, pdf_bytes());
}

#[tokio::test]
async fn implicit_tls_delivers_when_chosen() {
    let server = SmtpServer::start_with_tls(ServerTls::Implicit);
    let mailer = SmtpMailer::with_options(
        &local_settings(server.port()),
        &trusting(&server, Some(SmtpSecurity::Tls)),
    )
    .unwrap();

    mailer.deliver(&receipt_email()).await.unwrap();

    let received = server.wait_for_messages(1);
    assert_eq!(
        received[0].html.as_deref(),
        Some(receipt_email().html_body.as_str())
    );
}

#[tokio::test]
async fn an_untrusted_certificate_is_refused_before_the_login() {
    let server = SmtpServer::start_with_tls(ServerTls::StartTls);
    let mailer = SmtpMailer::new(&with_login(local_settings(server.port()))).unwrap();

    let error = mailer.deliver(&receipt_email()).await.unwrap_err();

    assert_eq!(error.kind(), SmtpErrorKind::Tls, "{error}");
    assert!(!error.to_string().contains(PASSWORD), "{error}");
    std::thread::sleep(Duration::from_millis(200));
    assert!(server.raw_messages().is_empty());
}

#[tokio::test]
async fn implicit_tls_against_a_plain_server_is_a_tls_error() {
    let server = SmtpServer::start();
    let mailer =
        SmtpMailer::with_options(&local_settings(server.port()), &options(SmtpSecurity::Tls))
            .unwrap();

    let started = Instant::now();
    let error = mailer.deliver(&receipt_email()).await.unwrap_err();

    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(error.kind(), SmtpErrorKind::Tls, "{error}");
    assert!(server.raw_messages().is_empty());
}

#[tokio::test]
async fn a_login_the_server_cannot_take_is_an_auth_error_without_the_password() {
    let server = SmtpServer::start();
    // Without TLS aiosmtpd offers no AUTH at all.
    let settings = with_login(local_settings(server.port()));
    let mailer = SmtpMailer::with_options(&settings, &options(SmtpSecurity::Plain)).unwrap();

    let error = mailer.check().await.unwrap_err();

    assert_eq!(error.kind(), SmtpErrorKind::Auth, "{error}");
    assert!(!error.is_transient());
    assert!(!error.to_string().contains(PASSWORD), "{error}");
}

#[tokio::test]
async fn the_file_outbox_writes_parseable_eml_files_that_sort_by_time() {
    let dir = rifa_test_support::scratch_dir().join("outbox");
    let outbox = FileOutbox::new(&dir)
        .with_sender("Sorteos Rifa <sorteos@rifa.example>")
        .unwrap();
    let mut first = receipt_email();
    first.subject = "primero".into();
    let mut second = receipt_email();
    second.subject = "segundo".into();
    second.attachments.clear();

    let first_path = outbox.write(&first).await.unwrap();
    Mailer::send(&outbox, &second).await.unwrap();

    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names
            .iter()
            .all(|n| n.ends_with(".eml") && !n.starts_with('.'))
    );
    assert_eq!(dir.join(&names[0]), first_path);
    // 20261123T101502.123456Z-1a2b3c4d.eml
    assert_eq!(names[0].len(), "20261123T101502.123456Z-1a2b3c4d.eml".len());
    assert_eq!(&names[0][8..9], "T");

    let parsed = parse_email(&std::fs::read(dir.join(&names[0])).unwrap());
    assert_eq!(parsed.subject, "primero");
    assert_eq!(parsed.from.as_deref(), Some("sorteos@rifa.example"));
    assert_eq!(parsed.to, ["maria@compradores.example"]);
    assert_eq!(parsed.html.as_deref(), Some(first.html_body.as_str()));
    assert_eq!(parsed.attachments.len(), 1);
    assert_eq!(
        parsed.attachments[0].filename.as_deref(),
        Some("recibo-señor.pdf")
    );
    assert_eq!(parsed.attachments[0].bytes, pdf_bytes());
    let later = parse_email(&std::fs::read(dir.join(&names[1])).unwrap());
    assert_eq!(later.subject, "segundo");
    assert!(later.attachments.is_empty());
}

#[tokio::test]
async fn with_no_host_the_outbox_is_chosen_and_a_bad_recipient_is_refused() {
    let dir = rifa_test_support::scratch_dir().join("outbox");
    let mailer =
        AnyMailer::from_settings(&EmailSettings::default(), &SmtpOptions::default(), &dir).unwrap();
    let mut email = receipt_email();
    email.to = "nadie".into();

    let error = mailer.send(&email).await.unwrap_err();
    mailer.send(&receipt_email()).await.unwrap();

    assert!(!error.to_string().contains("nadie"), "{error}");
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(files.len(), 1);
    let parsed = parse_email(&std::fs::read(files[0].as_ref().unwrap().path()).unwrap());
    assert_eq!(parsed.from.as_deref(), Some("rifa@localhost"));
}
