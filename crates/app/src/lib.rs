//! Rifa's use cases: capability services that depend only on the domain and the ports.
//!
//! Each module is one capability: a service struct generic over exactly the ports it uses, and
//! the inbound trait (`…Service`) the API's handlers and workers depend on. Every use case has
//! its own error type naming what can go wrong. State several services share (caches, the
//! outbox's wake-up call, the CPU pool) lives in [`shared`] and is handed to each service that
//! needs it by the composition root. See docs/decisions/0013-capability-services.md.

pub mod audit;
pub mod auth;
pub mod buyer;
mod cache;
pub mod catalog;
pub mod cpu;
pub mod draws;
pub mod export;
pub mod holds;
pub mod links;
pub mod lookup;
pub mod mail;
pub mod payments;
pub mod photos;
pub mod proof_checks;
pub mod proof_queue;
pub mod proofs;
pub mod purchasing;
pub mod receipts;
pub mod review;
pub mod settings;
pub mod shared;
pub mod staff;

pub use shared::Shared;

use rifa_domain::FieldErrors;

/// A write of a simple record (payment method, rate, setting): invalid input, a missing record,
/// or a failure of the store.
#[derive(Debug, thiserror::Error)]
pub enum WriteFailure {
    #[error("invalid input")]
    Invalid(FieldErrors),
    #[error("not found")]
    NotFound,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

impl From<rifa_ports::WriteError> for WriteFailure {
    fn from(error: rifa_ports::WriteError) -> Self {
        match error {
            rifa_ports::WriteError::NotFound => Self::NotFound,
            rifa_ports::WriteError::MissingReference(field) => Self::Invalid(FieldErrors::single(
                field,
                rifa_domain::FieldError::Required,
            )),
            rifa_ports::WriteError::Unknown(e) => Self::Unknown(e),
        }
    }
}
