//! The buyer's e-mails: what each says to whom, delivery with retries, the caps on
//! confirmations, the admin's outbox, and the test message with the route it took.

use rifa_domain::id::MailId;
use std::time::Duration;

use chrono::TimeDelta;
use rifa_app::mail::{DeliveryReport, RetryPolicy, TestEmailError, TestEmailSent};
use rifa_app::purchasing::{PurchaseMode, PurchaseReceipt};
use rifa_domain::email_settings::EmailSettingsInput;
use rifa_domain::{FieldError, Lang};
use rifa_ports::outbound::{MailRoute, OutgoingEmail};
use rifa_ports::{MailKind, MailStatus, RecipientCaps, WithheldReason};

use crate::support::{self, Harness, RaffleSetup, buyer, fields, request};

async fn deliver(t: &Harness, retry: &RetryPolicy) -> DeliveryReport {
    t.mail_retrying(*retry).deliver_due_mail(50).await.unwrap()
}

async fn buy_as(t: &Harness, email: &str, numbers: &[u32], lang: Lang) -> PurchaseReceipt {
    let raffle = match t
        .catalog()
        .list_raffles(rifa_app::catalog::Viewer::Admin)
        .await
        .unwrap()
        .pop()
    {
        Some(raffle) => raffle,
        None => t.raffle(RaffleSetup::default()).await,
    };
    let zelle = match t.payments().payment_methods(true).await.unwrap().pop() {
        Some(method) => method,
        None => t.method("Zelle").await,
    };
    let mut order = request(
        &zelle,
        numbers,
        &t.price_of(&raffle, numbers.len() as u32).await,
    );
    order.customer = buyer("Ana Ruiz", email, "0414-123-4567");
    t.purchasing()
        .purchase(raffle.id, Ok(order), PurchaseMode::Public, lang)
        .await
        .unwrap()
}

fn receipt_text(email: &OutgoingEmail) -> String {
    String::from_utf8_lossy(&email.attachments[0].bytes).into_owned()
}

#[tokio::test]
async fn the_confirmation_goes_to_the_buyer_with_the_receipt_and_the_company_as_sender() {
    let t = Harness::new();
    let receipt = buy_as(&t, "ana@correo.com", &[7], Lang::Es).await;

    let report = deliver(&t, &RetryPolicy::default()).await;

    assert_eq!(report, DeliveryReport { sent: 1, failed: 0 });
    let sent = t.mailer.sent();
    let email = &sent[0];
    assert_eq!(email.to, "ana@correo.com");
    assert_eq!(
        email.sender_name,
        t.settings().branding().await.unwrap().company_name
    );
    assert!(
        email.subject.contains(&receipt.purchase.reference),
        "{}",
        email.subject
    );
    assert!(email.subject.contains("RX-7"), "{}", email.subject);
    assert!(email.text_body.contains("Ana Ruiz"));
    assert_eq!(email.attachments.len(), 1);
    assert_eq!(email.attachments[0].content_type, "application/pdf");
    assert!(
        receipt_text(email).starts_with(&format!("%PDF receipt {}", receipt.purchase.reference))
    );
    let row = t.store.mail().pop().unwrap();
    assert_eq!(
        (row.status, row.attempts, row.last_error),
        (MailStatus::Sent, 1, None)
    );
    assert_eq!(row.sent_at, Some(crate::support::start_time()));
}

#[tokio::test]
async fn each_buyer_is_written_to_in_the_language_they_bought_in() {
    let t = Harness::new();
    let spanish = buy_as(&t, "ana@correo.com", &[1], Lang::Es).await;
    let english = buy_as(&t, "john@mail.com", &[2], Lang::En).await;

    deliver(&t, &RetryPolicy::default()).await;

    let sent = t.mailer.sent();
    let to = |address: &str| sent.iter().find(|e| e.to == address).unwrap().clone();
    let (es, en) = (to("ana@correo.com"), to("john@mail.com"));
    assert!(es.subject.contains(&spanish.purchase.reference));
    assert!(en.subject.contains(&english.purchase.reference));
    let without_reference =
        |email: &OutgoingEmail, reference: &str| email.subject.replace(reference, "");
    assert_ne!(
        without_reference(&es, &spanish.purchase.reference),
        without_reference(&en, &english.purchase.reference),
        "the two languages share a subject"
    );
    assert!(receipt_text(&es).ends_with("Es"));
    assert!(receipt_text(&en).ends_with("En"));
}

