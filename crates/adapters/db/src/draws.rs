//! The verifiable draw's storage (decision 0020; tables and triggers in migration
//! `m20261127_000004`). What may not change is refused by the database's triggers, not here:
//! this code maps their refusals to the port's errors.

use std::collections::{BTreeSet, HashMap};

use anyhow::Context;
use chrono::{DateTime, NaiveTime, Utc};
use rifa_domain::audit::AuditEntry;
use rifa_domain::draw::fair::Rule;
use rifa_domain::draw::ledger::{Hash, LedgerEntry, bytes_from_hex, hash_from_hex, to_hex};
use rifa_domain::draw::prize::{
    DEFAULT_DEADLINE_HOURS, DEFAULT_TIME_ZONE, PrizeDraft, PrizeResult, PrizeSource,
};
use rifa_domain::draw::rule::DrawStep;
use rifa_domain::id::PrizeId;
use rifa_domain::purchase::{PurchaseId, PurchaseStatus};
use rifa_domain::raffle::{RaffleId, RaffleStatus};
use rifa_ports::{
    Commitment, DrawRepository, FreezeAudit, FreezeError, Holder, LedgerBuilder, PrizeDelivery,
    PrizeDraw, PrizeRecord, RecentWinner, RecordDeliveryError, RecordDrawError, RecordResultError,
    RecordedResult, ReplacePrizesError, SoldNumber, UndecidedPurchase, Winner,
};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, DatabaseTransaction, DbErr, EntityTrait,
    FromQueryResult, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set, SqlErr, Statement,
    TransactionTrait,
};

use crate::entities::{
    draw_ledger_entries, draw_ledgers, prize_deliveries, prize_draws, prize_results, purchases,
    raffle_prizes, raffles,
};
use crate::{Db, audit, outbox};

/// Entries per insert: three parameters each, well under both databases' limits.
const ENTRIES_PER_INSERT: usize = 5000;
/// Pending purchases a refused freeze names.
const PENDING_SHOWN: u32 = 50;

/// Whether a write failed on one of the migration's triggers (`draw_rules_locked`,
/// `draw_ledger_frozen`, `append_only`): the database's message, wherever it sits in the error's
/// chain of contexts.
pub(crate) fn refused_by(error: &impl std::fmt::Display, trigger_word: &str) -> bool {
    format!("{error:#}").contains(trigger_word)
}

fn is_unique_violation(error: &DbErr) -> bool {
    matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)))
}

/// A row written once: a unique violation is `taken` (someone wrote it first), anything else a
/// failure of `doing`.
fn written_once<E: From<anyhow::Error>>(error: DbErr, taken: E, doing: &'static str) -> E {
    if is_unique_violation(&error) {
        taken
    } else {
        anyhow::Error::new(error).context(doing).into()
    }
}

/// Takes the raffle's row for the rest of the transaction. On PostgreSQL `FOR UPDATE`
/// conflicts with the `FOR KEY SHARE` a purchase's foreign-key check takes, so purchases being
/// made finish first and new ones wait; SQLite's write lock does the same for everything.
async fn lock_raffle(txn: &DatabaseTransaction, raffle: RaffleId) -> anyhow::Result<()> {
    let backend = txn.get_database_backend();
    let sql = if backend == DatabaseBackend::Postgres {
        "SELECT id FROM raffles WHERE id = $1 FOR UPDATE"
    } else {
        "UPDATE raffles SET id = id WHERE id = ?"
    };
    txn.execute_raw(Statement::from_sql_and_values(
        backend,
        sql,
        [raffle.get().into()],
    ))
    .await
    .context("failed to lock the raffle")?;
    Ok(())
}

/// The rows of a raffle's prizes, numbered from 1 in their order.
pub(crate) fn prize_rows(
    raffle: RaffleId,
    prizes: &[PrizeDraft],
) -> impl Iterator<Item = raffle_prizes::ActiveModel> + '_ {
    prizes
        .iter()
        .zip(1..)
        .map(move |(prize, position)| raffle_prizes::ActiveModel {
            raffle_id: Set(raffle.get()),
            position: Set(position),
            title: Set(prize.title.clone()),
            description: Set(prize.description.clone()),
            image: Set(prize.image.clone()),
            ..source_columns(&prize.source)
        })
}

