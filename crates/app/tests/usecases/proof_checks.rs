//! Checking attached proofs over the fakes (issue 16): the same file, picture or reference sent
//! for two purchases is flagged on the second, metadata naming an editor or a late date is
//! flagged, what the text says is compared with the purchase, a proof that cannot be read is
//! tried again with a backoff and then given up, and an instance never checks what another has
//! claimed.

use chrono::TimeDelta;
use rifa_app::proof_queue::{BulkOutcome, QueueRequest};
use rifa_app::proofs::UploadRequest;
use rifa_app::purchasing::{PurchaseError, PurchaseMode, PurchaseReceipt};
use rifa_domain::payment::PaymentMethodDraft;
use rifa_domain::payment_reference::{PaymentReference, ReferencePolicy};
use rifa_domain::proof_signals::{Light, PictureHash, ReadFailure, Signal};
use rifa_domain::purchase::PurchaseId;
use rifa_domain::purchase::PurchaseStatus;
use rifa_domain::{FieldError, Lang};
use rifa_ports::{
    Clock, MailKind, PaymentMethodRepository, ProofCheckState, ProofChecks, ProofEvidence,
    QueueLight,
};

use crate::support::{Harness, RaffleSetup, buyer, fields, request};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x03\x20";

async fn attach(t: &Harness, receipt: &PurchaseReceipt, bytes: &[u8]) -> String {
    let key = receipt.access_key.clone().unwrap();
    let upload = t
        .proofs()
        .grant_proof_upload(&UploadRequest {
            purchase_id: receipt.purchase.id,
            access_key: key.clone(),
            filename: "pago.png".into(),
            content_type: Some("image/png".into()),
            size: Some(bytes.len() as u64),
        })
        .await
        .unwrap();
    let object = crate::support::outbound::key_of(&upload).to_owned();
    t.objects.put(&object, bytes);
    t.proofs()
        .attach_proof(receipt.purchase.id, &key)
        .await
        .unwrap();
    object
}

async fn two_buyers(t: &Harness) -> (PurchaseReceipt, PurchaseReceipt) {
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let ana = t.buy(&raffle, &zelle, &[1]).await;
    let luis = t
        .buy_as(
            &raffle,
            &zelle,
            &[2],
            buyer("Luis Pérez", "luis@correo.com", "0414-765-4321"),
        )
        .await;
    (ana, luis)
}

#[tokio::test]
async fn the_same_file_for_a_second_purchase_is_red_and_names_the_first() {
    let t = Harness::new();
    let (ana, luis) = two_buyers(&t).await;
    attach(&t, &ana, PNG).await;
    assert_eq!(
        t.proof_checks().proof_check(ana.purchase.id).await.unwrap(),
        Some(ProofCheckState::Pending)
    );
    assert_eq!(t.proof_checks().check_due_proofs().await.unwrap(), 1);
    attach(&t, &luis, PNG).await;
    assert_eq!(t.proof_checks().check_due_proofs().await.unwrap(), 1);

    let Some(ProofCheckState::Done { light, signals, .. }) = t
        .proof_checks()
        .proof_check(luis.purchase.id)
        .await
        .unwrap()
    else {
        panic!("Luis's proof is checked");
    };
    assert_eq!(light, Light::Red);
    assert_eq!(
        signals,
        [
            Signal::ExactReuse {
                other: ana.purchase.id
            },
            Signal::NoTextReader
        ]
    );
    let Some(ProofCheckState::Done { light, .. }) =
        t.proof_checks().proof_check(ana.purchase.id).await.unwrap()
    else {
        panic!("Ana's proof is checked");
    };
    assert_eq!(light, Light::Amber, "the first sender is not accused");
}

#[tokio::test]
async fn a_proof_that_cannot_be_read_is_tried_again_later_then_given_up() {
    let t = Harness::new();
    let (ana, _) = two_buyers(&t).await;
    let object = attach(&t, &ana, PNG).await;
    t.objects.remove(&object);

    assert_eq!(t.proof_checks().check_due_proofs().await.unwrap(), 0);
    assert_eq!(t.store.proof_check_attempts(ana.purchase.id), 1);
    // Not again before its backoff.
    t.proof_checks().check_due_proofs().await.unwrap();
    assert_eq!(t.store.proof_check_attempts(ana.purchase.id), 1);
    for _ in 0..5 {
        t.clock.advance(TimeDelta::hours(1));
        t.proof_checks().check_due_proofs().await.unwrap();
    }
    assert_eq!(t.store.proof_check_attempts(ana.purchase.id), 5);
    assert!(matches!(
        t.proof_checks().proof_check(ana.purchase.id).await.unwrap(),
        Some(ProofCheckState::Failed { reason }) if reason.contains("no longer stored")
    ));
}

