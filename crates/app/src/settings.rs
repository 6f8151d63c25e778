//! Branding, e-mail settings and the discount table.

use rifa_domain::branding::{Branding, BrandingPatch};
use rifa_domain::email_settings::{EmailSettings, EmailSettingsInput};
use rifa_domain::pricing::{DiscountTable, DiscountTier};
use rifa_domain::{FieldError, FieldErrors};
use std::sync::Arc;

use rifa_ports::SettingsRepository;

use crate::WriteFailure;
use crate::shared::{PurchaseTermsCache, Shared};

/// The operator's settings: branding, e-mail settings, the discount table.
#[async_trait::async_trait]
pub trait SettingsService: Send + Sync + 'static {
    /// The saved branding, or the spec's defaults.
    ///
    /// # Errors
    /// Storage failures only.
    async fn branding(&self) -> anyhow::Result<Branding>;

    /// # Errors
    /// `Invalid` with every bad field, or a storage failure.
    async fn update_branding(&self, patch: BrandingPatch) -> Result<Branding, WriteFailure>;

    /// # Errors
    /// Storage failures only.
    async fn email_settings(&self) -> anyhow::Result<EmailSettings>;

    /// # Errors
    /// `Invalid` with every bad field, or a storage failure.
    async fn update_email_settings(
        &self,
        input: EmailSettingsInput,
    ) -> Result<EmailSettings, WriteFailure>;

    /// # Errors
    /// Storage failures only.
    async fn discounts(&self) -> anyhow::Result<DiscountTable>;

    /// # Errors
    /// `Invalid` or a storage failure.
    async fn update_discounts(
        &self,
        tiers: Vec<DiscountTier>,
    ) -> Result<DiscountTable, WriteFailure>;
}

/// Settings over their store. A new discount table drops the purchase terms purchasing caches.
pub struct Settings<S> {
    store: S,
    purchase_terms: Arc<PurchaseTermsCache>,
}

impl<S: SettingsRepository> Settings<S> {
    pub fn new(store: S, shared: &Shared) -> Self {
        Self {
            store,
            purchase_terms: Arc::clone(&shared.purchase_terms),
        }
    }
}

#[async_trait::async_trait]
impl<S: SettingsRepository> SettingsService for Settings<S> {
    async fn branding(&self) -> anyhow::Result<Branding> {
        Ok(self.store.branding().await?.unwrap_or_default())
    }

    async fn update_branding(&self, patch: BrandingPatch) -> Result<Branding, WriteFailure> {
        let next = self
            .branding()
            .await?
            .apply(patch)
            .map_err(WriteFailure::Invalid)?;
        self.store.save_branding(&next).await?;
        Ok(next)
    }

    async fn email_settings(&self) -> anyhow::Result<EmailSettings> {
        Ok(self.store.email_settings().await?.unwrap_or_default())
    }

    async fn update_email_settings(
        &self,
        input: EmailSettingsInput,
    ) -> Result<EmailSettings, WriteFailure> {
        let next = self
            .email_settings()
            .await?
            .apply(input)
            .map_err(WriteFailure::Invalid)?;
        self.store.save_email_settings(&next).await?;
        Ok(next)
    }

    async fn discounts(&self) -> anyhow::Result<DiscountTable> {
        Ok(self.store.discounts().await?.unwrap_or_default())
    }

    async fn update_discounts(
        &self,
        tiers: Vec<DiscountTier>,
    ) -> Result<DiscountTable, WriteFailure> {
        let table = DiscountTable::new(tiers)
            .map_err(|e: FieldError| WriteFailure::Invalid(FieldErrors::single("tiers", e)))?;
        self.store.save_discounts(&table).await?;
        self.purchase_terms.changed();
        Ok(table)
    }
}