#[tokio::test]
async fn each_decision_sends_its_own_message_and_a_late_confirmation_still_shows_pending() {
    let t = Harness::new();
    let approved = buy_as(&t, "ana@correo.com", &[1], Lang::Es).await;
    let rejected = buy_as(&t, "ana@correo.com", &[2], Lang::Es).await;
    // The mail server was down: the confirmations are still waiting when the decisions come.
    t.review()
        .decide_purchase(
            approved.purchase.id,
            "approved",
            None,
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    t.review()
        .decide_purchase(
            rejected.purchase.id,
            "rejected",
            Some("no payment"),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();

    assert_eq!(deliver(&t, &RetryPolicy::default()).await.sent, 4);

    let sent = t.mailer.sent();
    let subject = |purchase: &PurchaseReceipt, status: &str| {
        let reference = &purchase.purchase.reference;
        sent.iter()
            .find(|e| e.subject.contains(reference.as_str()) && receipt_text(e).contains(status))
            .unwrap_or_else(|| panic!("no message on {reference} with a receipt {status}"))
            .subject
            .replace(reference.as_str(), "")
    };
    // The confirmation of the purchase approved meanwhile still shows it pending.
    let received = subject(&approved, " Pending ");
    assert_eq!(received, subject(&rejected, " Pending "));
    assert_ne!(received, subject(&approved, " Approved "));
    assert_ne!(received, subject(&rejected, " Rejected "));
    assert_ne!(
        subject(&approved, " Approved "),
        subject(&rejected, " Rejected ")
    );
    let statuses: Vec<_> = sent.iter().map(receipt_text).collect();
    assert_eq!(
        statuses.iter().filter(|r| r.contains(" Pending ")).count(),
        2,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|r| r.contains(" Approved ")).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|r| r.contains(" Rejected ")).count(),
        1,
        "{statuses:?}"
    );
    assert!(sent.iter().all(|e| e.to == "ana@correo.com"));
}

#[tokio::test]
async fn a_failed_delivery_is_tried_again_after_the_backoff() {
    let t = Harness::new();
    buy_as(&t, "ana@correo.com", &[1], Lang::Es).await;
    t.mailer.fail_next(1);
    let retry = RetryPolicy::default();

    let first = deliver(&t, &retry).await;
    let row = t.store.mail().pop().unwrap();
    let too_soon = deliver(&t, &retry).await;
    t.clock.advance(retry.first_delay);
    let second = deliver(&t, &retry).await;

    assert_eq!(first, DeliveryReport { sent: 0, failed: 1 });
    assert_eq!((row.status, row.attempts), (MailStatus::Pending, 1));
    assert!(
        row.last_error
            .as_deref()
            .unwrap_or_default()
            .contains("421"),
        "{row:?}"
    );
    assert_eq!(
        row.next_attempt_at,
        crate::support::start_time() + retry.first_delay
    );
    assert_eq!(too_soon, DeliveryReport::default());
    assert_eq!(second, DeliveryReport { sent: 1, failed: 0 });
    assert_eq!(t.store.mail().pop().unwrap().status, MailStatus::Sent);
}