#[tokio::test]
async fn a_file_the_reader_refuses_is_amber_at_once_and_not_tried_again() {
    let t = Harness::new();
    let (ana, _) = two_buyers(&t).await;
    attach(&t, &ana, PNG).await;
    t.reader.refuses(PNG, ReadFailure::TooSlow { seconds: 15 });

    assert_eq!(t.proof_checks().check_due_proofs().await.unwrap(), 1);

    assert_eq!(
        checked(&t, ana.purchase.id).await,
        (Light::Amber, vec![Signal::ReadTooSlow { seconds: 15 }])
    );
    for _ in 0..3 {
        t.clock.advance(TimeDelta::hours(1));
        assert_eq!(t.proof_checks().check_due_proofs().await.unwrap(), 0);
    }
    assert_eq!(t.store.proof_check_attempts(ana.purchase.id), 1);
    assert_eq!(t.reader.files_read().len(), 1, "read once");
}

#[tokio::test]
async fn a_reader_that_could_not_run_is_tried_again_after_its_backoff() {
    let t = Harness::new();
    let (ana, _) = two_buyers(&t).await;
    attach(&t, &ana, PNG).await;
    t.reader.breaks_on(
        PNG,
        "failed to start tesseract: Resource temporarily unavailable",
    );

    assert_eq!(t.proof_checks().check_due_proofs().await.unwrap(), 0);
    assert_eq!(
        t.proof_checks().proof_check(ana.purchase.id).await.unwrap(),
        Some(ProofCheckState::Pending)
    );
    t.reader.reads(PNG, "Referencia: 0123456789");
    assert_eq!(
        t.proof_checks().check_due_proofs().await.unwrap(),
        0,
        "backoff"
    );
    t.clock.advance(TimeDelta::minutes(2));
    assert_eq!(t.proof_checks().check_due_proofs().await.unwrap(), 1);

    assert_eq!(t.store.proof_check_attempts(ana.purchase.id), 2);
    let (_, signals) = checked(&t, ana.purchase.id).await;
    assert!(
        signals.contains(&Signal::ReferenceRead {
            reference: "0123456789".into()
        }),
        "{signals:?}"
    );
}

#[tokio::test]
async fn a_check_tried_again_waits_behind_proofs_attached_since() {
    let t = Harness::new();
    let (ana, luis) = two_buyers(&t).await;
    attach(&t, &ana, PNG).await;
    t.reader.breaks_on(PNG, "the object store is unreachable");
    t.proof_checks().check_due_proofs().await.unwrap();
    t.reader.reads(PNG, "");
    t.reader.reads(OTHER_PNG, "");

    // Luis attaches after Ana's retry fell due (two minutes): both are due, hers the longer.
    t.clock.advance(TimeDelta::minutes(3));
    attach(&t, &luis, OTHER_PNG).await;
    assert_eq!(t.proof_checks().check_due_proofs().await.unwrap(), 2);

    assert_eq!(
        t.reader.files_read(),
        [PNG.to_vec(), OTHER_PNG.to_vec(), PNG.to_vec()],
        "Luis's fresh proof before Ana's second attempt"
    );
}

#[tokio::test]
async fn a_check_whose_worker_stopped_each_time_is_given_up() {
    let t = Harness::new();
    let (ana, _) = two_buyers(&t).await;
    attach(&t, &ana, PNG).await;
    // Claimed by workers that stopped before answering (each lease runs out).
    for _ in 0..5 {
        let at = t.clock.now();
        t.store
            .claim_proof_checks(1, at, at + TimeDelta::minutes(2))
            .await
            .unwrap();
        t.clock.advance(TimeDelta::minutes(3));
    }

    assert_eq!(t.proof_checks().check_due_proofs().await.unwrap(), 0);

    assert!(t.reader.files_read().is_empty(), "not read a sixth time");
    assert!(matches!(
        t.proof_checks().proof_check(ana.purchase.id).await.unwrap(),
        Some(ProofCheckState::Failed { reason }) if reason.contains("stopped")
    ));
}

