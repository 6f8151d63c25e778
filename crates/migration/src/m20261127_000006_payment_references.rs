//! Payment references (issue 16): the purchase form's optional "Número de referencia", which a
//! payment method may require with a minimum length. A reference pays for one live purchase per
//! method: a partial unique index over the reference's key (letters and digits in upper case)
//! refuses the second, whichever of two racing purchases commits last — a rejected or expired
//! purchase frees its reference. A second index finds a reference across methods, for the proof
//! checks ("the same reference elsewhere").

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [
            boolean("reference_required").default(false).to_owned(),
            small_integer("reference_min_length").default(0).to_owned(),
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table("payment_methods")
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }
        for column in [
            string_len_null("payment_reference", 40),
            string_len_null("payment_reference_key", 40),
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
        let db = manager.get_connection();
        db.execute_unprepared(
            "CREATE UNIQUE INDEX ux_purchases_method_reference \
             ON purchases (payment_method_id, payment_reference_key) \
             WHERE payment_reference_key IS NOT NULL AND status IN ('pending', 'approved')",
        )
        .await?;
        db.execute_unprepared(
            "CREATE INDEX ix_purchases_reference_key ON purchases (payment_reference_key) \
             WHERE payment_reference_key IS NOT NULL",
        )
        .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("DROP INDEX ix_purchases_reference_key")
            .await?;
        db.execute_unprepared("DROP INDEX ux_purchases_method_reference")
            .await?;
        for column in ["payment_reference_key", "payment_reference"] {
            manager
                .alter_table(
                    Table::alter()
                        .table("purchases")
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        for column in ["reference_min_length", "reference_required"] {
            manager
                .alter_table(
                    Table::alter()
                        .table("payment_methods")
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
