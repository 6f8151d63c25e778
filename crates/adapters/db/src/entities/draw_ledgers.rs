//! Frozen ledgers (append-only, migration `m20261127_000004`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "draw_ledgers")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub raffle_id: i64,
    pub salt: String,
    pub root: String,
    pub size: i32,
    pub frozen_at: DateTimeUtc,
    /// The raffle's size when frozen (migration `m20261202_000001`).
    pub max_tickets: i32,
    /// The rule the freeze committed (migration `m20261202_000002`).
    pub rule: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
