//! Counts the database keeps as it writes (decision 0017), so the public list, the raffle
//! pages and the panel's totals stop re-counting a year of rows on every read.
//!
//! - `raffle_sold_counts (raffle_id, shard, sold)`: held numbers per raffle.
//! - `purchase_totals (raffle_id, status, shard, purchases, tickets, revenue_cents)`: purchases,
//!   their tickets and totals per raffle and status.
//!
//! Triggers on `purchase_tickets` and `purchases` keep them, in the writing statement's own
//! transaction, whichever code writes (the API, the seeder, an operator's SQL): there is no
//! second source of truth to drift. `shard` is the purchase id modulo [`SHARDS`], so concurrent
//! purchases of one raffle update different rows instead of queueing on one. A reader sums the
//! shards. No foreign keys: deleting a raffle deletes its rows (the adapter does it in the same
//! transaction), and a cascade could otherwise race a trigger's update of the row it removes.
//!
//! PostgreSQL runs one statement-level trigger per write (transition tables), SQLite one per row.
//!
//! Also on PostgreSQL: a trigram index on the folded customer name, so a "name contains" search
//! finds its rows without reading every purchase (`pg_trgm` is a trusted extension: the
//! database's owner may create it).

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// Rows per raffle (and status) that concurrent purchases spread over.
const SHARDS: i64 = 16;

const TABLES: &str = "\
CREATE TABLE raffle_sold_counts (\
 raffle_id BIGINT NOT NULL, shard SMALLINT NOT NULL, sold BIGINT NOT NULL, \
 PRIMARY KEY (raffle_id, shard));
CREATE TABLE purchase_totals (\
 raffle_id BIGINT NOT NULL, status VARCHAR(20) NOT NULL, shard SMALLINT NOT NULL, \
 purchases BIGINT NOT NULL, tickets BIGINT NOT NULL, revenue_cents BIGINT NOT NULL, \
 PRIMARY KEY (raffle_id, status, shard));";

/// What the triggers would have written had they always existed.
fn backfill() -> String {
    format!(
        "INSERT INTO raffle_sold_counts (raffle_id, shard, sold) \
         SELECT raffle_id, purchase_id % {SHARDS}, COUNT(*) FROM purchase_tickets \
         WHERE held GROUP BY raffle_id, purchase_id % {SHARDS}; \
         INSERT INTO purchase_totals (raffle_id, status, shard, purchases, tickets, revenue_cents) \
         SELECT raffle_id, status, id % {SHARDS}, COUNT(*), SUM(ticket_count), SUM(total_cents) \
         FROM purchases GROUP BY raffle_id, status, id % {SHARDS};"
    )
}

/// PostgreSQL: one function per table, the change as (+1 per new row, −1 per old row) summed
/// per counter row, rows taken in key order so that two writers never wait on each other
/// crosswise.
fn postgres_triggers() -> String {
    let upsert_sold = "INSERT INTO raffle_sold_counts AS c (raffle_id, shard, sold) \
         SELECT raffle_id, shard, SUM(delta) FROM changes GROUP BY raffle_id, shard \
         HAVING SUM(delta) <> 0 ORDER BY raffle_id, shard \
         ON CONFLICT (raffle_id, shard) DO UPDATE SET sold = c.sold + EXCLUDED.sold";
    let upsert_totals = "INSERT INTO purchase_totals AS t \
         (raffle_id, status, shard, purchases, tickets, revenue_cents) \
         SELECT raffle_id, status, shard, SUM(n), SUM(tickets), SUM(revenue) FROM changes \
         GROUP BY raffle_id, status, shard \
         HAVING SUM(n) <> 0 OR SUM(tickets) <> 0 OR SUM(revenue) <> 0 \
         ORDER BY raffle_id, status, shard \
         ON CONFLICT (raffle_id, status, shard) DO UPDATE SET \
         purchases = t.purchases + EXCLUDED.purchases, tickets = t.tickets + EXCLUDED.tickets, \
         revenue_cents = t.revenue_cents + EXCLUDED.revenue_cents";
    let held = |table: &str, sign: &str| {
        format!(
            "SELECT raffle_id, purchase_id % {SHARDS} AS shard, {sign}1 AS delta \
             FROM {table} WHERE held"
        )
    };
    let purchase = |table: &str, sign: &str| {
        format!(
            "SELECT raffle_id, status, id % {SHARDS} AS shard, {sign}1 AS n, \
             {sign}ticket_count::BIGINT AS tickets, {sign}total_cents AS revenue FROM {table}"
        )
    };
    counting_triggers(
        "count_held_numbers",
        "count_held",
        "purchase_tickets",
        held,
        upsert_sold,
    ) + &counting_triggers(
        "count_purchases",
        "count_purchases",
        "purchases",
        purchase,
        upsert_totals,
    )
}

