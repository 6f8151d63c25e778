//! Holds that expire and expired purchases reopened (decision 0016).

use anyhow::Context;
use rifa_domain::purchase::{Purchase, PurchaseEventKind, PurchaseId, PurchaseStatus};
use rifa_domain::raffle::RaffleId;
use rifa_domain::sales::BuyerKeys;
use rifa_domain::ticket::TicketNumber;
use rifa_ports::{ExpiredHold, HoldExpiry, MailKind, ReopenError, Reopening};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, EntityTrait, FromQueryResult, QueryFilter,
    Statement, TransactionTrait,
};

use crate::entities::{purchase_tickets, purchases};
use crate::{Db, allowance, audit, convert, history, outbox};

#[derive(FromQueryResult)]
struct Expired {
    id: i64,
    raffle_id: i64,
}

#[derive(FromQueryResult)]
struct Number {
    number: i32,
}

/// The statement that decides which purchases expire: pending, no proof (a proof clears the
/// deadline), deadline passed by the database's clock. On PostgreSQL the batch is chosen with
/// `FOR UPDATE SKIP LOCKED`, and the `UPDATE`'s own condition on the status is checked again on
/// the row it locks, so a purchase another sweep (or a proof, or an admin) got first is left
/// alone; SQLite has one writer.
fn expire_sql(backend: DatabaseBackend, now: &str, raffle: Option<RaffleId>) -> String {
    let lock = if backend == DatabaseBackend::Postgres {
        " FOR UPDATE SKIP LOCKED"
    } else {
        ""
    };
    let raffle = raffle.map_or(String::new(), |r| format!(" AND raffle_id = {}", r.get()));
    format!(
        "UPDATE purchases SET status = 'expired', hold_expires_at = NULL, decided_at = {now} \
         WHERE status = 'pending' AND id IN (SELECT id FROM purchases \
         WHERE hold_expires_at IS NOT NULL AND hold_expires_at <= {now} AND status = 'pending'{raffle} \
         ORDER BY hold_expires_at LIMIT $1{lock}) \
         RETURNING id, raffle_id"
    )
}

/// Ids as a SQL list; they are the database's own integers.
fn id_list(ids: impl Iterator<Item = i64>) -> String {
    ids.map(|id| id.to_string()).collect::<Vec<_>>().join(", ")
}

impl Db {
    pub(crate) async fn expire_due(&self, expiry: &HoldExpiry) -> anyhow::Result<Vec<ExpiredHold>> {
        let backend = self.conn.get_database_backend();
        let now = self.now_sql();
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start expiring holds")?;
        let expired = Expired::find_by_statement(Statement::from_sql_and_values(
            backend,
            expire_sql(backend, now, expiry.raffle),
            [i64::from(expiry.limit).into()],
        ))
        .all(&txn)
        .await
        .context("failed to expire due holds")?;
        if expired.is_empty() {
            txn.commit().await.context("failed to end the sweep")?;
            return Ok(Vec::new());
        }
        let ids = id_list(expired.iter().map(|e| e.id));
        for sql in [
            format!("UPDATE purchase_tickets SET held = FALSE WHERE purchase_id IN ({ids})"),
            allowance::give_back_sql(&ids),
            format!(
                "INSERT INTO purchase_events (purchase_id, kind, at, note) \
                 SELECT id, '{}', decided_at, NULL FROM purchases WHERE id IN ({ids})",
                PurchaseEventKind::Expired.as_str()
            ),
        ] {
            txn.execute_unprepared(&sql)
                .await
                .context("failed to release expired holds")?;
        }
        if let Some(mail) = expiry.buyer_mail {
            txn.execute_unprepared(&buyer_mail_sql(mail, &ids))
                .await
                .context("failed to queue the expiry e-mails")?;
        }
        if let Some(mail) = expiry.alert_mail {
            let raffles = id_list(expired.iter().map(|e| e.raffle_id));
            for sql in alerts_sql(mail, now, &raffles) {
                txn.execute_unprepared(&sql)
                    .await
                    .context("failed to send the release alerts")?;
            }
        }
        txn.commit().await.context("failed to commit the expiry")?;
        Ok(expired
            .into_iter()
            .map(|e| ExpiredHold {
                purchase_id: PurchaseId::new(e.id),
                raffle_id: RaffleId::new(e.raffle_id),
            })
            .collect())
    }

