//! The e-mail outbox: rows written with the purchase or decision that causes them, claimed by
//! the delivery worker with a lease so several instances never send the same message at once.

use anyhow::Context;
use chrono::{DateTime, TimeDelta, Utc};
use rifa_domain::Lang;
use rifa_domain::audit::AuditEntry;
use rifa_domain::id::PrizeId;
use rifa_domain::purchase::PurchaseId;
use rifa_domain::raffle::RaffleId;
use rifa_ports::{
    MailId, MailJob, MailKind, MailOutbox, MailRecord, MailStatus, MailSubject, RecipientCaps,
    WithheldReason, recipient_key,
};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseBackend, DatabaseTransaction,
    EntityTrait, FromQueryResult, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set,
    Statement, TransactionTrait,
};

use crate::Db;
use crate::entities::{mail_outbox, purchases};

/// The upsert that counts one more confirmation to the recipient whose key is `recipient` (a
/// placeholder or column), in the hour and day of `at`, unless that would pass a cap, and
/// returns its `verdict`: `ok`, or the cap it hit. `from` is the rest of the inserted row's
/// `SELECT` (`FROM p` inside the purchase's statement). On PostgreSQL the conflicting row is
/// locked and updated at its latest version, so concurrent purchases to one address take turns
/// and none slips past the cap; SQLite has a single writer. Caps must be at least 1.
fn count_confirmation_sql(
    caps: RecipientCaps,
    at: DateTime<Utc>,
    recipient: &str,
    from: &str,
) -> String {
    let hour = at.timestamp().div_euclid(3_600);
    let day = at.timestamp().div_euclid(86_400);
    let (per_hour, per_day) = (caps.per_hour, caps.per_day);
    let this_hour = format!(
        "(CASE WHEN mail_quota.hour_number = {hour} THEN mail_quota.sent_this_hour ELSE 0 END)"
    );
    let today =
        format!("(CASE WHEN mail_quota.day_number = {day} THEN mail_quota.sent_today ELSE 0 END)");
    let verdict = format!(
        "(CASE WHEN {today} >= {per_day} THEN 'daily_cap' \
         WHEN {this_hour} >= {per_hour} THEN 'hourly_cap' ELSE 'ok' END)"
    );
    let counted = format!("(CASE WHEN {verdict} = 'ok' THEN 1 ELSE 0 END)");
    // `WHERE true`: SQLite cannot otherwise tell the upsert's ON from a join's.
    format!(
        "INSERT INTO mail_quota (recipient, hour_number, sent_this_hour, day_number, sent_today, verdict) \
         SELECT {recipient}, {hour}, 1, {day}, 1, 'ok' {from} WHERE true \
         ON CONFLICT (recipient) DO UPDATE SET \
         sent_this_hour = {this_hour} + {counted}, sent_today = {today} + {counted}, \
         hour_number = {hour}, day_number = {day}, verdict = {verdict} \
         RETURNING verdict"
    )
}

/// Makes a purchase's `Received` message due at `at` (its proof was attached or refused), if it
/// is still waiting and was never tried.
pub(crate) async fn received_due(
    txn: &DatabaseTransaction,
    purchase: PurchaseId,
    at: DateTime<Utc>,
) -> anyhow::Result<()> {
    mail_outbox::Entity::update_many()
        .col_expr(mail_outbox::Column::NextAttemptAt, Expr::value(at))
        .filter(mail_outbox::Column::PurchaseId.eq(purchase.get()))
        .filter(mail_outbox::Column::Kind.eq(MailKind::Received.as_str()))
        .filter(mail_outbox::Column::Status.eq(MailStatus::Pending.as_str()))
        .filter(mail_outbox::Column::Attempts.eq(0))
        .filter(mail_outbox::Column::NextAttemptAt.gt(at))
        .exec(txn)
        .await
        .context("failed to send the purchase's confirmation now")?;
    Ok(())
}

/// PostgreSQL's one-statement purchase: the CTEs that count the `Received` message of the
/// purchase inserted by the surrounding CTE (named `p`) against the caps and write it, pending
/// or withheld. `recipient` is the placeholder of its recipient's key ([`recipient_key`]).
pub(crate) fn enqueue_for_new_purchase(
    caps: RecipientCaps,
    proof_wait: TimeDelta,
    at: DateTime<Utc>,
    recipient: &str,
) -> String {
    let count = count_confirmation_sql(caps, at, recipient, "FROM p");
    let wait = proof_wait.num_seconds();
    format!(
        "quota AS ({count}), \
         m AS (INSERT INTO mail_outbox \
         (purchase_id, kind, recipient, lang, status, attempts, next_attempt_at, created_at, withheld_reason) \
         SELECT p.id, 'received', p.customer_email, p.lang, \
         CASE WHEN quota.verdict = 'ok' THEN 'pending' ELSE 'withheld' END, 0, \
         p.created_at + interval '{wait} seconds', p.created_at, \
         NULLIF(quota.verdict, 'ok') FROM p, quota)"
    )
}

