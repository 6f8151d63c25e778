//! Administrator accounts.

use anyhow::Context;
use chrono::{DateTime, Utc};
use rifa_domain::admin::{AdminId, AdminUser};
use rifa_domain::audit::AuditEntry;
use rifa_ports::{AdminRepository, CreateAdminError, NewSession, SessionsToEnd};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, DbErr, EntityTrait, FromQueryResult, PaginatorTrait,
    QueryFilter, Set, SqlErr, Statement, TransactionTrait,
};

use crate::entities::{admin_sessions, admins};
use crate::{Db, audit};

fn admin_of(row: admins::Model) -> AdminUser {
    AdminUser {
        id: AdminId::new(row.id),
        username: row.username,
        password_hash: row.password_hash,
        privileged: row.privileged,
    }
}

impl AdminRepository for Db {
    #[tracing::instrument(name = "db.admin_by_username", skip_all)]
    async fn admin_by_username(&self, username: &str) -> anyhow::Result<Option<AdminUser>> {
        let row = admins::Entity::find()
            .filter(admins::Column::Username.eq(username.trim().to_lowercase()))
            .one(&self.conn)
            .await
            .context("failed to look up admin")?;
        Ok(row.map(admin_of))
    }

    #[tracing::instrument(name = "db.create_admin", skip_all)]
    async fn create_admin(
        &self,
        username: &str,
        password_hash: &str,
        privileged: bool,
    ) -> Result<AdminUser, CreateAdminError> {
        let inserted = admins::ActiveModel {
            username: Set(username.to_owned()),
            password_hash: Set(password_hash.to_owned()),
            privileged: Set(privileged),
            created_at: Set(Utc::now()),
            ..Default::default()
        }
        .insert(&self.conn)
        .await;
        match inserted {
            Ok(row) => Ok(admin_of(row)),
            Err(error) if matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
                Err(CreateAdminError::UsernameTaken)
            }
            Err(error) => Err(anyhow::Error::new::<DbErr>(error)
                .context("failed to create admin")
                .into()),
        }
    }

    #[tracing::instrument(name = "db.count_admins", skip_all)]
    async fn count_admins(&self) -> anyhow::Result<u64> {
        admins::Entity::find()
            .count(&self.conn)
            .await
            .context("failed to count admins")
    }

    #[tracing::instrument(name = "db.open_session", skip_all, fields(admin.id = session.admin_id.get()))]
    async fn open_session(&self, session: &NewSession, entry: &AuditEntry) -> anyhow::Result<()> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start a sign-in transaction")?;
        admin_sessions::ActiveModel {
            id: Set(session.id.clone()),
            admin_id: Set(session.admin_id.get()),
            created_at: Set(session.created_at),
            expires_at: Set(session.expires_at),
            revoked_at: Set(None),
        }
        .insert(&txn)
        .await
        .context("failed to record a session")?;
        audit::append(&txn, entry).await?;
        txn.commit().await.context("failed to commit a sign-in")
    }

    #[tracing::instrument(name = "db.admin_of_live_session", skip_all)]
    async fn admin_of_live_session(
        &self,
        id: &str,
        at: DateTime<Utc>,
    ) -> anyhow::Result<Option<AdminUser>> {
        // One round trip: this runs on every admin request.
        let row = admins::Model::find_by_statement(Statement::from_sql_and_values(
            self.conn.get_database_backend(),
            "SELECT a.* FROM admins a JOIN admin_sessions s ON s.admin_id = a.id \
             WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2",
            [id.into(), at.into()],
        ))
        .one(&self.conn)
        .await
        .context("failed to look up a session")?;
        Ok(row.map(admin_of))
    }

    #[tracing::instrument(name = "db.revoke_sessions", skip_all)]
    async fn revoke_sessions(
        &self,
        sessions: SessionsToEnd<'_>,
        at: DateTime<Utc>,
        entry: &AuditEntry,
    ) -> anyhow::Result<u64> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start a sign-out transaction")?;
        let update = admin_sessions::Entity::update_many()
            .col_expr(admin_sessions::Column::RevokedAt, Expr::val(at))
            .filter(admin_sessions::Column::RevokedAt.is_null());
        let update = match sessions {
            SessionsToEnd::One(id) => update.filter(admin_sessions::Column::Id.eq(id)),
            SessionsToEnd::AllOf(admin) => {
                update.filter(admin_sessions::Column::AdminId.eq(admin.get()))
            }
        };
        let ended = update
            .exec(&txn)
            .await
            .context("failed to revoke sessions")?
            .rows_affected;
        audit::append(&txn, entry).await?;
        txn.commit().await.context("failed to commit a sign-out")?;
        Ok(ended)
    }
}