#[tokio::test]
async fn after_the_last_attempt_a_message_fails_until_an_admin_retries_it() {
    let t = Harness::new();
    buy_as(&t, "ana@correo.com", &[1], Lang::Es).await;
    t.mailer.fail_next(2);
    let retry = RetryPolicy {
        first_delay: TimeDelta::seconds(10),
        max_delay: TimeDelta::seconds(10),
        max_attempts: 2,
    };
    deliver(&t, &retry).await;
    t.clock.advance(TimeDelta::seconds(10));
    deliver(&t, &retry).await;
    t.clock.advance(TimeDelta::days(1));

    let given_up = deliver(&t, &retry).await;
    let failed = t.mail().outbox(Some(MailStatus::Failed), 10).await.unwrap();
    let retried = t
        .mail()
        .retry_mail(failed[0].id, &support::reviewer())
        .await
        .unwrap();
    let delivered = deliver(&t, &retry).await;

    assert_eq!(given_up, DeliveryReport::default());
    assert_eq!((failed.len(), failed[0].attempts), (1, 2));
    assert!(retried);
    assert_eq!(delivered.sent, 1);
    assert!(
        !t.mail()
            .retry_mail(failed[0].id, &support::reviewer())
            .await
            .unwrap(),
        "a sent message is not retried"
    );
    assert!(
        !t.mail()
            .retry_mail(MailId::new(9_999), &support::reviewer())
            .await
            .unwrap()
    );
    let trail = t.store.trail();
    let retries: Vec<_> = trail
        .iter()
        .filter(|c| c.entry.action == rifa_domain::audit::AuditAction::MailRetried)
        .collect();
    assert_eq!(retries.len(), 1, "refused retries leave no entry");
    assert_eq!(
        retries[0].entry.target.as_deref(),
        Some(format!("mail:{}", failed[0].id.get()).as_str())
    );
}

#[tokio::test]
async fn confirmations_past_a_recipients_caps_are_withheld_but_decisions_are_not() {
    let t = Harness::new();
    t.store.set_mail_caps(RecipientCaps {
        per_hour: 2,
        per_day: 3,
    });
    let first = buy_as(&t, "ana@correo.com", &[1], Lang::Es).await;
    buy_as(&t, "Ana+rifa@correo.com", &[2], Lang::Es).await;
    buy_as(&t, "ana@correo.com", &[3], Lang::Es).await;
    t.clock.advance(TimeDelta::hours(1));
    buy_as(&t, "ana@correo.com", &[4], Lang::Es).await;
    buy_as(&t, "ana@correo.com", &[5], Lang::Es).await;
    buy_as(&t, "bea@correo.com", &[6], Lang::Es).await;
    t.review()
        .decide_purchase(
            first.purchase.id,
            "approved",
            None,
            &crate::support::reviewer(),
        )
        .await
        .unwrap();

    let rows = t.store.mail();
    let withheld: Vec<_> = rows.iter().map(|m| m.withheld).collect();
    assert_eq!(
        withheld,
        [
            None,
            None,
            Some(WithheldReason::HourlyCap),
            None,
            Some(WithheldReason::DailyCap),
            None,
            None
        ]
    );
    assert_eq!(rows[6].kind, MailKind::Approved);
    assert_eq!(deliver(&t, &RetryPolicy::default()).await.sent, 5);

    let held_back = rows[2].id;
    assert!(
        t.mail()
            .retry_mail(held_back, &support::reviewer())
            .await
            .unwrap()
    );
    assert_eq!(deliver(&t, &RetryPolicy::default()).await.sent, 1);
    let outbox = t
        .mail()
        .outbox(Some(MailStatus::Withheld), 10)
        .await
        .unwrap();
    assert_eq!(
        outbox.iter().map(|m| m.id).collect::<Vec<_>>(),
        [rows[4].id]
    );
}

