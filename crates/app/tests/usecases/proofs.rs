//! The payment proof: upload grants bound to the buyer's key, the file judged by its bytes, the
//! sweep of uploads never attached, and the admin's download through the API's own store.

use bytes::Bytes;
use chrono::TimeDelta;
use futures_util::{StreamExt, TryStreamExt, stream};
use rifa_app::proofs::{
    ABANDONED_UPLOAD_AGE, MAX_UPLOAD_GRANTS, ProofFailure, UploadFailure, UploadRequest,
};
use rifa_app::purchasing::PurchaseReceipt;
use rifa_domain::Lang;
use rifa_domain::proof::{MAX_PROOF_BYTES, ProofContent, ProofError, ProofKind};
use rifa_domain::purchase::PurchaseId;
use rifa_domain::purchase::PurchaseStatus;
use rifa_ports::outbound::{ObjectStore, PresignedUpload};
use rifa_ports::{DownloadRefusal, ProofProblem};

use crate::support::outbound::key_of;
use crate::support::{Harness, RaffleSetup};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x03\x20";
const PDF: &[u8] = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj";

async fn bought(t: &Harness) -> PurchaseReceipt {
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.buy(&raffle, &zelle, &[1]).await
}

fn png_upload(receipt: &PurchaseReceipt, key: &str) -> UploadRequest {
    UploadRequest {
        purchase_id: receipt.purchase.id,
        access_key: key.to_owned(),
        filename: "pago.png".into(),
        content_type: Some("image/png".into()),
        size: Some(PNG.len() as u64),
    }
}

fn key(receipt: &PurchaseReceipt) -> &str {
    receipt.access_key.as_deref().unwrap()
}

async fn grant(t: &Harness, receipt: &PurchaseReceipt) -> PresignedUpload {
    t.proofs()
        .grant_proof_upload(&png_upload(receipt, key(receipt)))
        .await
        .unwrap()
}

async fn attach(t: &Harness, receipt: &PurchaseReceipt) -> Result<(), ProofFailure> {
    t.proofs()
        .attach_proof(receipt.purchase.id, key(receipt))
        .await
}

