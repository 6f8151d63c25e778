//! Payment methods and exchange rates.

use rifa_domain::exchange::{ExchangeRate, ExchangeRateDraft, ExchangeRateId};
use rifa_domain::payment::{Details, PaymentMethod, PaymentMethodDraft, PaymentMethodId};

use std::sync::Arc;

use rifa_domain::audit::{Actor, AuditAction, AuditEntry, Fields};
use rifa_ports::{Clock, ExchangeRateRepository, PaymentMethodRepository, RateWriteError};

use crate::WriteFailure;
use crate::audit::{Recorded, record_entry};
use crate::shared::{PurchaseTermsCache, Shared, now};

/// Why an exchange rate could not be created or changed.
#[derive(Debug, thiserror::Error)]
pub enum RateFailure {
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
    pub exchange_rate_id: Option<ExchangeRateId>,
    /// Whether purchases must carry a payment reference (false when absent).
    pub reference_required: Option<bool>,
    /// The fewest letters and digits a reference may have (0 when absent).
    pub reference_min_length: Option<i64>,
}

/// The payment methods buyers choose from and the exchange rates their totals convert with.
#[async_trait::async_trait]
pub trait PaymentsService: Send + Sync + 'static {
    /// # Errors
    /// Storage failures only.
    async fn payment_methods(&self, active_only: bool) -> anyhow::Result<Vec<PaymentMethod>>;

    /// # Errors
    /// `Invalid` (including an unknown exchange rate) or a storage failure.
    async fn create_payment_method(
        &self,
        input: PaymentMethodInput,
        by: &Actor,
    ) -> Result<PaymentMethod, WriteFailure>;

    /// # Errors
    /// `Invalid`, `NotFound` or a storage failure.
    async fn update_payment_method(
        &self,
        id: PaymentMethodId,
        input: PaymentMethodInput,
        by: &Actor,
    ) -> Result<PaymentMethod, WriteFailure>;

    /// # Errors
    /// `NotFound` or a storage failure.
    async fn delete_payment_method(
        &self,
        id: PaymentMethodId,
        by: &Actor,
    ) -> Result<(), WriteFailure>;

    /// # Errors
    /// Storage failures only.
    async fn exchange_rates(&self) -> anyhow::Result<Vec<ExchangeRate>>;

    /// One rate per currency pair: a second rate for a pair is refused with the first, which
    /// the admin edits instead (the store's unique key decides, so a race has one winner). The
    /// draft was parsed at the edge (`ExchangeRateDraft::parse`).
    ///
    /// # Errors
    /// `PairTaken` or a storage failure.
    async fn create_exchange_rate(
        &self,
        draft: ExchangeRateDraft,
        by: &Actor,
    ) -> Result<ExchangeRate, RateFailure>;

    /// # Errors
    /// `NotFound`, `PairTaken` (another rate has the new pair) or a storage failure.
    async fn update_exchange_rate(
        &self,
        id: ExchangeRateId,
        draft: ExchangeRateDraft,
        by: &Actor,
    ) -> Result<ExchangeRate, RateFailure>;

    /// # Errors
    /// `NotFound` or a storage failure.
    async fn delete_exchange_rate(
        &self,
        id: ExchangeRateId,
        by: &Actor,
    ) -> Result<(), WriteFailure>;
}

/// Payments over its ports: methods and rates from `S`, the rates' timestamps from `C`. Every
/// write drops the purchase terms purchasing caches (methods carry their rate).
pub struct Payments<S, C> {
    store: S,
    clock: C,
    purchase_terms: Arc<PurchaseTermsCache>,
}

impl<S, C> Payments<S, C>
where
    S: PaymentMethodRepository + ExchangeRateRepository,
    C: Clock,
{
    pub fn new(store: S, clock: C, shared: &Shared) -> Self {
        Self {
            store,
            clock,
            purchase_terms: Arc::clone(&shared.purchase_terms),
        }
    }

    fn method_entry(
        &self,
        by: &Actor,
        action: AuditAction,
    ) -> impl Fn(Option<&PaymentMethod>, Option<&PaymentMethod>) -> AuditEntry + Sync + use<S, C>
    {
        record_entry(
            now(&self.clock),
            by,
            action,
            Recorded {
                kind: "payment_method",
                id: |method: &PaymentMethod| method.id.get(),
                fields: method_fields,
            },
        )
    }

    fn rate_entry(
        &self,
        by: &Actor,
        action: AuditAction,
    ) -> impl Fn(Option<&ExchangeRate>, Option<&ExchangeRate>) -> AuditEntry + Sync + use<S, C>
    {
        record_entry(
            now(&self.clock),
            by,
            action,
            Recorded {
                kind: "exchange_rate",
                id: |rate: &ExchangeRate| rate.id.get(),
                fields: |rate| {
                    vec![
                        ("from", Some(rate.from.code().to_owned())),
                        ("to", Some(rate.to.code().to_owned())),
                        ("rate", Some(rate.rate.to_string())),
                    ]
                },
            },
        )
    }
}