#[derive(FromQueryResult)]
struct Verdict {
    verdict: String,
}

/// Writes the purchase's `Received` message, counted against `caps` in the same transaction:
/// pending, or withheld with the cap it hit. It is due after `proof_wait`, the time the buyer
/// has to upload the proof right after buying, so it can say whether the proof arrived
/// ([`received_due`] sends it at once when it does).
pub(crate) async fn enqueue_confirmation(
    txn: &DatabaseTransaction,
    purchase: &purchases::Model,
    caps: RecipientCaps,
    proof_wait: TimeDelta,
) -> anyhow::Result<()> {
    let sql = count_confirmation_sql(caps, purchase.created_at, "$1", "");
    let statement = Statement::from_sql_and_values(
        txn.get_database_backend(),
        &sql,
        [recipient_key(&purchase.customer_email).into()],
    );
    let verdict = Verdict::find_by_statement(statement)
        .one(txn)
        .await
        .context("failed to count the e-mails to the buyer")?
        .context("the e-mail count returned nothing")?
        .verdict;
    write(
        txn,
        purchase,
        MailKind::Received,
        (purchase.created_at, purchase.created_at + proof_wait),
        WithheldReason::parse(&verdict),
    )
    .await
}

/// Writes an admin's message (a decision, a reopening) at `at`: neither capped nor counted.
pub(crate) async fn enqueue(
    txn: &DatabaseTransaction,
    purchase: &purchases::Model,
    kind: MailKind,
    at: DateTime<Utc>,
) -> anyhow::Result<()> {
    // A decision is news of its own: the confirmation stops waiting for a proof, first.
    received_due(txn, PurchaseId::new(purchase.id), at).await?;
    write(txn, purchase, kind, (at, at), None).await
}

