//! The initial schema.
//!
//! Ticket holds: `purchase_tickets` keeps one row per number of every purchase (so filters and
//! history see rejected and test purchases too). A partial unique index on `(raffle_id, number)`
//! over the rows still `held` is what guarantees a number is never sold twice; rejecting a
//! purchase clears `held` on its rows in the same transaction. Unsold numbers have no rows.
//!
//! Money is stored as whole cents (`BIGINT`) so sums are exact on both databases; exchange rates
//! as decimal text, parsed into `rust_decimal`.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("raffles")
                    .col(big_pk_auto("id"))
                    .col(string_len("title", 200))
                    .col(text("description"))
                    .col(text("image"))
                    .col(big_integer("price_cents"))
                    .col(string_len("status", 20))
                    .col(integer("max_tickets"))
                    .col(integer_null("min_per_purchase"))
                    .col(integer_null("max_per_purchase"))
                    .col(timestamp_with_time_zone_null("draw_date"))
                    .col(timestamp_with_time_zone_null("end_date"))
                    .col(timestamp_with_time_zone("created_at"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_raffles_status")
                    .table("raffles")
                    .col("status")
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table("promotions")
                    .col(big_pk_auto("id"))
                    .col(big_integer("raffle_id"))
                    .col(text("description"))
                    .col(integer("position"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("promotions", "raffle_id")
                            .to("raffles", "id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_promotions_raffle")
                    .table("promotions")
                    .col("raffle_id")
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table("exchange_rates")
                    .col(big_pk_auto("id"))
                    .col(string_len("from_currency", 3))
                    .col(string_len("to_currency", 3))
                    .col(string_len("rate", 40))
                    .col(timestamp_with_time_zone("updated_at"))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table("payment_methods")
                    .col(big_pk_auto("id"))
                    .col(string_len("name", 100))
                    .col(string_len("kind", 30))
                    .col(boolean("active"))
                    .col(text("details"))
                    .col(big_integer_null("exchange_rate_id"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("payment_methods", "exchange_rate_id")
                            .to("exchange_rates", "id")
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table("purchases")
                    .col(big_pk_auto("id"))
                    .col(string_len_uniq("reference", 20))
                    .col(big_integer("raffle_id"))
                    .col(string_len("customer_name", 120))
                    // Lower-case, accent-free copy for the admin's name search (see domain's
                    // `fold_for_search`): the same on both databases, unlike LOWER().
                    .col(string_len("customer_name_folded", 120))
                    .col(string_len("customer_id_document", 30))
                    .col(string_len("customer_email", 254))
                    .col(string_len("customer_phone", 30))
                    .col(string_len("customer_phone_digits", 15))
                    .col(string_len("customer_country", 30))
                    .col(big_integer_null("payment_method_id"))
                    .col(string_len("payment_method_name", 100))
                    .col(string_len_null("conversion_currency", 3))
                    .col(string_len_null("conversion_rate", 40))
                    .col(text("ticket_numbers"))
                    .col(integer("ticket_count"))
                    .col(big_integer("total_cents"))
                    .col(big_integer("discount_cents"))
                    .col(string_len("status", 10))
                    .col(timestamp_with_time_zone("created_at"))
                    .col(timestamp_with_time_zone_null("decided_at"))
                    .col(text_null("payment_proof"))
                    .col(text_null("admin_notes"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("purchases", "raffle_id")
                            .to("raffles", "id"),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from("purchases", "payment_method_id")
                            .to("payment_methods", "id")
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .to_owned(),
            )
            .await?;
        for (name, cols) in [
            (
                "ix_purchases_raffle_created",
                &["raffle_id", "created_at"][..],
            ),
            ("ix_purchases_status_created", &["status", "created_at"][..]),
            ("ix_purchases_created", &["created_at"][..]),
            ("ix_purchases_email", &["customer_email"][..]),
            ("ix_purchases_phone_digits", &["customer_phone_digits"][..]),
        ] {
            let mut index = Index::create().name(name).table("purchases").to_owned();
            for col in cols {
                index.col(*col);
            }
            manager.create_index(index).await?;
        }

        manager
            .create_table(
                Table::create()
                    .table("purchase_tickets")
                    .col(big_integer("purchase_id"))
                    .col(big_integer("raffle_id"))
                    .col(integer("number"))
                    .col(boolean("held"))
                    .primary_key(Index::create().col("purchase_id").col("number"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("purchase_tickets", "purchase_id")
                            .to("purchases", "id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        // The guarantee: among held rows, a (raffle, number) pair exists at most once.
        // Partial indexes are written by hand: the same statement works on both databases.
        manager
            .get_connection()
            .execute_unprepared(
                "CREATE UNIQUE INDEX ux_purchase_tickets_held ON purchase_tickets (raffle_id, number) WHERE held",
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_purchase_tickets_number")
                    .table("purchase_tickets")
                    .col("raffle_id")
                    .col("number")
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table("settings")
                    .col(string_len("key", 50).primary_key())
                    .col(text("value"))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table("admins")
                    .col(big_pk_auto("id"))
                    .col(string_len_uniq("username", 50))
                    .col(text("password_hash"))
                    .col(boolean("privileged"))
                    .col(timestamp_with_time_zone("created_at"))
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            "admins",
            "settings",
            "purchase_tickets",
            "purchases",
            "payment_methods",
            "exchange_rates",
            "promotions",
            "raffles",
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}
