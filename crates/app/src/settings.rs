//! Branding, e-mail settings and the discount table.

use rifa_domain::branding::{Branding, BrandingPatch};
use rifa_domain::email_settings::{EmailSettings, EmailSettingsInput};
use rifa_domain::pricing::{DiscountTable, DiscountTier};
use rifa_domain::{FieldError, FieldErrors};
use rifa_ports::EventBus;

use crate::{App, Store, WriteFailure};

impl<S: Store, E: EventBus> App<S, E> {
    /// The saved branding, or the spec's defaults.
    ///
    /// # Errors
    /// Storage failures only.
    pub async fn branding(&self) -> anyhow::Result<Branding> {
        Ok(self.store.branding().await?.unwrap_or_default())
    }

    /// # Errors
    /// `Invalid` with every bad field, or a storage failure.
    pub async fn update_branding(&self, patch: BrandingPatch) -> Result<Branding, WriteFailure> {
        let next = self
            .branding()
            .await?
            .apply(patch)
            .map_err(WriteFailure::Invalid)?;
        self.store.save_branding(&next).await?;
        Ok(next)
    }

    /// # Errors
    /// Storage failures only.
    pub async fn email_settings(&self) -> anyhow::Result<EmailSettings> {
        Ok(self.store.email_settings().await?.unwrap_or_default())
    }

    /// # Errors
    /// `Invalid` with every bad field, or a storage failure.
    pub async fn update_email_settings(
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

    /// # Errors
    /// Storage failures only.
    pub async fn discounts(&self) -> anyhow::Result<DiscountTable> {
        Ok(self.store.discounts().await?.unwrap_or_default())
    }

    /// # Errors
    /// `Invalid` or a storage failure.
    pub async fn update_discounts(
        &self,
        tiers: Vec<DiscountTier>,
    ) -> Result<DiscountTable, WriteFailure> {
        let table = DiscountTable::new(tiers)
            .map_err(|e: FieldError| WriteFailure::Invalid(FieldErrors::single("tiers", e)))?;
        self.store.save_discounts(&table).await?;
        self.purchase_terms_changed();
        Ok(table)
    }
}
