//! What each source of a prize's chain gave (append-only, migration `m20261202_000002`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "prize_results")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub prize_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub source_index: i32,
    pub raffle_id: i64,
    pub result_kind: String,
    pub lottery_result: Option<String>,
    pub published_on: Option<Date>,
    pub official_url: Option<String>,
    pub beacon_round: Option<i64>,
    pub beacon_randomness: Option<String>,
    pub beacon_signature: Option<String>,
    pub recorded_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
