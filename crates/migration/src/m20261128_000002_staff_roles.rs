//! Staff accounts with roles (issue 17, decision 0023).
//!
//! `privileged` becomes a role: privileged admins become owners; the others keep exactly what
//! they could do as managers (purchases, figures, catalogue, draws). Accounts can be disabled,
//! and a password handed over by an owner must be replaced at the next sign-in.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        for statement in [
            "ALTER TABLE admins ADD COLUMN role VARCHAR(20) NOT NULL DEFAULT 'manager'",
            "ALTER TABLE admins ADD COLUMN disabled BOOLEAN NOT NULL DEFAULT FALSE",
            "ALTER TABLE admins ADD COLUMN must_change_password BOOLEAN NOT NULL DEFAULT FALSE",
            "UPDATE admins SET role = 'owner' WHERE privileged",
            "ALTER TABLE admins DROP COLUMN privileged",
            // The staff screen's last sign-in of each account.
            "CREATE INDEX ix_admin_sessions_admin_created ON admin_sessions (admin_id, created_at)",
            "DROP INDEX ix_admin_sessions_admin",
        ] {
            db.execute_unprepared(statement).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        for statement in [
            "CREATE INDEX ix_admin_sessions_admin ON admin_sessions (admin_id)",
            "DROP INDEX ix_admin_sessions_admin_created",
            "ALTER TABLE admins ADD COLUMN privileged BOOLEAN NOT NULL DEFAULT FALSE",
            "UPDATE admins SET privileged = (role = 'owner')",
            "ALTER TABLE admins DROP COLUMN must_change_password",
            "ALTER TABLE admins DROP COLUMN disabled",
            "ALTER TABLE admins DROP COLUMN role",
        ] {
            db.execute_unprepared(statement).await?;
        }
        Ok(())
    }
}