#[tokio::test]
async fn two_instances_check_each_proof_once() {
    let t = Harness::new();
    let other = t.another_instance();
    let (ana, luis) = two_buyers(&t).await;
    attach(&t, &ana, PNG).await;
    attach(&t, &luis, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x04\x00").await;
    let (mine, theirs) = tokio::join!(
        t.proof_checks().check_due_proofs(),
        other.proof_checks().check_due_proofs()
    );
    assert_eq!(mine.unwrap() + theirs.unwrap(), 2);
    assert_eq!(t.store.proof_check_attempts(ana.purchase.id), 1);
    assert_eq!(t.store.proof_check_attempts(luis.purchase.id), 1);
}

/// The check of a purchase's proof, once done.
async fn checked(t: &Harness, purchase: PurchaseId) -> (Light, Vec<Signal>) {
    match t.proof_checks().proof_check(purchase).await.unwrap() {
        Some(ProofCheckState::Done { light, signals, .. }) => (light, signals),
        other => panic!("not checked: {other:?}"),
    }
}

const OTHER_PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x04\x00";

#[tokio::test]
async fn a_proof_showing_the_amount_and_the_reference_typed_is_green() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let quote = t.price_of(&raffle, 1).await;
    let mut form = request(&zelle, &[5], &quote);
    form.payment_reference = PaymentReference::parse("a1b2c3d4").unwrap();
    let ana = t
        .purchasing()
        .purchase(raffle.id, Ok(form), PurchaseMode::Public, Lang::Es)
        .await
        .unwrap();
    let total = ana.purchase.total_amount;
    t.reader.reads(
        PNG,
        &format!("Zelle\nAmount\n${total}\nConfirmation: BACa1b2c3d4\nNov 3, 2026"),
    );
    attach(&t, &ana, PNG).await;
    t.proof_checks().check_due_proofs().await.unwrap();

    let (light, signals) = checked(&t, ana.purchase.id).await;
    assert_eq!(light, Light::Green, "{signals:?}");
    assert!(matches!(signals[0], Signal::AmountMatches { .. }));
    assert!(matches!(signals[1], Signal::ReferenceMatches { .. }));
}

#[tokio::test]
async fn a_wrong_amount_is_red_and_a_proof_without_text_amber() {
    let t = Harness::new();
    let (ana, luis) = two_buyers(&t).await;
    t.reader
        .reads(PNG, "Zelle\nAmount\n$1.00\nConfirmation: BAC12345678");
    t.reader.reads(OTHER_PNG, "   ");
    attach(&t, &ana, PNG).await;
    attach(&t, &luis, OTHER_PNG).await;
    t.proof_checks().check_due_proofs().await.unwrap();

    let (light, signals) = checked(&t, ana.purchase.id).await;
    assert_eq!(light, Light::Red);
    assert!(
        matches!(&signals[0], Signal::AmountDiffers { read, expected }
            if read.value.to_string() == "1.00" && expected.value == ana.purchase.total_amount.as_decimal()),
        "{signals:?}"
    );
    assert_eq!(
        checked(&t, luis.purchase.id).await,
        (Light::Amber, vec![Signal::Unreadable])
    );
}

