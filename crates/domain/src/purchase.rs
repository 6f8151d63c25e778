//! Purchases and their state machine (SPEC §4).

use chrono::{DateTime, Utc};

use crate::audit::AuditEntry;
use crate::customer::Customer;
use crate::exchange::Currency;
use crate::lang::Lang;
use crate::money::{Money, Rate};
use crate::payment::PaymentMethodId;
use crate::payment_reference::PaymentReference;
use crate::pricing::PriceQuote;
use crate::raffle::RaffleId;
use crate::sales::BuyerKeys;
use crate::ticket::{TicketNumber, TicketSelection};
use crate::validation::{self, FieldError, TextKind};

pub use crate::id::PurchaseId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PurchaseStatus {
    Pending,
    Approved,
    Rejected,
    /// Made by an admin to rehearse the flow: never holds numbers, never counts.
    Test,
    /// No proof arrived before the hold's deadline: the numbers went back on sale.
    Expired,
}

impl PurchaseStatus {
    pub const ALL: [Self; 5] = [
        Self::Pending,
        Self::Approved,
        Self::Rejected,
        Self::Test,
        Self::Expired,
    ];

    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Rejected => "rejected",
            Self::Test => "test",
            Self::Expired => "expired",
        }
    }

    /// # Errors
    /// `UnknownOption` listing the statuses.
    pub fn parse(raw: &str) -> Result<Self, FieldError> {
        Self::ALL
            .into_iter()
            .find(|s| s.as_str() == raw.trim())
            .ok_or_else(|| FieldError::UnknownOption {
                allowed: Self::ALL.map(Self::as_str).to_vec(),
            })
    }

    /// Pending and approved purchases keep their numbers out of everyone else's reach.
    #[must_use]
    pub fn holds_numbers(self) -> bool {
        matches!(self, Self::Pending | Self::Approved)
    }
}

/// An admin's verdict on a pending purchase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Approve { notes: Option<String> },
    Reject { notes: String },
}

impl Verdict {
    /// Reads the `{status, adminNotes}` an admin sends; notes are trimmed and blank means none.
    ///
    /// # Errors
    /// `NotesRequiredToReject`, or `UnknownOption` for a target other than approved/rejected.
    pub fn parse(status: &str, notes: Option<&str>) -> Result<Self, FieldError> {
        let notes = notes
            .map(|n| validation::free_text(n, TextKind::MultiLine, 2_000))
            .transpose()?
            .filter(|n| !n.is_empty());
        match status.trim() {
            "approved" => Ok(Self::Approve { notes }),
            "rejected" => notes
                .map(|notes| Self::Reject { notes })
                .ok_or(FieldError::NotesRequiredToReject),
            _ => Err(FieldError::UnknownOption {
                allowed: vec!["approved", "rejected"],
            }),
        }
    }

    #[must_use]
    pub fn target(&self) -> PurchaseStatus {
        match self {
            Self::Approve { .. } => PurchaseStatus::Approved,
            Self::Reject { .. } => PurchaseStatus::Rejected,
        }
    }

    #[must_use]
    pub fn notes(&self) -> Option<&str> {
        match self {
            Self::Approve { notes } => notes.as_deref(),
            Self::Reject { notes } => Some(notes),
        }
    }
}

/// A verdict on a purchase that is no longer pending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("purchase is {current:?}, only pending purchases can be decided")]
pub struct NotPending {
    pub current: PurchaseStatus,
}

/// Checks that `verdict` may be applied to a purchase in `current` state.
///
/// # Errors
/// [`NotPending`] for anything but a pending purchase: approved, rejected and test purchases are
/// final.
pub fn decide(current: PurchaseStatus, verdict: &Verdict) -> Result<PurchaseStatus, NotPending> {
    match current {
        PurchaseStatus::Pending => Ok(verdict.target()),
        _ => Err(NotPending { current }),
    }
}

/// How a purchase form names its payment method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MethodChoice {
    Id(PaymentMethodId),
    /// By name, for older clients; matched without regard to ASCII case.
    Name(String),
}

/// The numbers a buyer asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TicketChoice {
    /// As sent: their range is the raffle's, and a bad one is named as the buyer wrote it.
    Numbers(Vec<i64>),
    /// This many numbers, drawn by the server among those still free when the purchase is
    /// written: nothing to lose to another buyer between the picker and the purchase.
    Random(u32),
}

