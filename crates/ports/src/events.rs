//! Things that happened, for whoever listens (the admin panel's live connection).

use chrono::{DateTime, Utc};
use rifa_domain::admin::AdminId;
use rifa_domain::purchase::PurchaseId;
use rifa_domain::raffle::RaffleId;

/// Serialized as it travels, between instances and to the admin panel:
/// `{"type":"new_purchase","data":{"purchaseId":…,"customerName":…}}`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(
    tag = "type",
    content = "data",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum DomainEvent {
    NewPurchase {
        purchase_id: PurchaseId,
        reference: String,
        raffle_id: RaffleId,
        customer_name: String,
        ticket_count: u32,
        total_amount: String,
        created_at: DateTime<Utc>,
    },
    /// An admin's sessions ended or their role changed: their live connections check at once
    /// whether they may go on, before anything later is sent to them. Never sent to a browser.
    AccessChanged { admin_id: AdminId },
}

pub trait EventBus: Send + Sync + 'static {
    /// Hands the event to every listener, on this instance and (for adapters that fan out)
    /// on every other. Best effort: a notice that cannot be delivered is logged by the adapter,
    /// never failing the operation that raised it.
    fn publish(&self, event: DomainEvent) -> impl Future<Output = ()> + Send;
}
