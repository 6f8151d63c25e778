//! Proof checks (migration `m20261127_000005`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "proof_checks")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub purchase_id: i64,
    pub object_key: String,
    /// `pending`, `done` or `failed` (gave up).
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: DateTimeUtc,
    pub lease_until: Option<DateTimeUtc>,
    pub sha256: Option<String>,
    /// The picture's perceptual hash, hex.
    pub picture_hash: Option<String>,
    /// The key of the reference read on the proof.
    pub read_reference: Option<String>,
    /// What was read from the proof.
    pub text: Option<String>,
    pub light: Option<String>,
    /// The signals as JSON.
    pub signals: Option<String>,
    pub checked_at: Option<DateTimeUtc>,
    pub last_error: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
