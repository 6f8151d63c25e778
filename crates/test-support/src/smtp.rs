//! A real SMTP server for tests: aiosmtpd (PyPI) delivering every message it accepts into a
//! Maildir, in plain text or with STARTTLS or implicit TLS, and a parser that reads those
//! messages back as plain values.
//!
//! ```no_run
//! let server = rifa_test_support::smtp::SmtpServer::start();
//! // … send to 127.0.0.1:server.port without TLS or authentication …
//! let received = server.wait_for_messages(1);
//! assert_eq!(received[0].subject, "Hola");
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use mail_parser::{MessageParser, MimeHeaders};

use crate::python::{ServerProcess, free_port, python_tool};

/// The aiosmtpd release the tests were written against.
const AIOSMTPD: &str = "aiosmtpd==1.4.6";

/// An aiosmtpd server on 127.0.0.1 that accepts any sender and recipient, offers neither
/// STARTTLS nor AUTH, and stores each message in a Maildir. Killed when dropped.
pub struct SmtpServer {
    process: ServerProcess,
    maildir: PathBuf,
    certificate: Option<Vec<u8>>,
}

/// How a TLS test server is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerTls {
    /// Plain connection upgraded with `STARTTLS` (required by the server).
    StartTls,
    /// TLS from the first byte (SMTPS).
    Implicit,
}

