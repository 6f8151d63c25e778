//! Payment methods and exchange rates: validation, missing records, and purchases seeing a
//! change at once.

use rifa_app::WriteFailure;
use rifa_app::payments::{PaymentMethodInput, RateFailure};
use rifa_app::purchasing::{PurchaseError, PurchaseMode};
use rifa_domain::exchange::ExchangeRateId;
use rifa_domain::exchange::{Currency, ExchangeRateDraft};
use rifa_domain::payment::PaymentMethodId;
use rifa_domain::{FieldError, Lang};
use rust_decimal::Decimal;

use crate::support::{Harness, RaffleSetup, fields, form};

/// A rate as the API hands it over, parsed at the edge.
fn draft(from: Option<&str>, to: Option<&str>, rate: i64) -> ExchangeRateDraft {
    ExchangeRateDraft::parse(from, to, Some(Decimal::from(rate))).unwrap()
}

fn method_input(name: &str, rate: Option<i64>) -> PaymentMethodInput {
    PaymentMethodInput {
        name: Some(name.into()),
        kind: Some("mobile_payment".into()),
        active: Some(true),
        details: vec![("phone".into(), "0414-000-0000".into())],
        exchange_rate_id: rate.map(ExchangeRateId::new),
        reference_required: None,
        reference_min_length: None,
    }
}

