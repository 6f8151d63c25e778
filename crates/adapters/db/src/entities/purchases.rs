use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "purchases")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub reference: String,
    pub raffle_id: i64,
    pub customer_name: String,
    pub customer_name_folded: String,
    pub customer_id_document: String,
    pub customer_email: String,
    pub customer_phone: String,
    pub customer_phone_digits: String,
    pub customer_country: String,
    pub payment_method_id: Option<i64>,
    pub payment_method_name: String,
    pub conversion_currency: Option<String>,
    pub conversion_rate: Option<String>,
    /// JSON array of the purchase's numbers, ascending (immutable after creation).
    pub ticket_numbers: String,
    pub ticket_count: i32,
    pub total_cents: i64,
    pub discount_cents: i64,
    pub status: String,
    pub created_at: DateTime<Utc>,
    pub decided_at: Option<DateTime<Utc>>,
    pub payment_proof: Option<String>,
    pub admin_notes: Option<String>,
    /// The buyer's language (`es`, `en`), for the e-mails written to them.
    pub lang: String,
    /// SHA-256 (hex) of the buyer's access key; `None` for test purchases.
    pub access_digest: Option<String>,
    /// The object key of the proof upload last granted, until it is attached.
    pub upload_key: Option<String>,
    /// Why the last proof sent was refused (`too_large`, `wrong_type`, `missing`).
    pub proof_problem: Option<String>,
    /// How many upload URLs the buyer has been granted, capped so one purchase's key cannot
    /// fill the store.
    pub upload_grants: i32,
    /// When `upload_key` was granted (the migration dated the grants pending when it ran).
    pub upload_granted_at: Option<DateTime<Utc>>,
    /// Until when a pending purchase without a proof holds its numbers; cleared by a proof, a
    /// decision or expiry.
    pub hold_expires_at: Option<DateTime<Utc>>,
    /// The buyer's ID document, letters and digits in upper case (see `BuyerKeys`).
    pub buyer_document_key: String,
    /// The last ten digits of the buyer's phone.
    pub buyer_phone_key: String,
    /// The payment reference the buyer typed, trimmed.
    pub payment_reference: Option<String>,
    /// Its letters and digits in upper case: unique per method among live purchases.
    pub payment_reference_key: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
