pub mod create;
pub mod delete;
pub mod list;
pub mod update;

use actix_web::http::StatusCode;
use rifa_app::payments::RateFailure;

use crate::error::{ApiError, Text};

impl From<RateFailure> for ApiError {
    fn from(failure: RateFailure) -> Self {
        match failure {
            RateFailure::Invalid(fields) => Self::validation(&fields),
            RateFailure::NotFound => Self::not_found(),
            RateFailure::PairTaken(existing) => {
                let (from, to, id, rate) = (
                    existing.from.code(),
                    existing.to.code(),
                    existing.id,
                    existing.rate,
                );
                Self::new(
                    StatusCode::CONFLICT,
                    "exchange_rate_pair_taken",
                    Text::new(
                        format!(
                            "Ya existe la tasa {from} → {to} (n.º {id}: 1 {from} = {rate} {to}). \
                             Cada par de monedas tiene una sola tasa: edita esa."
                        ),
                        format!(
                            "A {from} → {to} rate already exists (no. {id}: 1 {from} = {rate} {to}). \
                             Each currency pair has one rate: edit that one."
                        ),
                    ),
                )
            }
            RateFailure::Unknown(e) => Self::internal(&e),
        }
    }
}
