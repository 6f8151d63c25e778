//! The sold numbers of frozen ledgers (append-only, migration `m20261127_000004`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "draw_ledger_entries")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub raffle_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub number: i32,
    pub tag: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
