use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "mail_outbox")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The purchase a buyer's message is about; `None` for a release alert.
    pub purchase_id: Option<i64>,
    /// The raffle a release alert is about.
    pub raffle_id: Option<i64>,
    /// The prize a winner's message is about.
    pub prize_id: Option<i64>,
    /// `received`, `approved`, `rejected`, `expired`, `numbers_released`, `ledger_frozen` or
    /// `prize_won`.
    pub kind: String,
    pub recipient: String,
    pub lang: String,
    /// `pending`, `sent`, `failed` (gave up; an admin may retry) or `withheld` (over a
    /// recipient's cap; an admin may send it).
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: DateTime<Utc>,
    pub last_error: Option<String>,
    /// `hourly_cap` or `daily_cap` when withheld.
    pub withheld_reason: Option<String>,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
