//! The audit trail (decision 0022): entries appended in the caller's transaction, chained
//! through `audit_head`, whose row lock orders concurrent appends.

use std::collections::BTreeMap;

use anyhow::Context;
use chrono::{DateTime, Utc};
use rifa_domain::admin::AdminId;
use rifa_domain::audit::{
    Actor, AuditAction, AuditEntry, ChainHead, ChainedEntry, Change, DecisionTiming,
};
use rifa_domain::draw::ledger::{Hash, hash_from_hex, to_hex};
use rifa_domain::purchase::PurchaseEventKind;
use rifa_ports::{AuditQuery, AuditTrail};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter,
    QueryOrder, QuerySelect, Set, Statement, TransactionTrait,
};
use serde::{Deserialize, Serialize};

use crate::Db;
use crate::entities::{
    admins, audit_head, audit_log, exchange_rates, payment_methods, purchases, raffle_prizes,
    raffles,
};

#[derive(Serialize, Deserialize)]
struct StoredChange {
    field: String,
    before: Option<String>,
    after: Option<String>,
}

#[derive(FromQueryResult)]
struct Claimed {
    seq: i64,
    hash: String,
}

/// Appends `entry` inside `conn`'s transaction. The head's row stays locked until that
/// transaction ends, so the next append (from any instance) chains onto this one, and a rolled
/// back action takes its entry with it.
pub(crate) async fn append(conn: &impl ConnectionTrait, entry: &AuditEntry) -> anyhow::Result<()> {
    let claimed = Claimed::find_by_statement(Statement::from_string(
        conn.get_database_backend(),
        "UPDATE audit_head SET seq = seq + 1 WHERE id = 1 RETURNING seq, hash",
    ))
    .one(conn)
    .await
    .context("failed to claim the audit trail's next entry")?
    .context("the audit trail's head row is missing")?;
    let prev = hash_from_hex(&claimed.hash).context("the audit trail's head hash is unreadable")?;
    let before = ChainHead {
        seq: u64::try_from(claimed.seq - 1).context("a negative audit sequence")?,
        hash: prev,
    };
    let head = before.next(entry);
    let changes: Vec<StoredChange> = entry
        .changes
        .iter()
        .map(|c| StoredChange {
            field: c.field.clone(),
            before: c.before.clone(),
            after: c.after.clone(),
        })
        .collect();
    audit_log::ActiveModel {
        seq: Set(claimed.seq),
        at: Set(entry.at),
        actor_id: Set(entry.actor.admin_id.map(AdminId::get)),
        actor: Set(entry.actor.username.clone()),
        ip: Set(entry.actor.ip.clone()),
        action: Set(entry.action.as_str().to_owned()),
        target: Set(entry.target.clone()),
        changes: Set(serde_json::to_string(&changes)?),
        prev_hash: Set(claimed.hash),
        hash: Set(to_hex(&head.hash)),
    }
    .insert(conn)
    .await
    .context("failed to append to the audit trail")?;
    audit_head::Entity::update_many()
        .col_expr(
            audit_head::Column::Hash,
            sea_orm::sea_query::Expr::val(to_hex(&head.hash)),
        )
        .filter(audit_head::Column::Id.eq(1))
        .exec(conn)
        .await
        .context("failed to move the audit trail's head")?;
    Ok(())
}

/// The rows of `E` whose `id` is one of `ids`, each as its id and what it is called.
async fn named<E: EntityTrait>(
    conn: &impl ConnectionTrait,
    id: E::Column,
    ids: Vec<i64>,
    name: fn(E::Model) -> (i64, String),
) -> anyhow::Result<Vec<(i64, String)>> {
    Ok(E::find()
        .filter(id.is_in(ids))
        .all(conn)
        .await
        .context("failed to name the trail's targets")?
        .into_iter()
        .map(name)
        .collect())
}

/// A hash no entry has: what an unreadable stored hash reads as, so the walk reports a break.
const UNREADABLE_HASH: Hash = [0xff; 32];

/// A stored row as an entry of the chain. A row edited into something this build cannot read
/// (an unknown action, changes that are not JSON, a hash that is not hex) still reads: as an
/// entry whose hash cannot match, so the trail reports it as edited instead of failing whole.
fn chained_of(row: audit_log::Model) -> anyhow::Result<ChainedEntry> {
    let changes = match serde_json::from_str::<Vec<StoredChange>>(&row.changes) {
        Ok(changes) => changes
            .into_iter()
            .map(|c| Change {
                field: c.field,
                before: c.before,
                after: c.after,
            })
            .collect(),
        Err(_) => vec![Change {
            field: "[unreadable]".to_owned(),
            before: None,
            after: Some(row.changes.clone()),
        }],
    };
    let hash = |text: &str| hash_from_hex(text).unwrap_or(UNREADABLE_HASH);
    Ok(ChainedEntry {
        seq: u64::try_from(row.seq)?,
        prev_hash: hash(&row.prev_hash),
        hash: hash(&row.hash),
        entry: AuditEntry {
            at: row.at,
            actor: Actor {
                admin_id: row.actor_id.map(AdminId::new),
                username: row.actor,
                ip: row.ip,
            },
            action: AuditAction::parse(&row.action).unwrap_or(AuditAction::Unrecognised),
            target: row.target,
            changes,
        },
    })
}