#[tokio::test]
async fn the_same_picture_saved_again_or_the_same_reference_cropped_is_red() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let mut bought = Vec::new();
    for (who, number) in [("Ana", 1), ("Luis", 2), ("Eva", 3)] {
        let phone = format!("0414-111-000{number}");
        let customer = buyer(who, &format!("{who}@correo.com"), &phone);
        bought.push(t.buy_as(&raffle, &zelle, &[number], customer).await);
    }
    let [ana, luis, eva] = <[_; 3]>::try_from(bought).unwrap();
    let mut bits = [0u8; 32];
    let first = PictureHash(bits);
    bits[0] = 0b0111_1111;
    let saved_again = PictureHash(bits);
    t.examiner.finds(
        PNG,
        ProofEvidence {
            picture_hash: Some(first),
            ..ProofEvidence::default()
        },
    );
    t.examiner.finds(
        OTHER_PNG,
        ProofEvidence {
            picture_hash: Some(saved_again),
            ..ProofEvidence::default()
        },
    );
    let cropped = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x05\x00";
    t.examiner.finds(
        cropped,
        ProofEvidence {
            picture_hash: Some(PictureHash([0xF0; 32])),
            ..ProofEvidence::default()
        },
    );
    t.reader.reads(PNG, "Referencia: 0123456789");
    t.reader.reads(cropped, "Referencia: 0123456789");
    attach(&t, &ana, PNG).await;
    t.proof_checks().check_due_proofs().await.unwrap();
    attach(&t, &luis, OTHER_PNG).await;
    attach(&t, &eva, cropped).await;
    t.proof_checks().check_due_proofs().await.unwrap();

    let (light, signals) = checked(&t, luis.purchase.id).await;
    assert_eq!(light, Light::Red);
    assert!(
        signals.contains(&Signal::NearReuse {
            other: ana.purchase.id,
            distance: 7
        }),
        "{signals:?}"
    );
    let (light, signals) = checked(&t, eva.purchase.id).await;
    assert_eq!(light, Light::Red);
    assert!(
        signals.contains(&Signal::ReferenceReused {
            other: ana.purchase.id
        }),
        "{signals:?}"
    );
    assert!(
        !signals
            .iter()
            .any(|s| matches!(s, Signal::NearReuse { .. })),
        "a different picture"
    );
}

#[tokio::test]
async fn metadata_naming_an_editor_or_a_later_date_is_flagged() {
    let t = Harness::new();
    let (ana, _) = two_buyers(&t).await;
    let later = ana.purchase.created_at + TimeDelta::hours(5);
    t.examiner.finds(
        PNG,
        ProofEvidence {
            software: vec!["Adobe Photoshop 25.0 (Windows)".into()],
            created_at: Some(later),
            ..ProofEvidence::default()
        },
    );
    attach(&t, &ana, PNG).await;
    t.proof_checks().check_due_proofs().await.unwrap();

    let (light, signals) = checked(&t, ana.purchase.id).await;
    assert_eq!(light, Light::Red);
    assert_eq!(
        signals[..2],
        [
            Signal::EditedWith {
                software: "Adobe Photoshop 25.0 (Windows)".into()
            },
            Signal::DatedAfterPurchase { taken_at: later }
        ]
    );
}

#[tokio::test]
async fn a_method_may_require_a_reference_and_one_pays_for_one_live_purchase() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let method = t
        .store
        .create_payment_method(
            &PaymentMethodDraft {
                name: "Pago Móvil".into(),
                kind: "mobile_payment".into(),
                active: true,
                details: vec![("phone".into(), "0414-000-0000".into())],
                exchange_rate_id: None,
                reference: ReferencePolicy::new(true, 6).unwrap(),
            },
            &|_, _| crate::support::test_entry(),
        )
        .await
        .unwrap();
    let quote = t.price_of(&raffle, 1).await;
    let buy = |numbers: &'static [u32], reference: &'static str, who: &'static str| {
        let mut form = request(&method, numbers, &quote);
        form.payment_reference = PaymentReference::parse(reference).unwrap();
        form.customer = buyer(
            who,
            &format!("{}@correo.com", who.to_lowercase()),
            "0414-555-0000",
        );
        let t = &t;
        async move {
            t.purchasing()
                .purchase(raffle.id, Ok(form), PurchaseMode::Public, Lang::Es)
                .await
        }
    };
    let Err(PurchaseError::Invalid(errors)) = buy(&[1], "", "Ana").await else {
        panic!("a reference is required");
    };
    assert_eq!(fields(&errors), ["paymentReference"]);
    assert_eq!(errors.iter().next().unwrap().1, FieldError::Required);
    let Err(PurchaseError::Invalid(errors)) = buy(&[1], "12-34", "Ana").await else {
        panic!("too short");
    };
    assert_eq!(
        errors.iter().next().unwrap().1,
        FieldError::TooShort { min: 6 }
    );
    buy(&[1], "0123-456789", "Ana").await.unwrap();
    assert!(
        matches!(
            buy(&[2], "0123456789", "Luis").await,
            Err(PurchaseError::PaymentReferenceUsed)
        ),
        "the same reference, typed otherwise"
    );
}