#[tokio::test]
async fn the_outbox_lists_newest_first_and_says_why_mail_is_blocked() {
    let t = Harness::new();
    buy_as(&t, "ana@correo.com", &[1], Lang::Es).await;
    buy_as(&t, "bea@correo.com", &[2], Lang::Es).await;

    t.mail().mail_blocked("no e-mail settings").await.unwrap();
    let outbox = t.mail().outbox(None, 10).await.unwrap();
    let one = t.mail().outbox(None, 1).await.unwrap();

    assert_eq!(outbox.len(), 2);
    assert!(outbox[0].id > outbox[1].id);
    assert!(
        outbox
            .iter()
            .all(|m| m.last_error.as_deref() == Some("no e-mail settings"))
    );
    assert_eq!(outbox.iter().map(|m| m.attempts).sum::<u32>(), 0);
    assert_eq!(one.len(), 1);
}

#[tokio::test]
async fn a_test_email_goes_to_the_address_given_or_else_to_the_saved_sender() {
    let t = Harness::new();
    t.settings()
        .update_email_settings(
            EmailSettingsInput {
                host: Some("smtp.rifa.test".into()),
                from_email: Some("ventas@rifa.test".into()),
                ..EmailSettingsInput::default()
            },
            &crate::support::reviewer(),
        )
        .await
        .unwrap();

    let given = t
        .mail()
        .send_test_email(Some("admin@rifa.test"), Lang::En, &support::reviewer())
        .await
        .unwrap();
    let fallback = t
        .mail()
        .send_test_email(None, Lang::Es, &support::reviewer())
        .await
        .unwrap();

    assert_eq!(
        (given.to.as_str(), fallback.to.as_str()),
        ("admin@rifa.test", "ventas@rifa.test")
    );
    let sent = t.mailer.sent();
    assert_eq!(
        sent.iter().map(|e| e.to.as_str()).collect::<Vec<_>>(),
        [given.to, fallback.to]
    );
    assert_ne!(
        sent[0].subject, sent[1].subject,
        "one is in English, the other in Spanish"
    );
    assert!(sent.iter().all(|e| e.attachments.is_empty()));
    let tests: Vec<_> = t
        .store
        .trail()
        .into_iter()
        .filter(|c| c.entry.action == rifa_domain::audit::AuditAction::TestEmailSent)
        .map(|c| c.entry.changes)
        .collect();
    assert_eq!(tests.len(), 2, "each test message in the trail");
    assert_eq!(
        tests[1],
        [
            rifa_domain::audit::Change::new("to", None, Some("ventas@rifa.test".into())),
            rifa_domain::audit::Change::new("delivered", None, Some("true".into())),
        ]
    );
    assert!(
        t.store.mail().is_empty(),
        "a test e-mail does not go through the outbox"
    );
}

#[tokio::test]
async fn a_test_email_reports_a_bad_address_and_the_servers_refusal() {
    let t = Harness::new();

    let nowhere = t
        .mail()
        .send_test_email(None, Lang::Es, &support::reviewer())
        .await;
    let bad = t
        .mail()
        .send_test_email(Some("not an address"), Lang::Es, &support::reviewer())
        .await;
    t.mailer.fail_next(1);
    let refused = t
        .mail()
        .send_test_email(Some("admin@rifa.test"), Lang::Es, &support::reviewer())
        .await;

    match nowhere {
        Err(TestEmailError::Invalid(errors)) => {
            assert_eq!(errors.named(), [("to", FieldError::Required)]);
        }
        other => panic!("expected a missing address, got {other:?}"),
    }
    match bad {
        Err(TestEmailError::Invalid(errors)) => assert_eq!(fields(&errors), ["to"]),
        other => panic!("expected a bad address, got {other:?}"),
    }
    match refused {
        Err(TestEmailError::Failed(answer)) => assert!(answer.contains("421"), "{answer}"),
        other => panic!("expected the server's refusal, got {other:?}"),
    }
    assert!(t.mailer.sent().is_empty());
}

/// Whether the delivery worker, waiting for up to an hour, is woken within 200 ms (it never is without a notice).
async fn worker_woken(t: &Harness) -> bool {
    let wait = t.mail().mail_queued_or(Duration::from_secs(3_600));
    tokio::time::timeout(Duration::from_millis(200), wait)
        .await
        .is_ok()
}

