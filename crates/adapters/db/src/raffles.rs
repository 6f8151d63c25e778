//! Raffles, their promotions and the numbers held in them.

use std::collections::HashMap;

use anyhow::Context;
use chrono::{DateTime, Utc};
use rifa_domain::draw::fair::Rule;
use rifa_domain::draw::prize::PrizeDraft;
use rifa_domain::raffle::{Raffle, RaffleDraft, RaffleId, RaffleStatus};
use rifa_domain::ticket::TicketNumber;
use rifa_ports::{
    DeleteRaffleError, HoldSummary, Promotion, RaffleRepository, RaffleScope, RecordAudit,
    UpdateRaffleError,
};
use sea_orm::sea_query::{Expr, ExprTrait, Query};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseBackend, DatabaseTransaction,
    EntityTrait, FromQueryResult, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set,
    Statement, TransactionTrait,
};

use crate::draws::{prize_rows, refused_by};
use crate::entities::{
    promotions, purchase_tickets, purchase_totals, purchases, raffle_prizes, raffle_sold_counts,
    raffles,
};
use crate::{Db, audit, convert};

#[derive(FromQueryResult)]
struct SoldCount {
    raffle_id: i64,
    sold: i64,
}

#[derive(FromQueryResult)]
struct PendingHolds {
    pending: i64,
    next_release_at: Option<DateTime<Utc>>,
}

#[derive(FromQueryResult)]
struct HeldNumber {
    number: i32,
}

/// Held numbers per raffle, from the counts the database keeps (one row per shard).
async fn sold_counts(
    conn: &impl ConnectionTrait,
    ids: &[RaffleId],
) -> anyhow::Result<HashMap<RaffleId, u32>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows = raffle_sold_counts::Entity::find()
        .select_only()
        .column(raffle_sold_counts::Column::RaffleId)
        .column_as(Expr::cust("CAST(SUM(sold) AS BIGINT)"), "sold")
        .filter(raffle_sold_counts::Column::RaffleId.is_in(ids.iter().map(|id| id.get())))
        .group_by(raffle_sold_counts::Column::RaffleId)
        .into_model::<SoldCount>()
        .all(conn)
        .await
        .context("failed to read held-number counts")?;
    Ok(rows
        .into_iter()
        .map(|r| (RaffleId::new(r.raffle_id), convert::count(r.sold)))
        .collect())
}

fn draft_columns(model: &mut raffles::ActiveModel, draft: &RaffleDraft) {
    let as_i32 = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
    model.title = Set(draft.title.clone());
    model.description = Set(draft.description.clone());
    model.image = Set(draft.image.clone());
    model.price_cents = Set(draft.price.money().cents());
    model.status = Set(draft.status.as_str().to_owned());
    model.max_tickets = Set(as_i32(draft.max_tickets));
    model.min_per_purchase = Set(draft.limits.stored_min().map(as_i32));
    model.max_per_purchase = Set(draft.limits.stored_max().map(as_i32));
    model.draw_date = Set(draft.draw_date);
    model.end_date = Set(draft.end_date);
    model.hold_minutes = Set(as_i32(draft.sales.hold_minutes()));
    model.sales_close_hours = Set(as_i32(draft.sales.close_hours_before_draw()));
}

impl Db {
    async fn load_raffle(
        &self,
        conn: &impl ConnectionTrait,
        id: RaffleId,
    ) -> anyhow::Result<Option<Raffle>> {
        let Some(row) = raffles::Entity::find_by_id(id.get())
            .one(conn)
            .await
            .context("failed to load raffle")?
        else {
            return Ok(None);
        };
        let sold = sold_counts(conn, &[id])
            .await?
            .get(&id)
            .copied()
            .unwrap_or(0);
        convert::raffle(row, Some(sold)).map(Some)
    }
}

/// Holds a raffle's row for the rest of the transaction without blocking purchases: on
/// PostgreSQL `FOR NO KEY UPDATE` does not conflict with the `FOR KEY SHARE` of a purchase's
/// foreign-key check; SQLite's write lock is taken by the no-op update.
async fn has_prizes(txn: &DatabaseTransaction, id: RaffleId) -> anyhow::Result<bool> {
    let prizes = raffle_prizes::Entity::find()
        .filter(raffle_prizes::Column::RaffleId.eq(id.get()))
        .count(txn)
        .await
        .context("failed to count the raffle's prizes")?;
    Ok(prizes > 0)
}

async fn hold_row(txn: &DatabaseTransaction, id: RaffleId) -> anyhow::Result<()> {
    let backend = txn.get_database_backend();
    let sql = if backend == DatabaseBackend::Postgres {
        "SELECT id FROM raffles WHERE id = $1 FOR NO KEY UPDATE"
    } else {
        "UPDATE raffles SET id = id WHERE id = ?"
    };
    txn.execute_raw(Statement::from_sql_and_values(
        backend,
        sql,
        [id.get().into()],
    ))
    .await
    .context("failed to hold the raffle's row")?;
    Ok(())
}

