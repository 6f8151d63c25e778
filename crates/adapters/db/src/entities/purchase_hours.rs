//! Kept by the database's triggers (migration `m20261127_000002`); read, never written here.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "purchase_hours")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub hour: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub shard: i16,
    pub purchases: i64,
    pub pending: i64,
    pub tickets: i64,
    pub revenue_cents: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
