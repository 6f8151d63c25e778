//! A purchase's history: append-only entries written in the transaction of the change they
//! record. Its first entry, the purchase received, is the purchase's own row (its
//! `created_at`): writing it again would cost every purchase one more row.

use anyhow::Context;
use chrono::{DateTime, Utc};
use rifa_domain::purchase::{PurchaseEvent, PurchaseEventKind, PurchaseId};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set,
};

use crate::convert;
use crate::entities::purchase_events;

pub(crate) async fn record(
    conn: &impl ConnectionTrait,
    purchase: PurchaseId,
    kind: PurchaseEventKind,
    at: DateTime<Utc>,
    note: Option<String>,
) -> anyhow::Result<()> {
    purchase_events::ActiveModel {
        purchase_id: Set(purchase.get()),
        kind: Set(kind.as_str().to_owned()),
        at: Set(at),
        note: Set(note),
        ..Default::default()
    }
    .insert(conn)
    .await
    .context("failed to write the purchase's history")?;
    Ok(())
}

/// The history of a purchase received at `received`, oldest first.
pub(crate) async fn of(
    conn: &impl ConnectionTrait,
    purchase: PurchaseId,
    received: DateTime<Utc>,
) -> anyhow::Result<Vec<PurchaseEvent>> {
    let first = PurchaseEvent {
        kind: PurchaseEventKind::Received,
        at: received,
        note: None,
    };
    let rest = purchase_events::Entity::find()
        .filter(purchase_events::Column::PurchaseId.eq(purchase.get()))
        .order_by_asc(purchase_events::Column::At)
        .order_by_asc(purchase_events::Column::Id)
        .all(conn)
        .await
        .context("failed to read the purchase's history")?
        .into_iter()
        .map(convert::event);
    std::iter::once(Ok(first)).chain(rest).collect()
}