/// Writes a message `(created, due)`.
async fn write(
    txn: &DatabaseTransaction,
    purchase: &purchases::Model,
    kind: MailKind,
    (now, due): (DateTime<Utc>, DateTime<Utc>),
    withheld: Option<WithheldReason>,
) -> anyhow::Result<()> {
    let status = if withheld.is_some() {
        MailStatus::Withheld
    } else {
        MailStatus::Pending
    };
    mail_outbox::ActiveModel {
        purchase_id: Set(Some(purchase.id)),
        kind: Set(kind.as_str().to_owned()),
        recipient: Set(purchase.customer_email.clone()),
        lang: Set(purchase.lang.clone()),
        status: Set(status.as_str().to_owned()),
        withheld_reason: Set(withheld.map(|r| r.as_str().to_owned())),
        attempts: Set(0),
        next_attempt_at: Set(due),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(txn)
    .await
    .context("failed to put the e-mail in the outbox")?;
    Ok(())
}

/// What an outbox row is about: its purchase, or the raffle of a release alert.
fn subject_of(row: &mail_outbox::Model) -> anyhow::Result<MailSubject> {
    match (row.prize_id, row.purchase_id, row.raffle_id) {
        (Some(prize), _, _) => Ok(MailSubject::Prize(PrizeId::new(prize))),
        (None, Some(purchase), _) => Ok(MailSubject::Purchase(PurchaseId::new(purchase))),
        (None, None, Some(raffle)) => Ok(MailSubject::Raffle(RaffleId::new(raffle))),
        (None, None, None) => Err(anyhow::anyhow!("outbox row {} is about nothing", row.id)),
    }
}

/// Writes the message every approved buyer of `raffle` gets when its ledger is frozen: an
/// admin's act, neither capped nor counted.
pub(crate) async fn enqueue_ledger_frozen(
    txn: &DatabaseTransaction,
    raffle: RaffleId,
    at: DateTime<Utc>,
) -> anyhow::Result<()> {
    let backend = txn.get_database_backend();
    let (raffle_param, at_param) = if backend == DatabaseBackend::Postgres {
        ("$1", "$2")
    } else {
        ("?1", "?2")
    };
    let sql = format!(
        "INSERT INTO mail_outbox \
         (purchase_id, kind, recipient, lang, status, attempts, next_attempt_at, created_at) \
         SELECT id, '{kind}', customer_email, lang, '{pending}', 0, {at_param}, {at_param} \
         FROM purchases WHERE raffle_id = {raffle_param} AND status = 'approved'",
        kind = MailKind::LedgerFrozen.as_str(),
        pending = MailStatus::Pending.as_str(),
    );
    txn.execute_raw(Statement::from_sql_and_values(
        backend,
        &sql,
        [raffle.get().into(), at.into()],
    ))
    .await
    .context("failed to put the ledger's e-mails in the outbox")?;
    Ok(())
}

/// Writes the winner's message about `prize`.
pub(crate) async fn enqueue_prize_won(
    txn: &DatabaseTransaction,
    prize: PrizeId,
    winner: &purchases::Model,
    at: DateTime<Utc>,
) -> anyhow::Result<()> {
    mail_outbox::ActiveModel {
        purchase_id: Set(Some(winner.id)),
        prize_id: Set(Some(prize.get())),
        kind: Set(MailKind::PrizeWon.as_str().to_owned()),
        recipient: Set(winner.customer_email.clone()),
        lang: Set(winner.lang.clone()),
        status: Set(MailStatus::Pending.as_str().to_owned()),
        attempts: Set(0),
        next_attempt_at: Set(at),
        created_at: Set(at),
        ..Default::default()
    }
    .insert(txn)
    .await
    .context("failed to put the winner's e-mail in the outbox")?;
    Ok(())
}

fn record(row: mail_outbox::Model) -> anyhow::Result<MailRecord> {
    Ok(MailRecord {
        id: MailId::new(row.id),
        subject: subject_of(&row)?,
        kind: MailKind::parse(&row.kind)
            .with_context(|| format!("outbox row {} has kind {:?}", row.id, row.kind))?,
        recipient: row.recipient,
        status: MailStatus::parse(&row.status)
            .with_context(|| format!("outbox row {} has status {:?}", row.id, row.status))?,
        attempts: u32::try_from(row.attempts).unwrap_or(0),
        next_attempt_at: row.next_attempt_at,
        last_error: row.last_error,
        withheld: row
            .withheld_reason
            .as_deref()
            .and_then(WithheldReason::parse),
        created_at: row.created_at,
        sent_at: row.sent_at,
    })
}

impl MailOutbox for Db {
    #[tracing::instrument(name = "db.claim_due_mail", skip_all)]
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
            id: MailId::new(row.id),
            subject: subject_of(&row)?,
            kind: MailKind::parse(&row.kind)
                .with_context(|| format!("outbox row {} has kind {:?}", row.id, row.kind))?,
            recipient: row.recipient,
            lang: Lang::from_code(&row.lang),
            attempts: u32::try_from(row.attempts).unwrap_or(0),
        }))
    }

    #[tracing::instrument(name = "db.mail_sent", skip_all, fields(mail.id = id.get()))]
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
            .filter(mail_outbox::Column::Id.eq(id.get()))
            .exec(&self.conn)
            .await
            .context("failed to mark an e-mail sent")?;
        Ok(())
    }

    #[tracing::instrument(name = "db.mail_failed", skip_all, fields(mail.id = id.get()))]
    async fn mail_failed(
        &self,
        id: MailId,
        error: &str,
        retry_at: Option<DateTime<Utc>>,
    ) -> anyhow::Result<()> {
        let mut update = mail_outbox::Entity::update_many()
            .col_expr(mail_outbox::Column::LastError, Expr::val(error))
            .filter(mail_outbox::Column::Id.eq(id.get()));
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

    #[tracing::instrument(name = "db.mail_blocked", skip_all)]
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

    #[tracing::instrument(name = "db.list_mail", skip_all)]
    #[tracing::instrument(name = "db.pending_mail", skip_all)]
    async fn pending_mail(&self) -> anyhow::Result<u64> {
        // The partial index of pending rows answers this without reading sent mail.
        mail_outbox::Entity::find()
            .filter(mail_outbox::Column::Status.eq(MailStatus::Pending.as_str()))
            .count(&self.conn)
            .await
            .context("failed to count the pending mail")
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

    #[tracing::instrument(name = "db.retry_mail", skip_all, fields(mail.id = id.get()))]
    async fn retry_mail(
        &self,
        id: MailId,
        now: DateTime<Utc>,
        audit: &AuditEntry,
    ) -> anyhow::Result<bool> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start an e-mail's retry")?;
        let updated = mail_outbox::Entity::update_many()
            .col_expr(
                mail_outbox::Column::Status,
                Expr::val(MailStatus::Pending.as_str()),
            )
            .col_expr(mail_outbox::Column::NextAttemptAt, Expr::val(now))
            .col_expr(mail_outbox::Column::Attempts, Expr::val(0))
            .col_expr(
                mail_outbox::Column::WithheldReason,
                Expr::val(Option::<String>::None),
            )
            .filter(mail_outbox::Column::Id.eq(id.get()))
            .filter(
                mail_outbox::Column::Status
                    .is_in([MailStatus::Failed.as_str(), MailStatus::Withheld.as_str()]),
            )
            .exec(&txn)
            .await
            .context("failed to retry an e-mail")?;
        let retried = updated.rows_affected == 1;
        if retried {
            crate::audit::append(&txn, audit).await?;
        }
        txn.commit()
            .await
            .context("failed to commit an e-mail's retry")?;
        Ok(retried)
    }
}
