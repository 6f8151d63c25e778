//! The reviewer's queue (issue 16): pending purchases whose proof is attached, by what their
//! proof's check found and by age; green ones approved in bulk, red ones rejected in bulk with
//! one note, each buyer e-mailed as after a single decision. A bulk decision takes only the
//! purchases whose light is still the one it is for when it runs: a proof replaced or checked
//! again since the reviewer's list was drawn is left for a look of its own.

use std::sync::Arc;

use rifa_domain::audit::Actor;
use rifa_domain::proof_signals::Light;
use rifa_domain::purchase::{Purchase, PurchaseCursor, PurchaseId, PurchaseStatus, Verdict};
use rifa_domain::{FieldError, FieldErrors};
use rifa_ports::{
    Clock, DecidePurchaseError, ProofChecks, PurchaseRepository, QueueLight, QueueQuery,
    QueuedProof,
};

use crate::review::{Decider, decision_of};
use crate::shared::{AvailabilityCache, MailSignal};
use crate::shared::{Shared, now};

/// The most purchases one page of the queue lists.
pub const MAX_QUEUE_PAGE: u32 = 100;
/// The most purchases one bulk decision takes.
pub const MAX_BULK: usize = 100;

/// What a bulk decision did with one purchase.
#[derive(Debug, Clone, PartialEq)]
pub enum BulkOutcome {
    Decided(Box<Purchase>),
    /// Its proof's light is not the one the decision is for (`None`: not checked).
    NotEligible {
        light: Option<Light>,
    },
    /// Decided by someone else meanwhile.
    NotPending(PurchaseStatus),
    NotFound,
}

/// A page of the queue as the panel asks for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueRequest {
    pub light: Option<QueueLight>,
    pub oldest_first: bool,
    /// The last purchase of the page the panel has.
    pub after: Option<PurchaseId>,
    pub limit: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum BulkError {
    #[error("invalid bulk decision")]
    Invalid(FieldErrors),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[async_trait::async_trait]
pub trait ProofQueueService: Send + Sync + 'static {
    /// A page of the queue; its size kept within 1..=[`MAX_QUEUE_PAGE`]. A page after a
    /// purchase that no longer exists starts from the top.
    ///
    /// # Errors
    /// Storage failures only.
    async fn queue(&self, request: QueueRequest) -> anyhow::Result<Vec<QueuedProof>>;

    /// Approves the green purchases of `ids`, or rejects the red ones with `notes`; each
    /// purchase's outcome in the order given.
    ///
    /// # Errors
    /// `Invalid` (no ids, more than [`MAX_BULK`], an unknown status, a rejection without
    /// notes), or a storage failure.
    async fn decide_in_bulk(
        &self,
        ids: &[PurchaseId],
        status: &str,
        notes: Option<&str>,
        by: &Actor,
    ) -> Result<Vec<(PurchaseId, BulkOutcome)>, BulkError>;
}

/// The queue over its ports: purchases and their checks from `S`, the decisions' time from `C`.
pub struct ProofQueue<S, C> {
    store: S,
    clock: C,
    availability: Arc<AvailabilityCache>,
    mail_signal: Arc<MailSignal>,
}

impl<S, C> ProofQueue<S, C> {
    pub fn new(store: S, clock: C, shared: &Shared) -> Self {
        Self {
            store,
            clock,
            availability: Arc::clone(&shared.availability),
            mail_signal: Arc::clone(&shared.mail_signal),
        }
    }
}

#[async_trait::async_trait]
impl<S, C> ProofQueueService for ProofQueue<S, C>
where
    S: ProofChecks + PurchaseRepository,
    C: Clock,
{
    async fn queue(&self, request: QueueRequest) -> anyhow::Result<Vec<QueuedProof>> {
        let after = match request.after {
            Some(id) => self
                .store
                .get_purchase(id)
                .await?
                .map(|purchase| PurchaseCursor::after(&purchase)),
            None => None,
        };
        self.store
            .proof_queue(&QueueQuery {
                light: request.light,
                oldest_first: request.oldest_first,
                after,
                limit: request.limit.clamp(1, MAX_QUEUE_PAGE),
            })
            .await
    }

    async fn decide_in_bulk(
        &self,
        ids: &[PurchaseId],
        status: &str,
        notes: Option<&str>,
        by: &Actor,
    ) -> Result<Vec<(PurchaseId, BulkOutcome)>, BulkError> {
        let mut errors = FieldErrors::new();
        if ids.is_empty() {
            errors.add("ids", FieldError::Required);
        } else if ids.len() > MAX_BULK {
            errors.add("ids", FieldError::TooLong { max: MAX_BULK });
        }
        let field = |e: &FieldError| {
            if matches!(e, FieldError::UnknownOption { .. }) {
                "status"
            } else {
                "adminNotes"
            }
        };
        let verdict = match Verdict::parse(status, notes) {
            Ok(verdict) => {
                errors.into_result().map_err(BulkError::Invalid)?;
                verdict
            }
            Err(e) => {
                errors.add(field(&e), e);
                return Err(BulkError::Invalid(errors));
            }
        };
        let wanted = match verdict {
            Verdict::Approve { .. } => Light::Green,
            Verdict::Reject { .. } => Light::Red,
        };
        let lights = self.store.lights_of(ids).await?;
        let mut outcomes = Vec::with_capacity(ids.len());
        let mut decided_any = false;
        for &id in ids {
            let light = lights.iter().find(|(p, _)| *p == id).map(|(_, l)| *l);
            if light != Some(wanted) {
                outcomes.push((id, BulkOutcome::NotEligible { light }));
                continue;
            }
            let outcome = match self
                .store
                .decide_purchase(
                    id,
                    &decision_of(&verdict, now(&self.clock), Decider::InBulk(by), id),
                )
                .await
            {
                Ok(purchase) => {
                    decided_any = true;
                    self.availability.holds_changed(purchase.raffle_id);
                    BulkOutcome::Decided(Box::new(purchase))
                }
                Err(DecidePurchaseError::NotPending(current)) => BulkOutcome::NotPending(current),
                Err(DecidePurchaseError::NotFound) => BulkOutcome::NotFound,
                Err(DecidePurchaseError::Unknown(e)) => return Err(e.into()),
            };
            outcomes.push((id, outcome));
        }
        if decided_any {
            self.mail_signal.queued();
        }
        tracing::info!(asked = ids.len(), status = wanted.as_str(), "bulk decision");
        Ok(outcomes)
    }
}
