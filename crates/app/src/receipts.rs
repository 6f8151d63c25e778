//! Receipts and invoices: the PDF receipt (attached to every e-mail, downloadable) and the
//! printable HTML invoice, for the buyer holding the purchase's key or for an admin.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use rifa_domain::Lang;
use rifa_domain::purchase::{Purchase, PurchaseId};
use rifa_ports::outbound::{InvoicePages, ReceiptContext, ReceiptRenderer};
use rifa_ports::{
    AccessKeys, Clock, PurchaseProofs, PurchaseRepository, RaffleRepository, SettingsRepository,
};

use crate::cpu::CpuPool;
use crate::proofs::{ProofFailure, open_purchase};
use crate::shared::{RaffleTermsCache, Shared, now};

/// Who asks for an invoice: buyers read it in the language they bought in, admins in theirs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InvoiceReader {
    Admin {
        lang: Lang,
    },
    /// The buyer, with the purchase's secret key.
    Buyer {
        access_key: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvoiceFormat {
    Html,
    Pdf,
}

/// An invoice ready to be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invoice {
    Html {
        page: String,
        /// What lets exactly the page's own script and style run.
        content_security_policy: &'static str,
    },
    Pdf {
        reference: String,
        bytes: Vec<u8>,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum InvoiceError {
    /// No such purchase, no reader, or a key that does not open it: alike, so ids cannot be
    /// probed.
    #[error("purchase not found")]
    NotFound,
    /// The purchase's PDF is being rendered for another request.
    #[error("the receipt is being rendered")]
    BeingRendered,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Receipts and invoices, as the handlers and the outbox see them.
#[async_trait::async_trait]
pub trait ReceiptsService: Send + Sync + 'static {
    /// The purchase's invoice for `reader` (`None`: nobody who may read it). A PDF is rendered
    /// once at a time per purchase, and the slot is claimed before the purchase is read:
    /// loading a large purchase's numbers is work too, and refused copies must not do it.
    ///
    /// # Errors
    /// `BeingRendered`, `NotFound`, or a failure of storage or rendering.
    async fn invoice(
        &self,
        id: PurchaseId,
        reader: Option<InvoiceReader>,
        format: InvoiceFormat,
    ) -> Result<Invoice, InvoiceError>;

    /// What a receipt of `purchase` shows besides the purchase: the company, the raffle's size.
    ///
    /// # Errors
    /// Storage failures only.
    async fn receipt_context(
        &self,
        purchase: &Purchase,
        lang: Lang,
    ) -> anyhow::Result<ReceiptContext>;

    /// The PDF receipt of `purchase`, rendered off the async workers (a 10,000-number receipt
    /// takes the better part of a second). Hands `purchase` and `context` back for further use.
    ///
    /// # Errors
    /// When rendering fails.
    async fn render_receipt(
        &self,
        purchase: Purchase,
        context: ReceiptContext,
    ) -> anyhow::Result<(Purchase, ReceiptContext, Vec<u8>)>;
}

/// Writes receipts: a component the invoice and the outbox share (not a service of its own).
/// Branding and raffles' terms from `S`, the PDF from `R` on the CPU pool, the time from `C`.
pub struct ReceiptWriter<S, R, C> {
    store: S,
    renderer: Arc<R>,
    clock: C,
    raffle_terms: Arc<RaffleTermsCache>,
    cpu: CpuPool,
}

impl<S, R, C> ReceiptWriter<S, R, C>
where
    S: SettingsRepository + RaffleRepository,
    R: ReceiptRenderer,
    C: Clock,
{
    pub fn new(store: S, renderer: Arc<R>, clock: C, shared: &Shared) -> Self {
        Self {
            store,
            renderer,
            clock,
            raffle_terms: Arc::clone(&shared.raffle_terms),
            cpu: shared.cpu.clone(),
        }
    }

    /// See [`ReceiptsService::receipt_context`].
    ///
    /// # Errors
    /// Storage failures only.
    pub async fn receipt_context(
        &self,
        purchase: &Purchase,
        lang: Lang,
    ) -> anyhow::Result<ReceiptContext> {
        let company_name = self
            .store
            .branding()
            .await?
            .unwrap_or_default()
            .company_name;
        let max_tickets = self
            .raffle_terms
            .get(&self.store, purchase.raffle_id)
            .await?
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "raffle {} of purchase {} no longer exists",
                    purchase.raffle_id,
                    purchase.id
                )
            })?
            .max_tickets;
        Ok(ReceiptContext {
            company_name,
            max_tickets,
            lang,
            generated_at: now(&self.clock),
        })
    }

    /// See [`ReceiptsService::render_receipt`].
    ///
    /// # Errors
    /// When rendering fails.
    pub async fn render_receipt(
        &self,
        purchase: Purchase,
        context: ReceiptContext,
    ) -> anyhow::Result<(Purchase, ReceiptContext, Vec<u8>)> {
        let renderer = Arc::clone(&self.renderer);
        self.cpu
            .run(move || {
                let pdf = renderer.render(&purchase, &context)?;
                Ok((purchase, context, pdf))
            })
            .await?
    }
}

