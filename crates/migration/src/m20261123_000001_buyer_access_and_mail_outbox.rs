//! What the outside world needs: the buyer's secret access key, the language to write to them
//! in, the payment proof's upload state, and the outbox of e-mails still to deliver.
//!
//! The buyer's key is stored only as a SHA-256 digest: a leaked database cannot attach proofs or
//! read invoices. Outbox rows are written in the same transaction as the purchase or decision
//! that causes them, so a message is never lost when the mail server is down; the worker claims
//! a due row by pushing its `next_attempt_at` forward (a lease), which lets several API instances
//! share the table without sending twice.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
        let columns = [
            ColumnDef::new("lang")
                .string_len(2)
                .not_null()
                .default("es")
                .to_owned(),
            ColumnDef::new("access_digest")
                .string_len(64)
                .null()
                .to_owned(),
            ColumnDef::new("upload_key").text().null().to_owned(),
            ColumnDef::new("proof_problem")
                .string_len(20)
                .null()
                .to_owned(),
            ColumnDef::new("upload_grants")
                .integer()
                .not_null()
                .default(0)
                .to_owned(),
        ];
        for column in columns {
            manager
                .alter_table(
                    Table::alter()
                        .table("purchases")
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }

        manager
            .create_table(
                Table::create()
                    .table("mail_outbox")
                    .col(big_pk_auto("id"))
                    .col(big_integer("purchase_id"))
                    .col(string_len("kind", 20))
                    .col(string_len("recipient", 254))
                    .col(string_len("lang", 2))
                    .col(string_len("status", 10))
                    .col(integer("attempts"))
                    .col(timestamp_with_time_zone("next_attempt_at"))
                    .col(text_null("last_error"))
                    .col(timestamp_with_time_zone("created_at"))
                    .col(timestamp_with_time_zone_null("sent_at"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("mail_outbox", "purchase_id")
                            .to("purchases", "id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        // Only pending rows are ever looked for: a partial index stays small as sent mail piles
        // up. Same statement on both databases.
        manager
            .get_connection()
            .execute_unprepared(
                "CREATE INDEX ix_mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending'",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table("mail_outbox").to_owned())
            .await?;
        for column in ["proof_problem", "upload_key", "access_digest", "lang"] {
            manager
                .alter_table(
                    Table::alter()
                        .table("purchases")
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
