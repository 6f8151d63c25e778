//! The panel's totals from the counts the database keeps per raffle and status (migration
//! `m20261127_000001`), instead of re-counting every purchase a filter matches.

use anyhow::Context;
use rifa_domain::money::Money;
use rifa_domain::purchase::{PurchaseQuery, PurchaseStatus};
use rifa_domain::raffle::RaffleId;
use rifa_ports::PurchaseSummary;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter, QuerySelect,
};

use crate::entities::purchase_totals;

#[derive(FromQueryResult)]
struct StatusTotals {
    status: String,
    purchases: i64,
    tickets: i64,
    revenue: i64,
}

/// Whether the kept counts answer this query's totals: they know raffles and statuses only.
pub(crate) fn answer(query: &PurchaseQuery) -> bool {
    query
        .name_contains
        .as_deref()
        .is_none_or(|name| name.trim().is_empty())
        && query.ticket_numbers.is_empty()
        && query.created.is_none()
        && query.max_id.is_none()
}

/// How many purchases match, and the summary over them, for a raffle (or all) and a status (or
/// all): the same figures as counting the purchases themselves.
pub(crate) async fn kept(
    conn: &impl ConnectionTrait,
    raffle_id: Option<RaffleId>,
    status: Option<PurchaseStatus>,
) -> anyhow::Result<(u64, PurchaseSummary)> {
    let mut select = purchase_totals::Entity::find()
        .select_only()
        .column(purchase_totals::Column::Status)
        .column_as(Expr::cust("CAST(SUM(purchases) AS BIGINT)"), "purchases")
        .column_as(Expr::cust("CAST(SUM(tickets) AS BIGINT)"), "tickets")
        .column_as(Expr::cust("CAST(SUM(revenue_cents) AS BIGINT)"), "revenue")
        .group_by(purchase_totals::Column::Status);
    if let Some(raffle_id) = raffle_id {
        select = select.filter(purchase_totals::Column::RaffleId.eq(raffle_id.get()));
    }
    if let Some(status) = status {
        select = select.filter(purchase_totals::Column::Status.eq(status.as_str()));
    }
    let rows = select
        .into_model::<StatusTotals>()
        .all(conn)
        .await
        .context("failed to read the purchase totals")?;
    let mut total = 0;
    let mut summary = PurchaseSummary::default();
    for row in rows {
        let purchases = u64::try_from(row.purchases).unwrap_or(0);
        total += purchases;
        if row.status == PurchaseStatus::Approved.as_str() {
            summary.tickets_sold = u64::try_from(row.tickets).unwrap_or(0);
            summary.total_revenue = Money::from_cents(row.revenue)
                .map_err(|e| anyhow::anyhow!("revenue out of range: {e:?}"))?;
        } else if row.status == PurchaseStatus::Pending.as_str() {
            summary.pending_purchases = purchases;
        }
    }
    Ok((total, summary))
}
