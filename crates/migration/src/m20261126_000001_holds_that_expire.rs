//! Holds that expire, sales that close, one allowance per person, a purchase's history and
//! release alerts (decision 0016).
//!
//! - `raffles.hold_minutes` (default 30) and `raffles.sales_close_hours` (default 0).
//! - `purchases.hold_expires_at`: set while a pending purchase without a proof holds its
//!   numbers; a partial index on it is all the sweeper reads. Purchases already pending keep no
//!   deadline (they hold until decided, as they were made to).
//! - `purchases.buyer_document_key` / `buyer_phone_key`: the buyer's normalised keys, and
//!   `buyer_allowance (raffle_id, buyer_key, tickets, cap)` with `CHECK (tickets <= cap)`, filled
//!   from the pending and approved purchases (a cap of at least what each already holds).
//! - `purchase_events`: the history after the purchase's own row (which says when it was
//!   received), filled with each decision (when a proof was attached before was not recorded,
//!   so old histories lack that entry).
//! - `release_alerts`, and outbox rows about a raffle instead of a purchase: `mail_outbox`
//!   gains `raffle_id` and its `purchase_id` becomes optional (SQLite rebuilds the table).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;
use sea_orm_migration::sea_orm::{DatabaseBackend, FromQueryResult, Statement};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The phone's last ten digits, as the domain's `BuyerKeys` keeps them.
const PHONE_KEY_DIGITS: usize = 10;

#[derive(FromQueryResult)]
struct DocumentRow {
    id: i64,
    customer_id_document: String,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// One transaction on SQLite too: every statement on one connection (the outbox is rebuilt,
    /// and a pooled connection with an older copy of the schema would not see it), and an
    /// upgrade that fails half-way leaves the database as it was.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        let backend = manager.get_database_backend();
        manager
            .alter_table(
                Table::alter()
                    .table("raffles")
                    .add_column(integer("hold_minutes").default(30))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table("raffles")
                    .add_column(integer("sales_close_hours").default(0))
                    .to_owned(),
            )
            .await?;
        for column in [
            timestamp_with_time_zone_null("hold_expires_at"),
            string_len("buyer_document_key", 30).default("").to_owned(),
            string_len("buyer_phone_key", 15).default("").to_owned(),
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table("purchases")
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }
        db.execute_unprepared(
            "CREATE INDEX ix_purchases_hold_expires ON purchases (hold_expires_at) \
             WHERE hold_expires_at IS NOT NULL",
        )
        .await?;
        fill_buyer_keys(db, backend).await?;

