//! One exchange rate per currency pair, kept by the database: a unique index on
//! `(from_currency, to_currency)` decides which of two concurrent creates wins.
//!
//! Databases made before this may hold several rates for one pair. Of each such group the rate
//! updated last is kept (the highest id on a tie): it is the one an admin set most recently. Payment
//! methods that converted with a dropped duplicate are pointed at the kept rate first, so no
//! method silently loses its conversion; the dropped rows are then deleted. The down migration
//! removes the index only (the dropped duplicates are not restored).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const INDEX: &str = "exchange_rates_pair_unique";

/// The id of the rate kept for the pair of the rate aliased `d`.
const KEPT_FOR_PAIR: &str = "SELECT k.id FROM exchange_rates k \
     WHERE k.from_currency = d.from_currency AND k.to_currency = d.to_currency \
     ORDER BY k.updated_at DESC, k.id DESC LIMIT 1";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared(&format!(
            "UPDATE payment_methods SET exchange_rate_id = \
             (SELECT ({KEPT_FOR_PAIR}) FROM exchange_rates d \
              WHERE d.id = payment_methods.exchange_rate_id) \
             WHERE exchange_rate_id IS NOT NULL"
        ))
        .await?;
        db.execute_unprepared(&format!(
            "DELETE FROM exchange_rates WHERE id NOT IN \
             (SELECT ({KEPT_FOR_PAIR}) FROM exchange_rates d)"
        ))
        .await?;
        manager
            .create_index(
                Index::create()
                    .name(INDEX)
                    .table("exchange_rates")
                    .col("from_currency")
                    .col("to_currency")
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(Index::drop().name(INDEX).table("exchange_rates").to_owned())
            .await
    }
}