/// A self-signed leaf certificate (not a CA: rustls refuses a CA certificate as a server's)
/// for `localhost` and `127.0.0.1`, valid for two days, written into `dir`.
fn self_signed_certificate(dir: &Path) -> (PathBuf, PathBuf) {
    let cert = dir.join("smtp-cert.pem");
    let key = dir.join("smtp-key.pem");
    let output = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
        ])
        .args(["-nodes", "-days", "2", "-subj", "/CN=localhost"])
        .args(["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        .args(["-addext", "basicConstraints=critical,CA:FALSE"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .expect("the openssl command is needed for TLS test servers");
    assert!(
        output.status.success(),
        "openssl failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (cert, key)
}

impl SmtpServer {
    /// Installs aiosmtpd into the test venv if needed and starts it on a free port, speaking
    /// plain SMTP (no STARTTLS, no AUTH).
    #[must_use]
    pub fn start() -> Self {
        Self::launch(None, free_port())
    }

    /// Like [`SmtpServer::start`] on a given port: to bring a stopped server back where its
    /// clients expect it.
    #[must_use]
    pub fn start_on(port: u16) -> Self {
        Self::launch(None, port)
    }

    /// Like [`SmtpServer::start`], but with TLS: STARTTLS (which the server then requires before
    /// `MAIL`) or implicit TLS, with a self-signed certificate for `127.0.0.1` and `localhost`
    /// (made with the `openssl` command) that clients must trust:
    /// [`SmtpServer::certificate_pem`].
    #[must_use]
    pub fn start_with_tls(tls: ServerTls) -> Self {
        Self::launch(Some(tls), free_port())
    }

    fn launch(tls: Option<ServerTls>, port: u16) -> Self {
        let program = python_tool(AIOSMTPD, "aiosmtpd");
        let scratch = crate::scratch_dir();
        // aiosmtpd creates the Maildir itself; an existing empty folder makes it answer 5xx.
        let maildir = scratch.join("maildir");
        let mut command = Command::new(program);
        command
            .args(["-n", "-c", "aiosmtpd.handlers.Mailbox"])
            .arg(&maildir)
            .args(["-l", &format!("127.0.0.1:{port}")]);
        let certificate = tls.map(|tls| {
            let (cert, key) = self_signed_certificate(&scratch);
            let (cert_flag, key_flag) = match tls {
                ServerTls::StartTls => ("--tlscert", "--tlskey"),
                ServerTls::Implicit => ("--smtpscert", "--smtpskey"),
            };
            command.arg(cert_flag).arg(&cert).arg(key_flag).arg(&key);
            std::fs::read(&cert).expect("failed to read the test certificate")
        });
        let process = ServerProcess::start(command, port);
        Self {
            process,
            maildir,
            certificate,
        }
    }

    /// The server's certificate (PEM) when it speaks TLS.
    #[must_use]
    pub fn certificate_pem(&self) -> Option<&[u8]> {
        self.certificate.as_deref()
    }

    #[must_use]
    pub fn port(&self) -> u16 {
        self.process.port
    }

    /// Stops the server: connections to its port are refused from now on.
    pub fn stop(&mut self) {
        self.process.stop();
    }

    /// The Maildir the server delivers into.
    #[must_use]
    pub fn maildir(&self) -> &Path {
        &self.maildir
    }

    /// The raw bytes of every message delivered so far, oldest first.
    #[must_use]
    pub fn raw_messages(&self) -> Vec<Vec<u8>> {
        read_maildir(&self.maildir)
    }

    /// Waits up to five seconds until at least `count` messages were delivered, and returns all
    /// of them parsed.
    ///
    /// # Panics
    /// When fewer than `count` arrive in time.
    #[must_use]
    pub fn wait_for_messages(&self, count: usize) -> Vec<ReceivedEmail> {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let raw = self.raw_messages();
            if raw.len() >= count {
                return raw.iter().map(|bytes| parse_email(bytes)).collect();
            }
            assert!(
                Instant::now() < deadline,
                "expected {count} messages, the SMTP server received {}",
                raw.len()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The raw bytes of every message delivered into `maildir` so far, oldest first (for callers
/// that poll from a blocking task without holding the server).
#[must_use]
pub fn read_maildir(maildir: &Path) -> Vec<Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(maildir.join("new")) else {
        return Vec::new();
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|entry| {
            let modified = entry
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (modified, entry.path())
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|(_, path)| std::fs::read(&path).expect("failed to read a delivered message"))
        .collect()
}

/// One message as a mail client would show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedEmail {
    /// The address in `From:`.
    pub from: Option<String>,
    /// The addresses in `To:`.
    pub to: Vec<String>,
    pub subject: String,
    /// The first text/plain body, decoded.
    pub text: Option<String>,
    /// The first text/html body, decoded.
    pub html: Option<String>,
    pub attachments: Vec<ReceivedAttachment>,
    /// The raw `Date:` header.
    pub date: Option<String>,
    /// `Message-ID:` without its angle brackets.
    pub message_id: Option<String>,
    /// The `Content-Type` of the whole message, e.g. `multipart/mixed`.
    pub content_type: Option<String>,
    /// The message as delivered.
    pub raw: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedAttachment {
    pub filename: Option<String>,
    /// `type/subtype`, e.g. `application/pdf`.
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

fn mime_type(content_type: Option<&mail_parser::ContentType<'_>>) -> Option<String> {
    content_type.map(|ct| match ct.subtype() {
        Some(sub) => format!("{}/{sub}", ct.ctype()),
        None => ct.ctype().to_owned(),
    })
}

/// Parses one RFC 5322 message (an `.eml` file, a Maildir entry).
///
/// # Panics
/// When `raw` is not a message at all.
#[must_use]
pub fn parse_email(raw: &[u8]) -> ReceivedEmail {
    let message = MessageParser::default()
        .parse(raw)
        .expect("not an RFC 5322 message");
    let address_list = |address: Option<&mail_parser::Address<'_>>| -> Vec<String> {
        address
            .map(|a| {
                a.iter()
                    .filter_map(|addr| addr.address().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    ReceivedEmail {
        from: address_list(message.from()).into_iter().next(),
        to: address_list(message.to()),
        subject: message.subject().unwrap_or_default().to_owned(),
        text: message.body_text(0).map(|t| t.into_owned()),
        html: message.body_html(0).map(|h| h.into_owned()),
        attachments: message
            .attachments()
            .map(|part| ReceivedAttachment {
                filename: part.attachment_name().map(str::to_owned),
                content_type: mime_type(part.content_type()),
                bytes: part.contents().to_vec(),
            })
            .collect(),
        date: message.header_raw("Date").map(|d| d.trim().to_owned()),
        message_id: message.message_id().map(str::to_owned),
        content_type: mime_type(message.content_type()),
        raw: raw.to_vec(),
    }
}
