//! Prizes handed over (append-only, migration `m20261127_000004`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "prize_deliveries")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub prize_id: i64,
    pub delivered_at: DateTimeUtc,
    pub photo: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
