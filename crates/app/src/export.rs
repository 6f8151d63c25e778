//! Exporting every purchase a search finds, however many: read in keyset batches, handed on as
//! they arrive, so the memory an export takes is one batch whatever the size of the year.

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::StreamExt;
use futures_util::stream::{self, BoxStream};
use rifa_domain::purchase::{Purchase, PurchaseCursor, PurchaseQuery};
use rifa_domain::raffle::RaffleId;
use rifa_domain::ticket::display_number;
use rifa_ports::{PurchaseRepository, RaffleRepository};

use crate::shared::{RaffleTermsCache, Shared};

/// Purchases per read: large enough that a million take a thousand reads, small enough that a
/// batch (and the text made of it) stays well under a megabyte.
pub const EXPORT_BATCH: u32 = 1_000;

/// A purchase as an export shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportedPurchase {
    /// Its numbers as people read them: zero-padded to its raffle's width.
    pub ticket_numbers: Vec<String>,
    pub purchase: Purchase,
}

pub trait ExportService: Send + Sync + 'static {
    /// Every purchase matching the filters of `query` (its page is ignored), newest first, in
    /// batches. Purchases arriving while it runs are newer than where it is, so none is
    /// repeated or skipped. The stream ends at the first storage failure, with that error.
    fn purchases(
        &self,
        query: PurchaseQuery,
    ) -> BoxStream<'static, anyhow::Result<Vec<ExportedPurchase>>>;
}

/// The export over its ports: purchases and raffle sizes from `S`.
pub struct Export<S> {
    store: S,
    raffle_terms: Arc<RaffleTermsCache>,
}

impl<S> Export<S>
where
    S: PurchaseRepository + RaffleRepository + Clone + Send + Sync + 'static,
{
    pub fn new(store: S, shared: &Shared) -> Self {
        Self {
            store,
            raffle_terms: Arc::clone(&shared.raffle_terms),
        }
    }
}

/// Where a running export is.
struct Walk<S> {
    store: S,
    raffle_terms: Arc<RaffleTermsCache>,
    query: PurchaseQuery,
    after: Option<PurchaseCursor>,
    /// Raffle sizes seen so far: a year of purchases spans a few hundred raffles.
    sizes: HashMap<RaffleId, u32>,
}

impl<S: PurchaseRepository + RaffleRepository> Walk<S> {
    async fn next_batch(mut self) -> anyhow::Result<Option<(Vec<ExportedPurchase>, Option<Self>)>> {
        let batch = self
            .store
            .purchases_after(&self.query, self.after, EXPORT_BATCH)
            .await?;
        let Some(last) = batch.last() else {
            return Ok(None);
        };
        self.after = Some(PurchaseCursor::after(last));
        let mut exported = Vec::with_capacity(batch.len());
        for purchase in batch {
            let size = self.size_of(purchase.raffle_id).await?;
            exported.push(ExportedPurchase {
                ticket_numbers: purchase
                    .ticket_numbers
                    .iter()
                    .map(|n| display_number(*n, size))
                    .collect(),
                purchase,
            });
        }
        let more = exported.len() == EXPORT_BATCH as usize;
        Ok(Some((exported, more.then_some(self))))
    }

    /// The raffle's number of tickets; a raffle deleted meanwhile pads to the narrowest width.
    async fn size_of(&mut self, raffle: RaffleId) -> anyhow::Result<u32> {
        if let Some(size) = self.sizes.get(&raffle) {
            return Ok(*size);
        }
        let size = self
            .raffle_terms
            .get(&self.store, raffle)
            .await?
            .map_or(0, |r| r.max_tickets);
        self.sizes.insert(raffle, size);
        Ok(size)
    }
}

impl<S> ExportService for Export<S>
where
    S: PurchaseRepository + RaffleRepository + Clone + Send + Sync + 'static,
{
    fn purchases(
        &self,
        query: PurchaseQuery,
    ) -> BoxStream<'static, anyhow::Result<Vec<ExportedPurchase>>> {
        let walk = Walk {
            store: self.store.clone(),
            raffle_terms: Arc::clone(&self.raffle_terms),
            query,
            after: None,
            sizes: HashMap::new(),
        };
        stream::try_unfold(Some(walk), |walk| async move {
            match walk {
                Some(walk) => walk.next_batch().await,
                None => Ok(None),
            }
        })
        .boxed()
    }
}
