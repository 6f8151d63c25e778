use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "purchase_tickets")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub purchase_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub number: i32,
    pub raffle_id: i64,
    pub held: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