impl AuditTrail for Db {
    #[tracing::instrument(name = "db.append_audit", skip_all)]
    async fn append_audit(&self, entry: &AuditEntry) -> anyhow::Result<()> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start an audit transaction")?;
        append(&txn, entry).await?;
        txn.commit()
            .await
            .context("failed to commit an audit entry")
    }

    #[tracing::instrument(name = "db.audit_entries", skip_all)]
    async fn audit_entries(&self, query: &AuditQuery) -> anyhow::Result<Vec<ChainedEntry>> {
        let mut select = audit_log::Entity::find();
        if let Some(before) = query.before {
            select = select.filter(audit_log::Column::Seq.lt(i64::try_from(before)?));
        }
        if let Some(actor) = &query.actor {
            select = select.filter(audit_log::Column::Actor.eq(actor.as_str()));
        }
        if let Some(action) = &query.action {
            select = select.filter(audit_log::Column::Action.eq(action.as_str()));
        }
        if let Some(target) = &query.target {
            select = select.filter(audit_log::Column::Target.eq(target.as_str()));
        }
        if let Some(from) = query.from {
            select = select.filter(audit_log::Column::At.gte(from));
        }
        if let Some(until) = query.until {
            select = select.filter(audit_log::Column::At.lt(until));
        }
        select
            .order_by_desc(audit_log::Column::Seq)
            .limit(query.limit)
            .all(&self.conn)
            .await
            .context("failed to read the audit trail")?
            .into_iter()
            .map(chained_of)
            .collect()
    }

    #[tracing::instrument(name = "db.audit_chain", skip_all)]
    async fn audit_chain(&self, after: u64, limit: u64) -> anyhow::Result<Vec<ChainedEntry>> {
        audit_log::Entity::find()
            .filter(audit_log::Column::Seq.gt(i64::try_from(after)?))
            .order_by_asc(audit_log::Column::Seq)
            .limit(limit)
            .all(&self.conn)
            .await
            .context("failed to read the audit chain")?
            .into_iter()
            .map(chained_of)
            .collect()
    }

    #[tracing::instrument(name = "db.decision_timings", skip_all)]
    async fn decision_timings(
        &self,
        from: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> anyhow::Result<Vec<DecisionTiming>> {
        #[derive(FromQueryResult)]
        struct Row {
            actor_id: Option<i64>,
            actor: String,
            at: DateTime<Utc>,
            proof_at: Option<DateTime<Utc>>,
        }
        // The decisions of a period through the trail's time or (action, at) index, in no
        // order (the figures do not depend on it, and sorting a month of decisions cost a
        // fifth of the read); each proof through the purchase's events (`purchase:42` names
        // purchase 42).
        let rows = Row::find_by_statement(Statement::from_sql_and_values(
            self.conn.get_database_backend(),
            "SELECT a.actor_id, a.actor, a.at, \
               (SELECT MAX(e.at) FROM purchase_events e \
                 WHERE e.purchase_id = CAST(SUBSTR(a.target, 10) AS BIGINT) \
                   AND e.kind = $1 AND e.at <= a.at) AS proof_at \
             FROM audit_log a \
             WHERE a.action IN ($2, $3) AND a.at >= $4 AND a.at < $5",
            [
                PurchaseEventKind::ProofAttached.as_str().into(),
                AuditAction::PurchaseDecided.as_str().into(),
                AuditAction::PurchasesDecidedInBulk.as_str().into(),
                from.into(),
                until.into(),
            ],
        ))
        .all(&self.conn)
        .await
        .context("failed to read the decisions' timings")?;
        Ok(rows
            .into_iter()
            .map(|row| DecisionTiming {
                actor_id: row.actor_id.map(AdminId::new),
                actor: row.actor,
                decided_at: row.at,
                proof_at: row.proof_at,
            })
            .collect())
    }

    #[tracing::instrument(name = "db.audit_head", skip_all)]
    async fn audit_head(&self) -> anyhow::Result<ChainHead> {
        let row = audit_head::Entity::find_by_id(1)
            .one(&self.conn)
            .await
            .context("failed to read the audit trail's head")?
            .context("the audit trail's head row is missing")?;
        Ok(ChainHead {
            seq: u64::try_from(row.seq)?,
            hash: hash_from_hex(&row.hash).context("the audit trail's head hash is unreadable")?,
        })
    }

    #[tracing::instrument(name = "db.audit_target_names", skip_all)]
    async fn target_names(&self, targets: &[&str]) -> anyhow::Result<BTreeMap<String, String>> {
        let mut ids: BTreeMap<&str, Vec<i64>> = BTreeMap::new();
        for target in targets {
            if let Some((kind, id)) = target.split_once(':')
                && let Ok(id) = id.parse::<i64>()
            {
                ids.entry(kind).or_default().push(id);
            }
        }
        let mut names = BTreeMap::new();
        let conn = self.conn.inner();
        for (kind, ids) in ids {
            let found = match kind {
                "purchase" => {
                    named::<purchases::Entity>(conn, purchases::Column::Id, ids, |r| {
                        (r.id, r.reference)
                    })
                    .await?
                }
                "raffle" => {
                    named::<raffles::Entity>(conn, raffles::Column::Id, ids, |r| (r.id, r.title))
                        .await?
                }
                "prize" => {
                    named::<raffle_prizes::Entity>(conn, raffle_prizes::Column::Id, ids, |r| {
                        (r.id, r.title)
                    })
                    .await?
                }
                "payment_method" => {
                    named::<payment_methods::Entity>(conn, payment_methods::Column::Id, ids, |r| {
                        (r.id, r.name)
                    })
                    .await?
                }
                "exchange_rate" => {
                    named::<exchange_rates::Entity>(conn, exchange_rates::Column::Id, ids, |r| {
                        (r.id, format!("{} → {}", r.from_currency, r.to_currency))
                    })
                    .await?
                }
                "admin" => {
                    named::<admins::Entity>(conn, admins::Column::Id, ids, |r| (r.id, r.username))
                        .await?
                }
                _ => Vec::new(),
            };
            names.extend(
                found
                    .into_iter()
                    .map(|(id, name)| (format!("{kind}:{id}"), name)),
            );
        }
        Ok(names)
    }
}
