//! The verifiable draw (issue 15, decision 0020).
//!
//! - `raffle_prizes`: a raffle's prizes and the public source each is drawn from. They change
//!   only while the raffle has no real purchase and no frozen ledger: a trigger refuses any
//!   write after that, so the rule a buyer read is the rule applied, whoever writes.
//! - `draw_ledgers` and `draw_ledger_entries`: the frozen ledger (salt, root, size; every sold
//!   number with its purchase's tag). `prize_draws`: each prize's result, steps and winner.
//!   `prize_deliveries`: when a prize was handed over. All four are append-only: triggers refuse
//!   every update and delete, so a frozen ledger or a recorded draw cannot change through any
//!   code path; a row inserted or altered by other means changes the root anyone recomputes.
//! - Purchases of a raffle whose ledger is frozen can neither be made nor change status (the
//!   ledger would no longer be the sold numbers). The freeze locks the raffle's row: a purchase's
//!   foreign-key check waits for that lock, and the purchase's trigger, run after the check,
//!   then sees the ledger.
//! - `mail_outbox.prize_id`: a winner's message is about a prize (a purchase may win two).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The append-only tables, in the order they are dropped.
const APPEND_ONLY: [&str; 4] = [
    "prize_deliveries",
    "prize_draws",
    "draw_ledger_entries",
    "draw_ledgers",
];

/// The raffle `raffle` (an SQL expression) has a real purchase (test purchases are rehearsals
/// an admin deletes, and lock nothing) or a frozen ledger.
fn rules_locked(raffle: &str) -> String {
    format!(
        "(EXISTS (SELECT 1 FROM purchases WHERE raffle_id = {raffle} AND status <> 'test') \
         OR EXISTS (SELECT 1 FROM draw_ledgers WHERE raffle_id = {raffle}))"
    )
}

fn ledger_of(raffle: &str) -> String {
    format!("EXISTS (SELECT 1 FROM draw_ledgers WHERE raffle_id = {raffle})")
}

fn postgres_triggers() -> String {
    let mut sql = String::from(
        "CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'append_only: % rows are never updated or deleted', TG_TABLE_NAME;
END $$;
",
    );
    for table in APPEND_ONLY {
        sql.push_str(&format!(
            "CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} \
             FOR EACH ROW EXECUTE FUNCTION refuse_change();\n"
        ));
    }
    let prizes_raffle = "CASE WHEN TG_OP = 'DELETE' THEN OLD.raffle_id ELSE NEW.raffle_id END";
    sql.push_str(&format!(
        "CREATE FUNCTION refuse_locked_prize() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF {locked} THEN
    RAISE EXCEPTION 'draw_rules_locked: raffle % has purchases or a frozen ledger', {prizes_raffle};
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
CREATE TRIGGER raffle_prizes_locked BEFORE INSERT OR UPDATE OR DELETE ON raffle_prizes
  FOR EACH ROW EXECUTE FUNCTION refuse_locked_prize();
CREATE FUNCTION refuse_purchase_after_freeze() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF {frozen} THEN
    RAISE EXCEPTION 'draw_ledger_frozen: raffle % is frozen', NEW.raffle_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER purchases_after_freeze AFTER INSERT ON purchases
  FOR EACH ROW EXECUTE FUNCTION refuse_purchase_after_freeze();
CREATE TRIGGER purchases_status_after_freeze AFTER UPDATE OF status ON purchases
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION refuse_purchase_after_freeze();
",
        locked = rules_locked(prizes_raffle),
        frozen = ledger_of("NEW.raffle_id"),
    ));
    sql
}

