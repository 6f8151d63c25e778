//! The proof checks' queue and results (issue 16; table in migration `m20261127_000005`).
//! Claiming is one statement that leases the rows it returns, fewest attempts first (a check
//! tried again waits behind proofs attached since): on PostgreSQL it skips rows another
//! instance is claiming (`FOR UPDATE SKIP LOCKED`); SQLite has one writer.

use anyhow::{Context, anyhow};
use chrono::{DateTime, Utc};
use rifa_domain::draw::ledger::to_hex;
use rifa_domain::money::Money;
use rifa_domain::proof_signals::Signal;
use rifa_domain::proof_signals::{Light, PictureHash};
use rifa_domain::purchase::PurchaseId;
use rifa_domain::purchase::PurchaseStatus;
use rifa_ports::{
    ProofCheckJob, ProofCheckState, ProofChecks, ProofFindings, ProofSubject, QueueLight,
    QueueQuery, QueuedProof,
};
use sea_orm::sea_query::{Condition, Expr, OnConflict};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, DatabaseTransaction, EntityTrait,
    FromQueryResult, QueryFilter, QueryOrder, QuerySelect, Set, Statement, TransactionTrait,
};

use crate::Db;
use crate::convert;
use crate::entities::{proof_checks, proof_picture_bands, purchases};

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
        picture_hash: Set(None),
        read_reference: Set(None),
        text: Set(None),
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
    unfile_picture(txn, purchase).await
}

/// Removes a proof's picture from the bands: it is no longer the purchase's proof, or is being
/// filed again.
async fn unfile_picture(db: &impl ConnectionTrait, purchase: PurchaseId) -> anyhow::Result<()> {
    proof_picture_bands::Entity::delete_many()
        .filter(proof_picture_bands::Column::PurchaseId.eq(purchase.get()))
        .exec(db)
        .await
        .context("failed to unfile a proof's picture")?;
    Ok(())
}

