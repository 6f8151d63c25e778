//! The panel's totals from the counts the database keeps per raffle and status (migration
//! `m20261127_000001`) and per hour (`m20261127_000002`), instead of re-counting every purchase
//! a filter or a period matches.

use anyhow::Context;
use chrono::{DateTime, Utc};
use rifa_domain::money::Money;
use rifa_domain::purchase::{PurchaseQuery, PurchaseStatus};
use rifa_domain::raffle::RaffleId;
use rifa_domain::stats::DaySales;
use rifa_ports::PurchaseSummary;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter, QueryOrder,
    QuerySelect,
};

use crate::entities::{purchase_hours, purchase_totals};

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
            summary.total_revenue = money(row.revenue)?;
        } else if row.status == PurchaseStatus::Pending.as_str() {
            summary.pending_purchases = purchases;
        }
    }
    Ok((total, summary))
}

const SECONDS_PER_HOUR: i64 = 3600;
const MINUTES_PER_DAY: i64 = 1440;

/// `[from, to)` as hours since the epoch when both fall on the hour: a span the hourly counts
/// answer exactly.
pub(crate) fn whole_hours(from: DateTime<Utc>, to: DateTime<Utc>) -> Option<(i64, i64)> {
    let on_the_hour = |at: DateTime<Utc>| {
        (at.timestamp_subsec_nanos() == 0 && at.timestamp() % SECONDS_PER_HOUR == 0)
            .then(|| at.timestamp() / SECONDS_PER_HOUR)
    };
    Some((on_the_hour(from)?, on_the_hour(to)?))
}

fn in_hours(hours: (i64, i64)) -> sea_orm::Select<purchase_hours::Entity> {
    purchase_hours::Entity::find()
        .select_only()
        .filter(purchase_hours::Column::Hour.gte(hours.0))
        .filter(purchase_hours::Column::Hour.lt(hours.1))
        .column_as(
            Expr::cust("CAST(COALESCE(SUM(purchases), 0) AS BIGINT)"),
            "purchases",
        )
        .column_as(
            Expr::cust("CAST(COALESCE(SUM(pending), 0) AS BIGINT)"),
            "pending",
        )
        .column_as(
            Expr::cust("CAST(COALESCE(SUM(tickets), 0) AS BIGINT)"),
            "tickets",
        )
        .column_as(
            Expr::cust("CAST(COALESCE(SUM(revenue_cents), 0) AS BIGINT)"),
            "revenue",
        )
}

#[derive(FromQueryResult)]
struct HourTotals {
    pending: i64,
    tickets: i64,
    revenue: i64,
}

/// The dashboard's figures for purchases created in whole `hours`.
pub(crate) async fn summary_of_hours(
    conn: &impl ConnectionTrait,
    hours: (i64, i64),
) -> anyhow::Result<PurchaseSummary> {
    let row = in_hours(hours)
        .into_model::<HourTotals>()
        .one(conn)
        .await
        .context("failed to sum the hourly sales")?
        .unwrap_or(HourTotals {
            pending: 0,
            tickets: 0,
            revenue: 0,
        });
    Ok(PurchaseSummary {
        tickets_sold: u64::try_from(row.tickets).unwrap_or(0),
        total_revenue: money(row.revenue)?,
        pending_purchases: u64::try_from(row.pending).unwrap_or(0),
    })
}

#[derive(FromQueryResult)]
struct DayTotals {
    day: i64,
    purchases: i64,
    tickets: i64,
    revenue: i64,
}

/// The chart's days in whole `hours`, each local day `utc_offset_minutes` (a whole number of
/// hours) from UTC; days without purchases are left out.
pub(crate) async fn days_of_hours(
    conn: &impl ConnectionTrait,
    hours: (i64, i64),
    utc_offset_minutes: i32,
) -> anyhow::Result<Vec<DaySales>> {
    // Minutes since the epoch are positive for every hour kept, so integer division floors.
    let day = format!("CAST((hour * 60 + {utc_offset_minutes}) / {MINUTES_PER_DAY} AS BIGINT)");
    let rows = in_hours(hours)
        .column_as(Expr::cust(day.clone()), "day")
        .group_by(Expr::cust(day.clone()))
        .order_by_asc(Expr::cust(day))
        .into_model::<DayTotals>()
        .all(conn)
        .await
        .context("failed to sum the hourly sales per day")?;
    rows.into_iter()
        .map(|row| {
            let date = DateTime::from_timestamp(row.day * MINUTES_PER_DAY * 60, 0)
                .with_context(|| format!("day {} out of range", row.day))?
                .date_naive();
            Ok(DaySales {
                date,
                revenue: money(row.revenue)?,
                tickets_sold: u64::try_from(row.tickets).unwrap_or(0),
                purchases: u64::try_from(row.purchases).unwrap_or(0),
            })
        })
        .collect()
}

fn money(cents: i64) -> anyhow::Result<Money> {
    Money::from_cents(cents).map_err(|e| anyhow::anyhow!("revenue out of range: {e:?}"))
}