#[tokio::test]
async fn a_granted_upload_is_judged_and_attached_for_the_admin_to_open() {
    let t = Harness::new();
    let receipt = bought(&t).await;

    let upload = grant(&t, &receipt).await;
    let object = key_of(&upload).to_owned();
    t.objects.put(&object, PNG);
    attach(&t, &receipt).await.unwrap();

    assert!(object.starts_with(&format!("proofs/{}/", receipt.purchase.id)));
    assert!(object.ends_with(".png"));
    assert!(
        upload
            .headers
            .contains(&("Content-Type".into(), "image/png".into()))
    );
    let purchase = t
        .review()
        .purchase_by_id(receipt.purchase.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(purchase.payment_proof.as_deref(), Some(object.as_str()));
    let link = t.proofs().proof_link(&purchase).await.unwrap();
    assert_eq!(link, Some(format!("memory://{object}?signed")));
    assert_eq!(
        t.proofs().proof_problem(receipt.purchase.id).await.unwrap(),
        None
    );
}

#[tokio::test]
async fn a_wrong_key_or_an_unknown_purchase_is_not_found_alike() {
    let t = Harness::new();
    let receipt = bought(&t).await;
    let upload = grant(&t, &receipt).await;
    t.objects.put(key_of(&upload), PNG);
    let mut stranger = png_upload(&receipt, "key-999");

    let granted = t.proofs().grant_proof_upload(&stranger).await;
    let attached = t
        .proofs()
        .attach_proof(receipt.purchase.id, "key-999")
        .await;
    stranger.purchase_id = PurchaseId::new(9_999);
    let unknown = t.proofs().grant_proof_upload(&stranger).await;

    for outcome in [granted.map(drop), attached, unknown.map(drop)] {
        assert!(
            matches!(outcome, Err(ProofFailure::NotFound)),
            "{outcome:?}"
        );
    }
    assert_eq!(t.store.purchases()[0].payment_proof, None);
}

#[tokio::test]
async fn what_the_buyer_declares_is_checked_before_any_url_is_signed() {
    let t = Harness::new();
    let receipt = bought(&t).await;
    let base = png_upload(&receipt, key(&receipt));

    let text = UploadRequest {
        content_type: Some("text/plain".into()),
        ..base.clone()
    };
    let huge = UploadRequest {
        size: Some(50 * 1024 * 1024),
        ..base.clone()
    };
    let empty = UploadRequest {
        size: Some(0),
        ..base.clone()
    };
    let unsized_ = UploadRequest {
        size: None,
        ..base.clone()
    };

    let proofs = t.proofs();
    assert!(matches!(
        proofs.grant_proof_upload(&text).await,
        Err(ProofFailure::Refused(ProofError::WrongType))
    ));
    assert!(matches!(
        proofs.grant_proof_upload(&huge).await,
        Err(ProofFailure::Refused(ProofError::TooLarge { .. }))
    ));
    assert!(matches!(
        proofs.grant_proof_upload(&empty).await,
        Err(ProofFailure::Refused(ProofError::Missing))
    ));
    assert!(matches!(
        proofs.grant_proof_upload(&unsized_).await,
        Err(ProofFailure::SizeRequired)
    ));
}

#[tokio::test]
async fn nothing_to_attach_without_a_granted_and_uploaded_file() {
    let t = Harness::new();
    let receipt = bought(&t).await;

    let ungranted = attach(&t, &receipt).await;
    grant(&t, &receipt).await;
    let not_uploaded = attach(&t, &receipt).await;

    for outcome in [ungranted, not_uploaded] {
        assert!(
            matches!(outcome, Err(ProofFailure::Refused(ProofError::Missing))),
            "{outcome:?}"
        );
    }
    assert_eq!(
        t.proofs().proof_problem(receipt.purchase.id).await.unwrap(),
        Some(ProofProblem::Missing)
    );
}

#[tokio::test]
async fn an_attached_proof_cannot_be_attached_again_without_a_new_grant() {
    let t = Harness::new();
    let receipt = bought(&t).await;
    let upload = grant(&t, &receipt).await;
    t.objects.put(key_of(&upload), PNG);
    attach(&t, &receipt).await.unwrap();

    let again = attach(&t, &receipt).await;

    assert!(
        matches!(again, Err(ProofFailure::Refused(ProofError::Missing))),
        "{again:?}"
    );
    // The proof attached before stands: the refusal is not recorded against it.
    assert_eq!(
        t.proofs().proof_problem(receipt.purchase.id).await.unwrap(),
        None
    );
    assert_eq!(t.objects.keys(), [key_of(&upload).to_owned()]);
}

#[tokio::test]
async fn a_file_the_decoder_cannot_read_is_deleted_and_the_purchase_says_why() {
    let t = Harness::new();
    let receipt = bought(&t).await;
    let upload = grant(&t, &receipt).await;
    t.objects.put(key_of(&upload), PNG);
    t.inspector.finds(ProofContent::Unreadable);

    let refused = attach(&t, &receipt).await;

    assert!(
        matches!(
            refused,
            Err(ProofFailure::Refused(ProofError::Unreadable {
                kind: ProofKind::Png
            }))
        ),
        "{refused:?}"
    );
    assert!(t.objects.keys().is_empty());
    assert_eq!(
        t.proofs().proof_problem(receipt.purchase.id).await.unwrap(),
        Some(ProofProblem::WrongType)
    );
    assert_eq!(t.store.purchases()[0].payment_proof, None);
}

#[tokio::test]
async fn a_refused_replacement_leaves_the_proof_attached_before_standing() {
    let t = Harness::new();
    let receipt = bought(&t).await;
    let first = grant(&t, &receipt).await;
    t.objects.put(key_of(&first), PNG);
    attach(&t, &receipt).await.unwrap();
    let second = grant(&t, &receipt).await;
    t.objects.put(key_of(&second), PNG);
    t.inspector.finds(ProofContent::Image {
        width: 100_000,
        height: 100_000,
    });

    let refused = attach(&t, &receipt).await;

    assert!(
        matches!(
            refused,
            Err(ProofFailure::Refused(ProofError::TooManyPixels { .. }))
        ),
        "{refused:?}"
    );
    assert_eq!(
        t.proofs().proof_problem(receipt.purchase.id).await.unwrap(),
        None
    );
    assert_eq!(
        t.store.purchases()[0].payment_proof.as_deref(),
        Some(key_of(&first))
    );
    assert_eq!(t.objects.keys(), [key_of(&first).to_owned()]);
}

#[tokio::test]
async fn a_file_that_is_not_what_it_was_declared_as_is_refused() {
    let t = Harness::new();
    let receipt = bought(&t).await;
    let upload = grant(&t, &receipt).await;
    t.objects.put(key_of(&upload), PDF);

    let refused = attach(&t, &receipt).await;

    assert!(
        matches!(
            refused,
            Err(ProofFailure::Refused(ProofError::NotAsDeclared {
                declared: ProofKind::Png,
                actual: ProofKind::Pdf
            }))
        ),
        "{refused:?}"
    );
    assert!(t.objects.keys().is_empty());
}

#[tokio::test]
async fn a_decided_purchase_takes_no_more_proofs() {
    let t = Harness::new();
    let receipt = bought(&t).await;
    t.review()
        .decide_purchase(
            receipt.purchase.id,
            "approved",
            None,
            &crate::support::reviewer(),
        )
        .await
        .unwrap();

    let refused = t
        .proofs()
        .grant_proof_upload(&png_upload(&receipt, key(&receipt)))
        .await;

    assert!(
        matches!(
            refused,
            Err(ProofFailure::NotPending(PurchaseStatus::Approved))
        ),
        "{refused:?}"
    );
}

#[tokio::test]
async fn each_purchase_gets_a_bounded_number_of_upload_urls_and_replaced_uploads_go() {
    let t = Harness::new();
    let receipt = bought(&t).await;
    for _ in 0..MAX_UPLOAD_GRANTS {
        let upload = grant(&t, &receipt).await;
        t.objects.put(key_of(&upload), PNG);
    }

    let one_too_many = t
        .proofs()
        .grant_proof_upload(&png_upload(&receipt, key(&receipt)))
        .await;

    assert!(
        matches!(one_too_many, Err(ProofFailure::TooManyUploads)),
        "{one_too_many:?}"
    );
    assert_eq!(
        t.objects.keys().len(),
        1,
        "each new grant deletes the upload it replaces"
    );
}

#[tokio::test]
async fn uploads_never_attached_are_swept_once_abandoned_and_fresh_ones_stay() {
    let t = Harness::new();
    // Holds that outlast the day the sweep waits for.
    let raffle = t
        .raffle(RaffleSetup {
            hold_minutes: 10_080,
            ..RaffleSetup::default()
        })
        .await;
    let zelle = t.method("Zelle").await;
    let old = t.buy(&raffle, &zelle, &[1]).await;
    let old_upload = grant(&t, &old).await;
    t.objects.put(key_of(&old_upload), PNG);
    t.clock.advance(TimeDelta::hours(23));
    let fresh = t.buy(&raffle, &zelle, &[2]).await;
    let fresh_upload = grant(&t, &fresh).await;
    t.objects.put(key_of(&fresh_upload), PNG);
    t.clock.advance(TimeDelta::hours(2));

    let swept = t
        .proofs()
        .sweep_abandoned_uploads(ABANDONED_UPLOAD_AGE, 1)
        .await
        .unwrap();

    assert_eq!(swept, 1);
    assert_eq!(t.objects.keys(), [key_of(&fresh_upload).to_owned()]);
    assert!(matches!(
        attach(&t, &old).await,
        Err(ProofFailure::Refused(ProofError::Missing))
    ));
    attach(&t, &fresh).await.unwrap();
}

#[tokio::test]
async fn the_buyer_reads_their_purchase_with_its_key_only() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let quote = t.price_of(&raffle, 1).await;
    let receipt = t
        .purchasing()
        .purchase(
            raffle.id,
            crate::support::form(&zelle, &[1], &quote),
            rifa_app::purchasing::PurchaseMode::Public,
            Lang::En,
        )
        .await
        .unwrap();

    let (purchase, lang) = t
        .proofs()
        .purchase_for_buyer(receipt.purchase.id, key(&receipt))
        .await
        .unwrap();
    let wrong = t
        .proofs()
        .purchase_for_buyer(receipt.purchase.id, "key-999")
        .await;

    assert_eq!((purchase.id, lang), (receipt.purchase.id, Lang::En));
    assert!(matches!(wrong, Err(ProofFailure::NotFound)), "{wrong:?}");
}

