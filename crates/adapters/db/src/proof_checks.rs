//! The proof checks' queue and results (issue 16; table in migration `m20261127_000005`).
//! Claiming is one statement that leases the rows it returns: on PostgreSQL it skips rows
//! another instance is claiming (`FOR UPDATE SKIP LOCKED`); SQLite has one writer.

use anyhow::Context;
use chrono::{DateTime, Utc};
use rifa_domain::draw::ledger::to_hex;
use rifa_domain::proof_signals::{Light, Signal};
use rifa_domain::purchase::PurchaseId;
use rifa_ports::{ProofCheckJob, ProofCheckState, ProofChecks};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ColumnTrait, DatabaseBackend, DatabaseTransaction, EntityTrait, FromQueryResult, QueryFilter,
    QuerySelect, Set, Statement,
};

use crate::Db;
use crate::entities::proof_checks;

const PENDING: &str = "pending";
const DONE: &str = "done";
const FAILED: &str = "failed";

/// Queues the check of the proof `key` just attached to `purchase`, replacing what an earlier
/// proof's check found: in the attach's own transaction, so no attached proof goes unchecked.
pub(crate) async fn queue(
    txn: &DatabaseTransaction,
    purchase: PurchaseId,
    key: &str,
    at: DateTime<Utc>,
) -> anyhow::Result<()> {
    let column = proof_checks::Column::iter_reset();
    proof_checks::Entity::insert(proof_checks::ActiveModel {
        purchase_id: Set(purchase.get()),
        object_key: Set(key.to_owned()),
        status: Set(PENDING.to_owned()),
        attempts: Set(0),
        next_attempt_at: Set(at),
        lease_until: Set(None),
        sha256: Set(None),
        light: Set(None),
        signals: Set(None),
        checked_at: Set(None),
        last_error: Set(None),
    })
    .on_conflict(
        OnConflict::column(proof_checks::Column::PurchaseId)
            .update_columns(column)
            .to_owned(),
    )
    .exec(txn)
    .await
    .context("failed to queue the proof's check")?;
    Ok(())
}

impl proof_checks::Column {
    /// Every column but the key: what a new proof's check resets.
    fn iter_reset() -> [Self; 10] {
        [
            Self::ObjectKey,
            Self::Status,
            Self::Attempts,
            Self::NextAttemptAt,
            Self::LeaseUntil,
            Self::Sha256,
            Self::Light,
            Self::Signals,
            Self::CheckedAt,
            Self::LastError,
        ]
    }
}

#[derive(FromQueryResult)]
struct Claimed {
    purchase_id: i64,
    object_key: String,
    attempts: i32,
}

