//! Purchases and the holding of their numbers.

use std::collections::{BTreeSet, HashMap};

use anyhow::Context;
use chrono::{DateTime, NaiveDate, Utc};
use rifa_domain::audit::AuditEntry;
use rifa_domain::customer::fold_for_search;
use rifa_domain::lookup::LookupKey;
use rifa_domain::money::Money;
use rifa_domain::payment::PaymentMethodId;
use rifa_domain::purchase::{
    NewPurchase, Purchase, PurchaseCursor, PurchaseEvent, PurchaseId, PurchaseStatus,
};
use rifa_domain::raffle::RaffleStatus;
use rifa_domain::stats::{DashboardStats, DaySales};
use rifa_domain::ticket::TicketNumber;
use rifa_ports::{
    CreatePurchaseError, DecidePurchaseError, ExpiredHold, HoldExpiry, PurchaseDecision,
    PurchasePage, PurchaseQuery, PurchaseRepository, PurchaseSummary, ReopenError, Reopening,
    recipient_key,
};
use sea_orm::sea_query::{Expr, ExprTrait, LikeExpr, OnConflict, Query};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DatabaseBackend,
    DatabaseTransaction, DbErr, EntityTrait, FromQueryResult, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, QueryTrait, Select, Set, SqlErr, Statement, TransactionTrait,
};

use crate::entities::{purchase_tickets, purchases, raffles};
use crate::{Db, allowance, audit, convert, draws, history, outbox, totals};

/// Rows per INSERT: far below PostgreSQL's 65,535 and SQLite's 32,766 bound parameters.
const HOLD_CHUNK: usize = 1_000;

#[derive(FromQueryResult)]
struct Inserted {
    number: i32,
}

#[derive(FromQueryResult)]
struct DayRow {
    day: String,
    revenue: i64,
    tickets: i64,
    purchases: i64,
}

/// One row per local day with purchases in `[$1, $2)`; `$3` is the offset from UTC in minutes.
/// Only for periods the hourly counts cannot answer (offsets such as UTC+5:30).
/// Revenue and tickets sum approved purchases only; `purchases` counts all but tests.
const DAILY_SALES_POSTGRES: &str = r"
SELECT day,
       CAST(COALESCE(SUM(CASE WHEN status = 'approved' THEN total_cents END), 0) AS BIGINT) AS revenue,
       CAST(COALESCE(SUM(CASE WHEN status = 'approved' THEN ticket_count END), 0) AS BIGINT) AS tickets,
       CAST(COUNT(CASE WHEN status <> 'test' THEN 1 END) AS BIGINT) AS purchases
FROM (
    SELECT to_char((created_at AT TIME ZONE 'UTC') + make_interval(mins => $3), 'YYYY-MM-DD') AS day,
           status, total_cents, ticket_count
    FROM purchases
    WHERE created_at >= $1 AND created_at < $2
) AS days
GROUP BY day
ORDER BY day";

/// The same on SQLite, parameters in order: from, to, and a date modifier such as
/// `'-240 minutes'`.
const DAILY_SALES_SQLITE: &str = r"
SELECT day,
       CAST(COALESCE(SUM(CASE WHEN status = 'approved' THEN total_cents END), 0) AS BIGINT) AS revenue,
       CAST(COALESCE(SUM(CASE WHEN status = 'approved' THEN ticket_count END), 0) AS BIGINT) AS tickets,
       CAST(COUNT(CASE WHEN status <> 'test' THEN 1 END) AS BIGINT) AS purchases
FROM (
    SELECT strftime('%Y-%m-%d', created_at, ?) AS day, status, total_cents, ticket_count
    FROM purchases
    WHERE created_at >= ? AND created_at < ?
) AS days
GROUP BY day
ORDER BY day";

#[derive(FromQueryResult, Default)]
struct Counted {
    purchases: i64,
    tickets: i64,
    revenue: i64,
    pending: i64,
}

impl Counted {
    fn summary(&self) -> anyhow::Result<PurchaseSummary> {
        Ok(PurchaseSummary {
            tickets_sold: u64::try_from(self.tickets).unwrap_or(0),
            total_revenue: Money::from_cents(self.revenue)
                .map_err(|e| anyhow::anyhow!("revenue out of range: {e:?}"))?,
            pending_purchases: u64::try_from(self.pending).unwrap_or(0),
        })
    }
}

pub(crate) fn is_unique_violation(error: &DbErr) -> bool {
    matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)))
}

/// Whether a unique violation is the payment reference's (migration `m20261127_000006`):
/// PostgreSQL names the index, SQLite its columns.
fn names_payment_reference(message: &str) -> bool {
    message.contains("ux_purchases_method_reference") || message.contains("payment_reference_key")
}

