//! Rows into domain values. Stored values were validated on the way in; a row that no longer
//! parses means the database was edited by hand, and is reported with context, not guessed at.

use std::str::FromStr;

use anyhow::{Context, anyhow};
use rifa_domain::exchange::Currency;
use rifa_domain::money::{Money, Rate, TicketPrice};
use rifa_domain::payment::PaymentMethodId;
use rifa_domain::purchase::{
    Purchase, PurchaseEvent, PurchaseEventKind, PurchaseId, PurchaseStatus,
};
use rifa_domain::raffle::{PurchaseLimits, Raffle, RaffleId, RaffleStatus};
use rifa_domain::sales::SalesTerms;
use rifa_domain::ticket::TicketNumber;

use crate::entities::{purchase_events, purchases, raffles};

pub(crate) fn raffle(row: raffles::Model, tickets_sold: Option<u32>) -> anyhow::Result<Raffle> {
    let field = |what: &str| format!("raffle {} has an invalid {what}", row.id);
    let to_u32 = |v: i32| u32::try_from(v).map_err(|_| anyhow!("negative value"));
    Ok(Raffle {
        id: RaffleId::new(row.id),
        price: TicketPrice::new(Money::from_cents(row.price_cents).map_err(|e| anyhow!("{e:?}"))?)
            .map_err(|e| anyhow!("{e:?}"))
            .with_context(|| field("price"))?,
        status: RaffleStatus::parse(&row.status)
            .map_err(|e| anyhow!("{e:?}"))
            .with_context(|| field("status"))?,
        max_tickets: to_u32(row.max_tickets).with_context(|| field("max_tickets"))?,
        limits: PurchaseLimits::new(
            row.min_per_purchase.map(to_u32).transpose()?,
            row.max_per_purchase.map(to_u32).transpose()?,
        )
        .map_err(|e| anyhow!("{e:?}"))
        .with_context(|| field("purchase limits"))?,
        title: row.title,
        description: row.description,
        image: row.image,
        draw_date: row.draw_date,
        end_date: row.end_date,
        created_at: row.created_at,
        sales: SalesTerms::stored(
            to_u32(row.hold_minutes).with_context(|| field("hold_minutes"))?,
            to_u32(row.sales_close_hours).with_context(|| field("sales_close_hours"))?,
        ),
        tickets_sold,
    })
}

pub(crate) fn purchase(row: purchases::Model, raffle_title: String) -> anyhow::Result<Purchase> {
    let id = PurchaseId::new(row.id);
    let field = |what: &str| format!("purchase {id} has an invalid {what}");
    let conversion = conversion(&row)?;
    Ok(Purchase {
        id,
        reference: row.reference,
        raffle_id: RaffleId::new(row.raffle_id),
        raffle_title,
        ticket_numbers: serde_json::from_str::<Vec<u32>>(&row.ticket_numbers)
            .with_context(|| field("ticket list"))?
            .into_iter()
            .map(TicketNumber::from_stored)
            .collect(),
        customer_name: row.customer_name,
        customer_id_document: row.customer_id_document,
        customer_email: row.customer_email,
        customer_phone: row.customer_phone,
        customer_country: row.customer_country,
        payment_method: row.payment_method_name,
        payment_method_id: row.payment_method_id.map(PaymentMethodId::new),
        conversion,
        payment_reference: row.payment_reference,
        total_amount: Money::from_cents(row.total_cents)
            .map_err(|e| anyhow!("{e:?}"))
            .with_context(|| field("total"))?,
        discount_applied: Money::from_cents(row.discount_cents)
            .map_err(|e| anyhow!("{e:?}"))
            .with_context(|| field("discount"))?,
        status: PurchaseStatus::parse(&row.status)
            .map_err(|e| anyhow!("{e:?}"))
            .with_context(|| field("status"))?,
        created_at: row.created_at,
        decided_at: row.decided_at,
        payment_proof: row.payment_proof,
        admin_notes: row.admin_notes,
        hold_expires_at: row.hold_expires_at,
    })
}

/// The currency and rate a purchase's total was converted at, locked when it was made.
pub(crate) fn conversion(row: &purchases::Model) -> anyhow::Result<Option<(Currency, Rate)>> {
    let field = |what: &str| format!("purchase {} has an invalid {what}", row.id);
    Ok(
        match (
            row.conversion_currency.as_deref(),
            row.conversion_rate.as_deref(),
        ) {
            (Some(currency), Some(rate)) => Some((
                Currency::parse(currency)
                    .map_err(|e| anyhow!("{e:?}"))
                    .with_context(|| field("currency"))?,
                Rate::from_str(rate)
                    .map_err(|e| anyhow!("{e:?}"))
                    .with_context(|| field("rate"))?,
            )),
            _ => None,
        },
    )
}

pub(crate) fn event(row: purchase_events::Model) -> anyhow::Result<PurchaseEvent> {
    Ok(PurchaseEvent {
        kind: PurchaseEventKind::parse(&row.kind)
            .with_context(|| format!("purchase event {} has kind {:?}", row.id, row.kind))?,
        at: row.at,
        note: row.note,
    })
}

pub(crate) fn count(value: i64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}
