use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

/// Every error answer. `fields` appears on validation errors; `numbers` on `tickets_taken`;
/// `expectedTotal` on `total_mismatch`; `retryAfterSeconds` on `rate_limited`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    /// Stable, snake_case: what a program matches on.
    #[schema(example = "validation_failed")]
    pub code: String,
    /// For people, in the language the request asked for (`Accept-Language`), Spanish by default.
    pub message: String,
    #[schema(required = false)]
    pub fields: Option<BTreeMap<String, String>>,
    #[schema(required = false)]
    pub numbers: Option<Vec<u32>>,
    #[schema(required = false)]
    pub expected_total: Option<String>,
    #[schema(required = false)]
    pub retry_after_seconds: Option<u64>,
    #[schema(required = false)]
    pub highest_held: Option<u32>,
    /// `too_few_left`: the numbers still free.
    #[schema(required = false)]
    pub available: Option<u32>,
    #[schema(required = false)]
    pub detail: Option<String>,
    /// `forbidden`: the permission the route needs, which the caller's role lacks.
    #[schema(required = false, example = "settings")]
    pub permission: Option<String>,
}
