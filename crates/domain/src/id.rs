//! Record ids as types of their own, so a purchase's id cannot be passed where a raffle's is
//! wanted. Each wraps the database's `i64` key; the edge builds them from paths and bodies, the
//! database adapter from rows.

/// Declares an id newtype over `i64`.
macro_rules! record_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(transparent))]
        pub struct $name(i64);

        impl $name {
            /// Any value is a well-formed id; one that names no record simply finds nothing.
            #[must_use]
            pub const fn new(raw: i64) -> Self {
                Self(raw)
            }

            #[must_use]
            pub const fn get(self) -> i64 {
                self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

record_id!(
    /// A raffle's id.
    RaffleId
);
record_id!(
    /// A purchase's id.
    PurchaseId
);
record_id!(
    /// A payment method's id.
    PaymentMethodId
);
record_id!(
    /// An exchange rate's id.
    ExchangeRateId
);
record_id!(
    /// An admin account's id.
    AdminId
);
record_id!(
    /// An e-mail of the outbox.
    MailId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_shows_and_gives_back_its_number() {
        let id = RaffleId::new(42);
        assert_eq!(id.get(), 42);
        assert_eq!(id.to_string(), "42");
        assert!(PurchaseId::new(1) < PurchaseId::new(2));
    }
}
record_id!(
    /// A prize's id.
    PrizeId
);
