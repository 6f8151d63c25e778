//! Payment methods and exchange rates.

use rifa_domain::exchange::{ExchangeRate, ExchangeRateDraft, ExchangeRateId};
use rifa_domain::payment::{Details, PaymentMethod, PaymentMethodDraft, PaymentMethodId};
use rust_decimal::Decimal;

use rifa_domain::FieldErrors;
use rifa_ports::{EventBus, RateWriteError};

use crate::{App, Store, WriteFailure};

/// Why an exchange rate could not be created or changed.
#[derive(Debug, thiserror::Error)]
pub enum RateFailure {
    #[error("invalid input")]
    Invalid(FieldErrors),
    #[error("not found")]
    NotFound,
    /// The currency pair already has this rate.
    #[error("the pair already has rate {}", .0.id)]
    PairTaken(ExchangeRate),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

impl From<RateWriteError> for RateFailure {
    fn from(error: RateWriteError) -> Self {
        match error {
            RateWriteError::NotFound => Self::NotFound,
            RateWriteError::PairTaken(rate) => Self::PairTaken(rate),
            RateWriteError::Unknown(e) => Self::Unknown(e),
        }
    }
}

/// A payment method as an admin submits it.
#[derive(Debug, Clone, Default)]
pub struct PaymentMethodInput {
    pub name: Option<String>,
    pub kind: Option<String>,
    pub active: Option<bool>,
    pub details: Details,
    pub exchange_rate_id: Option<i64>,
}

impl<S: Store, E: EventBus> App<S, E> {
    /// # Errors
    /// Storage failures only.
    pub async fn payment_methods(&self, active_only: bool) -> anyhow::Result<Vec<PaymentMethod>> {
        self.store.list_payment_methods(active_only).await
    }

    fn method_draft(input: PaymentMethodInput) -> Result<PaymentMethodDraft, WriteFailure> {
        PaymentMethodDraft::parse(
            input.name.as_deref(),
            input.kind.as_deref(),
            input.active,
            input.details,
            input.exchange_rate_id,
        )
        .map_err(WriteFailure::Invalid)
    }

    /// # Errors
    /// `Invalid` (including an unknown exchange rate) or a storage failure.
    pub async fn create_payment_method(
        &self,
        input: PaymentMethodInput,
    ) -> Result<PaymentMethod, WriteFailure> {
        let draft = Self::method_draft(input)?;
        let created = self.store.create_payment_method(&draft).await?;
        self.purchase_terms_changed();
        Ok(created)
    }

    /// # Errors
    /// `Invalid`, `NotFound` or a storage failure.
    pub async fn update_payment_method(
        &self,
        id: PaymentMethodId,
        input: PaymentMethodInput,
    ) -> Result<PaymentMethod, WriteFailure> {
        let draft = Self::method_draft(input)?;
        let updated = self.store.update_payment_method(id, &draft).await?;
        self.purchase_terms_changed();
        Ok(updated)
    }

    /// # Errors
    /// `NotFound` or a storage failure.
    pub async fn delete_payment_method(&self, id: PaymentMethodId) -> Result<(), WriteFailure> {
        self.store.delete_payment_method(id).await?;
        self.purchase_terms_changed();
        Ok(())
    }

    /// # Errors
    /// Storage failures only.
    pub async fn exchange_rates(&self) -> anyhow::Result<Vec<ExchangeRate>> {
        self.store.list_exchange_rates().await
    }

    /// One rate per currency pair: a second rate for a pair is refused with the first, which
    /// the admin edits instead (the store's unique key decides, so a race has one winner).
    ///
    /// # Errors
    /// `Invalid`, `PairTaken` or a storage failure.
    pub async fn create_exchange_rate(
        &self,
        from: Option<&str>,
        to: Option<&str>,
        rate: Option<Decimal>,
    ) -> Result<ExchangeRate, RateFailure> {
        let draft = ExchangeRateDraft::parse(from, to, rate).map_err(RateFailure::Invalid)?;
        Ok(self.store.create_exchange_rate(&draft, self.now()).await?)
    }

    /// # Errors
    /// `Invalid`, `NotFound`, `PairTaken` (another rate has the new pair) or a storage failure.
    pub async fn update_exchange_rate(
        &self,
        id: ExchangeRateId,
        from: Option<&str>,
        to: Option<&str>,
        rate: Option<Decimal>,
    ) -> Result<ExchangeRate, RateFailure> {
        let draft = ExchangeRateDraft::parse(from, to, rate).map_err(RateFailure::Invalid)?;
        let updated = self
            .store
            .update_exchange_rate(id, &draft, self.now())
            .await?;
        // Methods converting with it carry the rate.
        self.purchase_terms_changed();
        Ok(updated)
    }

    /// # Errors
    /// `NotFound` or a storage failure.
    pub async fn delete_exchange_rate(&self, id: ExchangeRateId) -> Result<(), WriteFailure> {
        self.store.delete_exchange_rate(id).await?;
        self.purchase_terms_changed();
        Ok(())
    }
}
