//! The admin's side of purchases: finding them, deciding them, and the dashboard figures.

use chrono::{DateTime, Utc};
use rifa_domain::FieldErrors;
use rifa_domain::purchase::{NotPending, Purchase, PurchaseId, Verdict};
use rifa_domain::stats::DashboardStats;
use rifa_ports::{DecidePurchaseError, EventBus, PurchasePage, PurchaseQuery};

use crate::{App, Store};

/// The largest page an admin may ask for, so one call never loads the whole table.
pub const MAX_PAGE_SIZE: u32 = 100;
/// The most purchases the plain (unpaged) list returns.
pub const LIST_CAP: u32 = 1_000;

/// A page of purchases with the page actually served.
#[derive(Debug, Clone, PartialEq)]
pub struct PageOf {
    pub result: PurchasePage,
    pub page: u32,
    pub page_size: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum DecideError {
    #[error("invalid verdict")]
    Invalid(FieldErrors),
    #[error("purchase not found")]
    NotFound,
    #[error(transparent)]
    NotPending(NotPending),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

impl<S: Store, E: EventBus> App<S, E> {
    /// One page of matching purchases; the page size is kept within 1..=[`MAX_PAGE_SIZE`].
    ///
    /// # Errors
    /// Storage failures only.
    pub async fn search_purchases(&self, mut query: PurchaseQuery) -> anyhow::Result<PageOf> {
        query.page = query.page.max(1);
        query.page_size = query.page_size.clamp(1, MAX_PAGE_SIZE);
        let result = self.store.search_purchases(&query).await?;
        Ok(PageOf {
            result,
            page: query.page,
            page_size: query.page_size,
        })
    }

    /// The newest [`LIST_CAP`] matching purchases, for the spec's plain list.
    ///
    /// # Errors
    /// Storage failures only.
    pub async fn all_purchases(&self, mut query: PurchaseQuery) -> anyhow::Result<PurchasePage> {
        query.page = 1;
        query.page_size = LIST_CAP;
        self.store.search_purchases(&query).await
    }

    /// # Errors
    /// Storage failures only; a missing purchase is `Ok(None)`.
    pub async fn purchase_by_id(&self, id: PurchaseId) -> anyhow::Result<Option<Purchase>> {
        self.store.get_purchase(id).await
    }

    /// Approves or rejects a pending purchase; a rejection frees its numbers at once.
    ///
    /// # Errors
    /// `Invalid` (unknown status, rejection without notes), `NotFound`, `NotPending` when it was
    /// already decided, or a storage failure.
    pub async fn decide_purchase(
        &self,
        id: PurchaseId,
        status: &str,
        notes: Option<&str>,
    ) -> Result<Purchase, DecideError> {
        let verdict = Verdict::parse(status, notes).map_err(|e| {
            DecideError::Invalid(FieldErrors::single(
                if matches!(e, rifa_domain::FieldError::UnknownOption { .. }) {
                    "status"
                } else {
                    "adminNotes"
                },
                e,
            ))
        })?;
        let purchase = self
            .store
            .decide_purchase(id, &verdict, self.now())
            .await
            .map_err(|e| match e {
                DecidePurchaseError::NotFound => DecideError::NotFound,
                DecidePurchaseError::NotPending(current) => {
                    DecideError::NotPending(NotPending { current })
                }
                DecidePurchaseError::Unknown(e) => DecideError::Unknown(e),
            })?;
        if !purchase.status.holds_numbers() {
            self.holds_changed(purchase.raffle_id);
        }
        self.mail_queued();
        tracing::info!(
            purchase.id = id,
            status = purchase.status.as_str(),
            "purchase decided"
        );
        Ok(purchase)
    }

    /// # Errors
    /// Storage failures only.
    pub async fn dashboard_stats(
        &self,
        created: Option<(DateTime<Utc>, DateTime<Utc>)>,
    ) -> anyhow::Result<DashboardStats> {
        self.store.dashboard_stats(created).await
    }
}