/// A PostgreSQL function and its three statement-level triggers on `table` (named `prefix_on_…`):
/// the rows a statement wrote (`changes(…, "+")`, counted up) and replaced (`changes(…, "-")`,
/// counted down) go through `upsert`.
pub(crate) fn counting_triggers(
    function: &str,
    prefix: &str,
    table: &str,
    changes: impl Fn(&str, &str) -> String,
    upsert: &str,
) -> String {
    let (new, old) = (changes("new_rows", "+"), changes("old_rows", "-"));
    format!(
        "CREATE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH changes AS ({new}) {upsert};
  ELSIF TG_OP = 'UPDATE' THEN
    WITH changes AS ({new} UNION ALL {old}) {upsert};
  ELSE
    WITH changes AS ({old}) {upsert};
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER {prefix}_on_insert AFTER INSERT ON {table}
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION {function}();
CREATE TRIGGER {prefix}_on_update AFTER UPDATE ON {table}
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION {function}();
CREATE TRIGGER {prefix}_on_delete AFTER DELETE ON {table}
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION {function}();
"
    )
}

/// SQLite: row triggers (it has no others); one writer at a time, so no ordering to keep.
fn sqlite_triggers() -> String {
    let sold = |row: &str, delta: &str| {
        format!(
            "INSERT INTO raffle_sold_counts (raffle_id, shard, sold) \
             VALUES ({row}.raffle_id, {row}.purchase_id % {SHARDS}, {delta}) \
             ON CONFLICT (raffle_id, shard) DO UPDATE SET sold = sold + excluded.sold;"
        )
    };
    let totals = |row: &str, sign: &str| {
        format!(
            "INSERT INTO purchase_totals \
             (raffle_id, status, shard, purchases, tickets, revenue_cents) \
             VALUES ({row}.raffle_id, {row}.status, {row}.id % {SHARDS}, {sign}1, \
             {sign}{row}.ticket_count, {sign}{row}.total_cents) \
             ON CONFLICT (raffle_id, status, shard) DO UPDATE SET \
             purchases = purchases + excluded.purchases, tickets = tickets + excluded.tickets, \
             revenue_cents = revenue_cents + excluded.revenue_cents;"
        )
    };
    format!(
        "CREATE TRIGGER count_held_on_insert AFTER INSERT ON purchase_tickets WHEN NEW.held \
         BEGIN {insert_held} END;
CREATE TRIGGER count_held_on_update AFTER UPDATE OF held ON purchase_tickets \
         WHEN OLD.held <> NEW.held BEGIN {update_held} END;
CREATE TRIGGER count_held_on_delete AFTER DELETE ON purchase_tickets WHEN OLD.held \
         BEGIN {delete_held} END;
CREATE TRIGGER count_purchases_on_insert AFTER INSERT ON purchases BEGIN {insert_purchase} END;
CREATE TRIGGER count_purchases_on_update \
         AFTER UPDATE OF raffle_id, status, ticket_count, total_cents ON purchases \
         BEGIN {delete_purchase} {insert_purchase} END;
CREATE TRIGGER count_purchases_on_delete AFTER DELETE ON purchases BEGIN {delete_purchase} END;",
        insert_held = sold("NEW", "1"),
        update_held = sold("NEW", "CASE WHEN NEW.held THEN 1 ELSE -1 END"),
        delete_held = sold("OLD", "-1"),
        insert_purchase = totals("NEW", "+"),
        delete_purchase = totals("OLD", "-"),
    )
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared(TABLES).await?;
        db.execute_unprepared(&backfill()).await?;
        if manager.get_database_backend() == DatabaseBackend::Sqlite {
            db.execute_unprepared(&sqlite_triggers()).await?;
        } else {
            db.execute_unprepared(&postgres_triggers()).await?;
            db.execute_unprepared(
                "CREATE EXTENSION IF NOT EXISTS pg_trgm; \
                 CREATE INDEX ix_purchases_name_trigrams ON purchases \
                 USING gin (customer_name_folded gin_trgm_ops)",
            )
            .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        for (trigger, table) in [
            ("count_held_on_insert", "purchase_tickets"),
            ("count_held_on_update", "purchase_tickets"),
            ("count_held_on_delete", "purchase_tickets"),
            ("count_purchases_on_insert", "purchases"),
            ("count_purchases_on_update", "purchases"),
            ("count_purchases_on_delete", "purchases"),
        ] {
            let drop = match manager.get_database_backend() {
                DatabaseBackend::Sqlite => format!("DROP TRIGGER {trigger}"),
                _ => format!("DROP TRIGGER {trigger} ON {table}"),
            };
            db.execute_unprepared(&drop).await?;
        }
        if manager.get_database_backend() == DatabaseBackend::Postgres {
            db.execute_unprepared(
                "DROP INDEX ix_purchases_name_trigrams; \
                 DROP FUNCTION count_held_numbers(); DROP FUNCTION count_purchases();",
            )
            .await?;
        }
        db.execute_unprepared("DROP TABLE purchase_totals; DROP TABLE raffle_sold_counts;")
            .await?;
        Ok(())
    }
}
