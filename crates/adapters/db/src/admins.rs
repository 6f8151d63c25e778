//! Administrator accounts: the staff, their sessions and their passwords.

use anyhow::{Context, anyhow};
use chrono::{DateTime, Utc};
use rifa_domain::admin::{AdminId, AdminUser, Role, StaffChange, StaffMember};
use rifa_domain::audit::AuditEntry;
use rifa_ports::{
    AdminRepository, CreateAdminError, NewAdmin, NewSession, RecordAudit, SessionsToEnd,
    StaffChangeError, StaffCheck,
};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, DbErr, EntityTrait,
    FromQueryResult, PaginatorTrait, QueryFilter, Set, SqlErr, Statement, TransactionTrait,
};

use crate::entities::{admin_sessions, admins};
use crate::{Db, audit};

fn role_of(stored: &str) -> anyhow::Result<Role> {
    Role::parse(stored).ok_or_else(|| anyhow!("an admin with an unknown role {stored:?}"))
}

fn admin_of(row: admins::Model) -> anyhow::Result<AdminUser> {
    Ok(AdminUser {
        id: AdminId::new(row.id),
        role: role_of(&row.role)?,
        username: row.username,
        password_hash: row.password_hash,
        disabled: row.disabled,
        must_change_password: row.must_change_password,
    })
}

#[derive(FromQueryResult)]
struct StaffRow {
    id: i64,
    username: String,
    role: String,
    disabled: bool,
    must_change_password: bool,
    created_at: DateTime<Utc>,
    last_sign_in_at: Option<DateTime<Utc>>,
}

const STAFF_SELECT: &str = "SELECT a.id, a.username, a.role, a.disabled, a.must_change_password, \
     a.created_at, (SELECT MAX(s.created_at) FROM admin_sessions s WHERE s.admin_id = a.id) \
     AS last_sign_in_at FROM admins a";

fn member_of(row: StaffRow) -> anyhow::Result<StaffMember> {
    Ok(StaffMember {
        id: AdminId::new(row.id),
        role: role_of(&row.role)?,
        username: row.username,
        disabled: row.disabled,
        must_change_password: row.must_change_password,
        created_at: row.created_at,
        last_sign_in_at: row.last_sign_in_at,
    })
}

async fn member(conn: &impl ConnectionTrait, id: AdminId) -> anyhow::Result<Option<StaffMember>> {
    let row = StaffRow::find_by_statement(Statement::from_sql_and_values(
        conn.get_database_backend(),
        format!("{STAFF_SELECT} WHERE a.id = $1"),
        [id.get().into()],
    ))
    .one(conn)
    .await
    .context("failed to read a staff account")?;
    row.map(member_of).transpose()
}

/// Holds every owner's row until the transaction ends: the first statement of every staff
/// change, so changes that could take away an owner are decided one after another (on SQLite,
/// a first statement that writes takes the database's write lock, waiting its turn).
async fn hold_owners(txn: &DatabaseTransaction) -> anyhow::Result<()> {
    admins::Entity::update_many()
        .col_expr(admins::Column::Role, Expr::col(admins::Column::Role))
        .filter(admins::Column::Role.eq(Role::Owner.as_str()))
        .exec(txn)
        .await
        .context("failed to hold the owners' rows")?;
    Ok(())
}

async fn end_sessions(
    conn: &impl ConnectionTrait,
    sessions: SessionsToEnd<'_>,
    at: DateTime<Utc>,
) -> anyhow::Result<u64> {
    let update = admin_sessions::Entity::update_many()
        .col_expr(admin_sessions::Column::RevokedAt, Expr::val(at))
        .filter(admin_sessions::Column::RevokedAt.is_null());
    let update = match sessions {
        SessionsToEnd::One(id) => update.filter(admin_sessions::Column::Id.eq(id)),
        SessionsToEnd::AllOf(admin) => {
            update.filter(admin_sessions::Column::AdminId.eq(admin.get()))
        }
    };
    Ok(update
        .exec(conn)
        .await
        .context("failed to revoke sessions")?
        .rows_affected)
}

async fn insert_session(conn: &impl ConnectionTrait, session: &NewSession) -> anyhow::Result<()> {
    admin_sessions::ActiveModel {
        id: Set(session.id.clone()),
        admin_id: Set(session.admin_id.get()),
        created_at: Set(session.created_at),
        expires_at: Set(session.expires_at),
        revoked_at: Set(None),
    }
    .insert(conn)
    .await
    .context("failed to record a session")?;
    Ok(())
}

impl Db {
    async fn begin(&self, what: &str) -> anyhow::Result<DatabaseTransaction> {
        self.conn
            .begin()
            .await
            .with_context(|| format!("failed to start {what}"))
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
        row.map(admin_of).transpose()
    }

