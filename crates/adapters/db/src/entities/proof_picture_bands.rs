//! Proof pictures filed by the bands of their perceptual hash (migration `m20261127_000005`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "proof_picture_bands")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub band: i16,
    /// The band's 16 bits, as a non-negative number.
    #[sea_orm(primary_key, auto_increment = false)]
    pub bits: i32,
    #[sea_orm(primary_key, auto_increment = false)]
    pub purchase_id: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