/// Inserts the purchase's ticket rows; held rows that collide with another purchase's hold are
/// skipped by the database and reported back as the numbers taken.
async fn insert_tickets(
    txn: &DatabaseTransaction,
    purchase_id: i64,
    new: &NewPurchase,
) -> Result<Vec<TicketNumber>, CreatePurchaseError> {
    let held = new.hold_until.is_some();
    let mut inserted = BTreeSet::new();
    for chunk in new.selection.numbers().chunks(HOLD_CHUNK) {
        let mut insert = Query::insert()
            .into_table(purchase_tickets::Entity)
            .columns([
                purchase_tickets::Column::PurchaseId,
                purchase_tickets::Column::RaffleId,
                purchase_tickets::Column::Number,
                purchase_tickets::Column::Held,
            ])
            .on_conflict(OnConflict::new().do_nothing().to_owned())
            .returning_col(purchase_tickets::Column::Number)
            .to_owned();
        for number in chunk {
            insert
                .values([
                    purchase_id.into(),
                    new.raffle_id.get().into(),
                    i64::from(number.get()).into(),
                    held.into(),
                ])
                .context("failed to build ticket insert")?;
        }
        let statement = txn.get_database_backend().build(&insert);
        let rows = Inserted::find_by_statement(statement)
            .all(txn)
            .await
            .context("failed to hold ticket numbers")?;
        inserted.extend(
            rows.into_iter()
                .filter_map(|r| u32::try_from(r.number).ok()),
        );
    }
    Ok(new
        .selection
        .numbers()
        .iter()
        .copied()
        .filter(|n| !inserted.contains(&n.get()))
        .collect())
}

fn apply_filters(
    mut select: Select<purchases::Entity>,
    query: &PurchaseQuery,
) -> Select<purchases::Entity> {
    if let Some(raffle_id) = query.raffle_id {
        select = select.filter(purchases::Column::RaffleId.eq(raffle_id.get()));
    }
    if let Some(name) = query
        .name_contains
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        let escaped = fold_for_search(name)
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        select = select.filter(
            Expr::col(purchases::Column::CustomerNameFolded)
                .like(LikeExpr::new(format!("%{escaped}%")).escape('\\')),
        );
    }
    if let Some(status) = query.status {
        select = select.filter(purchases::Column::Status.eq(status.as_str()));
    }
    if !query.ticket_numbers.is_empty() {
        let mut holders = Query::select()
            .column(purchase_tickets::Column::PurchaseId)
            .from(purchase_tickets::Entity)
            .and_where(
                purchase_tickets::Column::Number
                    .is_in(query.ticket_numbers.iter().map(|n| i64::from(n.get()))),
            )
            .to_owned();
        match query.raffle_id {
            Some(raffle_id) => {
                holders.and_where(purchase_tickets::Column::RaffleId.eq(raffle_id.get()));
            }
            // Naming every raffle lets the (raffle, number) index find the holders: a probe
            // per raffle instead of a scan of every ticket.
            None => {
                let every_raffle = Query::select()
                    .column(raffles::Column::Id)
                    .from(raffles::Entity)
                    .to_owned();
                holders.and_where(purchase_tickets::Column::RaffleId.in_subquery(every_raffle));
            }
        }
        select = select.filter(purchases::Column::Id.in_subquery(holders));
    }
    if let Some((from, to)) = query.created {
        select = select
            .filter(purchases::Column::CreatedAt.gte(from))
            .filter(purchases::Column::CreatedAt.lt(to));
    }
    if let Some(max_id) = query.max_id {
        select = select.filter(purchases::Column::Id.lte(max_id.get()));
    }
    select
}

/// Which way a keyset seek goes from a cursor in the newest-first order.
#[derive(Clone, Copy)]
enum Direction {
    /// After the cursor: older, or as old with a lower id.
    Older,
    /// The cursor itself and what follows it.
    CursorAndOlder,
    /// Before the cursor: newer, or as new with a higher id.
    Newer,
}