/// Whether the raffle is on sale now (read after its row was locked).
async fn on_sale(txn: &DatabaseTransaction, raffle: RaffleId) -> anyhow::Result<bool> {
    let row = raffles::Entity::find_by_id(raffle.get())
        .one(txn)
        .await
        .context("failed to read the raffle's status")?;
    Ok(row.is_some_and(|r| r.status == RaffleStatus::Available.as_str()))
}

fn source_columns(source: &PrizeSource) -> raffle_prizes::ActiveModel {
    match source {
        PrizeSource::Lottery {
            lottery_name,
            draw_date,
            draw_time,
            time_zone,
            source_url,
            digits,
            deadline_hours,
        } => raffle_prizes::ActiveModel {
            source_kind: Set("lottery".into()),
            lottery_name: Set(Some(lottery_name.clone())),
            lottery_draw_date: Set(Some(*draw_date)),
            lottery_draw_time: Set(Some(draw_time.format("%H:%M").to_string())),
            lottery_time_zone: Set(Some(time_zone.name().to_owned())),
            source_url: Set(Some(source_url.clone())),
            lottery_digits: Set(digits.and_then(|d| i32::try_from(d).ok())),
            lottery_deadline_hours: Set(i32::try_from(*deadline_hours).ok()),
            beacon_round: Set(None),
            ..Default::default()
        },
        PrizeSource::Beacon { round } => raffle_prizes::ActiveModel {
            source_kind: Set("beacon".into()),
            lottery_name: Set(None),
            lottery_draw_date: Set(None),
            lottery_draw_time: Set(None),
            lottery_time_zone: Set(None),
            source_url: Set(None),
            lottery_digits: Set(None),
            lottery_deadline_hours: Set(None),
            beacon_round: Set(Some(i64::try_from(*round).unwrap_or(i64::MAX))),
            ..Default::default()
        },
    }
}

fn prize_of(row: &raffle_prizes::Model) -> anyhow::Result<PrizeDraft> {
    let source = match (row.source_kind.as_str(), row.beacon_round) {
        ("beacon", Some(round)) => PrizeSource::Beacon {
            round: u64::try_from(round).context("negative beacon round")?,
        },
        ("lottery", _) => PrizeSource::Lottery {
            lottery_name: row.lottery_name.clone().unwrap_or_default(),
            draw_date: row
                .lottery_draw_date
                .context("a lottery prize without its draw date")?,
            draw_time: match row.lottery_draw_time.as_deref() {
                None => NaiveTime::MIN,
                Some(raw) => NaiveTime::parse_from_str(raw, "%H:%M")
                    .with_context(|| format!("a lottery draw time {raw:?}"))?,
            },
            time_zone: match row.lottery_time_zone.as_deref() {
                None => DEFAULT_TIME_ZONE,
                Some(raw) => raw
                    .parse()
                    .map_err(|_| anyhow::anyhow!("a lottery time zone {raw:?}"))?,
            },
            source_url: row.source_url.clone().unwrap_or_default(),
            digits: row
                .lottery_digits
                .map(u32::try_from)
                .transpose()
                .context("negative lottery digits")?,
            deadline_hours: row
                .lottery_deadline_hours
                .map_or(Ok(DEFAULT_DEADLINE_HOURS), u32::try_from)
                .context("negative lottery deadline")?,
        },
        (kind, _) => anyhow::bail!("unknown prize source {kind:?}"),
    };
    Ok(PrizeDraft {
        title: row.title.clone(),
        description: row.description.clone(),
        image: row.image.clone(),
        source,
    })
}

fn hash_of(hex: &str) -> anyhow::Result<Hash> {
    hash_from_hex(hex).with_context(|| format!("stored hash {hex:?} is not 64 hex digits"))
}

fn number(value: i32) -> anyhow::Result<u32> {
    u32::try_from(value).context("negative number stored")
}

/// The columns a result is stored in, in `prize_results` and `prize_draws` alike.
struct ResultColumns {
    kind: String,
    lottery_result: Option<String>,
    published_on: Option<chrono::NaiveDate>,
    official_url: Option<String>,
    beacon_round: Option<i64>,
    beacon_randomness: Option<String>,
    beacon_signature: Option<String>,
}

