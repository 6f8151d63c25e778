//! What a receipt shows besides the purchase, rendering it off the async workers, and the
//! invoice: who may read it, in which language and format, one PDF render at a time.

use rifa_domain::purchase::PurchaseId;
use rifa_domain::raffle::RaffleId;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use chrono::TimeDelta;
use rifa_app::Shared;
use rifa_app::cpu::CpuPool;
use rifa_app::purchasing::{PurchaseMode, PurchaseReceipt};
use rifa_app::receipts::{
    Invoice, InvoiceError, InvoiceFormat, InvoiceReader, Receipts, ReceiptsService,
};
use rifa_domain::Lang;
use rifa_domain::branding::BrandingPatch;
use rifa_domain::purchase::Purchase;
use rifa_ports::outbound::{ReceiptContext, ReceiptRenderer};

use crate::support::outbound::{INVOICE_POLICY, TextPages, TextReceipts};
use crate::support::security::SequentialKeys;
use crate::support::{Harness, RaffleSetup, form, start_time};

#[tokio::test]
async fn a_receipt_carries_the_company_the_raffles_size_and_the_language_asked() {
    let t = Harness::new();
    let raffle = t
        .raffle(RaffleSetup {
            max_tickets: 1_000,
            ..RaffleSetup::default()
        })
        .await;
    let zelle = t.method("Zelle").await;
    let purchase = t.buy(&raffle, &zelle, &[7]).await.purchase;
    t.settings()
        .update_branding(
            BrandingPatch {
                company_name: Some("Rifas Ana".into()),
                ..BrandingPatch::default()
            },
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    t.clock.advance(TimeDelta::minutes(3));

    let context = t
        .receipts()
        .receipt_context(&purchase, Lang::En)
        .await
        .unwrap();
    let (_, _, pdf) = t
        .receipts()
        .render_receipt(purchase.clone(), context.clone())
        .await
        .unwrap();

    assert_eq!(context.company_name, "Rifas Ana");
    assert_eq!(context.max_tickets, 1_000);
    assert_eq!(context.lang, Lang::En);
    assert_eq!(context.generated_at, start_time() + TimeDelta::minutes(3));
    assert_eq!(
        String::from_utf8(pdf).unwrap(),
        format!(
            "%PDF receipt {} Pending Rifas Ana of 1000 En",
            purchase.reference
        )
    );
}

#[tokio::test]
async fn a_receipt_of_a_purchase_whose_raffle_is_gone_is_an_error() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let mut purchase = t.buy(&raffle, &zelle, &[7]).await.purchase;
    purchase.raffle_id = RaffleId::new(9_999);

    assert!(
        t.receipts()
            .receipt_context(&purchase, Lang::Es)
            .await
            .is_err()
    );
}

async fn bought(t: &Harness, lang: Lang) -> PurchaseReceipt {
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let quote = t.price_of(&raffle, 1).await;
    t.purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[7], &quote),
            PurchaseMode::Public,
            lang,
        )
        .await
        .unwrap()
}

fn buyer_with(receipt: &PurchaseReceipt) -> Option<InvoiceReader> {
    Some(InvoiceReader::Buyer {
        access_key: receipt.access_key.clone().unwrap(),
    })
}

#[tokio::test]
async fn a_buyer_reads_the_invoice_in_the_language_they_bought_in_and_an_admin_in_theirs() {
    let t = Harness::new();
    let receipt = bought(&t, Lang::En).await;
    let (id, reference) = (receipt.purchase.id, receipt.purchase.reference.clone());
    let admin = Some(InvoiceReader::Admin { lang: Lang::Es });

    let buyers_page = t
        .receipts()
        .invoice(id, buyer_with(&receipt), InvoiceFormat::Html)
        .await
        .unwrap();
    let admins_pdf = t
        .receipts()
        .invoice(id, admin, InvoiceFormat::Pdf)
        .await
        .unwrap();

    assert_eq!(
        buyers_page,
        Invoice::Html {
            page: format!("<invoice {reference} Pending Rifa En>"),
            content_security_policy: INVOICE_POLICY,
        }
    );
    match admins_pdf {
        Invoice::Pdf {
            reference: named,
            bytes,
        } => {
            assert_eq!(named, reference);
            assert_eq!(
                String::from_utf8(bytes).unwrap(),
                format!("%PDF receipt {reference} Pending Rifa of 100 Es")
            );
        }
        other => panic!("expected the PDF, got {other:?}"),
    }
}