/// The rows on one side of `cursor`. The bound on `created_at` comes first, on its own: the
/// index on `created_at` then starts the scan at the cursor (an OR alone would make it a filter
/// over every row on the other side).
fn from_cursor(
    select: Select<purchases::Entity>,
    cursor: PurchaseCursor,
    direction: Direction,
) -> Select<purchases::Entity> {
    let (at, id) = (cursor.created_at, cursor.id.get());
    let (bound, strictly, tie) = match direction {
        Direction::Older => (
            purchases::Column::CreatedAt.lte(at),
            purchases::Column::CreatedAt.lt(at),
            purchases::Column::Id.lt(id),
        ),
        Direction::CursorAndOlder => (
            purchases::Column::CreatedAt.lte(at),
            purchases::Column::CreatedAt.lt(at),
            purchases::Column::Id.lte(id),
        ),
        Direction::Newer => (
            purchases::Column::CreatedAt.gte(at),
            purchases::Column::CreatedAt.gt(at),
            purchases::Column::Id.gt(id),
        ),
    };
    select
        .filter(bound)
        .filter(Condition::any().add(strictly).add(tie))
}

/// The panel's order: newest first, ties by id.
fn newest_first(select: Select<purchases::Entity>) -> Select<purchases::Entity> {
    select
        .order_by_desc(purchases::Column::CreatedAt)
        .order_by_desc(purchases::Column::Id)
}

fn oldest_first(select: Select<purchases::Entity>) -> Select<purchases::Entity> {
    select
        .order_by_asc(purchases::Column::CreatedAt)
        .order_by_asc(purchases::Column::Id)
}

/// Where a page's rows are read from: rows skipped from a known point, then the page.
enum PageStart {
    Newest {
        skip: u64,
    },
    /// Read oldest first and reversed; `take` is short on the last page.
    Oldest {
        skip: u64,
        take: u64,
    },
    /// Forward reads the anchor's page and those after it; backward, those before, reversed.
    Anchor {
        cursor: PurchaseCursor,
        skip: u64,
        forward: bool,
    },
}

/// How many purchases a filtered query matches, and their summary, counted row by row in one
/// pass (for the filters the kept totals do not know).
async fn counted_over(
    conn: &impl ConnectionTrait,
    filtered: Select<purchases::Entity>,
) -> anyhow::Result<(u64, PurchaseSummary)> {
    let counted = count_rows(conn, filtered, None).await?;
    Ok((
        u64::try_from(counted.purchases).unwrap_or(0),
        counted.summary()?,
    ))
}

/// The same, but counting stops past `cap` matches: then `None`, only the floor is known.
async fn counted_up_to(
    conn: &impl ConnectionTrait,
    filtered: Select<purchases::Entity>,
    cap: u64,
) -> anyhow::Result<Option<(u64, PurchaseSummary)>> {
    let counted = count_rows(conn, filtered, Some(cap + 1)).await?;
    let total = u64::try_from(counted.purchases).unwrap_or(0);
    Ok(if total > cap {
        None
    } else {
        Some((total, counted.summary()?))
    })
}

/// Counts and sums the rows of `filtered`, at most `limit` of them.
async fn count_rows(
    conn: &impl ConnectionTrait,
    filtered: Select<purchases::Entity>,
    limit: Option<u64>,
) -> anyhow::Result<Counted> {
    let approved = PurchaseStatus::Approved.as_str();
    let pending = PurchaseStatus::Pending.as_str();
    let mut matched = filtered
        .select_only()
        .column(purchases::Column::Status)
        .column(purchases::Column::TicketCount)
        .column(purchases::Column::TotalCents)
        .into_query();
    if let Some(limit) = limit {
        matched.limit(limit);
    }
    let counted = Query::select()
        .from_subquery(matched, "matched")
        .expr_as(Expr::cust("CAST(COUNT(*) AS BIGINT)"), "purchases")
        .expr_as(
            Expr::cust(format!(
                "CAST(COALESCE(SUM(CASE WHEN status = '{approved}' THEN ticket_count END), 0) AS BIGINT)"
            )),
            "tickets",
        )
        .expr_as(
            Expr::cust(format!(
                "CAST(COALESCE(SUM(CASE WHEN status = '{approved}' THEN total_cents END), 0) AS BIGINT)"
            )),
            "revenue",
        )
        .expr_as(
            Expr::cust(format!(
                "CAST(COUNT(CASE WHEN status = '{pending}' THEN 1 END) AS BIGINT)"
            )),
            "pending",
        )
        .to_owned();
    Ok(
        Counted::find_by_statement(conn.get_database_backend().build(&counted))
            .one(conn)
            .await
            .context("failed to count purchases")?
            .unwrap_or_default(),
    )
}

