//! Time and identifiers, as ports so tests can pin them.

use chrono::{DateTime, Utc};

pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> DateTime<Utc>;
}

/// Makes the human-friendly purchase reference a buyer reads on the receipt.
pub trait ReferenceGenerator: Send + Sync + 'static {
    /// A fresh reference. Uniqueness is enforced by storage; a collision surfaces as
    /// [`crate::CreatePurchaseError::ReferenceTaken`] and the caller asks again.
    fn next_reference(&self) -> String;
}

/// Random salts for frozen ledgers (decision 0020): unpredictable, so a tag cannot be computed
/// from a reference before the ledger is published.
pub trait SaltGenerator: Send + Sync + 'static {
    fn salt(&self) -> [u8; 32];
}

// Shared handles: a test keeps one to move the clock while the services hold clones.
impl<T: Clock + ?Sized> Clock for std::sync::Arc<T> {
    fn now(&self) -> DateTime<Utc> {
        (**self).now()
    }
}

impl<T: ReferenceGenerator + ?Sized> ReferenceGenerator for std::sync::Arc<T> {
    fn next_reference(&self) -> String {
        (**self).next_reference()
    }
}
