//! Rifa's use cases: application services that depend only on the domain and the ports.
//!
//! [`App`] holds the ports; each module adds the operations of one capability as methods, each
//! with its own error type naming what can go wrong.

pub mod auth;
mod cache;
pub mod catalog;
pub mod payments;
pub mod purchasing;
pub mod review;
pub mod settings;
pub mod verification;

use std::sync::Arc;

use rifa_domain::FieldErrors;
use rifa_ports::{
    AdminRepository, Clock, EventBus, ExchangeRateRepository, PasswordHasher,
    PaymentMethodRepository, PurchaseRepository, RaffleRepository, ReferenceGenerator,
    SettingsRepository, TokenIssuer,
};

/// Everything the use cases need from storage, implemented by one adapter.
pub trait Store:
    RaffleRepository
    + PurchaseRepository
    + PaymentMethodRepository
    + ExchangeRateRepository
    + SettingsRepository
    + AdminRepository
{
}

impl<T> Store for T where
    T: RaffleRepository
        + PurchaseRepository
        + PaymentMethodRepository
        + ExchangeRateRepository
        + SettingsRepository
        + AdminRepository
{
}

/// The application: ports in, use cases out.
pub struct App<S: Store, E: EventBus> {
    store: S,
    /// Availability bitmaps by raffle.
    availability: cache::Cache<rifa_domain::raffle::RaffleId, catalog::Availability>,
    /// Raffles' terms (status, price, size, limits), read by every purchase and picker.
    raffle_terms: cache::Cache<rifa_domain::raffle::RaffleId, rifa_domain::raffle::Raffle>,
    /// The active payment methods and the discount table, read by every purchase.
    purchase_terms: cache::Cache<(), purchasing::PurchaseTerms>,
    events: E,
    clock: Arc<dyn Clock>,
    references: Arc<dyn ReferenceGenerator>,
    hasher: Arc<dyn PasswordHasher>,
    tokens: Arc<dyn TokenIssuer>,
}

impl<S: Store, E: EventBus> App<S, E> {
    pub fn new(
        store: S,
        events: E,
        clock: Arc<dyn Clock>,
        references: Arc<dyn ReferenceGenerator>,
        hasher: Arc<dyn PasswordHasher>,
        tokens: Arc<dyn TokenIssuer>,
    ) -> Self {
        Self {
            store,
            availability: cache::Cache::default(),
            raffle_terms: cache::Cache::default(),
            purchase_terms: cache::Cache::default(),
            events,
            clock,
            references,
            hasher,
            tokens,
        }
    }

    /// The store, for the composition root's own needs (readiness checks, demo data).
    pub fn store(&self) -> &S {
        &self.store
    }
}

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
