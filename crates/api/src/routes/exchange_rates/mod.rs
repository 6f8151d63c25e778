pub mod create;
pub mod delete;
pub mod list;
pub mod update;

use actix_web::http::StatusCode;
use rifa_app::payments::RateFailure;

use crate::error::ApiError;

impl From<RateFailure> for ApiError {
    fn from(failure: RateFailure) -> Self {
        match failure {
            RateFailure::NotFound => Self::not_found(),
            RateFailure::PairTaken(existing) => {
                Self::new(StatusCode::CONFLICT, "exchange_rate_pair_taken")
                    .text("from", existing.from.code())
                    .text("to", existing.to.code())
                    .text("id", existing.id.to_string())
                    .text("rate", existing.rate.to_string())
            }
            RateFailure::Unknown(e) => Self::internal(&e),
        }
    }
}
