use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;

/// Someone who wants one notice when numbers of a raffle come back on sale.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "release_alerts")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub raffle_id: i64,
    pub email: String,
    pub lang: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