        manager
            .create_table(
                Table::create()
                    .table("purchase_events")
                    .col(big_pk_auto("id"))
                    .col(big_integer("purchase_id"))
                    .col(string_len("kind", 20))
                    .col(timestamp_with_time_zone("at"))
                    .col(text_null("note"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("purchase_events", "purchase_id")
                            .to("purchases", "id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_purchase_events_purchase")
                    .table("purchase_events")
                    .col("purchase_id")
                    .col("at")
                    .to_owned(),
            )
            .await?;
        db.execute_unprepared(
            "INSERT INTO purchase_events (purchase_id, kind, at, note) \
             SELECT id, status, decided_at, admin_notes FROM purchases \
             WHERE status IN ('approved', 'rejected') AND decided_at IS NOT NULL",
        )
        .await?;

        // Written by hand so the check has a name on both databases: the adapters recognise a
        // passed allowance by it.
        db.execute_unprepared(
            "CREATE TABLE buyer_allowance (\
             raffle_id BIGINT NOT NULL REFERENCES raffles (id) ON DELETE CASCADE, \
             buyer_key VARCHAR(300) NOT NULL, \
             tickets INTEGER NOT NULL, \
             cap INTEGER NOT NULL, \
             PRIMARY KEY (raffle_id, buyer_key), \
             CONSTRAINT ck_buyer_allowance_cap CHECK (tickets <= cap))",
        )
        .await?;
        let greatest = match backend {
            DatabaseBackend::Sqlite => "MAX",
            _ => "GREATEST",
        };
        for (prefix, column) in [
            ("doc:", "p.buyer_document_key"),
            ("email:", "p.customer_email"),
            ("phone:", "p.buyer_phone_key"),
        ] {
            db.execute_unprepared(&format!(
                "INSERT INTO buyer_allowance (raffle_id, buyer_key, tickets, cap) \
                 SELECT p.raffle_id, '{prefix}' || {column}, SUM(p.ticket_count), \
                 {greatest}(SUM(p.ticket_count), \
                 MAX(COALESCE(r.max_per_purchase, r.min_per_purchase, 1))) \
                 FROM purchases p JOIN raffles r ON r.id = p.raffle_id \
                 WHERE p.status IN ('pending', 'approved') \
                 GROUP BY p.raffle_id, {column}"
            ))
            .await?;
        }

        manager
            .create_table(
                Table::create()
                    .table("release_alerts")
                    .col(big_pk_auto("id"))
                    .col(big_integer("raffle_id"))
                    .col(string_len("email", 254))
                    .col(string_len("lang", 2))
                    .col(timestamp_with_time_zone("created_at"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("release_alerts", "raffle_id")
                            .to("raffles", "id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ux_release_alerts_raffle_email")
                    .table("release_alerts")
                    .col("raffle_id")
                    .col("email")
                    .unique()
                    .to_owned(),
            )
            .await?;

        outbox_about_raffles(manager, backend).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("DELETE FROM mail_outbox WHERE purchase_id IS NULL")
            .await?;
        // SQLite keeps the rebuilt outbox (its `raffle_id` stays, unused): its `up` rebuilds it
        // again from named columns.
        if manager.get_database_backend() == DatabaseBackend::Postgres {
            db.execute_unprepared("ALTER TABLE mail_outbox DROP COLUMN raffle_id")
                .await?;
            db.execute_unprepared("ALTER TABLE mail_outbox ALTER COLUMN purchase_id SET NOT NULL")
                .await?;
        }
        for table in ["release_alerts", "buyer_allowance", "purchase_events"] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        db.execute_unprepared("DROP INDEX ix_purchases_hold_expires")
            .await?;
        for column in ["hold_expires_at", "buyer_document_key", "buyer_phone_key"] {
            manager
                .alter_table(
                    Table::alter()
                        .table("purchases")
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        for column in ["hold_minutes", "sales_close_hours"] {
            manager
                .alter_table(
                    Table::alter()
                        .table("raffles")
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}

/// The buyer's document (letters and digits, upper case) and phone (last ten digits) keys of
/// every purchase, as the domain computes them for new ones.
async fn fill_buyer_keys(
    db: &SchemaManagerConnection<'_>,
    backend: DatabaseBackend,
) -> Result<(), DbErr> {
    match backend {
        DatabaseBackend::Postgres => {
            db.execute_unprepared(&format!(
                "UPDATE purchases SET \
                 buyer_document_key = upper(regexp_replace(customer_id_document, '[^A-Za-z0-9]', '', 'g')), \
                 buyer_phone_key = right(customer_phone_digits, {PHONE_KEY_DIGITS})"
            ))
            .await?;
        }
        _ => {
            db.execute_unprepared(&format!(
                "UPDATE purchases SET buyer_phone_key = substr(customer_phone_digits, -{PHONE_KEY_DIGITS})"
            ))
            .await?;
            // SQLite has no regular expressions: the documents are normalised here, one row at
            // a time (embedded databases are small).
            let rows = DocumentRow::find_by_statement(Statement::from_string(
                backend,
                "SELECT id, customer_id_document FROM purchases",
            ))
            .all(db)
            .await?;
            for row in rows {
                let key: String = row
                    .customer_id_document
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .map(|c| c.to_ascii_uppercase())
                    .collect();
                db.execute_raw(Statement::from_sql_and_values(
                    backend,
                    "UPDATE purchases SET buyer_document_key = ? WHERE id = ?",
                    [key.into(), row.id.into()],
                ))
                .await?;
            }
        }
    }
    Ok(())
}

/// Outbox rows may be about a raffle (a release alert) instead of a purchase.
async fn outbox_about_raffles(
    manager: &SchemaManager<'_>,
    backend: DatabaseBackend,
) -> Result<(), DbErr> {
    let db = manager.get_connection();
    if backend == DatabaseBackend::Sqlite {
        // SQLite cannot relax a NOT NULL: the table is rebuilt with the same rows and index.
        for sql in [
            "CREATE TABLE mail_outbox_next ( \
             id integer NOT NULL PRIMARY KEY AUTOINCREMENT, \
             purchase_id integer NULL, \
             raffle_id integer NULL, \
             kind varchar(20) NOT NULL, \
             recipient varchar(254) NOT NULL, \
             lang varchar(2) NOT NULL, \
             status varchar(10) NOT NULL, \
             attempts integer NOT NULL, \
             next_attempt_at timestamp_with_timezone_text NOT NULL, \
             last_error text NULL, \
             created_at timestamp_with_timezone_text NOT NULL, \
             sent_at timestamp_with_timezone_text NULL, \
             withheld_reason varchar(20) NULL, \
             FOREIGN KEY (purchase_id) REFERENCES purchases (id) ON DELETE CASCADE, \
             FOREIGN KEY (raffle_id) REFERENCES raffles (id) ON DELETE CASCADE)",
            "INSERT INTO mail_outbox_next (id, purchase_id, raffle_id, kind, recipient, lang, \
             status, attempts, next_attempt_at, last_error, created_at, sent_at, withheld_reason) \
             SELECT id, purchase_id, NULL, kind, recipient, lang, status, attempts, \
             next_attempt_at, last_error, created_at, sent_at, withheld_reason FROM mail_outbox",
            "DROP TABLE mail_outbox",
            "ALTER TABLE mail_outbox_next RENAME TO mail_outbox",
            "CREATE INDEX ix_mail_outbox_due ON mail_outbox (next_attempt_at) \
             WHERE status = 'pending'",
        ] {
            db.execute_unprepared(sql).await?;
        }
        return Ok(());
    }
    db.execute_unprepared("ALTER TABLE mail_outbox ALTER COLUMN purchase_id DROP NOT NULL")
        .await?;
    manager
        .alter_table(
            Table::alter()
                .table("mail_outbox")
                .add_column(big_integer_null("raffle_id"))
                .add_foreign_key(
                    TableForeignKey::new()
                        .name("fk_mail_outbox_raffle")
                        .from_tbl("mail_outbox")
                        .from_col("raffle_id")
                        .to_tbl("raffles")
                        .to_col("id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await
}
