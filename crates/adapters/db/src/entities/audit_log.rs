use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "audit_log")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub actor_id: Option<i64>,
    pub actor: String,
    pub ip: Option<String>,
    pub action: String,
    pub target: Option<String>,
    /// `[{"field", "before", "after"}]` as JSON.
    pub changes: String,
    pub prev_hash: String,
    pub hash: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