#[tokio::test]
async fn a_purchase_a_decision_and_a_retry_wake_the_delivery_worker_at_once() {
    let t = Harness::new();
    t.mailer.fail_next(1);
    let receipt = buy_as(&t, "ana@correo.com", &[1], Lang::Es).await;
    assert!(worker_woken(&t).await, "woken by the purchase");
    assert!(!worker_woken(&t).await, "nothing queued since");

    t.review()
        .decide_purchase(
            receipt.purchase.id,
            "approved",
            None,
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    assert!(worker_woken(&t).await, "woken by the decision");
    let retry = RetryPolicy {
        max_attempts: 1,
        ..RetryPolicy::default()
    };
    deliver(&t, &retry).await;
    let failed = t.mail().outbox(Some(MailStatus::Failed), 1).await.unwrap();
    assert!(!worker_woken(&t).await, "nothing queued since");

    assert!(
        t.mail()
            .retry_mail(failed[0].id, &support::reviewer())
            .await
            .unwrap()
    );
    assert!(worker_woken(&t).await, "woken by the retry");
}

#[tokio::test]
async fn one_pass_tries_no_more_than_its_limit() {
    let t = Harness::new();
    for number in 1..=3 {
        buy_as(&t, "ana@correo.com", &[number], Lang::Es).await;
    }

    let first = t.mail().deliver_due_mail(2).await.unwrap();
    let rest = deliver(&t, &RetryPolicy::default()).await;

    assert_eq!((first.sent, rest.sent), (2, 1));
    assert!(t.store.mail().iter().all(|m| m.status == MailStatus::Sent));
}

#[tokio::test]
async fn a_test_email_says_whether_a_server_or_the_file_outbox_took_it() {
    let t = Harness::new();
    t.settings()
        .update_email_settings(
            EmailSettingsInput {
                from_email: Some("ventas@rifa.test".into()),
                ..EmailSettingsInput::default()
            },
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let no_server = t
        .mail()
        .send_test_email(None, Lang::Es, &support::reviewer())
        .await
        .unwrap();
    t.settings()
        .update_email_settings(
            EmailSettingsInput {
                host: Some("smtp.rifa.test".into()),
                from_email: Some("ventas@rifa.test".into()),
                ..EmailSettingsInput::default()
            },
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let server = t
        .mail()
        .send_test_email(None, Lang::Es, &support::reviewer())
        .await
        .unwrap();

    assert_eq!(
        no_server,
        TestEmailSent {
            to: "ventas@rifa.test".into(),
            route: MailRoute::FileOutbox
        }
    );
    assert_eq!(server.route, MailRoute::Server);
    assert_eq!(t.mailer.sent().len(), 2);
}

#[tokio::test]
async fn settings_no_mailer_can_be_made_of_block_the_outbox_with_the_reason_and_fail_the_test() {
    let t = Harness::new();
    buy_as(&t, "ana@correo.com", &[1], Lang::Es).await;
    t.transports.refuse("no password saved for smtp.rifa.test");

    let report = deliver(&t, &RetryPolicy::default()).await;
    let test = t
        .mail()
        .send_test_email(Some("admin@rifa.test"), Lang::Es, &support::reviewer())
        .await;

    assert_eq!(report, DeliveryReport::default());
    assert!(t.mailer.sent().is_empty());
    let waiting = t.mail().outbox(None, 10).await.unwrap();
    assert_eq!(waiting.len(), 1);
    assert_eq!(
        (waiting[0].status, waiting[0].attempts),
        (MailStatus::Pending, 0)
    );
    let why = waiting[0].last_error.as_deref().unwrap_or_default();
    assert!(
        why.contains("no password saved for smtp.rifa.test"),
        "{why}"
    );
    match test {
        Err(TestEmailError::Failed(answer)) => {
            assert!(answer.contains("no password saved"), "{answer}");
        }
        other => panic!("expected the settings' refusal, got {other:?}"),
    }
}