#[tokio::test]
async fn a_method_needs_a_name_and_a_known_type() {
    let t = Harness::new();

    let refused = t
        .payments()
        .create_payment_method(
            PaymentMethodInput {
                name: Some(" ".into()),
                kind: Some("cash".into()),
                ..PaymentMethodInput::default()
            },
            &crate::support::reviewer(),
        )
        .await;

    match refused {
        Err(WriteFailure::Invalid(errors)) => assert_eq!(fields(&errors), ["name", "type"]),
        other => panic!("expected invalid fields, got {other:?}"),
    }
    assert!(
        t.payments()
            .payment_methods(false)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn a_method_cannot_convert_with_a_rate_that_does_not_exist() {
    let t = Harness::new();

    let refused = t
        .payments()
        .create_payment_method(
            method_input("Pago Móvil", Some(9_999)),
            &crate::support::reviewer(),
        )
        .await;

    match refused {
        Err(WriteFailure::Invalid(errors)) => {
            assert_eq!(errors.named(), [("exchangeRateId", FieldError::Required)])
        }
        other => panic!("expected the missing rate, got {other:?}"),
    }
}

#[tokio::test]
async fn changing_or_deleting_a_missing_method_or_rate_is_not_found() {
    let t = Harness::new();
    let payments = t.payments();

    assert!(matches!(
        payments
            .update_payment_method(
                PaymentMethodId::new(9_999),
                method_input("X", None),
                &crate::support::reviewer()
            )
            .await,
        Err(WriteFailure::NotFound)
    ));
    assert!(matches!(
        payments
            .delete_payment_method(PaymentMethodId::new(9_999), &crate::support::reviewer())
            .await,
        Err(WriteFailure::NotFound)
    ));
    assert!(matches!(
        payments
            .update_exchange_rate(
                ExchangeRateId::new(9_999),
                draft(None, None, 40),
                &crate::support::reviewer()
            )
            .await,
        Err(RateFailure::NotFound)
    ));
    assert!(matches!(
        payments
            .delete_exchange_rate(ExchangeRateId::new(9_999), &crate::support::reviewer())
            .await,
        Err(WriteFailure::NotFound)
    ));
}

#[tokio::test]
async fn one_rate_per_currency_pair_and_never_a_pair_of_one_currency() {
    let t = Harness::new();
    let payments = t.payments();
    let ves = payments
        .create_exchange_rate(
            draft(Some("USD"), Some("VES"), 40),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let cop = payments
        .create_exchange_rate(
            draft(Some("USD"), Some("COP"), 4_000),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();

    let second = payments
        .create_exchange_rate(draft(None, None, 41), &crate::support::reviewer())
        .await;
    let onto_taken = payments
        .update_exchange_rate(
            cop.id,
            draft(Some("USD"), Some("VES"), 41),
            &crate::support::reviewer(),
        )
        .await;
    // Refused at the edge, before the use case: the draft cannot be made.
    let same = ExchangeRateDraft::parse(Some("USD"), Some("usd"), Some(Decimal::from(1)));
    let no_rate = ExchangeRateDraft::parse(Some("EUR"), Some("VES"), None);

    for taken in [second, onto_taken] {
        match taken {
            Err(RateFailure::PairTaken(existing)) => assert_eq!(existing.id, ves.id),
            other => panic!("expected the pair taken by {}, got {other:?}", ves.id),
        }
    }
    match same {
        Err(errors) => assert_eq!(errors.named(), [("toCurrency", FieldError::SameCurrency)]),
        other => panic!("expected the same currency refused, got {other:?}"),
    }
    match no_rate {
        Err(errors) => assert_eq!(fields(&errors), ["rate"]),
        other => panic!("expected the rate required, got {other:?}"),
    }
    assert_eq!(payments.exchange_rates().await.unwrap().len(), 2);
}

#[tokio::test]
async fn a_new_method_can_be_paid_with_at_once_and_a_deactivated_or_deleted_one_no_longer() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let zelle = t.method("Zelle").await;
    t.buy(&raffle, &zelle, &[1]).await;

    let mobile = t
        .payments()
        .create_payment_method(
            method_input("Pago Móvil", None),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let paid = t.buy(&raffle, &mobile, &[2]).await;
    t.payments()
        .update_payment_method(
            zelle.id,
            PaymentMethodInput {
                active: Some(false),
                ..method_input("Zelle", None)
            },
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let refused = t
        .purchasing()
        .purchase(
            raffle.id,
            form(&zelle, &[3], &t.price_of(&raffle, 1).await),
            PurchaseMode::Public,
            Lang::Es,
        )
        .await;

    assert_eq!(paid.purchase.payment_method, "Pago Móvil");
    match refused {
        Err(PurchaseError::Invalid(errors)) => assert_eq!(
            errors.named(),
            [("paymentMethod", FieldError::PaymentMethodUnavailable)]
        ),
        other => panic!("expected the method unavailable, got {other:?}"),
    }
    t.payments()
        .delete_payment_method(mobile.id, &crate::support::reviewer())
        .await
        .unwrap();
    let deleted = t
        .purchasing()
        .purchase(
            raffle.id,
            form(&mobile, &[4], &t.price_of(&raffle, 1).await),
            PurchaseMode::Public,
            Lang::Es,
        )
        .await;
    assert!(
        matches!(deleted, Err(PurchaseError::Invalid(_))),
        "{deleted:?}"
    );
    assert_eq!(
        t.payments()
            .payment_methods(false)
            .await
            .unwrap()
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>(),
        ["Zelle"]
    );
}

#[tokio::test]
async fn a_purchase_keeps_the_rate_its_method_converted_with_when_it_was_made() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    let rate = t
        .payments()
        .create_exchange_rate(
            draft(Some("USD"), Some("VES"), 40),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let mobile = t
        .payments()
        .create_payment_method(
            method_input("Pago Móvil", Some(rate.id.get())),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let before = t.buy(&raffle, &mobile, &[1]).await.purchase;

    t.payments()
        .update_exchange_rate(rate.id, draft(None, None, 45), &crate::support::reviewer())
        .await
        .unwrap();
    let after = t.buy(&raffle, &mobile, &[2]).await.purchase;
    t.payments()
        .delete_exchange_rate(rate.id, &crate::support::reviewer())
        .await
        .unwrap();
    let unconverted = t.buy(&raffle, &mobile, &[3]).await.purchase;

    let conversion =
        |p: &rifa_domain::purchase::Purchase| p.conversion.map(|(c, r)| (c, r.value()));
    assert_eq!(
        conversion(&before),
        Some((Currency::Ves, Decimal::from(40)))
    );
    assert_eq!(conversion(&after), Some((Currency::Ves, Decimal::from(45))));
    assert_eq!(conversion(&unconverted), None);
    assert_eq!(t.store.purchases()[0].conversion, before.conversion);
}
