//! When the pending upload grant was made, so an upload nobody attached can be swept from the
//! object store once its URL is long expired. A grant pending when this runs is dated now: a
//! buyer who got the URL just before the upgrade still has the day to attach.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table("purchases")
                    .add_column(
                        ColumnDef::new("upload_granted_at")
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        // In the format the API writes timestamps in on each database, so they compare.
        let now = match manager.get_database_backend() {
            DatabaseBackend::Sqlite => "strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')",
            _ => "CURRENT_TIMESTAMP",
        };
        manager
            .get_connection()
            .execute_unprepared(&format!(
                "UPDATE purchases SET upload_granted_at = {now} WHERE upload_key IS NOT NULL"
            ))
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table("purchases")
                    .drop_column("upload_granted_at")
                    .to_owned(),
            )
            .await
    }
}
