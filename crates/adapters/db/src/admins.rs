//! Administrator accounts.

use anyhow::Context;
use chrono::Utc;
use rifa_domain::admin::{AdminId, AdminUser};
use rifa_ports::{AdminRepository, CreateAdminError};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, DbErr, EntityTrait, PaginatorTrait, QueryFilter, Set, SqlErr,
};

use crate::Db;
use crate::entities::admins;

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

    #[tracing::instrument(name = "db.admin_by_id", skip_all, fields(admin.id = id.get()))]
    async fn admin_by_id(&self, id: AdminId) -> anyhow::Result<Option<AdminUser>> {
        let row = admins::Entity::find_by_id(id.get())
            .one(&self.conn)
            .await
            .context("failed to load admin")?;
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
}
