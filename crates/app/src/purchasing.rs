//! Buying tickets: the public purchase and the admin's test purchase.

use std::str::FromStr;
use std::sync::Arc;

use rifa_domain::customer::{Customer, CustomerInput};
use rifa_domain::money::Money;
use rifa_domain::payment::PaymentMethod;
use rifa_domain::pricing::{self, PriceQuote};
use rifa_domain::purchase::{NewPurchase, PaymentSnapshot, Purchase, PurchaseStatus};
use rifa_domain::raffle::RaffleId;
use rifa_domain::ticket::TicketSelection;
use rifa_domain::{FieldError, FieldErrors, Lang};
use rifa_ports::{
    AccessKeys, Clock, CreatePurchaseError, DomainEvent, EventBus, PaymentMethodRepository,
    PurchaseRepository, RaffleRepository, ReferenceGenerator, SettingsRepository,
};

pub use crate::shared::PurchaseTerms;
use crate::shared::{
    AvailabilityCache, MailSignal, PurchaseTermsCache, RaffleTermsCache, Shared, now,
};

/// The purchase form as it arrives (every field text, as multipart sends it).
#[derive(Debug, Clone, Default)]
pub struct PurchaseForm {
    pub customer: CustomerInput,
    /// The method's id or, for older clients, its name.
    pub payment_method: Option<String>,
    pub raffle_id: Option<String>,
    /// A JSON array of numbers.
    pub ticket_numbers: Option<String>,
    pub total_amount: Option<String>,
    pub discount_applied: Option<String>,
    pub accept_terms: Option<String>,
}

/// Whether the purchase is real or an admin's rehearsal (status `test`, nothing held).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PurchaseMode {
    Public,
    AdminTest,
}

#[derive(Debug, thiserror::Error)]
pub enum PurchaseError {
    #[error("invalid purchase")]
    Invalid(FieldErrors),
    #[error("raffle not found")]
    RaffleNotFound,
    #[error("raffle is not on sale")]
    RaffleNotOnSale,
    /// The client computed another total (stale price, tampering): nothing was written.
    #[error("client total does not match the server's")]
    TotalMismatch { expected: Money, sent: Money },
    /// Someone else holds these numbers (ascending); `max_tickets` sets their display padding.
    #[error("numbers already taken: {numbers:?}")]
    NumbersTaken { numbers: Vec<u32>, max_tickets: u32 },
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, Clone, PartialEq)]
pub struct PurchaseReceipt {
    pub purchase: Purchase,
    pub quote: PriceQuote,
    pub test_mode: bool,
    /// The raffle's size, which sets how numbers are padded for display.
    pub max_tickets: u32,
    /// The buyer's secret key to attach the proof and read the invoice: given out once, here.
    /// `None` for test purchases.
    pub access_key: Option<String>,
}

/// A reference collision is a one-in-a-trillion event; three tries is plenty.
const REFERENCE_ATTEMPTS: usize = 3;

fn parse_numbers(raw: Option<&str>) -> Result<Vec<i64>, FieldError> {
    let raw = raw
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .ok_or(FieldError::TicketsEmpty)?;
    let values: Vec<serde_json::Value> =
        serde_json::from_str(raw).map_err(|_| FieldError::NotANumber)?;
    values
        .iter()
        .map(|v| match v {
            serde_json::Value::Number(n) => n.as_i64().ok_or(FieldError::NotANumber),
            serde_json::Value::String(s) => {
                s.trim().parse::<i64>().map_err(|_| FieldError::NotANumber)
            }
            _ => Err(FieldError::NotANumber),
        })
        .collect()
}

fn find_method<'a>(
    methods: &'a [PaymentMethod],
    raw: Option<&str>,
) -> Result<&'a PaymentMethod, FieldError> {
    let wanted = raw
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .ok_or(FieldError::PaymentMethodRequired)?;
    let by_id = wanted
        .parse::<i64>()
        .ok()
        .and_then(|id| methods.iter().find(|m| m.id == id));
    by_id
        .or_else(|| methods.iter().find(|m| m.name.eq_ignore_ascii_case(wanted)))
        .ok_or(FieldError::PaymentMethodUnavailable)
}

fn accepted(raw: Option<&str>) -> bool {
    raw.is_none_or(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "true" | "on" | "1" | "yes"
        )
    })
}

