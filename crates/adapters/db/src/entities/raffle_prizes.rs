//! A raffle's prizes (migration `m20261127_000004`): writable only while the raffle has no real
//! purchase (a trigger refuses the rest).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "raffle_prizes")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub raffle_id: i64,
    pub position: i32,
    pub title: String,
    pub description: String,
    pub image: Option<String>,
    pub source_kind: String,
    pub lottery_name: Option<String>,
    pub lottery_draw_date: Option<Date>,
    /// `HH:MM` on the lottery's clock; none (prizes saved before `m20261202_000001`) is the
    /// day's first minute.
    pub lottery_draw_time: Option<String>,
    /// The lottery's IANA time zone; none is the default (`America/Caracas`).
    pub lottery_time_zone: Option<String>,
    pub source_url: Option<String>,
    /// Digits of a lottery result read under the among-sold rule; none is the size's
    /// (migration `m20261202_000002`).
    pub lottery_digits: Option<i32>,
    /// Hours after its draw a lottery result may be recorded; none is 24.
    pub lottery_deadline_hours: Option<i32>,
    pub beacon_round: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
