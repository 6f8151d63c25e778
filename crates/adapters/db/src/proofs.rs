//! The buyer's access to their purchase and the payment proof's upload state.

use anyhow::Context;
use chrono::{DateTime, Utc};
use rifa_domain::Lang;
use rifa_domain::purchase::{PurchaseId, PurchaseStatus};
use rifa_ports::{ProofProblem, PurchaseAccess, PurchaseProofs};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::Db;
use crate::entities::purchases;

impl PurchaseProofs for Db {
    #[tracing::instrument(name = "db.purchase_access", skip_all, fields(purchase.id = id.get()))]
    async fn purchase_access(&self, id: PurchaseId) -> anyhow::Result<Option<PurchaseAccess>> {
        let Some(row) = purchases::Entity::find_by_id(id.get())
            .one(&self.conn)
            .await
            .context("failed to load purchase access")?
        else {
            return Ok(None);
        };
        Ok(Some(PurchaseAccess {
            status: PurchaseStatus::parse(&row.status)
                .map_err(|e| anyhow::anyhow!("purchase {id} has an invalid status: {e:?}"))?,
            access_digest: row.access_digest,
            lang: Lang::from_code(&row.lang),
            upload_key: row.upload_key,
            payment_proof: row.payment_proof,
            upload_grants: u32::try_from(row.upload_grants).unwrap_or(0),
        }))
    }

    #[tracing::instrument(name = "db.grant_upload", skip_all, fields(purchase.id = id.get()))]
    async fn grant_upload(
        &self,
        id: PurchaseId,
        key: &str,
        max_grants: u32,
        at: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        let updated = purchases::Entity::update_many()
            .col_expr(purchases::Column::UploadKey, Expr::val(key))
            .col_expr(purchases::Column::UploadGrantedAt, Expr::val(at))
            .col_expr(
                purchases::Column::UploadGrants,
                Expr::col(purchases::Column::UploadGrants).add(1),
            )
            .filter(purchases::Column::Id.eq(id.get()))
            .filter(purchases::Column::Status.eq(PurchaseStatus::Pending.as_str()))
            .filter(purchases::Column::UploadGrants.lt(i64::from(max_grants)))
            .exec(&self.conn)
            .await
            .context("failed to grant an upload")?;
        Ok(updated.rows_affected == 1)
    }

    #[tracing::instrument(name = "db.abandoned_uploads", skip_all)]
    async fn abandoned_uploads(
        &self,
        granted_before: DateTime<Utc>,
        limit: u32,
    ) -> anyhow::Result<Vec<(PurchaseId, String)>> {
        let rows: Vec<(i64, Option<String>)> = purchases::Entity::find()
            .select_only()
            .column(purchases::Column::Id)
            .column(purchases::Column::UploadKey)
            .filter(purchases::Column::UploadKey.is_not_null())
            .filter(purchases::Column::UploadGrantedAt.lt(granted_before))
            .order_by_asc(purchases::Column::Id)
            .limit(u64::from(limit))
            .into_tuple()
            .all(&self.conn)
            .await
            .context("failed to list abandoned uploads")?;
        Ok(rows
            .into_iter()
            .filter_map(|(id, key)| key.map(|key| (PurchaseId::new(id), key)))
            .collect())
    }

    #[tracing::instrument(name = "db.withdraw_upload", skip_all, fields(purchase.id = id.get()))]
    async fn withdraw_upload(&self, id: PurchaseId, key: &str) -> anyhow::Result<bool> {
        let updated = purchases::Entity::update_many()
            .col_expr(
                purchases::Column::UploadKey,
                Expr::val(Option::<String>::None),
            )
            .col_expr(
                purchases::Column::UploadGrantedAt,
                Expr::val(Option::<DateTime<Utc>>::None),
            )
            .filter(purchases::Column::Id.eq(id.get()))
            .filter(purchases::Column::UploadKey.eq(key))
            .exec(&self.conn)
            .await
            .context("failed to withdraw an upload grant")?;
        Ok(updated.rows_affected == 1)
    }

    #[tracing::instrument(name = "db.attach_proof", skip_all, fields(purchase.id = id.get()))]
    async fn attach_proof(&self, id: PurchaseId, key: &str) -> anyhow::Result<bool> {
        let updated = purchases::Entity::update_many()
            .col_expr(purchases::Column::PaymentProof, Expr::val(key))
            .col_expr(
                purchases::Column::UploadKey,
                Expr::val(Option::<String>::None),
            )
            .col_expr(
                purchases::Column::ProofProblem,
                Expr::val(Option::<String>::None),
            )
            .filter(purchases::Column::Id.eq(id.get()))
            .filter(purchases::Column::Status.eq(PurchaseStatus::Pending.as_str()))
            .filter(purchases::Column::UploadKey.eq(key))
            .exec(&self.conn)
            .await
            .context("failed to attach a proof")?;
        Ok(updated.rows_affected == 1)
    }

    #[tracing::instrument(name = "db.refuse_proof", skip_all, fields(purchase.id = id.get()))]
    async fn refuse_proof(
        &self,
        id: PurchaseId,
        key: &str,
        problem: Option<ProofProblem>,
    ) -> anyhow::Result<()> {
        let mut update = purchases::Entity::update_many().col_expr(
            purchases::Column::UploadKey,
            Expr::val(Option::<String>::None),
        );
        if let Some(problem) = problem {
            update = update.col_expr(purchases::Column::ProofProblem, Expr::val(problem.as_str()));
        }
        update
            .filter(purchases::Column::Id.eq(id.get()))
            .filter(purchases::Column::UploadKey.eq(key))
            .exec(&self.conn)
            .await
            .context("failed to record a refused proof")?;
        Ok(())
    }

    #[tracing::instrument(name = "db.proof_problem", skip_all, fields(purchase.id = id.get()))]
    async fn proof_problem(&self, id: PurchaseId) -> anyhow::Result<Option<ProofProblem>> {
        Ok(purchases::Entity::find_by_id(id.get())
            .one(&self.conn)
            .await
            .context("failed to load a purchase's proof state")?
            .and_then(|row| row.proof_problem.as_deref().and_then(ProofProblem::parse)))
    }
}
