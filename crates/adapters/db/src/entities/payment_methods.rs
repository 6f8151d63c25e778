use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "payment_methods")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub name: String,
    pub kind: String,
    pub active: bool,
    /// JSON array of `[key, value]` pairs, in display order.
    pub details: String,
    pub exchange_rate_id: Option<i64>,
    /// Whether purchases paid with it must carry a payment reference.
    pub reference_required: bool,
    /// The fewest letters and digits a reference must have (0: any).
    pub reference_min_length: i16,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