/// A purchase form, parsed at the edge: every field well-formed on its own and the terms
/// accepted. What depends on the raffle and the catalogue (numbers in range and within the
/// limits, the method on offer, the price) is for the use case to decide.
#[derive(Debug, Clone, PartialEq)]
pub struct PurchaseRequest {
    pub customer: Customer,
    pub payment_method: MethodChoice,
    pub tickets: TicketChoice,
    /// What the client computed; the server prices the purchase itself and compares.
    pub total_amount: Money,
    pub discount_applied: Money,
    /// The bank's reference for the payment, if the buyer typed one.
    pub payment_reference: Option<PaymentReference>,
}

/// The payment method as it was when the buyer chose it, kept on the purchase so later edits
/// of the method or its rate do not rewrite history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentSnapshot {
    pub method_id: Option<PaymentMethodId>,
    pub method_name: String,
    pub conversion: Option<(Currency, Rate)>,
}

/// A purchase ready to be written: every part validated and priced on the server, and what
/// writing it implies decided (by `rifa_app::purchasing`): storage follows these fields, it
/// does not derive them from the status.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPurchase {
    pub raffle_id: RaffleId,
    pub reference: String,
    pub selection: TicketSelection,
    pub customer: Customer,
    pub payment: PaymentSnapshot,
    /// Unique per method among live purchases (storage refuses a second).
    pub payment_reference: Option<PaymentReference>,
    pub quote: PriceQuote,
    pub status: PurchaseStatus,
    /// Hold the numbers for the buyer until then, unless a proof arrives first; `None` records
    /// them on the purchase only (an admin's test purchase takes nobody's numbers).
    pub hold_until: Option<DateTime<Utc>>,
    /// How the buyer is known across purchases of the raffle.
    pub buyer_keys: BuyerKeys,
    /// The tickets one person may hold in the raffle, which this purchase counts against;
    /// `None` counts nothing (test purchases).
    pub allowance_cap: Option<u32>,
    /// Queue the buyer's confirmation of receipt with the purchase.
    pub confirm_to_buyer: bool,
    pub created_at: DateTime<Utc>,
    /// The language the buyer used, for the e-mails written to them.
    pub lang: Lang,
    /// Digest of the buyer's secret access key; `None` for test purchases (no buyer).
    pub access_digest: Option<String>,
    /// The trail's entry of an admin's test purchase, written in the purchase's transaction;
    /// storage names the purchase it creates as the entry's target. `None` for a buyer's.
    pub audit: Option<AuditEntry>,
}

/// A purchase as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Purchase {
    pub id: PurchaseId,
    pub reference: String,
    pub raffle_id: RaffleId,
    pub raffle_title: String,
    /// Ascending.
    pub ticket_numbers: Vec<TicketNumber>,
    pub customer_name: String,
    pub customer_id_document: String,
    pub customer_email: String,
    pub customer_phone: String,
    pub customer_country: String,
    pub payment_method: String,
    pub payment_method_id: Option<PaymentMethodId>,
    pub conversion: Option<(Currency, Rate)>,
    /// As the buyer typed it.
    pub payment_reference: Option<String>,
    pub total_amount: Money,
    pub discount_applied: Money,
    pub status: PurchaseStatus,
    pub created_at: DateTime<Utc>,
    pub decided_at: Option<DateTime<Utc>>,
    pub payment_proof: Option<String>,
    pub admin_notes: Option<String>,
    /// Until when a pending purchase without a proof holds its numbers.
    pub hold_expires_at: Option<DateTime<Utc>>,
}

/// What happened to a purchase, in its history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PurchaseEventKind {
    Received,
    ProofAttached,
    Approved,
    Rejected,
    Expired,
    Reopened,
}

impl PurchaseEventKind {
    pub const ALL: [Self; 6] = [
        Self::Received,
        Self::ProofAttached,
        Self::Approved,
        Self::Rejected,
        Self::Expired,
        Self::Reopened,
    ];

    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Received => "received",
            Self::ProofAttached => "proof_attached",
            Self::Approved => "approved",
            Self::Rejected => "rejected",
            Self::Expired => "expired",
            Self::Reopened => "reopened",
        }
    }

    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == raw)
    }

    /// The entry a decision leaves.
    #[must_use]
    pub fn of_decision(status: PurchaseStatus) -> Option<Self> {
        match status {
            PurchaseStatus::Approved => Some(Self::Approved),
            PurchaseStatus::Rejected => Some(Self::Rejected),
            _ => None,
        }
    }
}

/// One entry of a purchase's history: append-only, written with the change it records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PurchaseEvent {
    pub kind: PurchaseEventKind,
    pub at: DateTime<Utc>,
    /// The admin's note of a decision.
    pub note: Option<String>,
}

