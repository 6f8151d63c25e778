//! Caps on the e-mails one address receives: a purchase's confirmation goes to whatever address
//! the buyer typed, so the outbox counts, per recipient, the confirmations of the current UTC
//! hour and day in `mail_quota`, one row per address. The purchase's own statement (or
//! transaction) bumps the row with an upsert, and the row's lock makes concurrent purchases to
//! one address take turns: the count cannot be overtaken. A message over a cap is written
//! anyway, as `withheld` with the cap it hit, so admins see it and may send it.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table("mail_outbox")
                    .add_column(ColumnDef::new("withheld_reason").string_len(20).null())
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("mail_quota")
                    .col(string_len("recipient", 254).primary_key())
                    // Hours and days since the Unix epoch, UTC.
                    .col(big_integer("hour_number"))
                    .col(integer("sent_this_hour"))
                    .col(big_integer("day_number"))
                    .col(integer("sent_today"))
                    // What the last upsert decided: `ok`, `hourly_cap` or `daily_cap`.
                    .col(string_len("verdict", 20))
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table("mail_quota").to_owned())
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table("mail_outbox")
                    .drop_column("withheld_reason")
                    .to_owned(),
            )
            .await?;
        Ok(())
    }
}