#[tokio::test]
async fn the_queue_lists_by_light_and_age_and_bulk_decisions_take_only_their_light() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let total = t.price_of(&raffle, 1).await.total;
    let mut bought = Vec::new();
    // Ana's and Eva's proofs read right (green), Luis's is Ana's file again (red), Rosa's has
    // no proof yet (not in the queue).
    for (who, number, proof, text) in [
        (
            "Ana",
            1,
            Some(PNG),
            format!("Amount ${total}\nConfirmation: BAC11112222"),
        ),
        ("Luis", 2, Some(PNG), String::new()),
        (
            "Eva",
            3,
            Some(OTHER_PNG),
            format!("Amount ${total}\nConfirmation: BAC33334444"),
        ),
        ("Rosa", 4, None, String::new()),
    ] {
        t.clock.advance(TimeDelta::minutes(1));
        let phone = format!("0414-222-000{number}");
        let customer = buyer(who, &format!("{who}@correo.com"), &phone);
        let receipt = t.buy_as(&raffle, &zelle, &[number], customer).await;
        if let Some(proof) = proof {
            if !text.is_empty() {
                t.reader.reads(proof, &text);
            }
            attach(&t, &receipt, proof).await;
            t.proof_checks().check_due_proofs().await.unwrap();
        }
        bought.push(receipt.purchase.id);
    }
    let [ana, luis, eva, rosa] = <[_; 4]>::try_from(bought).unwrap();
    let query = |light, oldest_first| QueueRequest {
        light,
        oldest_first,
        after: None,
        limit: 50,
    };
    let ids = |queued: Vec<rifa_ports::QueuedProof>| {
        queued
            .into_iter()
            .map(|q| q.purchase.id)
            .collect::<Vec<_>>()
    };
    let all = t.proof_queue().queue(query(None, true)).await.unwrap();
    assert_eq!(ids(all), [ana, luis, eva], "oldest first, only proofs");
    let green = t
        .proof_queue()
        .queue(query(Some(QueueLight::Checked(Light::Green)), false))
        .await
        .unwrap();
    assert_eq!(ids(green), [eva, ana], "newest first");
    let mut page = query(None, true);
    page.limit = 1;
    page.after = Some(ana);
    assert_eq!(ids(t.proof_queue().queue(page).await.unwrap()), [luis]);

    // Approving all four in bulk approves the green ones only, and e-mails their buyers.
    let outcomes = t
        .proof_queue()
        .decide_in_bulk(
            &[ana, luis, eva, rosa],
            "approved",
            None,
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    assert!(
        matches!(&outcomes[0], (id, BulkOutcome::Decided(p)) if *id == ana && p.status == PurchaseStatus::Approved)
    );
    assert_eq!(
        outcomes[1].1,
        BulkOutcome::NotEligible {
            light: Some(Light::Red)
        }
    );
    assert!(matches!(outcomes[2].1, BulkOutcome::Decided(_)));
    assert_eq!(outcomes[3].1, BulkOutcome::NotEligible { light: None });
    let to_ana: Vec<MailKind> = t
        .store
        .mail()
        .iter()
        .filter(|m| m.recipient == "ana@correo.com")
        .map(|m| m.kind)
        .collect();
    assert_eq!(to_ana, [MailKind::Received, MailKind::Approved]);
    // Rejecting in bulk takes the red one, with the note; a second time it is decided.
    assert!(matches!(
        t.proof_queue()
            .decide_in_bulk(&[luis], "rejected", Some(" "), &crate::support::reviewer())
            .await,
        Err(rifa_app::proof_queue::BulkError::Invalid(_))
    ));
    let outcomes = t
        .proof_queue()
        .decide_in_bulk(
            &[luis, ana],
            "rejected",
            Some("Comprobante repetido"),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    assert!(
        matches!(&outcomes[0].1, BulkOutcome::Decided(p) if p.admin_notes.as_deref() == Some("Comprobante repetido"))
    );
    assert_eq!(
        outcomes[1].1,
        BulkOutcome::NotEligible {
            light: Some(Light::Green)
        }
    );
    let again = t
        .proof_queue()
        .decide_in_bulk(
            &[luis],
            "rejected",
            Some("Comprobante repetido"),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    assert_eq!(
        again[0].1,
        BulkOutcome::NotPending(PurchaseStatus::Rejected)
    );
}