#[tokio::test]
async fn an_invoice_opens_only_with_the_purchases_own_key_and_alike_for_every_refusal() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let receipt = t.buy(&raffle, &zelle, &[7]).await;
    let other = t.buy(&raffle, &zelle, &[8]).await;
    let (id, pdf) = (receipt.purchase.id, InvoiceFormat::Pdf);
    let admin = Some(InvoiceReader::Admin { lang: Lang::Es });

    let wrong_key = t.receipts().invoice(id, buyer_with(&other), pdf).await;
    let nobody = t.receipts().invoice(id, None, pdf).await;
    let unknown = t
        .receipts()
        .invoice(PurchaseId::new(9_999), admin, pdf)
        .await;

    for refused in [wrong_key, nobody, unknown] {
        assert!(
            matches!(refused, Err(InvoiceError::NotFound)),
            "{refused:?}"
        );
    }
    let own_key = t.receipts().invoice(id, buyer_with(&receipt), pdf).await;
    assert!(matches!(own_key, Ok(Invoice::Pdf { .. })), "{own_key:?}");
}

/// A receipt renderer that tells when a render starts and finishes it only once opened.
#[derive(Default)]
struct GatedReceipts {
    started: tokio::sync::Notify,
    open: (Mutex<bool>, Condvar),
}

impl GatedReceipts {
    fn open(&self) {
        *self.open.0.lock().unwrap() = true;
        self.open.1.notify_all();
    }
}

impl ReceiptRenderer for GatedReceipts {
    fn render(&self, purchase: &Purchase, context: &ReceiptContext) -> anyhow::Result<Vec<u8>> {
        self.started.notify_one();
        let opened = self.open.0.lock().unwrap();
        drop(self.open.1.wait_while(opened, |open| !*open).unwrap());
        TextReceipts.render(purchase, context)
    }
}

#[tokio::test]
async fn a_purchases_pdf_renders_once_at_a_time_and_a_copy_is_refused_before_any_reading() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    let receipt = t.buy(&raffle, &zelle, &[7]).await;
    let other = t.buy(&raffle, &zelle, &[8]).await;
    let renderer = Arc::new(GatedReceipts::default());
    let receipts = Receipts::new(
        t.store.clone(),
        Arc::clone(&renderer),
        TextPages,
        SequentialKeys,
        t.clock.clone(),
        // Room for two renders at once on any machine: the two purchases' PDFs.
        &Shared {
            cpu: CpuPool::new(2),
            ..Shared::default()
        },
    );
    let (id, admin) = (receipt.purchase.id, InvoiceReader::Admin { lang: Lang::Es });

    let first = receipts.invoice(id, Some(admin.clone()), InvoiceFormat::Pdf);
    tokio::pin!(first);
    tokio::select! {
        done = &mut first => panic!("rendered through a closed gate: {done:?}"),
        () = renderer.started.notified() => {}
    }
    // A copy let through would wait on the gate: the timeout turns that into a failure, and
    // opens the gate so the runtime can end (it waits for its blocking threads).
    let refused_at_once = |copy| async {
        match tokio::time::timeout(Duration::from_secs(5), copy).await {
            Ok(answer) => answer,
            Err(_) => {
                renderer.open();
                panic!("a copy waited for the first render instead of being refused");
            }
        }
    };
    let copy = refused_at_once(receipts.invoice(id, Some(admin.clone()), InvoiceFormat::Pdf)).await;
    // Refused before the reader is checked: a copy does no work at all.
    let anonymous_copy = refused_at_once(receipts.invoice(id, None, InvoiceFormat::Pdf)).await;
    let page = receipts
        .invoice(id, Some(admin.clone()), InvoiceFormat::Html)
        .await;
    let other_pdf = receipts.invoice(other.purchase.id, Some(admin.clone()), InvoiceFormat::Pdf);
    tokio::pin!(other_pdf);
    tokio::select! {
        done = &mut other_pdf => panic!("another purchase's render did not start: {done:?}"),
        () = renderer.started.notified() => {}
    }
    renderer.open();

    assert!(matches!(copy, Err(InvoiceError::BeingRendered)), "{copy:?}");
    assert!(
        matches!(anonymous_copy, Err(InvoiceError::BeingRendered)),
        "{anonymous_copy:?}"
    );
    assert!(matches!(page, Ok(Invoice::Html { .. })), "{page:?}");
    assert!(matches!(first.await, Ok(Invoice::Pdf { .. })));
    assert!(matches!(other_pdf.await, Ok(Invoice::Pdf { .. })));
    let again = receipts.invoice(id, Some(admin), InvoiceFormat::Pdf).await;
    assert!(matches!(again, Ok(Invoice::Pdf { .. })), "{again:?}");
}