impl RaffleRepository for Db {
    #[tracing::instrument(name = "db.list_raffles", skip_all)]
    async fn list_raffles(&self, scope: RaffleScope) -> anyhow::Result<Vec<Raffle>> {
        let mut query = raffles::Entity::find()
            .order_by_desc(raffles::Column::CreatedAt)
            .order_by_desc(raffles::Column::Id);
        if scope == RaffleScope::OnSale {
            query = query.filter(raffles::Column::Status.eq(RaffleStatus::Available.as_str()));
        }
        let rows = query
            .all(&self.conn)
            .await
            .context("failed to list raffles")?;
        let ids: Vec<RaffleId> = rows.iter().map(|r| RaffleId::new(r.id)).collect();
        let sold = sold_counts(&self.conn, &ids).await?;
        rows.into_iter()
            .map(|row| {
                let count = sold.get(&RaffleId::new(row.id)).copied().unwrap_or(0);
                convert::raffle(row, Some(count))
            })
            .collect()
    }

    #[tracing::instrument(name = "db.get_raffle", skip_all, fields(raffle.id = id.get()))]
    async fn get_raffle(&self, id: RaffleId) -> anyhow::Result<Option<Raffle>> {
        self.load_raffle(&self.conn, id).await
    }

    #[tracing::instrument(name = "db.raffle_terms", skip_all, fields(raffle.id = id.get()))]
    async fn raffle_terms(&self, id: RaffleId) -> anyhow::Result<Option<Raffle>> {
        raffles::Entity::find_by_id(id.get())
            .one(&self.conn)
            .await
            .context("failed to load raffle")?
            .map(|row| convert::raffle(row, None))
            .transpose()
    }