impl ResultColumns {
    fn of(result: &PrizeResult) -> Self {
        match result {
            PrizeResult::Lottery {
                result,
                published_on,
                official_url,
            } => Self {
                kind: "lottery".into(),
                lottery_result: Some(result.clone()),
                published_on: Some(*published_on),
                official_url: Some(official_url.clone()),
                beacon_round: None,
                beacon_randomness: None,
                beacon_signature: None,
            },
            PrizeResult::Beacon {
                round,
                randomness,
                signature,
            } => Self {
                kind: "beacon".into(),
                lottery_result: None,
                published_on: None,
                official_url: None,
                beacon_round: Some(i64::try_from(*round).unwrap_or(i64::MAX)),
                beacon_randomness: Some(to_hex(randomness)),
                beacon_signature: Some(to_hex(signature)),
            },
        }
    }

    fn result(self) -> anyhow::Result<PrizeResult> {
        Ok(match self.kind.as_str() {
            "lottery" => PrizeResult::Lottery {
                result: self.lottery_result.unwrap_or_default(),
                published_on: self
                    .published_on
                    .context("a lottery result without its date")?,
                official_url: self.official_url.unwrap_or_default(),
            },
            "beacon" => PrizeResult::Beacon {
                round: u64::try_from(self.beacon_round.unwrap_or_default())
                    .context("negative beacon round")?,
                randomness: hash_of(self.beacon_randomness.as_deref().unwrap_or_default())?,
                signature: bytes_from_hex(self.beacon_signature.as_deref().unwrap_or_default())
                    .context("stored signature is not hex")?,
            },
            kind => anyhow::bail!("unknown result kind {kind:?}"),
        })
    }
}

fn recorded_of(row: prize_results::Model) -> anyhow::Result<RecordedResult> {
    Ok(RecordedResult {
        source: u32::try_from(row.source_index).context("negative source index")?,
        recorded_at: row.recorded_at,
        result: ResultColumns {
            kind: row.result_kind,
            lottery_result: row.lottery_result,
            published_on: row.published_on,
            official_url: row.official_url,
            beacon_round: row.beacon_round,
            beacon_randomness: row.beacon_randomness,
            beacon_signature: row.beacon_signature,
        }
        .result()?,
    })
}

fn rule_of(stored: &str) -> anyhow::Result<Rule> {
    Rule::parse(stored).map_err(|_| anyhow::anyhow!("unknown draw rule {stored:?}"))
}

fn draw_of(row: prize_draws::Model, winner: Option<Winner>) -> anyhow::Result<PrizeDraw> {
    let result = ResultColumns {
        kind: row.result_kind,
        lottery_result: row.lottery_result,
        published_on: row.published_on,
        official_url: row.official_url,
        beacon_round: row.beacon_round,
        beacon_randomness: row.beacon_randomness,
        beacon_signature: row.beacon_signature,
    }
    .result()?;
    Ok(PrizeDraw {
        source: u32::try_from(row.source_index).context("negative source index")?,
        result,
        drawn_number: number(row.drawn_number)?,
        winning_number: row.winning_number.map(number).transpose()?,
        steps: serde_json::from_str::<Vec<DrawStep>>(&row.steps)
            .context("stored draw steps are not the rule's")?,
        drawn_at: row.drawn_at,
        winner,
    })
}

fn winner_of(row: &purchases::Model) -> Winner {
    Winner {
        purchase_id: PurchaseId::new(row.id),
        reference: row.reference.clone(),
        customer_name: row.customer_name.clone(),
        customer_email: row.customer_email.clone(),
        customer_phone: row.customer_phone.clone(),
        customer_country: row.customer_country.clone(),
    }
}

#[derive(FromQueryResult)]
struct SoldRow {
    number: i32,
    reference: String,
}

#[derive(FromQueryResult)]
struct WinnerRow {
    raffle_id: i64,
    raffle_title: String,
    max_tickets: i32,
    prize_title: String,
    position: i32,
    winning_number: i32,
    customer_name: String,
    customer_country: String,
    drawn_at: DateTime<Utc>,
}

