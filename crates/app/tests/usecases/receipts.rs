//! What a receipt shows besides the purchase, and rendering it off the async workers.

use chrono::TimeDelta;
use rifa_domain::Lang;
use rifa_domain::branding::BrandingPatch;

use crate::support::{Harness, RaffleSetup, start_time};

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
        .update_branding(BrandingPatch {
            company_name: Some("Rifas Ana".into()),
            ..BrandingPatch::default()
        })
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
    purchase.raffle_id = 9_999;

    assert!(
        t.receipts()
            .receipt_context(&purchase, Lang::Es)
            .await
            .is_err()
    );
}
