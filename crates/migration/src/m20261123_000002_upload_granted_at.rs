//! When the pending upload grant was made, so an upload nobody attached can be swept from the
//! object store once its URL is long expired. Rows granted before this column existed have
//! none and count as old.

use sea_orm_migration::prelude::*;

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
            .await
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