#[tokio::test]
async fn no_key_opens_an_admins_test_purchase() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let quote = t.price_of(&raffle, 1).await;
    let test = t
        .purchasing()
        .purchase(
            raffle.id,
            crate::support::form(&zelle, &[1], &quote),
            rifa_app::purchasing::PurchaseMode::AdminTest(crate::support::reviewer()),
            Lang::Es,
        )
        .await
        .unwrap();

    for guess in ["", "key-1", "digest(key-1)"] {
        let opened = t.proofs().purchase_for_buyer(test.purchase.id, guess).await;
        assert!(
            matches!(opened, Err(ProofFailure::NotFound)),
            "{guess:?}: {opened:?}"
        );
    }
}

/// The token of a link the memory store signed, as the API's download route receives it.
fn token_of(link: &str) -> &str {
    link.strip_prefix("memory://").unwrap()
}

#[tokio::test]
async fn an_attached_proof_downloads_through_the_link_an_admin_is_given() {
    let t = Harness::new();
    let receipt = bought(&t).await;
    let upload = grant(&t, &receipt).await;
    t.objects.put(key_of(&upload), PNG);
    let purchase = t
        .review()
        .purchase_by_id(receipt.purchase.id)
        .await
        .unwrap()
        .unwrap();
    let unattached = t.proofs().proof_link(&purchase).await.unwrap();
    attach(&t, &receipt).await.unwrap();
    let purchase = t
        .review()
        .purchase_by_id(receipt.purchase.id)
        .await
        .unwrap()
        .unwrap();
    let link = t.proofs().proof_link(&purchase).await.unwrap().unwrap();

    let file = t.proofs().download_proof(token_of(&link)).await.unwrap();

    assert_eq!(unattached, None);
    assert_eq!(
        (file.size, file.content_type),
        (PNG.len() as u64, "image/png")
    );
    let body: Vec<Bytes> = file.body.try_collect().await.unwrap();
    assert_eq!(body.concat(), PNG);
}

