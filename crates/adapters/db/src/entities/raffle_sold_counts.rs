//! Kept by the database's triggers (migration `m20261127_000001`); read, never written here.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "raffle_sold_counts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub raffle_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub shard: i16,
    pub sold: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