/// Buying tickets.
#[async_trait::async_trait]
pub trait PurchasingService: Send + Sync + 'static {
    /// Validates the form, prices it on the server, checks the client's total against that price
    /// and writes the purchase, holding its numbers, in one transaction.
    ///
    /// # Errors
    /// `RaffleNotFound`, `RaffleNotOnSale` (public only), `Invalid` with every bad field,
    /// `TotalMismatch`, `NumbersTaken` naming the numbers lost, or a storage failure.
    async fn purchase(
        &self,
        raffle_id: RaffleId,
        form: PurchaseForm,
        mode: PurchaseMode,
        lang: Lang,
    ) -> Result<PurchaseReceipt, PurchaseError>;
}

/// Purchasing over its ports: raffles' terms, active methods, discounts and the purchase write
/// from `S`; the buyer's key from `K`, the reference from `G`, the time from `C`; a new
/// purchase announced on `E`.
pub struct Purchasing<S, E, K, G, C> {
    store: S,
    events: E,
    access_keys: K,
    references: G,
    clock: C,
    raffle_terms: Arc<RaffleTermsCache>,
    availability: Arc<AvailabilityCache>,
    purchase_terms: Arc<PurchaseTermsCache>,
    mail_signal: Arc<MailSignal>,
}

impl<S, E, K, G, C> Purchasing<S, E, K, G, C>
where
    S: RaffleRepository + PaymentMethodRepository + SettingsRepository + PurchaseRepository,
    E: EventBus,
    K: AccessKeys,
    G: ReferenceGenerator,
    C: Clock,
{
    pub fn new(
        store: S,
        events: E,
        access_keys: K,
        references: G,
        clock: C,
        shared: &Shared,
    ) -> Self {
        Self {
            store,
            events,
            access_keys,
            references,
            clock,
            raffle_terms: Arc::clone(&shared.raffle_terms),
            availability: Arc::clone(&shared.availability),
            purchase_terms: Arc::clone(&shared.purchase_terms),
            mail_signal: Arc::clone(&shared.mail_signal),
        }
    }
}

