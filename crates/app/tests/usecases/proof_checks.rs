//! Checking attached proofs over the fakes (issue 16): the same file sent for two purchases is
//! flagged on the second, a proof that cannot be read is tried again with a backoff and then
//! given up, and an instance never checks what another has claimed.

use chrono::TimeDelta;
use rifa_app::proofs::UploadRequest;
use rifa_app::purchasing::PurchaseReceipt;
use rifa_domain::proof_signals::{Light, Signal};
use rifa_ports::ProofCheckState;

use crate::support::{Harness, RaffleSetup, buyer};

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
            Signal::Unreadable
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