/// The purchase's own row, as written.
fn purchase_row(new: &NewPurchase) -> anyhow::Result<purchases::ActiveModel> {
    let numbers: Vec<u32> = new.selection.numbers().iter().map(|n| n.get()).collect();
    Ok(purchases::ActiveModel {
        reference: Set(new.reference.clone()),
        raffle_id: Set(new.raffle_id.get()),
        customer_name: Set(new.customer.name.clone()),
        customer_name_folded: Set(fold_for_search(&new.customer.name)),
        customer_id_document: Set(new.customer.id_document.clone()),
        customer_email: Set(new.customer.email.as_str().to_owned()),
        customer_phone: Set(new.customer.phone.display().to_owned()),
        customer_phone_digits: Set(new.customer.phone.digits().to_owned()),
        customer_country: Set(new.customer.country.clone()),
        payment_method_id: Set(new.payment.method_id.map(PaymentMethodId::get)),
        payment_method_name: Set(new.payment.method_name.clone()),
        conversion_currency: Set(new.payment.conversion.map(|(c, _)| c.code().to_owned())),
        conversion_rate: Set(new.payment.conversion.map(|(_, r)| r.to_string())),
        ticket_numbers: Set(
            serde_json::to_string(&numbers).context("failed to encode ticket numbers")?
        ),
        ticket_count: Set(i32::try_from(numbers.len()).unwrap_or(i32::MAX)),
        total_cents: Set(new.quote.total.cents()),
        discount_cents: Set(new.quote.discount.cents()),
        status: Set(new.status.as_str().to_owned()),
        created_at: Set(new.created_at),
        lang: Set(new.lang.code().to_owned()),
        access_digest: Set(new.access_digest.clone()),
        hold_expires_at: Set(new.hold_until),
        buyer_document_key: Set(new.buyer_keys.document().to_owned()),
        buyer_phone_key: Set(new.buyer_keys.phone().to_owned()),
        payment_reference: Set(new
            .payment_reference
            .as_ref()
            .map(|r| r.as_str().to_owned())),
        payment_reference_key: Set(new.payment_reference.as_ref().map(|r| r.key().to_owned())),
        ..Default::default()
    })
}

/// Attempts of the one-statement write when the holder of a clashing number let it go between
/// the clash and the look-up (so nothing could be named).
const WRITE_ATTEMPTS: usize = 3;

impl Db {
    /// A page of a search matching `total` purchases (when counted), read from whichever known
    /// point is nearest: the newest purchase, the oldest, or the page the reader has (its
    /// anchor). The last page, and the pages next to a deep one, then cost what the first does.
    async fn page_rows(
        &self,
        filtered: Select<purchases::Entity>,
        query: &PurchaseQuery,
        total: Option<u64>,
    ) -> anyhow::Result<Vec<purchases::Model>> {
        let size = u64::from(Ord::max(query.page_size, 1));
        let page = u64::from(Ord::max(query.page, 1));
        let before_page = (page - 1) * size;
        let mut seek = PageStart::Newest { skip: before_page };
        let mut cost = before_page;
        if let Some(total) = total
            && before_page < total
        {
            let take = Ord::min(size, total - before_page);
            let skip = total - before_page - take;
            if skip < cost {
                (seek, cost) = (PageStart::Oldest { skip, take }, skip);
            }
        }
        if let Some(anchor) = query.anchor {
            let anchored = u64::from(Ord::max(anchor.page, 1));
            let (skip, forward) = if page >= anchored {
                ((page - anchored) * size, true)
            } else {
                ((anchored - page - 1) * size, false)
            };
            if skip < cost
                && let Some(cursor) = self.cursor_of(anchor.first_id).await?
            {
                seek = PageStart::Anchor {
                    cursor,
                    skip,
                    forward,
                };
            }
        }
        let (select, skip, take, reversed) = match seek {
            PageStart::Newest { skip } => (newest_first(filtered), skip, size, false),
            PageStart::Oldest { skip, take } => (oldest_first(filtered), skip, take, true),
            PageStart::Anchor {
                cursor,
                skip,
                forward: true,
            } => (
                newest_first(from_cursor(filtered, cursor, Direction::CursorAndOlder)),
                skip,
                size,
                false,
            ),
            PageStart::Anchor { cursor, skip, .. } => (
                oldest_first(from_cursor(filtered, cursor, Direction::Newer)),
                skip,
                size,
                true,
            ),
        };
        let mut rows = select
            .offset(skip)
            .limit(take)
            .all(&self.conn)
            .await
            .context("failed to list purchases")?;
        if reversed {
            rows.reverse();
        }
        Ok(rows)
    }

    async fn cursor_of(&self, id: PurchaseId) -> anyhow::Result<Option<PurchaseCursor>> {
        let created_at = purchases::Entity::find_by_id(id.get())
            .select_only()
            .column(purchases::Column::CreatedAt)
            .into_tuple::<DateTime<Utc>>()
            .one(&self.conn)
            .await
            .context("failed to find the page's anchor")?;
        Ok(created_at.map(|created_at| PurchaseCursor { created_at, id }))
    }

