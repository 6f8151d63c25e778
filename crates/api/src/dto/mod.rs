//! The API's JSON shapes (camelCase, as the frontend reads them) and their conversions from
//! domain values. Money travels as decimal strings with two decimals (`"26.00"`), rates as
//! decimal strings, instants as RFC 3339 UTC.

mod admin;
mod audit;
mod buyer;
pub mod csv;
mod draw;
mod error;
mod mail;
mod payment;
mod proof;
mod purchase;
mod raffle;
mod settings;

pub use admin::*;
pub use audit::*;
pub use buyer::*;
pub use draw::*;
pub use error::*;
pub use mail::*;
pub use payment::*;
pub use proof::*;
pub use purchase::*;
pub use raffle::*;
pub use settings::*;

use chrono::{DateTime, SecondsFormat, Utc};

pub fn instant(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}