    #[tracing::instrument(name = "db.create_admin", skip_all)]
    async fn create_admin(
        &self,
        new: &NewAdmin<'_>,
        by: Option<AdminId>,
        record: RecordAudit<'_, StaffMember>,
    ) -> Result<StaffMember, CreateAdminError> {
        let txn = self.begin("an account's creation").await?;
        if let Some(by) = by {
            hold_owners(&txn).await?;
            let acting = member(&txn, by).await?;
            if !acting.is_some_and(|a| a.role == Role::Owner && !a.disabled) {
                return Err(rifa_domain::admin::StaffRefusal::NotAnOwner.into());
            }
        }
        let inserted = admins::ActiveModel {
            username: Set(new.username.to_owned()),
            password_hash: Set(new.password_hash.to_owned()),
            role: Set(new.role.as_str().to_owned()),
            disabled: Set(false),
            must_change_password: Set(new.must_change_password),
            created_at: Set(new.created_at),
            ..Default::default()
        }
        .insert(&txn)
        .await;
        let row = match inserted {
            Ok(row) => row,
            Err(error) if matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
                return Err(CreateAdminError::UsernameTaken);
            }
            Err(error) => {
                return Err(anyhow::Error::new::<DbErr>(error)
                    .context("failed to create admin")
                    .into());
            }
        };
        let created = member(&txn, AdminId::new(row.id))
            .await?
            .context("the account just created is missing")?;
        audit::append(&txn, &record(None, Some(&created))).await?;
        txn.commit()
            .await
            .context("failed to commit an account's creation")?;
        Ok(created)
    }

    #[tracing::instrument(name = "db.count_admins", skip_all)]
    async fn count_admins(&self) -> anyhow::Result<u64> {
        admins::Entity::find()
            .count(&self.conn)
            .await
            .context("failed to count admins")
    }

    #[tracing::instrument(name = "db.list_staff", skip_all)]
    async fn list_staff(&self) -> anyhow::Result<Vec<StaffMember>> {
        StaffRow::find_by_statement(Statement::from_string(
            self.conn.get_database_backend(),
            format!("{STAFF_SELECT} ORDER BY a.id"),
        ))
        .all(&self.conn)
        .await
        .context("failed to list the staff")?
        .into_iter()
        .map(member_of)
        .collect()
    }

    #[tracing::instrument(name = "db.change_staff", skip_all, fields(admin.id = target.get()))]
    async fn change_staff(
        &self,
        by: AdminId,
        target: AdminId,
        change: &StaffChange,
        at: DateTime<Utc>,
        check: StaffCheck<'_>,
        record: RecordAudit<'_, StaffMember>,
    ) -> Result<StaffMember, StaffChangeError> {
        let txn = self.begin("a staff change").await?;
        hold_owners(&txn).await?;
        let acting = member(&txn, by).await?.ok_or(StaffChangeError::NotFound)?;
        let before = member(&txn, target)
            .await?
            .ok_or(StaffChangeError::NotFound)?;
        check(&acting, &before)?;
        let mut update = admins::Entity::update_many().filter(admins::Column::Id.eq(target.get()));
        if let Some(role) = change.role {
            update = update.col_expr(admins::Column::Role, Expr::val(role.as_str()));
        }
        if let Some(disabled) = change.disabled {
            update = update.col_expr(admins::Column::Disabled, Expr::val(disabled));
        }
        if let Some(hash) = &change.reset_password_hash {
            update = update
                .col_expr(admins::Column::PasswordHash, Expr::val(hash.as_str()))
                .col_expr(admins::Column::MustChangePassword, Expr::val(true));
        }
        // Rewriting the id keeps the statement valid when nothing else is set.
        update
            .col_expr(admins::Column::Id, Expr::col(admins::Column::Id))
            .exec(&txn)
            .await
            .context("failed to change a staff account")?;
        if change.ends_sessions() {
            end_sessions(&txn, SessionsToEnd::AllOf(target), at).await?;
        }
        let after = member(&txn, target)
            .await?
            .context("the account just changed is missing")?;
        audit::append(&txn, &record(Some(&before), Some(&after))).await?;
        txn.commit()
            .await
            .context("failed to commit a staff change")?;
        Ok(after)
    }

    #[tracing::instrument(name = "db.replace_own_password", skip_all, fields(admin.id = admin.get()))]
    async fn replace_own_password(
        &self,
        admin: AdminId,
        password_hash: &str,
        session: &NewSession,
        entry: &AuditEntry,
    ) -> anyhow::Result<()> {
        let txn = self.begin("a password change").await?;
        admins::Entity::update_many()
            .col_expr(admins::Column::PasswordHash, Expr::val(password_hash))
            .col_expr(admins::Column::MustChangePassword, Expr::val(false))
            .filter(admins::Column::Id.eq(admin.get()))
            .exec(&txn)
            .await
            .context("failed to change a password")?;
        end_sessions(&txn, SessionsToEnd::AllOf(admin), session.created_at).await?;
        insert_session(&txn, session).await?;
        audit::append(&txn, entry).await?;
        txn.commit()
            .await
            .context("failed to commit a password change")
    }

    #[tracing::instrument(name = "db.open_session", skip_all, fields(admin.id = session.admin_id.get()))]
    async fn open_session(&self, session: &NewSession, entry: &AuditEntry) -> anyhow::Result<()> {
        let txn = self.begin("a sign-in transaction").await?;
        insert_session(&txn, session).await?;
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
             WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND NOT a.disabled",
            [id.into(), at.into()],
        ))
        .one(&self.conn)
        .await
        .context("failed to look up a session")?;
        row.map(admin_of).transpose()
    }

    #[tracing::instrument(name = "db.revoke_sessions", skip_all)]
    async fn revoke_sessions(
        &self,
        sessions: SessionsToEnd<'_>,
        at: DateTime<Utc>,
        entry: &AuditEntry,
    ) -> anyhow::Result<u64> {
        let txn = self.begin("a sign-out transaction").await?;
        let ended = end_sessions(&txn, sessions, at).await?;
        audit::append(&txn, entry).await?;
        txn.commit().await.context("failed to commit a sign-out")?;
        Ok(ended)
    }
}
