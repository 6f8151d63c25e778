use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;

/// A purchase's history, append-only.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "purchase_events")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub purchase_id: i64,
    /// `received`, `proof_attached`, `approved`, `rejected`, `expired` or `reopened`.
    pub kind: String,
    pub at: DateTime<Utc>,
    pub note: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
