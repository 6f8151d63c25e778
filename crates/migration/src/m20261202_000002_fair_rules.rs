//! The fair rules and each prize's chain (issue 32, decision 0027).
//!
//! - `raffles.draw_rule`: the rule a raffle is drawn by, chosen before its first sale
//!   (`rifa-among-sold-v2` by default). Raffles with a real purchase or a frozen ledger were
//!   sold under the first rule and keep it: `rifa-rule-v1`. A trigger refuses a change once the
//!   raffle has a real purchase or a frozen ledger, as for its size and prizes.
//! - `draw_ledgers.rule`: the rule the freeze committed; ledgers frozen before are the first
//!   rule's.
//! - `raffle_prizes.lottery_digits` (how many of a result's last digits are read; none is the
//!   size's) and `lottery_deadline_hours` (none is 24): the lottery's place in the chain.
//! - `prize_results`: what each source of a prize's chain gave (append-only), recorded before
//!   the prize is settled; `prize_draws.source_index` names the source that decided. Draws made
//!   before are their prize's first source's result.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub struct Migration;

const LOCKED: &str = "(EXISTS (SELECT 1 FROM purchases WHERE raffle_id = NEW.id AND status <> 'test') \
     OR EXISTS (SELECT 1 FROM draw_ledgers WHERE raffle_id = NEW.id))";

const FIRST_RULE_FOR_SOLD: &str = "UPDATE raffles SET draw_rule = 'rifa-rule-v1' WHERE \
     EXISTS (SELECT 1 FROM purchases WHERE raffle_id = raffles.id AND status <> 'test') \
     OR EXISTS (SELECT 1 FROM draw_ledgers WHERE raffle_id = raffles.id)";

const RESULTS_OF_DRAWS: &str = "INSERT INTO prize_results (prize_id, source_index, raffle_id, \
     result_kind, lottery_result, published_on, official_url, beacon_round, beacon_randomness, \
     beacon_signature, recorded_at) SELECT prize_id, 0, raffle_id, result_kind, lottery_result, \
     published_on, official_url, beacon_round, beacon_randomness, beacon_signature, drawn_at \
     FROM prize_draws";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for (table, column) in [
            (
                "raffles",
                ColumnDef::new("draw_rule")
                    .string_len(32)
                    .not_null()
                    .default("rifa-among-sold-v2")
                    .to_owned(),
            ),
            (
                "draw_ledgers",
                ColumnDef::new("rule")
                    .string_len(32)
                    .not_null()
                    .default("rifa-rule-v1")
                    .to_owned(),
            ),
            (
                "raffle_prizes",
                ColumnDef::new("lottery_digits").integer().null().to_owned(),
            ),
            (
                "raffle_prizes",
                ColumnDef::new("lottery_deadline_hours")
                    .integer()
                    .null()
                    .to_owned(),
            ),
            (
                "prize_draws",
                ColumnDef::new("source_index")
                    .integer()
                    .not_null()
                    .default(0)
                    .to_owned(),
            ),
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(table)
                        .add_column(column.clone())
                        .to_owned(),
                )
                .await?;
        }
        manager
            .create_table(
                Table::create()
                    .table("prize_results")
                    .col(ColumnDef::new("prize_id").big_integer().not_null())
                    .col(ColumnDef::new("source_index").integer().not_null())
                    .col(ColumnDef::new("raffle_id").big_integer().not_null())
                    .col(ColumnDef::new("result_kind").string_len(16).not_null())
                    .col(ColumnDef::new("lottery_result").string_len(64).null())
                    .col(ColumnDef::new("published_on").date().null())
                    .col(ColumnDef::new("official_url").string_len(2048).null())
                    .col(ColumnDef::new("beacon_round").big_integer().null())
                    .col(ColumnDef::new("beacon_randomness").string_len(64).null())
                    .col(ColumnDef::new("beacon_signature").text().null())
                    .col(
                        ColumnDef::new("recorded_at")
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .primary_key(Index::create().col("prize_id").col("source_index"))
                    .foreign_key(
                        ForeignKey::create()
                            .from("prize_results", "prize_id")
                            .to("raffle_prizes", "id"),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from("prize_results", "raffle_id")
                            .to("raffles", "id"),
                    )
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        db.execute_unprepared(&format!("{FIRST_RULE_FOR_SOLD}; {RESULTS_OF_DRAWS};"))
            .await?;
        if manager.get_database_backend() == DatabaseBackend::Sqlite {
            db.execute_unprepared(&format!(
                "CREATE TRIGGER prize_results_append_only_update BEFORE UPDATE ON prize_results \
 BEGIN SELECT RAISE(ABORT, 'append_only: prize_results rows are never updated or deleted'); END;
CREATE TRIGGER prize_results_append_only_delete BEFORE DELETE ON prize_results \
 BEGIN SELECT RAISE(ABORT, 'append_only: prize_results rows are never updated or deleted'); END;
CREATE TRIGGER raffles_rule_locked BEFORE UPDATE OF draw_rule ON raffles \
 WHEN OLD.draw_rule IS NOT NEW.draw_rule AND {LOCKED} \
 BEGIN SELECT RAISE(ABORT, 'draw_rules_locked: the raffle has purchases or a frozen ledger'); END;"
            ))
            .await?;
        } else {
            db.execute_unprepared(&format!(
                "CREATE TRIGGER prize_results_append_only BEFORE UPDATE OR DELETE ON prize_results
  FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE FUNCTION refuse_locked_rule() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF {LOCKED} THEN
    RAISE EXCEPTION 'draw_rules_locked: raffle % has purchases or a frozen ledger', NEW.id;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER raffles_rule_locked BEFORE UPDATE OF draw_rule ON raffles
  FOR EACH ROW WHEN (OLD.draw_rule IS DISTINCT FROM NEW.draw_rule)
  EXECUTE FUNCTION refuse_locked_rule();"
            ))
            .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        if manager.get_database_backend() == DatabaseBackend::Sqlite {
            db.execute_unprepared("DROP TRIGGER raffles_rule_locked;")
                .await?;
        } else {
            db.execute_unprepared(
                "DROP TRIGGER raffles_rule_locked ON raffles; DROP FUNCTION refuse_locked_rule();",
            )
            .await?;
        }
        manager
            .drop_table(Table::drop().table("prize_results").to_owned())
            .await?;
        for (table, column) in [
            ("prize_draws", "source_index"),
            ("raffle_prizes", "lottery_deadline_hours"),
            ("raffle_prizes", "lottery_digits"),
            ("draw_ledgers", "rule"),
            ("raffles", "draw_rule"),
        ] {
            manager
                .alter_table(Table::alter().table(table).drop_column(column).to_owned())
                .await?;
        }
        Ok(())
    }
}