    /// PostgreSQL: the purchase, its holds, the buyer's allowance and the buyer's confirmation
    /// in one statement (a data-modifying CTE), one round trip instead of five. A clash on the held-numbers index, or an allowance passed, aborts the whole
    /// statement; only then are the numbers someone holds (or what the buyer used) looked up, to
    /// name them.
    async fn create_purchase_in_one_statement(
        &self,
        new: &NewPurchase,
        cap: u32,
        raffle_title: &str,
    ) -> Result<Purchase, CreatePurchaseError> {
        let backend = self.conn.get_database_backend();
        let insert = backend.build(&purchases::Entity::insert(purchase_row(new)?).into_query());
        let csv = new
            .selection
            .numbers()
            .iter()
            .map(|n| n.get().to_string())
            .collect::<Vec<_>>()
            .join(",");
        let mut values = insert.values.map(|v| v.0).unwrap_or_default();
        values.push(csv.clone().into());
        let numbers_param = values.len();
        values.push(recipient_key(new.customer.email.as_str()).into());
        let recipient_param = values.len();
        let allowance_first = values.len() + 1;
        values.extend(allowance::take_values(
            new.raffle_id,
            &new.buyer_keys,
            new.selection.count(),
            cap,
        ));
        let sql = format!(
            "WITH p AS ({} RETURNING *), t AS (INSERT INTO purchase_tickets (purchase_id, raffle_id, number, held) \
             SELECT p.id, p.raffle_id, n, TRUE FROM p, unnest(string_to_array(${numbers_param}, ',')::int[]) AS n), \
             a AS ({}), \
             {} SELECT * FROM p",
            insert.sql,
            allowance::take_sql(allowance_first),
            outbox::enqueue_for_new_purchase(
                self.mail_caps,
                self.received_proof_wait,
                new.created_at,
                &format!("${recipient_param}")
            )
        );
        // One index probe per number, whatever the statistics say: with `number = ANY(…)` a
        // planner that believes the raffle holds few numbers scans all of them instead.
        let taken_sql = "SELECT n AS number FROM unnest(string_to_array($2, ',')::int[]) AS n, \
                         LATERAL (SELECT 1 FROM purchase_tickets h \
                         WHERE h.raffle_id = $1 AND h.number = n AND h.held LIMIT 1) AS held \
                         ORDER BY n";
        for _ in 0..WRITE_ATTEMPTS {
            let statement = Statement::from_sql_and_values(backend, &sql, values.clone());
            match purchases::Entity::find()
                .from_raw_sql(statement)
                .one(&self.conn)
                .await
            {
                Ok(Some(row)) => return Ok(convert::purchase(row, raffle_title.to_owned())?),
                Ok(None) => {
                    return Err(anyhow::anyhow!("the purchase insert returned no row").into());
                }
                Err(error) if allowance::passes_cap(&error) => {
                    return Err(CreatePurchaseError::AllowanceExceeded {
                        cap,
                        used: allowance::used(&self.conn, new.raffle_id, &new.buyer_keys).await?,
                    });
                }
                Err(error) => match error.sql_err() {
                    Some(SqlErr::UniqueConstraintViolation(message))
                        if message.contains("ux_purchase_tickets_held") =>
                    {
                        let lookup = Statement::from_sql_and_values(
                            backend,
                            taken_sql,
                            [new.raffle_id.get().into(), csv.clone().into()],
                        );
                        let taken: Vec<TicketNumber> = Inserted::find_by_statement(lookup)
                            .all(&self.conn)
                            .await
                            .context("failed to name the numbers taken")?
                            .into_iter()
                            .filter_map(|r| u32::try_from(r.number).ok())
                            .map(TicketNumber::from_stored)
                            .collect();
                        if !taken.is_empty() {
                            return Err(CreatePurchaseError::NumbersTaken(taken));
                        }
                    }
                    Some(SqlErr::UniqueConstraintViolation(message))
                        if names_payment_reference(&message) =>
                    {
                        return Err(CreatePurchaseError::PaymentReferenceUsed);
                    }
                    Some(SqlErr::UniqueConstraintViolation(_)) => {
                        return Err(CreatePurchaseError::ReferenceTaken);
                    }
                    _ => {
                        return Err(anyhow::Error::new(error)
                            .context("failed to write purchase")
                            .into());
                    }
                },
            }
        }
        Err(anyhow::anyhow!("numbers kept clashing and being released; giving up").into())
    }