impl ProofChecks for Db {
    #[tracing::instrument(name = "db.claim_proof_checks", skip_all)]
    async fn claim_proof_checks(
        &self,
        limit: u32,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> anyhow::Result<Vec<ProofCheckJob>> {
        let backend = self.conn.get_database_backend();
        let skip_locked = if backend == DatabaseBackend::Postgres {
            " FOR UPDATE SKIP LOCKED"
        } else {
            ""
        };
        let sql = format!(
            "UPDATE proof_checks SET lease_until = $2, attempts = attempts + 1 \
             WHERE purchase_id IN (SELECT purchase_id FROM proof_checks \
             WHERE status = '{PENDING}' AND next_attempt_at <= $1 \
             AND (lease_until IS NULL OR lease_until <= $1) \
             ORDER BY next_attempt_at LIMIT $3{skip_locked}) \
             RETURNING purchase_id, object_key, attempts"
        );
        let rows = Claimed::find_by_statement(Statement::from_sql_and_values(
            backend,
            &sql,
            [now.into(), lease_until.into(), i64::from(limit).into()],
        ))
        .all(&self.conn)
        .await
        .context("failed to claim proof checks")?;
        Ok(rows
            .into_iter()
            .map(|row| ProofCheckJob {
                purchase_id: PurchaseId::new(row.purchase_id),
                object_key: row.object_key,
                attempts: u32::try_from(row.attempts).unwrap_or(0),
            })
            .collect())
    }

    async fn purchases_with_fingerprint(
        &self,
        fingerprint: &[u8; 32],
        except: PurchaseId,
    ) -> anyhow::Result<Vec<PurchaseId>> {
        Ok(proof_checks::Entity::find()
            .select_only()
            .column(proof_checks::Column::PurchaseId)
            .filter(proof_checks::Column::Sha256.eq(to_hex(fingerprint)))
            .filter(proof_checks::Column::PurchaseId.ne(except.get()))
            .into_tuple::<i64>()
            .all(&self.conn)
            .await
            .context("failed to look for the same proof elsewhere")?
            .into_iter()
            .map(PurchaseId::new)
            .collect())
    }

    async fn record_proof_check(
        &self,
        job: &ProofCheckJob,
        fingerprint: &[u8; 32],
        light: Light,
        signals: &[Signal],
        at: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        proof_checks::Entity::update_many()
            .col_expr(proof_checks::Column::Status, Expr::val(DONE))
            .col_expr(proof_checks::Column::Sha256, Expr::val(to_hex(fingerprint)))
            .col_expr(proof_checks::Column::Light, Expr::val(light.as_str()))
            .col_expr(
                proof_checks::Column::Signals,
                Expr::val(serde_json::to_string(signals).context("failed to write signals")?),
            )
            .col_expr(proof_checks::Column::CheckedAt, Expr::val(at))
            .col_expr(
                proof_checks::Column::LeaseUntil,
                Expr::val(Option::<DateTime<Utc>>::None),
            )
            .col_expr(
                proof_checks::Column::LastError,
                Expr::val(Option::<String>::None),
            )
            .filter(proof_checks::Column::PurchaseId.eq(job.purchase_id.get()))
            .filter(proof_checks::Column::ObjectKey.eq(job.object_key.as_str()))
            .exec(&self.conn)
            .await
            .context("failed to record the proof's check")?;
        Ok(())
    }

    async fn proof_check_failed(
        &self,
        job: &ProofCheckJob,
        reason: &str,
        retry_at: Option<DateTime<Utc>>,
    ) -> anyhow::Result<()> {
        let mut update = proof_checks::Entity::update_many()
            .col_expr(
                proof_checks::Column::Status,
                Expr::val(if retry_at.is_some() { PENDING } else { FAILED }),
            )
            .col_expr(
                proof_checks::Column::LeaseUntil,
                Expr::val(Option::<DateTime<Utc>>::None),
            )
            .col_expr(proof_checks::Column::LastError, Expr::val(reason));
        if let Some(retry_at) = retry_at {
            update = update.col_expr(proof_checks::Column::NextAttemptAt, Expr::val(retry_at));
        }
        update
            .filter(proof_checks::Column::PurchaseId.eq(job.purchase_id.get()))
            .filter(proof_checks::Column::ObjectKey.eq(job.object_key.as_str()))
            .exec(&self.conn)
            .await
            .context("failed to record a failed proof check")?;
        Ok(())
    }

    async fn proof_check(&self, purchase: PurchaseId) -> anyhow::Result<Option<ProofCheckState>> {
        let Some(row) = proof_checks::Entity::find_by_id(purchase.get())
            .one(&self.conn)
            .await
            .context("failed to read the proof's check")?
        else {
            return Ok(None);
        };
        Ok(Some(match row.status.as_str() {
            DONE => ProofCheckState::Done {
                light: row
                    .light
                    .as_deref()
                    .and_then(Light::parse)
                    .context("a done check without its light")?,
                signals: serde_json::from_str(row.signals.as_deref().unwrap_or("[]"))
                    .context("stored signals are not signals")?,
                checked_at: row.checked_at.context("a done check without its time")?,
            },
            FAILED => ProofCheckState::Failed {
                reason: row.last_error.unwrap_or_default(),
            },
            _ => ProofCheckState::Pending,
        }))
    }
}
