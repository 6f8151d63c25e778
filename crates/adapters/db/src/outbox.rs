//! The e-mail outbox: rows written with the purchase or decision that causes them, claimed by
//! the delivery worker with a lease so several instances never send the same message at once.

use anyhow::Context;
use chrono::{DateTime, Utc};
use rifa_domain::Lang;
use rifa_ports::{MailId, MailJob, MailKind, MailOutbox, MailRecord, MailStatus};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, DatabaseTransaction, EntityTrait, FromQueryResult, QueryFilter,
    QueryOrder, QuerySelect, Set, Statement,
};

use crate::Db;
use crate::entities::{mail_outbox, purchases};

/// The `Received` message of the purchase inserted by the surrounding CTE (named `p`), for
/// PostgreSQL's one-statement purchase.
pub(crate) const ENQUEUE_FOR_NEW_PURCHASE: &str = "INSERT INTO mail_outbox \
     (purchase_id, kind, recipient, lang, status, attempts, next_attempt_at, created_at) \
     SELECT p.id, 'received', p.customer_email, p.lang, 'pending', 0, p.created_at, p.created_at \
     FROM p";

pub(crate) async fn enqueue(
    txn: &DatabaseTransaction,
    purchase: &purchases::Model,
    kind: MailKind,
) -> anyhow::Result<()> {
    let now = purchase.decided_at.unwrap_or(purchase.created_at);
    mail_outbox::ActiveModel {
        purchase_id: Set(purchase.id),
        kind: Set(kind.as_str().to_owned()),
        recipient: Set(purchase.customer_email.clone()),
        lang: Set(purchase.lang.clone()),
        status: Set(MailStatus::Pending.as_str().to_owned()),
        attempts: Set(0),
        next_attempt_at: Set(now),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(txn)
    .await
    .context("failed to put the e-mail in the outbox")?;
    Ok(())
}

fn record(row: mail_outbox::Model) -> anyhow::Result<MailRecord> {
    Ok(MailRecord {
        id: row.id,
        purchase_id: row.purchase_id,
        kind: MailKind::parse(&row.kind)
            .with_context(|| format!("outbox row {} has kind {:?}", row.id, row.kind))?,
        recipient: row.recipient,
        status: MailStatus::parse(&row.status)
            .with_context(|| format!("outbox row {} has status {:?}", row.id, row.status))?,
        attempts: u32::try_from(row.attempts).unwrap_or(0),
        next_attempt_at: row.next_attempt_at,
        last_error: row.last_error,
        created_at: row.created_at,
        sent_at: row.sent_at,
    })
}

impl MailOutbox for Db {
    async fn claim_due_mail(
        &self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> anyhow::Result<Option<MailJob>> {
        // One statement on both databases. PostgreSQL skips rows another instance is claiming;
        // SQLite has a single writer, so the sub-select cannot race.
        let lock = if self.is_postgres() {
            " FOR UPDATE SKIP LOCKED"
        } else {
            ""
        };
        let sql = format!(
            "UPDATE mail_outbox SET next_attempt_at = $1, attempts = attempts + 1 \
             WHERE id = (SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= $2 \
             ORDER BY next_attempt_at, id LIMIT 1{lock}) RETURNING *"
        );
        let backend = self.conn.get_database_backend();
        let statement =
            Statement::from_sql_and_values(backend, &sql, [lease_until.into(), now.into()]);
        let Some(row) = mail_outbox::Model::find_by_statement(statement)
            .one(&self.conn)
            .await
            .context("failed to claim an e-mail")?
        else {
            return Ok(None);
        };
        Ok(Some(MailJob {
            id: row.id,
            purchase_id: row.purchase_id,
            kind: MailKind::parse(&row.kind)
                .with_context(|| format!("outbox row {} has kind {:?}", row.id, row.kind))?,
            recipient: row.recipient,
            lang: Lang::from_code(&row.lang),
            attempts: u32::try_from(row.attempts).unwrap_or(0),
        }))
    }

    async fn mail_sent(&self, id: MailId, now: DateTime<Utc>) -> anyhow::Result<()> {
        mail_outbox::Entity::update_many()
            .col_expr(
                mail_outbox::Column::Status,
                Expr::val(MailStatus::Sent.as_str()),
            )
            .col_expr(mail_outbox::Column::SentAt, Expr::val(now))
            .col_expr(
                mail_outbox::Column::LastError,
                Expr::val(Option::<String>::None),
            )
            .filter(mail_outbox::Column::Id.eq(id))
            .exec(&self.conn)
            .await
            .context("failed to mark an e-mail sent")?;
        Ok(())
    }

    async fn mail_failed(
        &self,
        id: MailId,
        error: &str,
        retry_at: Option<DateTime<Utc>>,
    ) -> anyhow::Result<()> {
        let mut update = mail_outbox::Entity::update_many()
            .col_expr(mail_outbox::Column::LastError, Expr::val(error))
            .filter(mail_outbox::Column::Id.eq(id));
        update = match retry_at {
            Some(at) => update.col_expr(mail_outbox::Column::NextAttemptAt, Expr::val(at)),
            None => update.col_expr(
                mail_outbox::Column::Status,
                Expr::val(MailStatus::Failed.as_str()),
            ),
        };
        update
            .exec(&self.conn)
            .await
            .context("failed to record an e-mail failure")?;
        Ok(())
    }

    async fn mail_blocked(&self, error: &str, now: DateTime<Utc>) -> anyhow::Result<()> {
        mail_outbox::Entity::update_many()
            .col_expr(mail_outbox::Column::LastError, Expr::val(error))
            .filter(mail_outbox::Column::Status.eq(MailStatus::Pending.as_str()))
            .filter(mail_outbox::Column::NextAttemptAt.lte(now))
            .exec(&self.conn)
            .await
            .context("failed to record why e-mail is blocked")?;
        Ok(())
    }

    async fn list_mail(
        &self,
        status: Option<MailStatus>,
        limit: u32,
    ) -> anyhow::Result<Vec<MailRecord>> {
        let mut select = mail_outbox::Entity::find();
        if let Some(status) = status {
            select = select.filter(mail_outbox::Column::Status.eq(status.as_str()));
        }
        select
            .order_by_desc(mail_outbox::Column::Id)
            .limit(u64::from(limit))
            .all(&self.conn)
            .await
            .context("failed to list the outbox")?
            .into_iter()
            .map(record)
            .collect()
    }

    async fn retry_mail(&self, id: MailId, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let updated = mail_outbox::Entity::update_many()
            .col_expr(
                mail_outbox::Column::Status,
                Expr::val(MailStatus::Pending.as_str()),
            )
            .col_expr(mail_outbox::Column::NextAttemptAt, Expr::val(now))
            .col_expr(mail_outbox::Column::Attempts, Expr::val(0))
            .filter(mail_outbox::Column::Id.eq(id))
            .filter(mail_outbox::Column::Status.eq(MailStatus::Failed.as_str()))
            .exec(&self.conn)
            .await
            .context("failed to retry an e-mail")?;
        Ok(updated.rows_affected == 1)
    }
}