    pub(crate) async fn with_titles(
        &self,
        rows: Vec<purchases::Model>,
    ) -> anyhow::Result<Vec<Purchase>> {
        let ids: BTreeSet<i64> = rows.iter().map(|r| r.raffle_id).collect();
        let titles: HashMap<i64, String> = if ids.is_empty() {
            HashMap::new()
        } else {
            raffles::Entity::find()
                .filter(raffles::Column::Id.is_in(ids))
                .all(&self.conn)
                .await
                .context("failed to load raffle titles")?
                .into_iter()
                .map(|r| (r.id, r.title))
                .collect()
        };
        rows.into_iter()
            .map(|row| {
                let title = titles.get(&row.raffle_id).cloned().unwrap_or_default();
                convert::purchase(row, title)
            })
            .collect()
    }

    pub(crate) async fn load_purchase(&self, id: PurchaseId) -> anyhow::Result<Option<Purchase>> {
        let row = purchases::Entity::find_by_id(id.get())
            .one(&self.conn)
            .await
            .context("failed to load purchase")?;
        Ok(self.with_titles(row.into_iter().collect()).await?.pop())
    }
}

impl Db {
    async fn write_purchase(
        &self,
        new: &NewPurchase,
        raffle_title: &str,
    ) -> Result<Purchase, CreatePurchaseError> {
        if let (true, Some(_), Some(cap), true, None) = (
            self.is_postgres(),
            new.hold_until,
            new.allowance_cap,
            new.confirm_to_buyer,
            &new.audit,
        ) {
            return self
                .create_purchase_in_one_statement(new, cap, raffle_title)
                .await;
        }
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start purchase transaction")?;
        // The purchase row first: on SQLite this takes the write lock before anything is read.
        let row = purchase_row(new)?.insert(&txn).await;
        let row = match row {
            Ok(row) => row,
            Err(error) => match error.sql_err() {
                Some(SqlErr::UniqueConstraintViolation(message))
                    if names_payment_reference(&message) =>
                {
                    return Err(CreatePurchaseError::PaymentReferenceUsed);
                }
                Some(SqlErr::UniqueConstraintViolation(_)) => {
                    return Err(CreatePurchaseError::ReferenceTaken);
                }
                _ => {
                    return Err(anyhow::Error::new(error)
                        .context("failed to write purchase")
                        .into());
                }
            },
        };
        let taken = insert_tickets(&txn, row.id, new).await?;
        if !taken.is_empty() {
            txn.rollback()
                .await
                .context("failed to roll back purchase")?;
            return Err(CreatePurchaseError::NumbersTaken(taken));
        }
        if let Some(cap) = new.allowance_cap {
            let counted = allowance::take(
                &txn,
                new.raffle_id,
                &new.buyer_keys,
                new.selection.count(),
                cap,
            )
            .await;
            match counted {
                Ok(()) => {}
                Err(error) if allowance::passes_cap(&error) => {
                    txn.rollback()
                        .await
                        .context("failed to roll back purchase")?;
                    return Err(CreatePurchaseError::AllowanceExceeded {
                        cap,
                        used: allowance::used(&self.conn, new.raffle_id, &new.buyer_keys).await?,
                    });
                }
                Err(error) => {
                    return Err(anyhow::Error::new(error)
                        .context("failed to count the buyer's allowance")
                        .into());
                }
            }
        }
        if new.confirm_to_buyer {
            outbox::enqueue_confirmation(&txn, &row, self.mail_caps, self.received_proof_wait)
                .await?;
        }
        if let Some(entry) = &new.audit {
            let entry = AuditEntry {
                target: Some(format!("purchase:{}", row.id)),
                ..entry.clone()
            };
            audit::append(&txn, &entry).await?;
        }
        txn.commit().await.context("failed to commit purchase")?;
        Ok(convert::purchase(row, raffle_title.to_owned())?)
    }
}

/// Whether a write was refused because the raffle's ledger is frozen (the trigger of migration
/// `m20261127_000004`).
fn refused_as_frozen(error: &anyhow::Error) -> bool {
    draws::refused_by(error, "draw_ledger_frozen")
}

impl PurchaseRepository for Db {
    #[tracing::instrument(name = "db.create_purchase", skip_all, fields(raffle.id = new.raffle_id.get()))]
    async fn create_purchase(
        &self,
        new: &NewPurchase,
        raffle_title: &str,
    ) -> Result<Purchase, CreatePurchaseError> {
        match self.write_purchase(new, raffle_title).await {
            Err(CreatePurchaseError::Unknown(error)) if refused_as_frozen(&error) => {
                Err(CreatePurchaseError::LedgerFrozen)
            }
            written => written,
        }
    }

