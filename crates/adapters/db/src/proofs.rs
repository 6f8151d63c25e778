//! The buyer's access to their purchase and the payment proof's upload state.

use anyhow::Context;
use chrono::{DateTime, Utc};
use rifa_domain::Lang;
use rifa_domain::purchase::{PurchaseEventKind, PurchaseId, PurchaseStatus};
use rifa_domain::raffle::RaffleId;
use rifa_ports::{AttachOutcome, ProofProblem, PurchaseAccess, PurchaseProofs};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter, QueryOrder,
    QuerySelect, Statement, TransactionTrait,
};

use crate::entities::purchases;
use crate::{Db, history, outbox, proof_checks};

#[derive(FromQueryResult)]
struct Late {
    late: i32,
}

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
            raffle_id: RaffleId::new(row.raffle_id),
            status: PurchaseStatus::parse(&row.status)
                .map_err(|e| anyhow::anyhow!("purchase {id} has an invalid status: {e:?}"))?,
            access_digest: row.access_digest,
            lang: Lang::from_code(&row.lang),
            upload_key: row.upload_key,
            payment_proof: row.payment_proof,
            upload_grants: u32::try_from(row.upload_grants).unwrap_or(0),
            hold_expires_at: row.hold_expires_at,
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
            .filter(Expr::cust(format!(
                "(hold_expires_at IS NULL OR hold_expires_at > {})",
                self.now_sql()
            )))
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
    async fn attach_proof(
        &self,
        id: PurchaseId,
        key: &str,
        at: DateTime<Utc>,
    ) -> anyhow::Result<AttachOutcome> {
        let backend = self.conn.get_database_backend();
        let now = self.now_sql();
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start attaching a proof")?;
        // The deadline is judged in the write itself, by the database's clock: the sweeper's
        // clock, so a proof and the expiry cannot both win.
        let attached = txn
            .execute_raw(Statement::from_sql_and_values(
                backend,
                format!(
                    "UPDATE purchases SET payment_proof = $1, upload_key = NULL, \
                     proof_problem = NULL, hold_expires_at = NULL \
                     WHERE id = $2 AND status = 'pending' AND upload_key = $1 \
                     AND (hold_expires_at IS NULL OR hold_expires_at > {now})"
                ),
                [key.into(), id.get().into()],
            ))
            .await
            .context("failed to attach a proof")?;
        if attached.rows_affected() == 1 {
            history::record(&txn, id, PurchaseEventKind::ProofAttached, at, None).await?;
            proof_checks::queue(&txn, id, key, at).await?;
            outbox::received_due(&txn, id, at).await?;
            txn.commit().await.context("failed to commit the proof")?;
            return Ok(AttachOutcome::Attached);
        }
        txn.rollback().await.context("failed to roll back")?;
        let late = Late::find_by_statement(Statement::from_sql_and_values(
            backend,
            format!(
                "SELECT CASE WHEN status = 'expired' OR (status = 'pending' \
                 AND hold_expires_at IS NOT NULL AND hold_expires_at <= {now}) \
                 THEN 1 ELSE 0 END AS late FROM purchases WHERE id = $1"
            ),
            [id.get().into()],
        ))
        .one(&self.conn)
        .await
        .context("failed to read the hold's deadline")?;
        Ok(if late.is_some_and(|l| l.late == 1) {
            AttachOutcome::HoldExpired
        } else {
            AttachOutcome::NotGranted
        })
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
