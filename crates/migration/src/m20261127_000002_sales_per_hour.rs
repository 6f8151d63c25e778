//! The dashboard's sales per hour, kept by the database as it writes (decision 0017), so the
//! chart of a year sums 8,760 hours instead of reading a million purchases.
//!
//! `purchase_hours (hour, shard, purchases, pending, tickets, revenue_cents)`: for the real
//! purchases (tests left out) created in that hour since the epoch (UTC), how many there are,
//! how many are pending, and the tickets and revenue of the approved ones — exactly what the
//! chart and the dashboard's cards count. Hours sum to days in any time zone whose offset is a
//! whole number of hours; the adapter counts the purchases themselves for the others.
//!
//! Kept as the per-raffle totals are: triggers in the writing statement's transaction. On
//! PostgreSQL rows are spread over shards (the purchase id modulo 16) so a launch's purchases,
//! all in one hour, do not queue on one row; SQLite has one writer at a time, so one row per
//! hour (shard 0) and a year's chart sums 8,760 rows, not 140,160.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

use crate::m20261127_000001_maintained_counts::counting_triggers;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// Rows per hour that concurrent purchases spread over, on PostgreSQL.
const SHARDS: i64 = 16;

const TABLE: &str = "CREATE TABLE purchase_hours (\
 hour BIGINT NOT NULL, shard SMALLINT NOT NULL, purchases BIGINT NOT NULL, \
 pending BIGINT NOT NULL, tickets BIGINT NOT NULL, revenue_cents BIGINT NOT NULL, \
 PRIMARY KEY (hour, shard))";

/// A purchase's contribution from `row` (a table, or SQLite's `NEW`/`OLD`) with `sign`, its
/// hour computed by `hour`, in `shard`.
fn contribution(row: &str, sign: &str, hour: &str, shard: &str) -> String {
    format!(
        "{hour} AS hour, {shard} AS shard, {sign}1 AS n, \
         {sign}(CASE WHEN {row}.status = 'pending' THEN 1 ELSE 0 END) AS pending, \
         {sign}(CASE WHEN {row}.status = 'approved' THEN {row}.ticket_count ELSE 0 END) AS tickets, \
         {sign}(CASE WHEN {row}.status = 'approved' THEN {row}.total_cents ELSE 0 END) AS revenue"
    )
}

fn backfill(hour: &str, shard: &str) -> String {
    format!(
        "INSERT INTO purchase_hours (hour, shard, purchases, pending, tickets, revenue_cents) \
         SELECT hour, shard, SUM(n), SUM(pending), SUM(tickets), SUM(revenue) FROM (\
         SELECT {} FROM purchases WHERE status <> 'test') AS hours GROUP BY hour, shard",
        contribution("purchases", "+", hour, shard)
    )
}

const POSTGRES_HOUR: &str = "CAST(floor(extract(epoch FROM created_at) / 3600) AS BIGINT)";

fn postgres_triggers() -> String {
    let upsert = "INSERT INTO purchase_hours AS h \
         (hour, shard, purchases, pending, tickets, revenue_cents) \
         SELECT hour, shard, SUM(n), SUM(pending), SUM(tickets), SUM(revenue) FROM changes \
         GROUP BY hour, shard \
         HAVING SUM(n) <> 0 OR SUM(pending) <> 0 OR SUM(tickets) <> 0 OR SUM(revenue) <> 0 \
         ORDER BY hour, shard \
         ON CONFLICT (hour, shard) DO UPDATE SET purchases = h.purchases + EXCLUDED.purchases, \
         pending = h.pending + EXCLUDED.pending, tickets = h.tickets + EXCLUDED.tickets, \
         revenue_cents = h.revenue_cents + EXCLUDED.revenue_cents";
    let changes = |table: &str, sign: &str| {
        let hour = POSTGRES_HOUR.replace("created_at", &format!("{table}.created_at"));
        format!(
            "SELECT {} FROM {table} WHERE status <> 'test'",
            contribution(table, sign, &hour, &format!("{table}.id % {SHARDS}"))
        )
    };
    counting_triggers(
        "count_purchase_hours",
        "count_hours",
        "purchases",
        changes,
        upsert,
    )
}

/// SQLite: row triggers; a row counts only when it is not a test.
fn sqlite_triggers() -> String {
    let upsert = |row: &str, sign: &str| {
        let hour = format!("CAST(strftime('%s', {row}.created_at) AS INTEGER) / 3600");
        format!(
            "INSERT INTO purchase_hours (hour, shard, purchases, pending, tickets, revenue_cents) \
             SELECT {} WHERE {row}.status <> 'test' \
             ON CONFLICT (hour, shard) DO UPDATE SET purchases = purchases + excluded.purchases, \
             pending = pending + excluded.pending, tickets = tickets + excluded.tickets, \
             revenue_cents = revenue_cents + excluded.revenue_cents;",
            contribution(row, sign, &hour, "0")
        )
    };
    let (add, remove) = (upsert("NEW", "+"), upsert("OLD", "-"));
    format!(
        "CREATE TRIGGER count_hours_on_insert AFTER INSERT ON purchases BEGIN {add} END;
CREATE TRIGGER count_hours_on_update \
         AFTER UPDATE OF status, ticket_count, total_cents, created_at ON purchases \
         BEGIN {remove} {add} END;
CREATE TRIGGER count_hours_on_delete AFTER DELETE ON purchases BEGIN {remove} END;"
    )
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared(TABLE).await?;
        if manager.get_database_backend() == DatabaseBackend::Sqlite {
            db.execute_unprepared(&backfill(
                "CAST(strftime('%s', purchases.created_at) AS INTEGER) / 3600",
                "0",
            ))
            .await?;
            db.execute_unprepared(&sqlite_triggers()).await?;
        } else {
            db.execute_unprepared(&backfill(
                &POSTGRES_HOUR.replace("created_at", "purchases.created_at"),
                &format!("purchases.id % {SHARDS}"),
            ))
            .await?;
            db.execute_unprepared(&postgres_triggers()).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        for trigger in [
            "count_hours_on_insert",
            "count_hours_on_update",
            "count_hours_on_delete",
        ] {
            let drop = match manager.get_database_backend() {
                DatabaseBackend::Sqlite => format!("DROP TRIGGER {trigger}"),
                _ => format!("DROP TRIGGER {trigger} ON purchases"),
            };
            db.execute_unprepared(&drop).await?;
        }
        if manager.get_database_backend() == DatabaseBackend::Postgres {
            db.execute_unprepared("DROP FUNCTION count_purchase_hours()")
                .await?;
        }
        db.execute_unprepared("DROP TABLE purchase_hours").await?;
        Ok(())
    }
}