    #[tracing::instrument(name = "db.get_purchase", skip_all, fields(purchase.id = id.get()))]
    async fn get_purchase(&self, id: PurchaseId) -> anyhow::Result<Option<Purchase>> {
        self.load_purchase(id).await
    }

    #[tracing::instrument(name = "db.search_purchases", skip_all)]
    async fn search_purchases(&self, query: &PurchaseQuery) -> anyhow::Result<PurchasePage> {
        let filtered = apply_filters(purchases::Entity::find(), query);
        let counted = if totals::answer(query) {
            Some(totals::kept(&self.conn, query.raffle_id, query.status).await?)
        } else {
            counted_up_to(&self.conn, filtered.clone(), query.count_cap).await?
        };
        let rows = self
            .page_rows(filtered, query, counted.map(|(total, _)| total))
            .await?;
        Ok(PurchasePage {
            items: self.with_titles(rows).await?,
            total: counted.map_or(query.count_cap, |(total, _)| total),
            summary: counted.map(|(_, summary)| summary),
        })
    }

    #[tracing::instrument(name = "db.purchases_after", skip_all)]
    async fn purchases_after(
        &self,
        query: &PurchaseQuery,
        after: Option<PurchaseCursor>,
        limit: u32,
    ) -> anyhow::Result<Vec<Purchase>> {
        let mut select = apply_filters(purchases::Entity::find(), query);
        if let Some(after) = after {
            select = from_cursor(select, after, Direction::Older);
        }
        let rows = newest_first(select)
            .limit(u64::from(limit))
            .all(&self.conn)
            .await
            .context("failed to read purchases")?;
        self.with_titles(rows).await
    }