impl proof_checks::Column {
    /// Every column but the key: what a new proof's check resets.
    fn iter_reset() -> [Self; 13] {
        [
            Self::ObjectKey,
            Self::Status,
            Self::Attempts,
            Self::NextAttemptAt,
            Self::LeaseUntil,
            Self::Sha256,
            Self::PictureHash,
            Self::ReadReference,
            Self::Text,
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
             ORDER BY attempts, next_attempt_at LIMIT $3{skip_locked}) \
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

    async fn purchases_with_similar_picture(
        &self,
        hash: &PictureHash,
        max_distance: u32,
        except: PurchaseId,
    ) -> anyhow::Result<Vec<(PurchaseId, u32)>> {
        let mut any_band = Condition::any();
        for (band, bits) in (0_i16..).zip(hash.bands()) {
            any_band = any_band.add(
                Condition::all()
                    .add(proof_picture_bands::Column::Band.eq(band))
                    .add(proof_picture_bands::Column::Bits.eq(i32::from(bits))),
            );
        }
        let candidates: Vec<(i64, Option<String>)> = proof_checks::Entity::find()
            .select_only()
            .column(proof_checks::Column::PurchaseId)
            .column(proof_checks::Column::PictureHash)
            .filter(
                proof_checks::Column::PurchaseId.in_subquery(
                    sea_orm::sea_query::Query::select()
                        .column(proof_picture_bands::Column::PurchaseId)
                        .from(proof_picture_bands::Entity)
                        .cond_where(any_band)
                        .to_owned(),
                ),
            )
            .filter(proof_checks::Column::PurchaseId.ne(except.get()))
            .into_tuple()
            .all(&self.conn)
            .await
            .context("failed to look for a similar picture")?;
        Ok(candidates
            .into_iter()
            .filter_map(|(purchase, other)| {
                let distance = PictureHash::from_hex(other.as_deref()?)?.distance(hash);
                (distance <= max_distance).then_some((PurchaseId::new(purchase), distance))
            })
            .collect())
    }

    async fn purchases_with_reference(
        &self,
        reference_key: &str,
        except: PurchaseId,
    ) -> anyhow::Result<Vec<PurchaseId>> {
        let mut found: Vec<i64> = proof_checks::Entity::find()
            .select_only()
            .column(proof_checks::Column::PurchaseId)
            .filter(proof_checks::Column::ReadReference.eq(reference_key))
            .filter(proof_checks::Column::PurchaseId.ne(except.get()))
            .into_tuple()
            .all(&self.conn)
            .await
            .context("failed to look for a reference on other proofs")?;
        found.extend(
            purchases::Entity::find()
                .select_only()
                .column(purchases::Column::Id)
                .filter(purchases::Column::PaymentReferenceKey.eq(reference_key))
                .filter(purchases::Column::Id.ne(except.get()))
                .into_tuple::<i64>()
                .all(&self.conn)
                .await
                .context("failed to look for a reference typed with other purchases")?,
        );
        found.sort_unstable();
        found.dedup();
        Ok(found.into_iter().map(PurchaseId::new).collect())
    }

    async fn proof_subject(&self, purchase: PurchaseId) -> anyhow::Result<Option<ProofSubject>> {
        let Some(row) = purchases::Entity::find_by_id(purchase.get())
            .one(&self.conn)
            .await
            .context("failed to read the purchase of a proof")?
        else {
            return Ok(None);
        };
        Ok(Some(ProofSubject {
            created_at: row.created_at,
            total_amount: Money::from_cents(row.total_cents)
                .map_err(|e| anyhow!("purchase {purchase} has an invalid total: {e:?}"))?,
            conversion: convert::conversion(&row)?,
            payment_reference: row.payment_reference,
        }))
    }

    async fn record_proof_check(
        &self,
        job: &ProofCheckJob,
        findings: &ProofFindings,
        at: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to begin recording a proof's check")?;
        let recorded = proof_checks::Entity::update_many()
            .col_expr(proof_checks::Column::Status, Expr::val(DONE))
            .col_expr(
                proof_checks::Column::Sha256,
                Expr::val(to_hex(&findings.fingerprint)),
            )
            .col_expr(
                proof_checks::Column::PictureHash,
                Expr::val(findings.picture_hash.as_ref().map(PictureHash::to_hex)),
            )
            .col_expr(
                proof_checks::Column::ReadReference,
                Expr::val(findings.read_reference.clone()),
            )
            .col_expr(proof_checks::Column::Text, Expr::val(findings.text.clone()))
            .col_expr(
                proof_checks::Column::Light,
                Expr::val(findings.light.as_str()),
            )
            .col_expr(
                proof_checks::Column::Signals,
                Expr::val(
                    serde_json::to_string(&findings.signals).context("failed to write signals")?,
                ),
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
            .exec(&txn)
            .await
            .context("failed to record the proof's check")?;
        if recorded.rows_affected == 1 {
            unfile_picture(&txn, job.purchase_id).await?;
            if let Some(hash) = &findings.picture_hash {
                proof_picture_bands::Entity::insert_many((0_i16..).zip(hash.bands()).map(
                    |(band, bits)| proof_picture_bands::ActiveModel {
                        band: Set(band),
                        bits: Set(i32::from(bits)),
                        purchase_id: Set(job.purchase_id.get()),
                    },
                ))
                .exec(&txn)
                .await
                .context("failed to file a proof's picture")?;
            }
        }
        txn.commit()
            .await
            .context("failed to commit a proof's check")?;
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

    async fn proof_queue(&self, query: &QueueQuery) -> anyhow::Result<Vec<QueuedProof>> {
        let mut checks = sea_orm::sea_query::Query::select()
            .column(proof_checks::Column::PurchaseId)
            .from(proof_checks::Entity)
            .to_owned();
        match query.light {
            Some(QueueLight::Checked(light)) => {
                checks.and_where(proof_checks::Column::Light.eq(light.as_str()));
                checks.and_where(proof_checks::Column::Status.eq(DONE));
            }
            Some(QueueLight::Unchecked) => {
                checks.and_where(proof_checks::Column::Status.ne(DONE));
            }
            None => {}
        }
        let mut rows = purchases::Entity::find()
            .filter(purchases::Column::Status.eq(PurchaseStatus::Pending.as_str()))
            .filter(purchases::Column::Id.in_subquery(checks));
        if let Some(after) = query.after {
            let at = purchases::Column::CreatedAt;
            let (later, same) = (
                if query.oldest_first {
                    at.gt(after.created_at)
                } else {
                    at.lt(after.created_at)
                },
                at.eq(after.created_at),
            );
            let id = if query.oldest_first {
                purchases::Column::Id.gt(after.id.get())
            } else {
                purchases::Column::Id.lt(after.id.get())
            };
            rows = rows.filter(
                Condition::any()
                    .add(later)
                    .add(Condition::all().add(same).add(id)),
            );
        }
        let order = if query.oldest_first {
            sea_orm::Order::Asc
        } else {
            sea_orm::Order::Desc
        };
        let rows = rows
            .order_by(purchases::Column::CreatedAt, order.clone())
            .order_by(purchases::Column::Id, order)
            .limit(u64::from(query.limit))
            .all(&self.conn)
            .await
            .context("failed to read the proof queue")?;
        let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
        let found: Vec<proof_checks::Model> = proof_checks::Entity::find()
            .filter(proof_checks::Column::PurchaseId.is_in(ids))
            .all(&self.conn)
            .await
            .context("failed to read the queue's checks")?;
        let purchases = self.with_titles(rows).await?;
        purchases
            .into_iter()
            .map(|purchase| {
                let check = found.iter().find(|c| c.purchase_id == purchase.id.get());
                let done = check.filter(|c| c.status == DONE);
                Ok(QueuedProof {
                    light: done.and_then(|c| c.light.as_deref()).and_then(Light::parse),
                    signals: match done.and_then(|c| c.signals.as_deref()) {
                        Some(signals) => serde_json::from_str::<Vec<Signal>>(signals)
                            .context("stored signals are not signals")?,
                        None => Vec::new(),
                    },
                    purchase,
                })
            })
            .collect()
    }

    async fn lights_of(
        &self,
        purchases: &[PurchaseId],
    ) -> anyhow::Result<Vec<(PurchaseId, Light)>> {
        let rows: Vec<(i64, Option<String>)> = proof_checks::Entity::find()
            .select_only()
            .column(proof_checks::Column::PurchaseId)
            .column(proof_checks::Column::Light)
            .filter(proof_checks::Column::PurchaseId.is_in(purchases.iter().map(|p| p.get())))
            .filter(proof_checks::Column::Status.eq(DONE))
            .into_tuple()
            .all(&self.conn)
            .await
            .context("failed to read proofs' lights")?;
        Ok(rows
            .into_iter()
            .filter_map(|(id, light)| Some((PurchaseId::new(id), Light::parse(light.as_deref()?)?)))
            .collect())
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
                text: row.text,
                checked_at: row.checked_at.context("a done check without its time")?,
            },
            FAILED => ProofCheckState::Failed {
                reason: row.last_error.unwrap_or_default(),
            },
            _ => ProofCheckState::Pending,
        }))
    }
}
