//! An index on the mail outbox by purchase. Expiring holds looks up each expired purchase's
//! "received" e-mail (a withheld confirmation withholds the expiry notice too), and deleting a
//! raffle's test purchases cascades into their e-mails: without it each look-up read the whole
//! outbox, and two instances expired 130 holds a second on a fresh database (bench/instances.sh),
//! far fewer at a year's 1.8 million e-mails.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(
                Index::create()
                    .name("ix_mail_outbox_purchase")
                    .table("mail_outbox")
                    .col("purchase_id")
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("ix_mail_outbox_purchase")
                    .table("mail_outbox")
                    .to_owned(),
            )
            .await
    }
}