#[async_trait::async_trait]
impl<S, E, K, G, C> PurchasingService for Purchasing<S, E, K, G, C>
where
    S: RaffleRepository + PaymentMethodRepository + SettingsRepository + PurchaseRepository,
    E: EventBus,
    K: AccessKeys,
    G: ReferenceGenerator,
    C: Clock,
{
    async fn purchase(
        &self,
        raffle_id: RaffleId,
        form: PurchaseForm,
        mode: PurchaseMode,
        lang: Lang,
    ) -> Result<PurchaseReceipt, PurchaseError> {
        let raffle = self
            .raffle_terms
            .get(&self.store, raffle_id)
            .await?
            .ok_or(PurchaseError::RaffleNotFound)?;
        if mode == PurchaseMode::Public && !raffle.status.is_on_sale() {
            return Err(if raffle.status.is_publicly_visible() {
                PurchaseError::RaffleNotOnSale
            } else {
                PurchaseError::RaffleNotFound
            });
        }

        let mut errors = FieldErrors::new();
        let sent_raffle = form
            .raffle_id
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty());
        if let Some(sent) = sent_raffle
            && sent.parse::<i64>().ok() != Some(raffle_id)
        {
            let only = raffle_id.to_string();
            errors.add(
                "raffleId",
                FieldError::OutOfRange {
                    min: only.clone(),
                    max: only,
                },
            );
        }
        let selection = errors
            .check(
                "ticketNumbers",
                parse_numbers(form.ticket_numbers.as_deref()),
            )
            .and_then(|numbers| {
                errors.check(
                    "ticketNumbers",
                    TicketSelection::new(&numbers, raffle.max_tickets, raffle.limits),
                )
            });
        let customer = Customer::parse(&form.customer, &mut errors);
        let terms = self.purchase_terms.get(&self.store).await?;
        let method = errors.check(
            "paymentMethod",
            find_method(&terms.methods, form.payment_method.as_deref()),
        );
        if !accepted(form.accept_terms.as_deref()) {
            errors.add("acceptTerms", FieldError::TermsNotAccepted);
        }
        let sent_total = errors.check(
            "totalAmount",
            form.total_amount
                .as_deref()
                .ok_or(FieldError::Required)
                .and_then(Money::from_str),
        );
        let sent_discount = match form
            .discount_applied
            .as_deref()
            .map(str::trim)
            .filter(|d| !d.is_empty())
        {
            Some(raw) => errors.check("discountApplied", Money::from_str(raw)),
            None => Some(Money::ZERO),
        };
        errors
            .clone()
            .into_result()
            .map_err(PurchaseError::Invalid)?;
        let (Some(selection), Some(customer), Some(method), Some(sent_total), Some(sent_discount)) =
            (selection, customer, method, sent_total, sent_discount)
        else {
            return Err(PurchaseError::Invalid(errors));
        };

        let quote = pricing::quote(
            raffle.price,
            selection.count(),
            raffle.limits,
            &terms.discounts,
        );
        if sent_total != quote.total || sent_discount != quote.discount {
            return Err(PurchaseError::TotalMismatch {
                expected: quote.total,
                sent: sent_total,
            });
        }

        let payment = PaymentSnapshot {
            method_id: Some(method.id),
            method_name: method.name.clone(),
            conversion: method.exchange_rate.as_ref().map(|r| (r.to, r.rate)),
        };
        let status = match mode {
            PurchaseMode::Public => PurchaseStatus::Pending,
            PurchaseMode::AdminTest => PurchaseStatus::Test,
        };
        let (access_key, access_digest) = match mode {
            PurchaseMode::Public => {
                let (key, digest) = self.access_keys.issue();
                (Some(key), Some(digest))
            }
            PurchaseMode::AdminTest => (None, None),
        };
        let mut new = NewPurchase {
            raffle_id,
            reference: self.references.next_reference(),
            selection,
            customer,
            payment,
            quote: quote.clone(),
            status,
            created_at: now(&self.clock),
            lang,
            access_digest,
        };
        let mut attempt = 1;
        let purchase = loop {
            match self.store.create_purchase(&new, &raffle.title).await {
                Ok(purchase) => break purchase,
                Err(CreatePurchaseError::ReferenceTaken) if attempt < REFERENCE_ATTEMPTS => {
                    attempt += 1;
                    new.reference = self.references.next_reference();
                }
                Err(CreatePurchaseError::ReferenceTaken) => {
                    return Err(anyhow::anyhow!("could not find a free purchase reference").into());
                }
                Err(CreatePurchaseError::NumbersTaken(numbers)) => {
                    // The buyer's picker was stale: let the next look be fresh.
                    self.availability.holds_changed(raffle_id);
                    return Err(PurchaseError::NumbersTaken {
                        numbers,
                        max_tickets: raffle.max_tickets,
                    });
                }
                Err(CreatePurchaseError::Unknown(e)) => return Err(e.into()),
            }
        };
        if purchase.status.holds_numbers() {
            self.availability.holds_changed(raffle_id);
            self.mail_signal.queued();
        }
        tracing::info!(
            purchase.id = purchase.id,
            raffle.id = raffle_id,
            tickets = quote.ticket_count,
            test = mode == PurchaseMode::AdminTest,
            "purchase created"
        );
        if mode == PurchaseMode::Public {
            self.events
                .publish(DomainEvent::NewPurchase {
                    purchase_id: purchase.id,
                    reference: purchase.reference.clone(),
                    raffle_id,
                    customer_name: purchase.customer_name.clone(),
                    ticket_count: quote.ticket_count,
                    total_amount: purchase.total_amount.to_string(),
                    created_at: purchase.created_at,
                })
                .await;
        }
        Ok(PurchaseReceipt {
            purchase,
            quote,
            test_mode: mode == PurchaseMode::AdminTest,
            max_tickets: raffle.max_tickets,
            access_key,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticket_numbers_come_as_a_json_array_of_numbers_or_digit_strings() {
        assert_eq!(parse_numbers(Some("[3, \"7\", 12]")), Ok(vec![3, 7, 12]));
        assert_eq!(parse_numbers(Some("[]")), Ok(vec![]));
        assert_eq!(parse_numbers(None), Err(FieldError::TicketsEmpty));
        for bad in ["3,7", "{\"a\":1}", "[1.5]", "[\"x\"]", "[null]", "[1e99]"] {
            assert_eq!(
                parse_numbers(Some(bad)),
                Err(FieldError::NotANumber),
                "{bad}"
            );
        }
    }

    #[test]
    fn terms_count_as_accepted_unless_sent_as_refused() {
        for yes in [None, Some("true"), Some("on"), Some("1")] {
            assert!(accepted(yes));
        }
        for no in [Some("false"), Some("0"), Some("")] {
            assert!(!accepted(no));
        }
    }
}