/// Receipts over their ports: purchases and the buyer's key check from `S`, the HTML page from
/// `P`, keys compared by `K`, and a [`ReceiptWriter`] over `S`, `R` and `C`.
pub struct Receipts<S, R, P, K, C> {
    store: S,
    writer: ReceiptWriter<S, R, C>,
    pages: P,
    access_keys: K,
    rendering: RendersInFlight,
}

impl<S, R, P, K, C> Receipts<S, R, P, K, C>
where
    S: PurchaseRepository + PurchaseProofs + SettingsRepository + RaffleRepository + Clone,
    R: ReceiptRenderer,
    P: InvoicePages,
    K: AccessKeys,
    C: Clock,
{
    pub fn new(
        store: S,
        renderer: Arc<R>,
        pages: P,
        access_keys: K,
        clock: C,
        shared: &Shared,
    ) -> Self {
        Self {
            writer: ReceiptWriter::new(store.clone(), renderer, clock, shared),
            store,
            pages,
            access_keys,
            rendering: RendersInFlight::default(),
        }
    }

    async fn readable(
        &self,
        id: PurchaseId,
        reader: Option<InvoiceReader>,
    ) -> Result<(Purchase, Lang), InvoiceError> {
        let lang = match reader {
            Some(InvoiceReader::Admin { lang }) => lang,
            Some(InvoiceReader::Buyer { access_key }) => {
                open_purchase(&self.store, &self.access_keys, id, &access_key)
                    .await
                    .map_err(|e| match e {
                        ProofFailure::Unknown(e) => InvoiceError::Unknown(e),
                        _ => InvoiceError::NotFound,
                    })?
                    .lang
            }
            None => return Err(InvoiceError::NotFound),
        };
        let purchase = self
            .store
            .get_purchase(id)
            .await?
            .ok_or(InvoiceError::NotFound)?;
        Ok((purchase, lang))
    }
}

#[async_trait::async_trait]
impl<S, R, P, K, C> ReceiptsService for Receipts<S, R, P, K, C>
where
    S: PurchaseRepository + PurchaseProofs + SettingsRepository + RaffleRepository + Clone,
    R: ReceiptRenderer,
    P: InvoicePages,
    K: AccessKeys,
    C: Clock,
{
    async fn invoice(
        &self,
        id: PurchaseId,
        reader: Option<InvoiceReader>,
        format: InvoiceFormat,
    ) -> Result<Invoice, InvoiceError> {
        let _rendering = match format {
            InvoiceFormat::Pdf => Some(
                self.rendering
                    .start(id)
                    .ok_or(InvoiceError::BeingRendered)?,
            ),
            InvoiceFormat::Html => None,
        };
        let (purchase, lang) = self.readable(id, reader).await?;
        let context = self.writer.receipt_context(&purchase, lang).await?;
        Ok(match format {
            InvoiceFormat::Pdf => {
                let (purchase, _, bytes) = self.writer.render_receipt(purchase, context).await?;
                Invoice::Pdf {
                    reference: purchase.reference,
                    bytes,
                }
            }
            InvoiceFormat::Html => Invoice::Html {
                page: self.pages.render(&purchase, &context),
                content_security_policy: self.pages.content_security_policy(),
            },
        })
    }

    async fn receipt_context(
        &self,
        purchase: &Purchase,
        lang: Lang,
    ) -> anyhow::Result<ReceiptContext> {
        self.writer.receipt_context(purchase, lang).await
    }

    async fn render_receipt(
        &self,
        purchase: Purchase,
        context: ReceiptContext,
    ) -> anyhow::Result<(Purchase, ReceiptContext, Vec<u8>)> {
        self.writer.render_receipt(purchase, context).await
    }
}

/// The purchases whose PDF receipt is being rendered for a request. One render per purchase at
/// a time: a client repeating the request (or many clients with the buyer's link) cannot occupy
/// every core with copies of the same work.
#[derive(Default)]
struct RendersInFlight(Mutex<HashSet<PurchaseId>>);

impl RendersInFlight {
    /// Marks `purchase` as being rendered until the guard drops; `None` when it already is.
    fn start(&self, purchase: PurchaseId) -> Option<RenderGuard<'_>> {
        // The lock is released before a guard exists: a guard dropped under it (as `then_some`
        // did, building one even for a purchase already rendering) locked it again, forever.
        let newly_rendering = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(purchase);
        newly_rendering.then(|| RenderGuard {
            renders: self,
            purchase,
        })
    }
}

struct RenderGuard<'a> {
    renders: &'a RendersInFlight,
    purchase: PurchaseId,
}

impl Drop for RenderGuard<'_> {
    fn drop(&mut self) {
        self.renders
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.purchase);
    }
}

#[cfg(test)]
mod tests {
    use super::{PurchaseId, RendersInFlight};

    #[test]
    fn a_purchase_renders_once_at_a_time_and_a_refused_second_render_leaves_the_first_marked() {
        let renders = RendersInFlight::default();
        let first = renders.start(PurchaseId::new(7));
        assert!(first.is_some());
        assert!(renders.start(PurchaseId::new(7)).is_none());
        assert!(
            renders.start(PurchaseId::new(7)).is_none(),
            "the refused render unmarked the first"
        );
        assert!(renders.start(PurchaseId::new(8)).is_some());
        drop(first);
        assert!(renders.start(PurchaseId::new(7)).is_some());
    }
}