/// What the trail records of a payment method: what buyers are told and pay with.
fn method_fields(method: &PaymentMethod) -> Fields {
    let mut fields: Fields = vec![
        ("name", Some(method.name.clone())),
        ("type", Some(method.kind.clone())),
        ("active", Some(method.active.to_string())),
        (
            "exchangeRateId",
            method
                .exchange_rate
                .as_ref()
                .map(|r| r.id.get().to_string()),
        ),
        (
            "referenceRequired",
            Some(method.reference.required.to_string()),
        ),
        (
            "referenceMinLength",
            Some(method.reference.min_length.to_string()),
        ),
    ];
    // The account data buyers pay to, as one field: a changed account number shows.
    let details: Vec<String> = method
        .details
        .iter()
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    fields.push(("details", Some(details.join("; "))));
    fields
}

fn method_draft(input: PaymentMethodInput) -> Result<PaymentMethodDraft, WriteFailure> {
    PaymentMethodDraft::parse(
        input.name.as_deref(),
        input.kind.as_deref(),
        input.active,
        input.details,
        input.exchange_rate_id,
        (input.reference_required, input.reference_min_length),
    )
    .map_err(WriteFailure::Invalid)
}

#[async_trait::async_trait]
impl<S, C> PaymentsService for Payments<S, C>
where
    S: PaymentMethodRepository + ExchangeRateRepository,
    C: Clock,
{
    async fn payment_methods(&self, active_only: bool) -> anyhow::Result<Vec<PaymentMethod>> {
        self.store.list_payment_methods(active_only).await
    }

    async fn create_payment_method(
        &self,
        input: PaymentMethodInput,
        by: &Actor,
    ) -> Result<PaymentMethod, WriteFailure> {
        let draft = method_draft(input)?;
        let entry = self.method_entry(by, AuditAction::PaymentMethodCreated);
        let created = self.store.create_payment_method(&draft, &entry).await?;
        self.purchase_terms.changed();
        Ok(created)
    }

    async fn update_payment_method(
        &self,
        id: PaymentMethodId,
        input: PaymentMethodInput,
        by: &Actor,
    ) -> Result<PaymentMethod, WriteFailure> {
        let draft = method_draft(input)?;
        let entry = self.method_entry(by, AuditAction::PaymentMethodUpdated);
        let updated = self.store.update_payment_method(id, &draft, &entry).await?;
        self.purchase_terms.changed();
        Ok(updated)
    }

    async fn delete_payment_method(
        &self,
        id: PaymentMethodId,
        by: &Actor,
    ) -> Result<(), WriteFailure> {
        let entry = self.method_entry(by, AuditAction::PaymentMethodDeleted);
        self.store.delete_payment_method(id, &entry).await?;
        self.purchase_terms.changed();
        Ok(())
    }

    async fn exchange_rates(&self) -> anyhow::Result<Vec<ExchangeRate>> {
        self.store.list_exchange_rates().await
    }

    async fn create_exchange_rate(
        &self,
        draft: ExchangeRateDraft,
        by: &Actor,
    ) -> Result<ExchangeRate, RateFailure> {
        let entry = self.rate_entry(by, AuditAction::ExchangeRateCreated);
        Ok(self
            .store
            .create_exchange_rate(&draft, now(&self.clock), &entry)
            .await?)
    }

    async fn update_exchange_rate(
        &self,
        id: ExchangeRateId,
        draft: ExchangeRateDraft,
        by: &Actor,
    ) -> Result<ExchangeRate, RateFailure> {
        let updated = self
            .store
            .update_exchange_rate(
                id,
                &draft,
                now(&self.clock),
                &self.rate_entry(by, AuditAction::ExchangeRateUpdated),
            )
            .await?;
        // Methods converting with it carry the rate.
        self.purchase_terms.changed();
        Ok(updated)
    }

    async fn delete_exchange_rate(
        &self,
        id: ExchangeRateId,
        by: &Actor,
    ) -> Result<(), WriteFailure> {
        let entry = self.rate_entry(by, AuditAction::ExchangeRateDeleted);
        self.store.delete_exchange_rate(id, &entry).await?;
        self.purchase_terms.changed();
        Ok(())
    }
}
