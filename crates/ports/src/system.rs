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
