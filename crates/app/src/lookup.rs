//! A buyer checks their tickets by e-mail or phone.
//!
//! The answer shows in full only what the asker typed; the name and the other contact are masked
//! so the lookup cannot be used to collect buyers' details.

use std::collections::BTreeSet;
use std::sync::Arc;

use rifa_domain::FieldErrors;
use rifa_domain::lookup::{self, LookupKey, LookupMiss};
use rifa_domain::purchase::Purchase;
use rifa_domain::raffle::{Raffle, RaffleId};
use rifa_ports::{PurchaseRepository, RaffleRepository};

use crate::shared::{RaffleTermsCache, Shared};

/// Recent purchases looked at per lookup; far more than any real buyer has.
const LOOKUP_LIMIT: u32 = 200;

#[derive(Debug, Clone, PartialEq)]
pub struct Verification {
    pub customer_name: String,
    pub customer_email: String,
    pub customer_phone: String,
    /// One entry per purchase in an active raffle, newest first.
    pub entries: Vec<(Raffle, Purchase)>,
}

#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("invalid lookup")]
    Invalid(FieldErrors),
    #[error("nothing to show")]
    Miss(LookupMiss),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// A buyer's look at their own tickets.
#[async_trait::async_trait]
pub trait LookupService: Send + Sync + 'static {
    /// # Errors
    /// `Invalid` for a blank or malformed value; `Miss` when there is nothing to show.
    async fn verify_tickets(
        &self,
        email: Option<&str>,
        phone: Option<&str>,
    ) -> Result<Verification, VerifyError>;
}

/// The lookup over its ports: the buyer's purchases and their raffles' terms from `S`.
pub struct Lookup<S> {
    store: S,
    raffle_terms: Arc<RaffleTermsCache>,
}

impl<S: PurchaseRepository + RaffleRepository> Lookup<S> {
    pub fn new(store: S, shared: &Shared) -> Self {
        Self {
            store,
            raffle_terms: Arc::clone(&shared.raffle_terms),
        }
    }
}

#[async_trait::async_trait]
impl<S: PurchaseRepository + RaffleRepository> LookupService for Lookup<S> {
    async fn verify_tickets(
        &self,
        email: Option<&str>,
        phone: Option<&str>,
    ) -> Result<Verification, VerifyError> {
        let key = LookupKey::parse(email, phone)
            .map_err(|(field, e)| VerifyError::Invalid(FieldErrors::single(field, e)))?;
        let purchases = self.store.purchases_of(&key, LOOKUP_LIMIT).await?;
        let Some(latest) = purchases.first() else {
            return Err(VerifyError::Miss(LookupMiss::NoPurchases));
        };
        let (customer_email, customer_phone) = match &key {
            LookupKey::Email(email) => (
                email.as_str().to_owned(),
                lookup::mask_phone(&latest.customer_phone),
            ),
            LookupKey::Phone(_) => (
                lookup::mask_email(&latest.customer_email),
                latest.customer_phone.clone(),
            ),
        };
        let customer_name = lookup::mask_name(&latest.customer_name);
        // Only the buyer's own raffles, from the per-raffle cache: no listing, no sales counts.
        let wanted: BTreeSet<RaffleId> = purchases.iter().map(|p| p.raffle_id).collect();
        let mut active: Vec<Arc<Raffle>> = Vec::with_capacity(wanted.len());
        for id in wanted {
            if let Some(raffle) = self
                .raffle_terms
                .get(&self.store, id)
                .await?
                .filter(|r| r.status.is_on_sale())
            {
                active.push(raffle);
            }
        }
        let entries: Vec<(Raffle, Purchase)> = purchases
            .into_iter()
            .filter_map(|p| {
                active
                    .iter()
                    .find(|r| r.id == p.raffle_id)
                    .map(|r| (Raffle::clone(r), p))
            })
            .collect();
        if entries.is_empty() {
            return Err(VerifyError::Miss(LookupMiss::NoneInActiveRaffles));
        }
        Ok(Verification {
            customer_name,
            customer_email,
            customer_phone,
            entries,
        })
    }
}
