//! Proof checks (issue 16): one row per purchase whose proof is attached, queued in the
//! attach's own transaction and worked off the request path by any instance (claimed with a
//! lease, as the mail outbox is), holding what the check found: the file's SHA-256 (indexed:
//! the same file attached to another purchase is found by it), the picture's perceptual hash
//! (filed in `proof_picture_bands` by its 16 bands, where a close picture is found without
//! comparing with every proof), the reference it shows (indexed), its text, the light and its
//! signals.

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
                    .table("proof_checks")
                    .col(big_integer("purchase_id").primary_key())
                    .col(text("object_key"))
                    .col(string_len("status", 10))
                    .col(integer("attempts"))
                    .col(timestamp_with_time_zone("next_attempt_at"))
                    .col(timestamp_with_time_zone_null("lease_until"))
                    .col(string_len_null("sha256", 64))
                    .col(string_len_null("picture_hash", 64))
                    .col(string_len_null("read_reference", 40))
                    .col(text_null("text"))
                    .col(string_len_null("light", 10))
                    .col(text_null("signals"))
                    .col(timestamp_with_time_zone_null("checked_at"))
                    .col(text_null("last_error"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("proof_checks", "purchase_id")
                            .to("purchases", "id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        for (name, cols) in [
            ("ix_proof_checks_due", &["status", "next_attempt_at"][..]),
            ("ix_proof_checks_sha256", &["sha256"][..]),
            ("ix_proof_checks_read_reference", &["read_reference"][..]),
        ] {
            let mut index = Index::create().name(name).table("proof_checks").to_owned();
            for col in cols {
                index.col(*col);
            }
            manager.create_index(index).await?;
        }
        manager
            .create_table(
                Table::create()
                    .table("proof_picture_bands")
                    .col(small_integer("band"))
                    .col(integer("bits"))
                    .col(big_integer("purchase_id"))
                    .primary_key(Index::create().col("band").col("bits").col("purchase_id"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("proof_picture_bands", "purchase_id")
                            .to("proof_checks", "purchase_id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        // A proof's bands go when its check is reset for another proof.
        manager
            .create_index(
                Index::create()
                    .name("ix_proof_picture_bands_purchase")
                    .table("proof_picture_bands")
                    .col("purchase_id")
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table("proof_picture_bands").to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table("proof_checks").to_owned())
            .await
    }
}
