//! Each prize's draw (append-only, migration `m20261127_000004`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "prize_draws")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub prize_id: i64,
    pub raffle_id: i64,
    pub result_kind: String,
    pub lottery_result: Option<String>,
    pub published_on: Option<Date>,
    pub official_url: Option<String>,
    pub beacon_round: Option<i64>,
    pub beacon_randomness: Option<String>,
    pub beacon_signature: Option<String>,
    pub drawn_number: i32,
    pub winning_number: Option<i32>,
    pub winner_purchase_id: Option<i64>,
    /// The rule's steps as JSON.
    pub steps: String,
    pub drawn_at: DateTimeUtc,
    /// The source of the prize's chain that decided (0 its own; migration `m20261202_000002`).
    pub source_index: i32,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