fn sqlite_triggers() -> String {
    let mut sql = String::new();
    for table in APPEND_ONLY {
        for event in ["UPDATE", "DELETE"] {
            sql.push_str(&format!(
                "CREATE TRIGGER {table}_append_only_{event} BEFORE {event} ON {table} \
                 BEGIN SELECT RAISE(ABORT, 'append_only: {table} rows are never updated or deleted'); END;\n",
                event = event.to_lowercase(),
            ));
        }
    }
    for (event, row) in [("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")] {
        sql.push_str(&format!(
            "CREATE TRIGGER raffle_prizes_locked_{lower} BEFORE {event} ON raffle_prizes \
             WHEN {locked} \
             BEGIN SELECT RAISE(ABORT, 'draw_rules_locked: the raffle has purchases or a frozen ledger'); END;\n",
            lower = event.to_lowercase(),
            locked = rules_locked(&format!("{row}.raffle_id")),
        ));
    }
    sql.push_str(&format!(
        "CREATE TRIGGER purchases_after_freeze AFTER INSERT ON purchases WHEN {frozen} \
         BEGIN SELECT RAISE(ABORT, 'draw_ledger_frozen: the raffle is frozen'); END;
CREATE TRIGGER purchases_status_after_freeze AFTER UPDATE OF status ON purchases \
         WHEN OLD.status IS NOT NEW.status AND {frozen} \
         BEGIN SELECT RAISE(ABORT, 'draw_ledger_frozen: the raffle is frozen'); END;",
        frozen = ledger_of("NEW.raffle_id"),
    ));
    sql
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("raffle_prizes")
                    .col(big_pk_auto("id"))
                    .col(big_integer("raffle_id"))
                    .col(integer("position"))
                    .col(string_len("title", 200))
                    .col(text("description"))
                    .col(text_null("image"))
                    .col(string_len("source_kind", 20))
                    .col(string_len_null("lottery_name", 120))
                    .col(date_null("lottery_draw_date"))
                    .col(text_null("source_url"))
                    .col(big_integer_null("beacon_round"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("raffle_prizes", "raffle_id")
                            .to("raffles", "id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ux_raffle_prizes_position")
                    .table("raffle_prizes")
                    .col("raffle_id")
                    .col("position")
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("draw_ledgers")
                    .col(big_integer("raffle_id").primary_key())
                    .col(string_len("salt", 64))
                    .col(string_len("root", 64))
                    .col(integer("size"))
                    .col(timestamp_with_time_zone("frozen_at"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("draw_ledgers", "raffle_id")
                            .to("raffles", "id"),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("draw_ledger_entries")
                    .col(big_integer("raffle_id"))
                    .col(integer("number"))
                    .col(string_len("tag", 64))
                    .primary_key(Index::create().col("raffle_id").col("number"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("draw_ledger_entries", "raffle_id")
                            .to("draw_ledgers", "raffle_id"),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("prize_draws")
                    .col(big_integer("prize_id").primary_key())
                    .col(big_integer("raffle_id"))
                    .col(string_len("result_kind", 20))
                    .col(string_len_null("lottery_result", 60))
                    .col(date_null("published_on"))
                    .col(text_null("official_url"))
                    .col(big_integer_null("beacon_round"))
                    .col(string_len_null("beacon_randomness", 64))
                    .col(text_null("beacon_signature"))
                    .col(integer("drawn_number"))
                    .col(integer_null("winning_number"))
                    .col(big_integer_null("winner_purchase_id"))
                    .col(text("steps"))
                    .col(timestamp_with_time_zone("drawn_at"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("prize_draws", "prize_id")
                            .to("raffle_prizes", "id"),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from("prize_draws", "raffle_id")
                            .to("draw_ledgers", "raffle_id"),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from("prize_draws", "winner_purchase_id")
                            .to("purchases", "id"),
                    )
                    .to_owned(),
            )
            .await?;
        // One number wins one prize: the guarantee when two prizes are drawn at once.
        manager
            .create_index(
                Index::create()
                    .name("ux_prize_draws_winner")
                    .table("prize_draws")
                    .col("raffle_id")
                    .col("winning_number")
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_prize_draws_drawn_at")
                    .table("prize_draws")
                    .col("drawn_at")
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("prize_deliveries")
                    .col(big_integer("prize_id").primary_key())
                    .col(timestamp_with_time_zone("delivered_at"))
                    .col(text_null("photo"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("prize_deliveries", "prize_id")
                            .to("prize_draws", "prize_id"),
                    )
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        db.execute_unprepared("ALTER TABLE mail_outbox ADD COLUMN prize_id BIGINT")
            .await?;
        if manager.get_database_backend() == DatabaseBackend::Sqlite {
            db.execute_unprepared(&sqlite_triggers()).await?;
        } else {
            db.execute_unprepared(&postgres_triggers()).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        if manager.get_database_backend() == DatabaseBackend::Sqlite {
            db.execute_unprepared(
                "DROP TRIGGER purchases_after_freeze; DROP TRIGGER purchases_status_after_freeze;",
            )
            .await?;
        } else {
            db.execute_unprepared(
                "DROP TRIGGER purchases_after_freeze ON purchases; \
                 DROP TRIGGER purchases_status_after_freeze ON purchases; \
                 DROP FUNCTION refuse_purchase_after_freeze();",
            )
            .await?;
        }
        db.execute_unprepared("ALTER TABLE mail_outbox DROP COLUMN prize_id")
            .await?;
        // Dropping a table drops its triggers (and the functions are then unused).
        for table in APPEND_ONLY.into_iter().chain(["raffle_prizes"]) {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        if manager.get_database_backend() == DatabaseBackend::Postgres {
            db.execute_unprepared(
                "DROP FUNCTION refuse_change(); DROP FUNCTION refuse_locked_prize();",
            )
            .await?;
        }
        Ok(())
    }
}