impl Db {
    async fn undecided_in(
        &self,
        conn: &impl ConnectionTrait,
        raffle: RaffleId,
        limit: u32,
    ) -> anyhow::Result<Vec<UndecidedPurchase>> {
        let rows = purchases::Entity::find()
            .filter(purchases::Column::RaffleId.eq(raffle.get()))
            .filter(purchases::Column::Status.eq(PurchaseStatus::Pending.as_str()))
            .order_by_asc(purchases::Column::CreatedAt)
            .order_by_asc(purchases::Column::Id)
            .limit(u64::from(limit))
            .all(conn)
            .await
            .context("failed to list pending purchases")?;
        Ok(rows
            .into_iter()
            .map(|row| UndecidedPurchase {
                id: PurchaseId::new(row.id),
                reference: row.reference,
                customer_name: row.customer_name,
                created_at: row.created_at,
            })
            .collect())
    }

    /// The freeze's reads and writes, inside its transaction.
    async fn freeze_in(
        txn: &DatabaseTransaction,
        raffle: RaffleId,
        salt: [u8; 32],
        frozen_at: DateTime<Utc>,
        build: LedgerBuilder<'_>,
        pending: Vec<UndecidedPurchase>,
    ) -> Result<Commitment, FreezeError> {
        if draw_ledgers::Entity::find_by_id(raffle.get())
            .one(txn)
            .await
            .context("failed to look for a frozen ledger")?
            .is_some()
        {
            return Err(FreezeError::AlreadyFrozen);
        }
        if !pending.is_empty() {
            return Err(FreezeError::PurchasesPending(pending));
        }
        let backend = txn.get_database_backend();
        let sold = SoldRow::find_by_statement(Statement::from_sql_and_values(
            backend,
            format!(
                "SELECT t.number, p.reference FROM purchase_tickets t \
                 JOIN purchases p ON p.id = t.purchase_id \
                 WHERE t.raffle_id = {param} AND t.held AND p.status = 'approved' \
                 ORDER BY t.number",
                param = if backend == DatabaseBackend::Postgres {
                    "$1"
                } else {
                    "?"
                }
            ),
            [raffle.get().into()],
        ))
        .all(txn)
        .await
        .context("failed to read the sold numbers")?
        .into_iter()
        .map(|row| {
            Ok(SoldNumber {
                number: number(row.number)?,
                reference: row.reference,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
        if sold.is_empty() {
            return Err(FreezeError::NothingSold);
        }
        let ledger = build(&sold);
        let size = u32::try_from(ledger.entries.len()).context("ledger too large")?;
        // Read under the raffle's lock: the size and rule committed are those the buyers
        // bought under.
        let terms = raffles::Entity::find_by_id(raffle.get())
            .one(txn)
            .await
            .context("failed to read the raffle's size")?
            .context("the raffle being frozen is gone")?;
        let max_tickets = terms.max_tickets;
        let rule = rule_of(&terms.draw_rule)?;
        draw_ledgers::Entity::insert(draw_ledgers::ActiveModel {
            raffle_id: Set(raffle.get()),
            salt: Set(to_hex(&salt)),
            root: Set(to_hex(&ledger.root)),
            size: Set(i32::try_from(size).context("ledger too large")?),
            frozen_at: Set(frozen_at),
            max_tickets: Set(max_tickets),
            rule: Set(rule.as_str().to_owned()),
        })
        .exec(txn)
        .await
        .map_err(|error| {
            written_once(
                error,
                FreezeError::AlreadyFrozen,
                "failed to store the ledger",
            )
        })?;
        for chunk in ledger.entries.chunks(ENTRIES_PER_INSERT) {
            draw_ledger_entries::Entity::insert_many(chunk.iter().map(|entry| {
                draw_ledger_entries::ActiveModel {
                    raffle_id: Set(raffle.get()),
                    number: Set(i32::try_from(entry.number).unwrap_or(i32::MAX)),
                    tag: Set(to_hex(&entry.tag)),
                }
            }))
            .exec(txn)
            .await
            .context("failed to store the ledger's entries")?;
        }
        outbox::enqueue_ledger_frozen(txn, raffle, frozen_at).await?;
        Ok(Commitment {
            salt,
            root: ledger.root,
            size,
            frozen_at,
            max_tickets: u32::try_from(max_tickets).context("negative raffle size")?,
            rule,
        })
    }
}

impl DrawRepository for Db {
    #[tracing::instrument(name = "db.prizes", skip_all, fields(raffle.id = raffle.get()))]
    async fn prizes(&self, raffle: RaffleId) -> anyhow::Result<Vec<PrizeRecord>> {
        let rows = raffle_prizes::Entity::find()
            .filter(raffle_prizes::Column::RaffleId.eq(raffle.get()))
            .order_by_asc(raffle_prizes::Column::Position)
            .all(&self.conn)
            .await
            .context("failed to read prizes")?;
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
        let mut draws: HashMap<i64, prize_draws::Model> = prize_draws::Entity::find()
            .filter(prize_draws::Column::RaffleId.eq(raffle.get()))
            .all(&self.conn)
            .await
            .context("failed to read draws")?
            .into_iter()
            .map(|row| (row.prize_id, row))
            .collect();
        let mut results: HashMap<i64, Vec<RecordedResult>> = HashMap::new();
        for row in prize_results::Entity::find()
            .filter(prize_results::Column::RaffleId.eq(raffle.get()))
            .order_by_asc(prize_results::Column::SourceIndex)
            .all(&self.conn)
            .await
            .context("failed to read the sources' results")?
        {
            results
                .entry(row.prize_id)
                .or_default()
                .push(recorded_of(row)?);
        }
        let mut deliveries: HashMap<i64, prize_deliveries::Model> =
            prize_deliveries::Entity::find()
                .filter(prize_deliveries::Column::PrizeId.is_in(ids))
                .all(&self.conn)
                .await
                .context("failed to read deliveries")?
                .into_iter()
                .map(|row| (row.prize_id, row))
                .collect();
        let winner_ids: BTreeSet<i64> = draws
            .values()
            .filter_map(|draw| draw.winner_purchase_id)
            .collect();
        let winners: HashMap<i64, Winner> = if winner_ids.is_empty() {
            HashMap::new()
        } else {
            purchases::Entity::find()
                .filter(purchases::Column::Id.is_in(winner_ids))
                .all(&self.conn)
                .await
                .context("failed to read the winners' purchases")?
                .iter()
                .map(|row| (row.id, winner_of(row)))
                .collect()
        };
        rows.into_iter()
            .map(|row| {
                let draw = draws
                    .remove(&row.id)
                    .map(|draw| {
                        let winner = draw
                            .winner_purchase_id
                            .and_then(|id| winners.get(&id).cloned());
                        draw_of(draw, winner)
                    })
                    .transpose()?;
                Ok(PrizeRecord {
                    id: PrizeId::new(row.id),
                    position: u32::try_from(row.position).context("negative position")?,
                    prize: prize_of(&row)?,
                    results: results.remove(&row.id).unwrap_or_default(),
                    draw,
                    delivery: deliveries.remove(&row.id).map(|d| PrizeDelivery {
                        delivered_at: d.delivered_at,
                        photo: d.photo,
                    }),
                })
            })
            .collect()
    }

    #[tracing::instrument(name = "db.replace_prizes", skip_all, fields(raffle.id = raffle.get()))]
    async fn replace_prizes(
        &self,
        raffle: RaffleId,
        rule: Rule,
        prizes: &[PrizeDraft],
        entry: &AuditEntry,
    ) -> Result<(), ReplacePrizesError> {
        let locked = |error: DbErr, doing: &'static str| {
            if refused_by(&error, "draw_rules_locked") {
                ReplacePrizesError::RulesLocked
            } else {
                ReplacePrizesError::Unknown(anyhow::Error::new(error).context(doing))
            }
        };
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start replacing prizes")?;
        lock_raffle(&txn, raffle).await?;
        if prizes.is_empty() && on_sale(&txn, raffle).await? {
            txn.rollback().await.context("failed to roll back")?;
            return Err(ReplacePrizesError::OnSaleNeedsPrize);
        }
        raffles::Entity::update_many()
            .col_expr(
                raffles::Column::DrawRule,
                sea_orm::sea_query::Expr::value(rule.as_str()),
            )
            .filter(raffles::Column::Id.eq(raffle.get()))
            .filter(raffles::Column::DrawRule.ne(rule.as_str()))
            .exec(&txn)
            .await
            .map_err(|e| locked(e, "failed to store the rule"))?;
        raffle_prizes::Entity::delete_many()
            .filter(raffle_prizes::Column::RaffleId.eq(raffle.get()))
            .exec(&txn)
            .await
            .map_err(|e| locked(e, "failed to remove the old prizes"))?;
        if !prizes.is_empty() {
            raffle_prizes::Entity::insert_many(prize_rows(raffle, prizes))
                .exec(&txn)
                .await
                .map_err(|e| locked(e, "failed to store the prizes"))?;
        }
        audit::append(&txn, entry).await?;
        txn.commit()
            .await
            .map_err(|e| locked(e, "failed to commit the prizes"))
    }

    async fn draw_rule(&self, raffle: RaffleId) -> anyhow::Result<Rule> {
        let row = raffles::Entity::find_by_id(raffle.get())
            .one(&self.conn)
            .await
            .context("failed to read the raffle's rule")?
            .context("no such raffle")?;
        rule_of(&row.draw_rule)
    }

    async fn rules_locked(&self, raffle: RaffleId) -> anyhow::Result<bool> {
        let real = purchases::Entity::find()
            .filter(purchases::Column::RaffleId.eq(raffle.get()))
            .filter(purchases::Column::Status.ne(PurchaseStatus::Test.as_str()))
            .limit(1)
            .count(&self.conn)
            .await
            .context("failed to look for purchases")?;
        Ok(real > 0)
    }

    async fn undecided_purchases(
        &self,
        raffle: RaffleId,
        limit: u32,
    ) -> anyhow::Result<Vec<UndecidedPurchase>> {
        self.undecided_in(&self.conn, raffle, limit).await
    }

    #[tracing::instrument(name = "db.freeze_ledger", skip_all, fields(raffle.id = raffle.get()))]
    async fn freeze_ledger(
        &self,
        raffle: RaffleId,
        salt: [u8; 32],
        frozen_at: DateTime<Utc>,
        build: LedgerBuilder<'_>,
        entry: FreezeAudit<'_>,
    ) -> Result<Commitment, FreezeError> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start the freeze")?;
        lock_raffle(&txn, raffle).await?;
        if txn.get_database_backend() == DatabaseBackend::Postgres {
            // A decision or a reopening being written finishes first; later ones wait and then
            // meet the trigger that refuses them.
            txn.execute_raw(Statement::from_sql_and_values(
                DatabaseBackend::Postgres,
                "SELECT id FROM purchases WHERE raffle_id = $1 FOR SHARE",
                [raffle.get().into()],
            ))
            .await
            .context("failed to lock the raffle's purchases")?;
        }
        let pending = self.undecided_in(&txn, raffle, PENDING_SHOWN).await?;
        let commitment = Self::freeze_in(&txn, raffle, salt, frozen_at, build, pending).await?;
        audit::append(&txn, &entry(&commitment)).await?;
        txn.commit().await.context("failed to commit the freeze")?;
        Ok(commitment)
    }

    async fn commitment(&self, raffle: RaffleId) -> anyhow::Result<Option<Commitment>> {
        let Some(row) = draw_ledgers::Entity::find_by_id(raffle.get())
            .one(&self.conn)
            .await
            .context("failed to read the commitment")?
        else {
            return Ok(None);
        };
        Ok(Some(Commitment {
            salt: hash_of(&row.salt)?,
            root: hash_of(&row.root)?,
            size: u32::try_from(row.size).context("negative ledger size")?,
            frozen_at: row.frozen_at,
            max_tickets: u32::try_from(row.max_tickets).context("negative frozen size")?,
            rule: rule_of(&row.rule)?,
        }))
    }

    async fn raffle_of_prize(&self, prize: PrizeId) -> anyhow::Result<Option<RaffleId>> {
        Ok(raffle_prizes::Entity::find_by_id(prize.get())
            .one(&self.conn)
            .await
            .context("failed to read the prize")?
            .map(|row| RaffleId::new(row.raffle_id)))
    }

    #[tracing::instrument(name = "db.ledger_entries", skip_all, fields(raffle.id = raffle.get()))]
    async fn ledger_entries(&self, raffle: RaffleId) -> anyhow::Result<Vec<LedgerEntry>> {
        draw_ledger_entries::Entity::find()
            .filter(draw_ledger_entries::Column::RaffleId.eq(raffle.get()))
            .order_by_asc(draw_ledger_entries::Column::Number)
            .all(&self.conn)
            .await
            .context("failed to read the ledger")?
            .into_iter()
            .map(|row| {
                Ok(LedgerEntry {
                    number: number(row.number)?,
                    tag: hash_of(&row.tag)?,
                })
            })
            .collect()
    }

    async fn holder_of(&self, raffle: RaffleId, number: u32) -> anyhow::Result<Option<Holder>> {
        let backend = self.conn.get_database_backend();
        let sql = if backend == DatabaseBackend::Postgres {
            "SELECT p.id, p.customer_name FROM purchase_tickets t \
             JOIN purchases p ON p.id = t.purchase_id \
             WHERE t.raffle_id = $1 AND t.number = $2 AND t.held AND p.status = 'approved'"
        } else {
            "SELECT p.id, p.customer_name FROM purchase_tickets t \
             JOIN purchases p ON p.id = t.purchase_id \
             WHERE t.raffle_id = ? AND t.number = ? AND t.held AND p.status = 'approved'"
        };
        let row = self
            .conn
            .query_one_raw(Statement::from_sql_and_values(
                backend,
                sql,
                [raffle.get().into(), i64::from(number).into()],
            ))
            .await
            .context("failed to find the winning number's purchase")?;
        row.map(|row| {
            Ok::<_, DbErr>(Holder {
                purchase: PurchaseId::new(row.try_get::<i64>("", "id")?),
                customer_name: row.try_get("", "customer_name")?,
            })
        })
        .transpose()
        .context("failed to read the purchase")
    }

    #[tracing::instrument(name = "db.record_draw", skip_all, fields(prize.id = prize.get()))]
    async fn record_draw(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        draw: &PrizeDraw,
        winner_purchase: Option<PurchaseId>,
        finishes_raffle: bool,
        entry: &AuditEntry,
    ) -> Result<(), RecordDrawError> {
        let columns = ResultColumns::of(&draw.result);
        let as_i32 = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start recording the draw")?;
        prize_draws::Entity::insert(prize_draws::ActiveModel {
            prize_id: Set(prize.get()),
            raffle_id: Set(raffle.get()),
            result_kind: Set(columns.kind),
            lottery_result: Set(columns.lottery_result),
            published_on: Set(columns.published_on),
            official_url: Set(columns.official_url),
            beacon_round: Set(columns.beacon_round),
            beacon_randomness: Set(columns.beacon_randomness),
            beacon_signature: Set(columns.beacon_signature),
            source_index: Set(i32::try_from(draw.source).unwrap_or(i32::MAX)),
            drawn_number: Set(as_i32(draw.drawn_number)),
            winning_number: Set(draw.winning_number.map(as_i32)),
            winner_purchase_id: Set(winner_purchase.map(PurchaseId::get)),
            steps: Set(serde_json::to_string(&draw.steps).context("failed to write the steps")?),
            drawn_at: Set(draw.drawn_at),
        })
        .exec(&txn)
        .await
        .map_err(|error| {
            written_once(
                error,
                RecordDrawError::AlreadyDrawn,
                "failed to record the draw",
            )
        })?;
        if let Some(winner) = winner_purchase {
            let row = purchases::Entity::find_by_id(winner.get())
                .one(&txn)
                .await
                .context("failed to read the winner's purchase")?
                .context("the winner's purchase is gone")?;
            outbox::enqueue_prize_won(&txn, prize, &row, draw.drawn_at).await?;
        }
        if finishes_raffle {
            raffles::Entity::update_many()
                .col_expr(
                    raffles::Column::Status,
                    sea_orm::sea_query::Expr::value(RaffleStatus::Finished.as_str()),
                )
                .filter(raffles::Column::Id.eq(raffle.get()))
                .exec(&txn)
                .await
                .context("failed to finish the raffle")?;
        }
        audit::append(&txn, entry).await?;
        txn.commit().await.context("failed to commit the draw")?;
        Ok(())
    }

    #[tracing::instrument(name = "db.record_result", skip_all, fields(prize.id = prize.get()))]
    async fn record_result(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        recorded: &RecordedResult,
        entry: &AuditEntry,
    ) -> Result<(), RecordResultError> {
        let columns = ResultColumns::of(&recorded.result);
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start recording a result")?;
        prize_results::Entity::insert(prize_results::ActiveModel {
            prize_id: Set(prize.get()),
            source_index: Set(i32::try_from(recorded.source).unwrap_or(i32::MAX)),
            raffle_id: Set(raffle.get()),
            result_kind: Set(columns.kind),
            lottery_result: Set(columns.lottery_result),
            published_on: Set(columns.published_on),
            official_url: Set(columns.official_url),
            beacon_round: Set(columns.beacon_round),
            beacon_randomness: Set(columns.beacon_randomness),
            beacon_signature: Set(columns.beacon_signature),
            recorded_at: Set(recorded.recorded_at),
        })
        .exec(&txn)
        .await
        .map_err(|error| {
            written_once(
                error,
                RecordResultError::AlreadyRecorded,
                "failed to record the result",
            )
        })?;
        audit::append(&txn, entry).await?;
        txn.commit().await.context("failed to commit the result")?;
        Ok(())
    }

    async fn record_delivery(
        &self,
        prize: PrizeId,
        delivery: &PrizeDelivery,
        entry: &AuditEntry,
    ) -> Result<(), RecordDeliveryError> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start recording a delivery")?;
        prize_deliveries::Entity::insert(prize_deliveries::ActiveModel {
            prize_id: Set(prize.get()),
            delivered_at: Set(delivery.delivered_at),
            photo: Set(delivery.photo.clone()),
        })
        .exec(&txn)
        .await
        .map_err(|error| {
            written_once(
                error,
                RecordDeliveryError::AlreadyDelivered,
                "failed to record the delivery",
            )
        })?;
        audit::append(&txn, entry).await?;
        txn.commit()
            .await
            .context("failed to commit the delivery")?;
        Ok(())
    }

    #[tracing::instrument(name = "db.recent_winners", skip_all)]
    async fn recent_winners(&self, limit: u32) -> anyhow::Result<Vec<RecentWinner>> {
        let backend = self.conn.get_database_backend();
        let (hidden, limit_param) = if backend == DatabaseBackend::Postgres {
            ("$1", "$2")
        } else {
            ("?", "?")
        };
        let sql = format!(
            "SELECT r.id AS raffle_id, r.title AS raffle_title, r.max_tickets, z.title AS prize_title, \
             z.position, d.winning_number, p.customer_name, p.customer_country, d.drawn_at \
             FROM prize_draws d JOIN raffle_prizes z ON z.id = d.prize_id \
             JOIN raffles r ON r.id = d.raffle_id JOIN purchases p ON p.id = d.winner_purchase_id \
             WHERE r.status <> {hidden} ORDER BY d.drawn_at DESC, z.position LIMIT {limit_param}"
        );
        WinnerRow::find_by_statement(Statement::from_sql_and_values(
            backend,
            &sql,
            [
                RaffleStatus::Inactive.as_str().into(),
                i64::from(limit).into(),
            ],
        ))
        .all(&self.conn)
        .await
        .context("failed to read recent winners")?
        .into_iter()
        .map(|row| {
            Ok(RecentWinner {
                raffle_id: RaffleId::new(row.raffle_id),
                raffle_title: row.raffle_title,
                max_tickets: u32::try_from(row.max_tickets).context("negative raffle size")?,
                prize_title: row.prize_title,
                position: u32::try_from(row.position).context("negative position")?,
                number: number(row.winning_number)?,
                customer_name: row.customer_name,
                customer_country: row.customer_country,
                drawn_at: row.drawn_at,
            })
        })
        .collect()
    }
}