    pub(crate) async fn reopen(
        &self,
        id: PurchaseId,
        reopening: &Reopening,
    ) -> Result<Purchase, ReopenError> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start reopening")?;
        let updated = purchases::Entity::update_many()
            .col_expr(
                purchases::Column::Status,
                Expr::val(PurchaseStatus::Pending.as_str()),
            )
            .col_expr(
                purchases::Column::HoldExpiresAt,
                Expr::val(reopening.hold_until),
            )
            .col_expr(
                purchases::Column::DecidedAt,
                Expr::val(Option::<chrono::DateTime<chrono::Utc>>::None),
            )
            .filter(purchases::Column::Id.eq(id.get()))
            .filter(purchases::Column::Status.eq(PurchaseStatus::Expired.as_str()))
            .exec(&txn)
            .await;
        // Its payment reference pays for another live purchase of the method now.
        let updated = match updated {
            Err(error) if crate::purchases::is_unique_violation(&error) => {
                txn.rollback().await.context("failed to roll back")?;
                return Err(ReopenError::PaymentReferenceUsed);
            }
            updated => updated.context("failed to reopen the purchase")?,
        };
        if updated.rows_affected == 0 {
            txn.rollback().await.context("failed to roll back")?;
            let current = self.load_purchase(id).await?.ok_or(ReopenError::NotFound)?;
            return Err(ReopenError::NotExpired(current.status));
        }
        let row = purchases::Entity::find_by_id(id.get())
            .one(&txn)
            .await
            .context("failed to reload the reopened purchase")?
            .ok_or(ReopenError::NotFound)?;
        let raffle = RaffleId::new(row.raffle_id);
        let held = purchase_tickets::Entity::update_many()
            .col_expr(purchase_tickets::Column::Held, Expr::val(true))
            .filter(purchase_tickets::Column::PurchaseId.eq(id.get()))
            .exec(&txn)
            .await;
        if let Err(error) = held {
            if crate::purchases::is_unique_violation(&error) {
                txn.rollback().await.context("failed to roll back")?;
                return Err(ReopenError::NumbersTaken(self.taken_from(id).await?));
            }
            return Err(anyhow::Error::new(error)
                .context("failed to hold the numbers again")
                .into());
        }
        let keys = BuyerKeys::stored(
            row.buyer_document_key.clone(),
            row.customer_email.clone(),
            row.buyer_phone_key.clone(),
        );
        let tickets = convert::count(i64::from(row.ticket_count));
        if let Err(error) =
            allowance::take(&txn, raffle, &keys, tickets, reopening.allowance_cap).await
        {
            if allowance::passes_cap(&error) {
                txn.rollback().await.context("failed to roll back")?;
                return Err(ReopenError::AllowanceExceeded {
                    cap: reopening.allowance_cap,
                    used: allowance::used(&self.conn, raffle, &keys).await?,
                });
            }
            return Err(anyhow::Error::new(error)
                .context("failed to count the allowance")
                .into());
        }
        history::record(&txn, id, PurchaseEventKind::Reopened, reopening.at, None).await?;
        if let Some(mail) = reopening.mail {
            outbox::enqueue(&txn, &row, mail, reopening.at).await?;
        }
        audit::append(&txn, &reopening.audit).await?;
        txn.commit().await.context("failed to commit reopening")?;
        self.load_purchase(id).await?.ok_or(ReopenError::NotFound)
    }

    /// The numbers of `purchase` someone else holds now, ascending.
    async fn taken_from(&self, purchase: PurchaseId) -> anyhow::Result<Vec<TicketNumber>> {
        let rows = Number::find_by_statement(Statement::from_sql_and_values(
            self.conn.get_database_backend(),
            "SELECT t.number AS number FROM purchase_tickets t WHERE t.purchase_id = $1 \
             AND EXISTS (SELECT 1 FROM purchase_tickets h WHERE h.raffle_id = t.raffle_id \
             AND h.number = t.number AND h.held) ORDER BY t.number",
            [purchase.get().into()],
        ))
        .all(&self.conn)
        .await
        .context("failed to name the numbers taken")?;
        Ok(rows
            .into_iter()
            .filter_map(|r| u32::try_from(r.number).ok())
            .map(TicketNumber::from_stored)
            .collect())
    }
}

/// One message per expired purchase, to its buyer. A buyer whose confirmation was withheld
/// (a stranger may type anyone's address) gets this one withheld too: expiry must not become a
/// way to mail a victim past the caps.
fn buyer_mail_sql(kind: MailKind, ids: &str) -> String {
    let withheld = "(SELECT r.withheld_reason FROM mail_outbox r WHERE r.purchase_id = p.id \
                    AND r.kind = 'received' AND r.withheld_reason IS NOT NULL LIMIT 1)";
    format!(
        "INSERT INTO mail_outbox (purchase_id, raffle_id, kind, recipient, lang, status, attempts, \
         next_attempt_at, created_at, withheld_reason) \
         SELECT p.id, NULL, '{kind}', p.customer_email, p.lang, \
         CASE WHEN {withheld} IS NULL THEN 'pending' ELSE 'withheld' END, 0, \
         p.decided_at, p.decided_at, {withheld} FROM purchases p WHERE p.id IN ({ids})",
        kind = kind.as_str(),
    )
}

/// One notice to each release alert of the raffles that got numbers back, then the alerts are
/// consumed: at most one notice per release.
fn alerts_sql(kind: MailKind, now: &str, raffles: &str) -> [String; 2] {
    [
        format!(
            "INSERT INTO mail_outbox (purchase_id, raffle_id, kind, recipient, lang, status, \
             attempts, next_attempt_at, created_at, withheld_reason) \
             SELECT NULL, a.raffle_id, '{kind}', a.email, a.lang, 'pending', 0, {now}, {now}, NULL \
             FROM release_alerts a WHERE a.raffle_id IN ({raffles})",
            kind = kind.as_str(),
        ),
        format!("DELETE FROM release_alerts WHERE raffle_id IN ({raffles})"),
    ]
}