    #[tracing::instrument(name = "db.create_raffle", skip_all)]
    async fn create_raffle(
        &self,
        draft: &RaffleDraft,
        prizes: &[PrizeDraft],
        now: DateTime<Utc>,
        entry: RecordAudit<'_, Raffle>,
    ) -> anyhow::Result<Raffle> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start creating a raffle")?;
        let mut model = raffles::ActiveModel {
            created_at: Set(now),
            // A new raffle is drawn by the first rule offered until its prizes choose another.
            draw_rule: Set(Rule::OFFERED[0].as_str().to_owned()),
            ..Default::default()
        };
        draft_columns(&mut model, draft);
        let row = model
            .insert(&txn)
            .await
            .context("failed to create raffle")?;
        let created = convert::raffle(row, Some(0))?;
        if !prizes.is_empty() {
            raffle_prizes::Entity::insert_many(prize_rows(created.id, prizes))
                .exec(&txn)
                .await
                .context("failed to store the new raffle's prizes")?;
        }
        audit::append(&txn, &entry(None, Some(&created))).await?;
        txn.commit()
            .await
            .context("failed to commit a new raffle")?;
        Ok(created)
    }

    #[tracing::instrument(name = "db.update_raffle", skip_all, fields(raffle.id = id.get()))]
    async fn update_raffle(
        &self,
        id: RaffleId,
        draft: &RaffleDraft,
        entry: RecordAudit<'_, Raffle>,
    ) -> Result<Raffle, UpdateRaffleError> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start updating a raffle")?;
        // The row is held before it is read, so the state the trail records as "before" is the
        // one this update replaces (and SQLite takes its write lock up front).
        hold_row(&txn, id).await?;
        // One conditional UPDATE: no number above the new maximum may be held at that instant.
        let above_max = Query::select()
            .expr(Expr::val(1))
            .from(purchase_tickets::Entity)
            .and_where(purchase_tickets::Column::RaffleId.eq(id.get()))
            .and_where(purchase_tickets::Column::Held.eq(true))
            .and_where(purchase_tickets::Column::Number.gt(i64::from(draft.max_tickets)))
            .to_owned();
        let before = self.load_raffle(&txn, id).await?;
        let mut model = raffles::ActiveModel {
            ..Default::default()
        };
        draft_columns(&mut model, draft);
        // Read after the row is held: a concurrent replacement of the prizes has committed or
        // waits for this transaction.
        if draft.status.is_on_sale() && !has_prizes(&txn, id).await? {
            model.status = Set(RaffleStatus::Inactive.as_str().to_owned());
        }
        let result = match raffles::Entity::update_many()
            .set(model)
            .filter(raffles::Column::Id.eq(id.get()))
            .filter(Expr::exists(above_max).not())
            .exec(&txn)
            .await
        {
            Err(error) if refused_by(&error, "draw_size_locked") => {
                txn.rollback().await.context("failed to roll back")?;
                return Err(UpdateRaffleError::SizeLocked);
            }
            result => result.context("failed to update raffle")?,
        };
        if result.rows_affected == 0 {
            txn.rollback().await.context("failed to roll back")?;
            if before.is_none() {
                return Err(UpdateRaffleError::NotFound);
            }
            let highest = self
                .held_numbers(id)
                .await?
                .last()
                .copied()
                .unwrap_or(TicketNumber::from_stored(0));
            return Err(UpdateRaffleError::BelowHeldNumber {
                highest_held: highest,
            });
        }
        let updated = self
            .load_raffle(&txn, id)
            .await?
            .ok_or(UpdateRaffleError::NotFound)?;
        audit::append(&txn, &entry(before.as_ref(), Some(&updated))).await?;
        txn.commit()
            .await
            .context("failed to commit a raffle's update")?;
        Ok(updated)
    }

    #[tracing::instrument(name = "db.delete_raffle", skip_all, fields(raffle.id = id.get()))]
    async fn delete_raffle(
        &self,
        id: RaffleId,
        entry: RecordAudit<'_, Raffle>,
    ) -> Result<(), DeleteRaffleError> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start transaction")?;
        purchases::Entity::delete_many()
            .filter(purchases::Column::RaffleId.eq(id.get()))
            .filter(purchases::Column::Status.eq("test"))
            .exec(&txn)
            .await
            .context("failed to delete test purchases")?;
        let real = purchases::Entity::find()
            .filter(purchases::Column::RaffleId.eq(id.get()))
            .count(&txn)
            .await
            .context("failed to count purchases")?;
        if real > 0 {
            txn.rollback().await.context("failed to roll back")?;
            return Err(DeleteRaffleError::HasPurchases { count: real });
        }
        hold_row(&txn, id).await?;
        let Some(before) = self.load_raffle(&txn, id).await? else {
            txn.rollback().await.context("failed to roll back")?;
            return Err(DeleteRaffleError::NotFound);
        };
        raffles::Entity::delete_by_id(id.get())
            .exec(&txn)
            .await
            .context("failed to delete raffle")?;
        raffle_sold_counts::Entity::delete_many()
            .filter(raffle_sold_counts::Column::RaffleId.eq(id.get()))
            .exec(&txn)
            .await
            .context("failed to delete the raffle's counts")?;
        purchase_totals::Entity::delete_many()
            .filter(purchase_totals::Column::RaffleId.eq(id.get()))
            .exec(&txn)
            .await
            .context("failed to delete the raffle's totals")?;
        audit::append(&txn, &entry(Some(&before), None)).await?;
        txn.commit()
            .await
            .context("failed to commit raffle deletion")?;
        Ok(())
    }

    #[tracing::instrument(name = "db.held_numbers", skip_all, fields(raffle.id = id.get()))]
    async fn held_numbers(&self, id: RaffleId) -> anyhow::Result<Vec<TicketNumber>> {
        let rows = purchase_tickets::Entity::find()
            .select_only()
            .column(purchase_tickets::Column::Number)
            .filter(purchase_tickets::Column::RaffleId.eq(id.get()))
            .filter(purchase_tickets::Column::Held.eq(true))
            .order_by_asc(purchase_tickets::Column::Number)
            .into_model::<HeldNumber>()
            .all(&self.conn)
            .await
            .context("failed to read held numbers")?;
        Ok(rows
            .into_iter()
            .filter_map(|r| u32::try_from(r.number).ok())
            .map(TicketNumber::from_stored)
            .collect())
    }

    #[tracing::instrument(name = "db.promotions", skip_all, fields(raffle.id = id.get()))]
    async fn promotions(&self, id: RaffleId) -> anyhow::Result<Vec<Promotion>> {
        let rows = promotions::Entity::find()
            .filter(promotions::Column::RaffleId.eq(id.get()))
            .order_by_asc(promotions::Column::Position)
            .all(&self.conn)
            .await
            .context("failed to list promotions")?;
        Ok(rows
            .into_iter()
            .map(|r| Promotion {
                id: r.id,
                description: r.description,
            })
            .collect())
    }

    #[tracing::instrument(name = "db.hold_summary", skip_all, fields(raffle.id = id.get()))]
    async fn hold_summary(&self, id: RaffleId) -> anyhow::Result<HoldSummary> {
        let row = PendingHolds::find_by_statement(Statement::from_sql_and_values(
            self.conn.get_database_backend(),
            "SELECT CAST(COALESCE(SUM(ticket_count), 0) AS BIGINT) AS pending, \
             MIN(hold_expires_at) AS next_release_at FROM purchases \
             WHERE raffle_id = $1 AND status = 'pending'",
            [id.get().into()],
        ))
        .one(&self.conn)
        .await
        .context("failed to sum pending holds")?;
        Ok(row.map_or_else(HoldSummary::default, |r| HoldSummary {
            pending_tickets: convert::count(r.pending),
            next_release_at: r.next_release_at,
        }))
    }
}

pub(crate) async fn add_promotion(
    conn: &crate::pool::Pool,
    raffle_id: i64,
    description: &str,
) -> anyhow::Result<()> {
    let position = promotions::Entity::find()
        .filter(promotions::Column::RaffleId.eq(raffle_id))
        .count(conn)
        .await?;
    promotions::ActiveModel {
        raffle_id: Set(raffle_id),
        description: Set(description.to_owned()),
        position: Set(i32::try_from(position).unwrap_or(i32::MAX)),
        ..Default::default()
    }
    .insert(conn)
    .await
    .context("failed to add promotion")?;
    Ok(())
}