    #[tracing::instrument(name = "db.decide_purchase", skip_all, fields(purchase.id = id.get()))]
    async fn decide_purchase(
        &self,
        id: PurchaseId,
        decision: &PurchaseDecision,
    ) -> Result<Purchase, DecidePurchaseError> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start decision transaction")?;
        let updated = purchases::Entity::update_many()
            .col_expr(
                purchases::Column::Status,
                Expr::val(decision.status.as_str()),
            )
            .col_expr(
                purchases::Column::AdminNotes,
                Expr::val(decision.notes.clone()),
            )
            .col_expr(purchases::Column::DecidedAt, Expr::val(decision.decided_at))
            .col_expr(
                purchases::Column::HoldExpiresAt,
                Expr::val(Option::<DateTime<Utc>>::None),
            )
            .filter(purchases::Column::Id.eq(id.get()))
            .filter(purchases::Column::Status.eq(PurchaseStatus::Pending.as_str()))
            .exec(&txn)
            .await
            .context("failed to record the decision")?;
        if updated.rows_affected == 0 {
            txn.rollback().await.context("failed to roll back")?;
            let current = self
                .load_purchase(id)
                .await?
                .ok_or(DecidePurchaseError::NotFound)?;
            return Err(DecidePurchaseError::NotPending(current.status));
        }
        if decision.release_numbers {
            purchase_tickets::Entity::update_many()
                .col_expr(purchase_tickets::Column::Held, Expr::val(false))
                .filter(purchase_tickets::Column::PurchaseId.eq(id.get()))
                .exec(&txn)
                .await
                .context("failed to release the rejected purchase's numbers")?;
            txn.execute_unprepared(&allowance::give_back_sql(&id.get().to_string()))
                .await
                .context("failed to give the buyer's allowance back")?;
        }
        history::record(
            &txn,
            id,
            decision.history,
            decision.decided_at,
            decision.notes.clone(),
        )
        .await?;
        let row = purchases::Entity::find_by_id(id.get())
            .one(&txn)
            .await
            .context("failed to reload the decided purchase")?
            .ok_or(DecidePurchaseError::NotFound)?;
        outbox::enqueue(&txn, &row, decision.mail, decision.decided_at).await?;
        audit::append(&txn, &decision.audit).await?;
        txn.commit()
            .await
            .context("failed to commit the decision")?;
        self.load_purchase(id)
            .await?
            .ok_or(DecidePurchaseError::NotFound)
    }

    #[tracing::instrument(name = "db.expire_due_holds", skip_all)]
    async fn expire_due_holds(&self, expiry: &HoldExpiry) -> anyhow::Result<Vec<ExpiredHold>> {
        self.expire_due(expiry).await
    }

    #[tracing::instrument(name = "db.reopen_purchase", skip_all, fields(purchase.id = id.get()))]
    async fn reopen_purchase(
        &self,
        id: PurchaseId,
        reopening: &Reopening,
    ) -> Result<Purchase, ReopenError> {
        match self.reopen(id, reopening).await {
            Err(ReopenError::Unknown(error)) if refused_as_frozen(&error) => {
                Err(ReopenError::LedgerFrozen)
            }
            reopened => reopened,
        }
    }

    #[tracing::instrument(name = "db.purchase_history", skip_all, fields(purchase.id = id.get()))]
    async fn purchase_history(&self, id: PurchaseId) -> anyhow::Result<Vec<PurchaseEvent>> {
        let Some(received) = purchases::Entity::find_by_id(id.get())
            .select_only()
            .column(purchases::Column::CreatedAt)
            .into_tuple::<DateTime<Utc>>()
            .one(&self.conn)
            .await
            .context("failed to read when the purchase was received")?
        else {
            return Ok(Vec::new());
        };
        history::of(&self.conn, id, received).await
    }

    #[tracing::instrument(name = "db.purchases_of", skip_all)]
    async fn purchases_of(&self, key: &LookupKey, limit: u32) -> anyhow::Result<Vec<Purchase>> {
        let select = match key {
            LookupKey::Email(email) => purchases::Entity::find()
                .filter(purchases::Column::CustomerEmail.eq(email.as_str())),
            LookupKey::Phone(digits) => purchases::Entity::find()
                .filter(purchases::Column::CustomerPhoneDigits.eq(digits.as_str())),
        };
        let rows = select
            .filter(purchases::Column::Status.is_in([
                PurchaseStatus::Pending.as_str(),
                PurchaseStatus::Approved.as_str(),
            ]))
            .order_by_desc(purchases::Column::CreatedAt)
            .limit(u64::from(limit))
            .all(&self.conn)
            .await
            .context("failed to look up a buyer's purchases")?;
        self.with_titles(rows).await
    }

    #[tracing::instrument(name = "db.dashboard_stats", skip_all)]
    async fn dashboard_stats(
        &self,
        created: Option<(DateTime<Utc>, DateTime<Utc>)>,
    ) -> anyhow::Result<DashboardStats> {
        let hours = created.and_then(|(from, to)| totals::whole_hours(from, to));
        let summary = match (created, hours) {
            (None, _) => totals::kept(&self.conn, None, None).await?.1,
            (Some(_), Some(hours)) => totals::summary_of_hours(&self.conn, hours).await?,
            (Some((from, to)), None) => {
                let select = purchases::Entity::find()
                    .filter(purchases::Column::CreatedAt.gte(from))
                    .filter(purchases::Column::CreatedAt.lt(to));
                counted_over(&self.conn, select).await?.1
            }
        };
        let active_raffles = raffles::Entity::find()
            .filter(raffles::Column::Status.eq(RaffleStatus::Available.as_str()))
            .count(&self.conn)
            .await
            .context("failed to count active raffles")?;
        Ok(DashboardStats {
            tickets_sold: summary.tickets_sold,
            total_revenue: summary.total_revenue,
            pending_purchases: summary.pending_purchases,
            active_raffles,
        })
    }

    #[tracing::instrument(name = "db.daily_sales", skip_all)]
    async fn daily_sales(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        utc_offset_minutes: i32,
    ) -> anyhow::Result<Vec<DaySales>> {
        if utc_offset_minutes % 60 == 0
            && let Some(hours) = totals::whole_hours(from, to)
        {
            return totals::days_of_hours(&self.conn, hours, utc_offset_minutes).await;
        }
        let backend = self.conn.get_database_backend();
        let statement = if backend == DatabaseBackend::Postgres {
            Statement::from_sql_and_values(
                backend,
                DAILY_SALES_POSTGRES,
                [from.into(), to.into(), utc_offset_minutes.into()],
            )
        } else {
            Statement::from_sql_and_values(
                backend,
                DAILY_SALES_SQLITE,
                [
                    format!("{utc_offset_minutes:+} minutes").into(),
                    from.into(),
                    to.into(),
                ],
            )
        };
        let rows = DayRow::find_by_statement(statement)
            .all(&self.conn)
            .await
            .context("failed to sum sales per day")?;
        rows.into_iter()
            .map(|row| {
                Ok(DaySales {
                    date: NaiveDate::parse_from_str(&row.day, "%Y-%m-%d")
                        .with_context(|| format!("unreadable day {:?}", row.day))?,
                    revenue: Money::from_cents(row.revenue)
                        .map_err(|e| anyhow::anyhow!("revenue out of range: {e:?}"))?,
                    tickets_sold: u64::try_from(row.tickets).unwrap_or(0),
                    purchases: u64::try_from(row.purchases).unwrap_or(0),
                })
            })
            .collect()
    }
}
