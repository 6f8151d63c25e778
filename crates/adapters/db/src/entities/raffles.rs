use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "raffles")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub title: String,
    pub description: String,
    pub image: String,
    pub price_cents: i64,
    pub status: String,
    pub max_tickets: i32,
    /// The rule the raffle is drawn by (migration `m20261202_000002`).
    pub draw_rule: String,
    pub min_per_purchase: Option<i32>,
    pub max_per_purchase: Option<i32>,
    pub draw_date: Option<DateTime<Utc>>,
    pub end_date: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    /// Minutes a purchase without a proof holds its numbers.
    pub hold_minutes: i32,
    /// Sales close this many hours before the draw.
    pub sales_close_hours: i32,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
