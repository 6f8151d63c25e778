//! One [`OutgoingEmail`] as an RFC 5322 message, the same for SMTP and the file outbox.

use lettre::Message;
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use rifa_ports::outbound::OutgoingEmail;

/// Why a message could not be put together. Neither variant names an address: errors end up in
/// logs, and addresses never do.
#[derive(Debug, thiserror::Error)]
pub enum MessageError {
    #[error("the recipient address is not a valid e-mail address")]
    InvalidRecipient,
    #[error("the attachment {filename:?} has an invalid content type {content_type:?}")]
    InvalidContentType {
        filename: String,
        content_type: String,
    },
    #[error("the message could not be built: {0}")]
    Build(#[from] lettre::error::Error),
}

/// Parses a sender or recipient: a bare address or `Name <address>`.
pub(crate) fn mailbox(raw: &str) -> Option<Mailbox> {
    raw.trim().parse().ok()
}

/// `From` (the configured address, named `email.sender_name` when that is set, so a renamed
/// company shows at once), `To`, `Subject`, `Date` (now), a `Message-ID` in the sender's domain, and a body that
/// is `multipart/alternative` (text, then HTML: clients show the last part they understand),
/// wrapped in `multipart/mixed` with the attachments when there are any. lettre picks each
/// part's transfer encoding (quoted-printable for text, base64 for binaries) and encodes
/// non-ASCII headers, so Spanish subjects and file names arrive intact.
pub(crate) fn build(from: &Mailbox, email: &OutgoingEmail) -> Result<Message, MessageError> {
    let to = mailbox(&email.to).ok_or(MessageError::InvalidRecipient)?;
    let from = match email.sender_name.trim() {
        "" => from.clone(),
        // One line: a name with a line break would otherwise start a new header.
        name => Mailbox::new(
            Some(name.split_whitespace().collect::<Vec<_>>().join(" ")),
            from.email.clone(),
        ),
    };
    let message_id = format!(
        "<{}@{}>",
        uuid::Uuid::new_v4().simple(),
        from.email.domain()
    );
    let builder = Message::builder()
        .from(from)
        .to(to)
        .subject(email.subject.clone())
        .date_now()
        .message_id(Some(message_id));

    let text = || SinglePart::plain(email.text_body.clone());
    let alternative =
        || MultiPart::alternative_plain_html(email.text_body.clone(), email.html_body.clone());
    let message = if email.attachments.is_empty() {
        if email.html_body.is_empty() {
            builder.singlepart(text())?
        } else {
            builder.multipart(alternative())?
        }
    } else {
        let mut mixed = if email.html_body.is_empty() {
            MultiPart::mixed().singlepart(text())
        } else {
            MultiPart::mixed().multipart(alternative())
        };
        for attachment in &email.attachments {
            let content_type = ContentType::parse(&attachment.content_type).map_err(|_| {
                MessageError::InvalidContentType {
                    filename: attachment.filename.clone(),
                    content_type: attachment.content_type.clone(),
                }
            })?;
            mixed = mixed.singlepart(
                Attachment::new(attachment.filename.clone())
                    .body(attachment.bytes.clone(), content_type),
            );
        }
        builder.multipart(mixed)?
    };
    Ok(message)
}

#[cfg(test)]
mod tests {
    use rifa_ports::outbound::Attachment as PortAttachment;

    use super::*;

    fn email() -> OutgoingEmail {
        OutgoingEmail {
            sender_name: String::new(),
            to: "ana@example.com".into(),
            subject: "¡Compra recibida!".into(),
            text_body: "Hola Ana".into(),
            html_body: "<p>Hola Ana</p>".into(),
            attachments: vec![],
        }
    }

    fn sender() -> Mailbox {
        mailbox("Rifa <rifa@sorteos.example>").unwrap()
    }

    #[test]
    fn a_message_has_date_message_id_in_the_senders_domain_and_alternative_bodies() {
        let raw = String::from_utf8(build(&sender(), &email()).unwrap().formatted()).unwrap();
        assert!(
            raw.contains("\r\nDate: ") || raw.starts_with("Date: "),
            "{raw}"
        );
        assert!(raw.contains("@sorteos.example>\r\n"), "{raw}");
        assert!(raw.contains("multipart/alternative"), "{raw}");
        assert!(!raw.contains("multipart/mixed"), "{raw}");
    }

    #[test]
    fn attachments_make_the_message_mixed() {
        let mut email = email();
        email.attachments.push(PortAttachment {
            filename: "recibo.pdf".into(),
            content_type: "application/pdf".into(),
            bytes: b"%PDF-1.4".to_vec(),
        });
        let raw = String::from_utf8(build(&sender(), &email).unwrap().formatted()).unwrap();
        assert!(raw.contains("multipart/mixed"), "{raw}");
        assert!(raw.contains("application/pdf"), "{raw}");
    }

    #[test]
    fn a_bad_recipient_or_content_type_is_refused_without_naming_the_address() {
        let mut bad_to = email();
        bad_to.to = "not an address".into();
        let error = build(&sender(), &bad_to).unwrap_err();
        assert!(matches!(error, MessageError::InvalidRecipient));
        assert!(!error.to_string().contains("not an address"));

        let mut bad_type = email();
        bad_type.attachments.push(PortAttachment {
            filename: "x".into(),
            content_type: "no type".into(),
            bytes: vec![],
        });
        assert!(matches!(
            build(&sender(), &bad_type),
            Err(MessageError::InvalidContentType { .. })
        ));
    }

    #[test]
    fn the_sender_is_named_after_the_company_when_a_name_is_given() {
        let mut email = email();
        email.sender_name = "Rifas  El\r\nCaribeño".into();
        let raw = String::from_utf8(build(&sender(), &email).unwrap().formatted()).unwrap();
        let parsed = mail_parser::MessageParser::default()
            .parse(raw.as_bytes())
            .unwrap();
        let from = parsed.from().and_then(|f| f.first()).unwrap();
        assert_eq!(from.name(), Some("Rifas El Caribeño"));
        assert_eq!(from.address(), Some("rifa@sorteos.example"));

        email.sender_name = " ".into();
        let raw = String::from_utf8(build(&sender(), &email).unwrap().formatted()).unwrap();
        assert!(raw.contains("From: Rifa <rifa@sorteos.example>"), "{raw}");
    }

    #[test]
    fn a_message_without_html_has_only_the_text_body() {
        let mut email = email();
        email.html_body.clear();
        let raw = String::from_utf8(build(&sender(), &email).unwrap().formatted()).unwrap();
        assert!(!raw.contains("text/html"), "{raw}");
        assert!(raw.contains("text/plain"), "{raw}");
    }
}
