//! Sessions that end and the audit trail (issue 17, decision 0022).
//!
//! - `admin_sessions`: one row per sign-in, named by the token's `jti`. A token is honoured only
//!   while its session row exists and is not revoked, so signing out, "sign out everywhere" and
//!   deleting an admin end their tokens at once (the row goes with the admin).
//! - `audit_log`: who did what, written in the transaction of the action itself. Each entry
//!   holds the hash of the one before it; `audit_head` holds the last number and hash handed
//!   out, and its row lock is what orders concurrent appends into one chain. Triggers refuse
//!   every update and delete of the log, so no code path rewrites it; a change made around them
//!   breaks the chain, which the verification finds.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The hash before the first entry, as stored.
const GENESIS_HEX: &str = "0000000000000000000000000000000000000000000000000000000000000000";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("admin_sessions")
                    .col(string_len("id", 64).primary_key())
                    .col(big_integer("admin_id"))
                    .col(timestamp_with_time_zone("created_at"))
                    .col(timestamp_with_time_zone("expires_at"))
                    .col(timestamp_with_time_zone_null("revoked_at"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("admin_sessions", "admin_id")
                            .to("admins", "id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_admin_sessions_admin")
                    .table("admin_sessions")
                    .col("admin_id")
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("audit_log")
                    .col(big_integer("seq").primary_key())
                    .col(timestamp_with_time_zone("at"))
                    // No foreign key: the trail outlives the accounts it names.
                    .col(big_integer_null("actor_id"))
                    .col(string_len("actor", 50))
                    .col(string_len_null("ip", 45))
                    .col(string_len("action", 60))
                    .col(string_len_null("target", 80))
                    .col(text("changes"))
                    .col(string_len("prev_hash", 64))
                    .col(string_len("hash", 64))
                    .to_owned(),
            )
            .await?;
        for (name, cols) in [
            ("ix_audit_log_at", &["at"][..]),
            ("ix_audit_log_actor", &["actor", "seq"][..]),
            ("ix_audit_log_action", &["action", "seq"][..]),
            ("ix_audit_log_target", &["target", "seq"][..]),
        ] {
            let mut index = Index::create();
            index.name(name).table("audit_log");
            for col in cols {
                index.col(*col);
            }
            manager.create_index(index.to_owned()).await?;
        }
        manager
            .create_table(
                Table::create()
                    .table("audit_head")
                    .col(integer("id").primary_key())
                    .col(big_integer("seq"))
                    .col(string_len("hash", 64))
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        db.execute_unprepared(&format!(
            "INSERT INTO audit_head (id, seq, hash) VALUES (1, 0, '{GENESIS_HEX}')"
        ))
        .await?;
        if manager.get_database_backend() == DatabaseBackend::Sqlite {
            for event in ["UPDATE", "DELETE"] {
                db.execute_unprepared(&format!(
                    "CREATE TRIGGER audit_log_append_only_{lower} BEFORE {event} ON audit_log \
                     BEGIN SELECT RAISE(ABORT, 'append_only: audit_log rows are never updated or deleted'); END;",
                    lower = event.to_lowercase(),
                ))
                .await?;
            }
        } else {
            // `refuse_change()` is the draw tables' (migration 20261127_000004).
            db.execute_unprepared(
                "CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log \
                 FOR EACH ROW EXECUTE FUNCTION refuse_change();",
            )
            .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in ["audit_head", "audit_log", "admin_sessions"] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}
