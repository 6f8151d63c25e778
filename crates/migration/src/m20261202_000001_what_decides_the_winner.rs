//! What decides the winner is fixed before it can be known (issue 32, decision 0025).
//!
//! The size: the rule reads as many digits of a result as the raffle's size has, and a beacon
//! is reduced modulo it. So the size is committed with the ledger, and cannot change once a
//! real purchase exists, whoever writes.
//!
//! - `draw_ledgers.max_tickets`: the size when the ledger was frozen; the draw and every
//!   verifier read it, never the raffle's current one. Ledgers frozen before this migration take
//!   the raffle's size now (the append-only trigger is lifted for that one backfill).
//! - A trigger on `raffles` refuses a change of `max_tickets` while the raffle has a real
//!   purchase or a frozen ledger, as `raffle_prizes`' trigger does for the prizes.
//!
//! The time a lottery draws: `raffle_prizes.lottery_draw_time` (`HH:MM`) and
//! `lottery_time_zone` (IANA), so the freeze can be refused unless every source draws after it.
//! Prizes saved before have neither: their draw is read as the day's first minute in
//! America/Caracas, the strictest reading of a date.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// As in `m20261127_000004`: a real purchase (test purchases lock nothing) or a frozen ledger.
const LOCKED: &str = "(EXISTS (SELECT 1 FROM purchases WHERE raffle_id = NEW.id AND status <> 'test') \
     OR EXISTS (SELECT 1 FROM draw_ledgers WHERE raffle_id = NEW.id))";

const BACKFILL: &str = "UPDATE draw_ledgers SET max_tickets = \
     (SELECT max_tickets FROM raffles WHERE raffles.id = draw_ledgers.raffle_id)";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table("raffle_prizes")
                    .add_column(ColumnDef::new("lottery_draw_time").string_len(5).null())
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table("raffle_prizes")
                    .add_column(ColumnDef::new("lottery_time_zone").string_len(64).null())
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table("draw_ledgers")
                    .add_column(
                        ColumnDef::new("max_tickets")
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        if manager.get_database_backend() == DatabaseBackend::Sqlite {
            db.execute_unprepared(&format!(
                "DROP TRIGGER draw_ledgers_append_only_update;
{BACKFILL};
CREATE TRIGGER draw_ledgers_append_only_update BEFORE UPDATE ON draw_ledgers \
 BEGIN SELECT RAISE(ABORT, 'append_only: draw_ledgers rows are never updated or deleted'); END;
CREATE TRIGGER raffles_size_locked BEFORE UPDATE OF max_tickets ON raffles \
 WHEN OLD.max_tickets IS NOT NEW.max_tickets AND {LOCKED} \
 BEGIN SELECT RAISE(ABORT, 'draw_size_locked: the raffle has purchases or a frozen ledger'); END;"
            ))
            .await?;
        } else {
            db.execute_unprepared(&format!(
                "ALTER TABLE draw_ledgers DISABLE TRIGGER draw_ledgers_append_only;
{BACKFILL};
ALTER TABLE draw_ledgers ENABLE TRIGGER draw_ledgers_append_only;
CREATE FUNCTION refuse_locked_size() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF {LOCKED} THEN
    RAISE EXCEPTION 'draw_size_locked: raffle % has purchases or a frozen ledger', NEW.id;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER raffles_size_locked BEFORE UPDATE OF max_tickets ON raffles
  FOR EACH ROW WHEN (OLD.max_tickets IS DISTINCT FROM NEW.max_tickets)
  EXECUTE FUNCTION refuse_locked_size();"
            ))
            .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        if manager.get_database_backend() == DatabaseBackend::Sqlite {
            db.execute_unprepared("DROP TRIGGER raffles_size_locked;")
                .await?;
        } else {
            db.execute_unprepared(
                "DROP TRIGGER raffles_size_locked ON raffles; DROP FUNCTION refuse_locked_size();",
            )
            .await?;
        }
        for (table, column) in [
            ("draw_ledgers", "max_tickets"),
            ("raffle_prizes", "lottery_time_zone"),
            ("raffle_prizes", "lottery_draw_time"),
        ] {
            manager
                .alter_table(Table::alter().table(table).drop_column(column).to_owned())
                .await?;
        }
        Ok(())
    }
}
