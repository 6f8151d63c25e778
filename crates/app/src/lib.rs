//! Rifa's use cases: application services that depend only on the domain and the ports.
//!
//! [`App`] holds the ports; each module adds the operations of one capability as methods, each
//! with its own error type naming what can go wrong.

pub mod auth;
mod cache;
pub mod catalog;
pub mod cpu;
pub mod mail;
pub mod payments;
pub mod proofs;
pub mod purchasing;
pub mod review;
pub mod settings;
pub mod verification;

use std::sync::Arc;

use rifa_domain::FieldErrors;
use rifa_ports::outbound::MailComposer;
use rifa_ports::{
    AccessKeys, AdminRepository, Clock, EventBus, ExchangeRateRepository, MailOutbox,
    PasswordHasher, PaymentMethodRepository, PurchaseProofs, PurchaseRepository, RaffleRepository,
    ReferenceGenerator, SettingsRepository, TokenIssuer,
};
use tokio::sync::Notify;

/// Everything the use cases need from storage, implemented by one adapter.
pub trait Store:
    RaffleRepository
    + PurchaseRepository
    + PurchaseProofs
    + MailOutbox
    + PaymentMethodRepository
    + ExchangeRateRepository
    + SettingsRepository
    + AdminRepository
{
}

impl<T> Store for T where
    T: RaffleRepository
        + PurchaseRepository
        + PurchaseProofs
        + MailOutbox
        + PaymentMethodRepository
        + ExchangeRateRepository
        + SettingsRepository
        + AdminRepository
{
}

/// The services an [`App`] is built from besides storage and the event bus.
pub struct Services {
    pub clock: Arc<dyn Clock>,
    pub references: Arc<dyn ReferenceGenerator>,
    pub hasher: Arc<dyn PasswordHasher>,
    pub tokens: Arc<dyn TokenIssuer>,
    pub access_keys: Arc<dyn AccessKeys>,
    /// Words the e-mails the use cases decide to send.
    pub mail_composer: Arc<dyn MailComposer>,
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
    access_keys: Arc<dyn AccessKeys>,
    mail_composer: Arc<dyn MailComposer>,
    /// Where password checks and receipts are computed, off the async workers.
    cpu: cpu::CpuPool,
    /// Woken when an e-mail is put in the outbox, so delivery starts at once instead of at the
    /// worker's next poll.
    mail_due: Notify,
}

impl<S: Store, E: EventBus> App<S, E> {
    pub fn new(store: S, events: E, services: Services) -> Self {
        let Services {
            clock,
            references,
            hasher,
            tokens,
            access_keys,
            mail_composer,
        } = services;
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
            access_keys,
            mail_composer,
            cpu: cpu::CpuPool::sized_to_cores(),
            mail_due: Notify::new(),
        }
    }

    fn mail_queued(&self) {
        self.mail_due.notify_one();
    }

    /// The store, for the composition root's own needs (readiness checks, demo data).
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The event bus, for the composition root to subscribe live connections to.
    pub fn events(&self) -> &E {
        &self.events
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