#[tokio::test]
async fn a_download_link_that_opens_nothing_is_not_found_alike() {
    let t = Harness::new();
    let receipt = bought(&t).await;
    let upload = grant(&t, &receipt).await;
    let key = key_of(&upload).to_owned();
    t.objects.put(&key, PNG);
    attach(&t, &receipt).await.unwrap();

    let unsigned = t.proofs().download_proof(&key).await;
    let elsewhere = t.proofs().download_proof("proofs/9999/x.png?signed").await;
    t.objects.delete(&key).await.unwrap();
    let deleted = t.proofs().download_proof(&format!("{key}?signed")).await;

    for refused in [unsigned, elsewhere, deleted] {
        assert!(
            matches!(refused, Err(DownloadRefusal::NotFound)),
            "{refused:?}"
        );
    }
}

#[tokio::test]
async fn an_upload_to_the_apis_own_store_is_what_attach_judges_and_an_oversize_one_is_refused_unread()
 {
    let t = Harness::new();
    let receipt = bought(&t).await;
    let upload = grant(&t, &receipt).await;
    let body = stream::iter([Ok(Bytes::from_static(PNG))]).boxed_local();

    let stored = t
        .uploads()
        .receive_upload(key_of(&upload), "image/png", Some(PNG.len() as u64), body)
        .await
        .unwrap();
    attach(&t, &receipt).await.unwrap();
    // A body that fails when read: refused by its declared size, it never is.
    let unreadable = stream::iter([Err(std::io::Error::other("never read"))]).boxed_local();
    let oversize = t
        .uploads()
        .receive_upload(
            key_of(&upload),
            "image/png",
            Some(MAX_PROOF_BYTES + 1),
            unreadable,
        )
        .await;

    assert_eq!(stored, PNG.len() as u64);
    assert!(
        matches!(oversize, Err(UploadFailure::TooLarge { size }) if size == MAX_PROOF_BYTES + 1),
        "{oversize:?}"
    );
}