/// A search matching more purchases than this under filters the kept counts do not know (a
/// name, numbers, a day) says "more than 10,000" and leaves out their totals: counting and
/// summing a year of "mari…" on every keystroke would slow the panel for a figure nobody
/// reads; the operator narrows the search instead.
pub const SEARCH_COUNT_CAP: u64 = 10_000;

/// Filters of the admin purchase list (all optional) and the page wanted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PurchaseQuery {
    pub raffle_id: Option<RaffleId>,
    /// Case-insensitive substring of the customer's name.
    pub name_contains: Option<String>,
    pub status: Option<PurchaseStatus>,
    /// Purchases holding any of these numbers.
    pub ticket_numbers: Vec<TicketNumber>,
    /// Created in `[from, to)`.
    pub created: Option<(DateTime<Utc>, DateTime<Utc>)>,
    /// Only purchases with an id up to this one: pins a long read (an export) to the purchases
    /// that existed when it started.
    pub max_id: Option<PurchaseId>,
    /// 1-based.
    pub page: u32,
    pub page_size: u32,
    /// A page the reader already has: pages near it are read from it, not counted from the top.
    pub anchor: Option<PageAnchor>,
    /// Counting the matches stops past this many; the panel's is [`SEARCH_COUNT_CAP`].
    pub count_cap: u64,
}

/// A page of a search by its first purchase. With the same filters and page size, page `page`
/// starts at `first_id`, so the pages around it are a short seek away whatever their depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageAnchor {
    pub first_id: PurchaseId,
    pub page: u32,
}

/// Where a newest-first walk through purchases stopped: the last purchase it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PurchaseCursor {
    pub created_at: DateTime<Utc>,
    pub id: PurchaseId,
}

impl PurchaseCursor {
    pub fn after(purchase: &Purchase) -> Self {
        Self {
            created_at: purchase.created_at,
            id: purchase.id,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_pending_purchases_can_be_decided() {
        let approve = Verdict::Approve { notes: None };
        let reject = Verdict::Reject {
            notes: "sin pago".into(),
        };
        assert_eq!(
            decide(PurchaseStatus::Pending, &approve),
            Ok(PurchaseStatus::Approved)
        );
        assert_eq!(
            decide(PurchaseStatus::Pending, &reject),
            Ok(PurchaseStatus::Rejected)
        );
        for current in [
            PurchaseStatus::Approved,
            PurchaseStatus::Rejected,
            PurchaseStatus::Test,
        ] {
            for verdict in [&approve, &reject] {
                assert_eq!(decide(current, verdict), Err(NotPending { current }));
            }
        }
    }

    #[test]
    fn rejecting_needs_notes_and_blank_notes_do_not_count() {
        let table = [
            ("approved", None, Ok(Verdict::Approve { notes: None })),
            (
                "approved",
                Some("  ok "),
                Ok(Verdict::Approve {
                    notes: Some("ok".into()),
                }),
            ),
            (
                "rejected",
                Some(" comprobante ilegible "),
                Ok(Verdict::Reject {
                    notes: "comprobante ilegible".into(),
                }),
            ),
            ("rejected", None, Err(FieldError::NotesRequiredToReject)),
            (
                "rejected",
                Some("   "),
                Err(FieldError::NotesRequiredToReject),
            ),
            (
                "pending",
                None,
                Err(FieldError::UnknownOption {
                    allowed: vec!["approved", "rejected"],
                }),
            ),
            (
                "test",
                None,
                Err(FieldError::UnknownOption {
                    allowed: vec!["approved", "rejected"],
                }),
            ),
        ];
        for (status, notes, expected) in table {
            assert_eq!(
                Verdict::parse(status, notes),
                expected,
                "{status} {notes:?}"
            );
        }
    }

    #[test]
    fn only_pending_and_approved_hold_numbers() {
        let holding: Vec<_> = PurchaseStatus::ALL
            .into_iter()
            .filter(|s| s.holds_numbers())
            .collect();
        assert_eq!(holding, [PurchaseStatus::Pending, PurchaseStatus::Approved]);
    }

    #[test]
    fn statuses_and_history_kinds_round_trip() {
        for status in PurchaseStatus::ALL {
            assert_eq!(PurchaseStatus::parse(status.as_str()), Ok(status));
        }
        for kind in PurchaseEventKind::ALL {
            assert_eq!(PurchaseEventKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(PurchaseEventKind::parse("paid"), None);
    }

    #[test]
    fn an_expired_purchase_cannot_be_decided() {
        let approve = Verdict::Approve { notes: None };
        assert_eq!(
            decide(PurchaseStatus::Expired, &approve),
            Err(NotPending {
                current: PurchaseStatus::Expired
            })
        );
    }
}
