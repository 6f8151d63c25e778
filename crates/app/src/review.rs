//! The admin's side of purchases: finding them, deciding them, and the dashboard figures.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};
use rifa_domain::FieldErrors;
use rifa_domain::audit::{Actor, AuditAction, AuditEntry, Change};
use rifa_domain::purchase::{
    NotPending, Purchase, PurchaseEventKind, PurchaseId, PurchaseStatus, Verdict,
};
use rifa_domain::stats::{DashboardStats, DaySales};
use rifa_domain::ticket::TicketNumber;
use rifa_ports::{
    Clock, DecidePurchaseError, MailKind, PurchaseDecision, PurchasePage, PurchaseQuery,
    PurchaseRepository, RaffleRepository, ReopenError, Reopening,
};

use crate::shared::{AvailabilityCache, MailSignal, RaffleTermsCache, Shared, now};

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

/// Why an expired purchase was not reopened.
#[derive(Debug, thiserror::Error)]
pub enum ReopenFailure {
    #[error("purchase not found")]
    NotFound,
    #[error("purchase is {0:?}, only expired purchases can be reopened")]
    NotExpired(PurchaseStatus),
    /// Others hold these numbers now (ascending); `max_tickets` sets their padding.
    #[error("numbers taken meanwhile: {numbers:?}")]
    NumbersTaken {
        numbers: Vec<TicketNumber>,
        max_tickets: u32,
    },
    /// The buyer bought again meanwhile: reopening would pass their allowance.
    #[error("allowance passed")]
    PerPersonLimit { max: u32, used: u32 },
    /// The raffle's ledger is frozen for its draw.
    #[error("the raffle's ledger is frozen")]
    LedgerFrozen,
    /// Another live purchase paid with the same method carries its payment reference now.
    #[error("payment reference used by another purchase")]
    PaymentReferenceUsed,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
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

/// The admin's side of purchases: finding them, deciding them, the dashboard's figures.
#[async_trait::async_trait]
pub trait ReviewService: Send + Sync + 'static {
    /// One page of matching purchases; the page size is kept within 1..=[`MAX_PAGE_SIZE`].
    ///
    /// # Errors
    /// Storage failures only.
    async fn search_purchases(&self, query: PurchaseQuery) -> anyhow::Result<PageOf>;

    /// The newest [`LIST_CAP`] matching purchases, for the spec's plain list.
    ///
    /// # Errors
    /// Storage failures only.
    async fn all_purchases(&self, query: PurchaseQuery) -> anyhow::Result<PurchasePage>;

    /// # Errors
    /// Storage failures only; a missing purchase is `Ok(None)`.
    async fn purchase_by_id(&self, id: PurchaseId) -> anyhow::Result<Option<Purchase>>;

    /// Approves or rejects a pending purchase; a rejection frees its numbers at once.
    ///
    /// # Errors
    /// `Invalid` (unknown status, rejection without notes), `NotFound`, `NotPending` when it was
    /// already decided, or a storage failure.
    async fn decide_purchase(
        &self,
        id: PurchaseId,
        status: &str,
        notes: Option<&str>,
        by: &Actor,
    ) -> Result<Purchase, DecideError>;

    /// Makes an expired purchase pending again with a fresh hold, when all its numbers are
    /// still free (a proof came late by other means).
    ///
    /// # Errors
    /// `NotFound`, `NotExpired`, `NumbersTaken` naming the numbers sold meanwhile,
    /// `PerPersonLimit`, or a storage failure.
    async fn reopen_purchase(&self, id: PurchaseId, by: &Actor) -> Result<Purchase, ReopenFailure>;

    /// # Errors
    /// Storage failures only.
    async fn dashboard_stats(
        &self,
        created: Option<(DateTime<Utc>, DateTime<Utc>)>,
    ) -> anyhow::Result<DashboardStats>;

    /// The sales of every day from `period.first` to `period.last` (both included, days of the
    /// admin's time zone), days without purchases as zeros, read in one query.
    ///
    /// # Errors
    /// Storage failures only.
    async fn daily_sales(&self, period: &DayPeriod) -> anyhow::Result<Vec<DaySales>>;
}

/// Review over its ports: purchases from `S`, the decision's time from `C`. A decision drops
/// the raffle's cached availability when it frees numbers and rings the outbox (the buyer's
/// e-mail was queued with it).
pub struct Review<S, C> {
    store: S,
    clock: C,
    raffle_terms: Arc<RaffleTermsCache>,
    availability: Arc<AvailabilityCache>,
    mail_signal: Arc<MailSignal>,
}

impl<S: PurchaseRepository + RaffleRepository, C: Clock> Review<S, C> {
    pub fn new(store: S, clock: C, shared: &Shared) -> Self {
        Self {
            store,
            clock,
            raffle_terms: Arc::clone(&shared.raffle_terms),
            availability: Arc::clone(&shared.availability),
            mail_signal: Arc::clone(&shared.mail_signal),
        }
    }
}

#[async_trait::async_trait]
impl<S: PurchaseRepository + RaffleRepository, C: Clock> ReviewService for Review<S, C> {
    async fn search_purchases(&self, mut query: PurchaseQuery) -> anyhow::Result<PageOf> {
        query.page = query.page.max(1);
        query.page_size = query.page_size.clamp(1, MAX_PAGE_SIZE);
        let result = self.store.search_purchases(&query).await?;
        Ok(PageOf {
            result,
            page: query.page,
            page_size: query.page_size,
        })
    }

    async fn all_purchases(&self, mut query: PurchaseQuery) -> anyhow::Result<PurchasePage> {
        query.page = 1;
        query.page_size = LIST_CAP;
        self.store.search_purchases(&query).await
    }

    async fn purchase_by_id(&self, id: PurchaseId) -> anyhow::Result<Option<Purchase>> {
        self.store.get_purchase(id).await
    }

    async fn decide_purchase(
        &self,
        id: PurchaseId,
        status: &str,
        notes: Option<&str>,
        by: &Actor,
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
            .decide_purchase(
                id,
                &decision_of(&verdict, now(&self.clock), Decider::One(by), id),
            )
            .await
            .map_err(|e| match e {
                DecidePurchaseError::NotFound => DecideError::NotFound,
                DecidePurchaseError::NotPending(current) => {
                    DecideError::NotPending(NotPending { current })
                }
                DecidePurchaseError::Unknown(e) => DecideError::Unknown(e),
            })?;
        // A rejection frees numbers; any decision changes what is pending.
        self.availability.holds_changed(purchase.raffle_id);
        self.mail_signal.queued();
        tracing::info!(
            purchase.id = id.get(),
            status = purchase.status.as_str(),
            "purchase decided"
        );
        Ok(purchase)
    }

    async fn reopen_purchase(&self, id: PurchaseId, by: &Actor) -> Result<Purchase, ReopenFailure> {
        let purchase = self
            .store
            .get_purchase(id)
            .await?
            .ok_or(ReopenFailure::NotFound)?;
        if purchase.status != PurchaseStatus::Expired {
            return Err(ReopenFailure::NotExpired(purchase.status));
        }
        let raffle = self
            .raffle_terms
            .get(&self.store, purchase.raffle_id)
            .await?
            .ok_or(ReopenFailure::NotFound)?;
        let at = now(&self.clock);
        let reopening = Reopening {
            at,
            hold_until: raffle.sales.hold_deadline(at),
            allowance_cap: raffle.limits.max(),
            mail: None,
            audit: AuditEntry {
                at,
                actor: by.clone(),
                action: AuditAction::PurchaseReopened,
                target: Some(format!("purchase:{}", id.get())),
                changes: vec![Change::new(
                    "status",
                    Some(PurchaseStatus::Expired.as_str().to_owned()),
                    Some(PurchaseStatus::Pending.as_str().to_owned()),
                )],
            },
        };
        let reopened = self
            .store
            .reopen_purchase(id, &reopening)
            .await
            .map_err(|e| match e {
                ReopenError::NotFound => ReopenFailure::NotFound,
                ReopenError::NotExpired(status) => ReopenFailure::NotExpired(status),
                ReopenError::NumbersTaken(numbers) => ReopenFailure::NumbersTaken {
                    numbers,
                    max_tickets: raffle.max_tickets,
                },
                ReopenError::AllowanceExceeded { cap, used } => {
                    ReopenFailure::PerPersonLimit { max: cap, used }
                }
                ReopenError::LedgerFrozen => ReopenFailure::LedgerFrozen,
                ReopenError::PaymentReferenceUsed => ReopenFailure::PaymentReferenceUsed,
                ReopenError::Unknown(e) => ReopenFailure::Unknown(e),
            })?;
        self.availability.holds_changed(reopened.raffle_id);
        tracing::info!(purchase.id = id.get(), "purchase reopened");
        Ok(reopened)
    }

    async fn dashboard_stats(
        &self,
        created: Option<(DateTime<Utc>, DateTime<Utc>)>,
    ) -> anyhow::Result<DashboardStats> {
        self.store.dashboard_stats(created).await
    }

    async fn daily_sales(&self, period: &DayPeriod) -> anyhow::Result<Vec<DaySales>> {
        let (from, to) = period.utc_range();
        let found = self
            .store
            .daily_sales(from, to, period.utc_offset_minutes)
            .await?;
        Ok(period.fill(found))
    }
}

/// What a verdict does, all carried out by storage in one transaction: a rejection puts the
/// numbers back on sale, and each verdict sends the buyer its own e-mail.
#[must_use]
pub fn decision_of(
    verdict: &Verdict,
    decided_at: DateTime<Utc>,
    by: Decider<'_>,
    purchase: PurchaseId,
) -> PurchaseDecision {
    let status = verdict.target();
    let (actor, action) = match by {
        Decider::One(actor) => (actor, AuditAction::PurchaseDecided),
        Decider::InBulk(actor) => (actor, AuditAction::PurchasesDecidedInBulk),
    };
    let notes = verdict.notes().map(str::to_owned);
    PurchaseDecision {
        status,
        notes: notes.clone(),
        decided_at,
        release_numbers: !status.holds_numbers(),
        mail: match verdict {
            Verdict::Approve { .. } => MailKind::Approved,
            Verdict::Reject { .. } => MailKind::Rejected,
        },
        history: match verdict {
            Verdict::Approve { .. } => PurchaseEventKind::Approved,
            Verdict::Reject { .. } => PurchaseEventKind::Rejected,
        },
        audit: AuditEntry {
            at: decided_at,
            actor: actor.clone(),
            action,
            target: Some(format!("purchase:{}", purchase.get())),
            changes: vec![
                // Only a pending purchase is decided: the storage refuses any other.
                Change::new(
                    "status",
                    Some(PurchaseStatus::Pending.as_str().to_owned()),
                    Some(status.as_str().to_owned()),
                ),
                Change::new("adminNotes", None, notes),
            ],
        },
    }
}

/// Who made a decision, and whether alone or in a bulk decision.
#[derive(Debug, Clone, Copy)]
pub enum Decider<'a> {
    One(&'a Actor),
    InBulk(&'a Actor),
}

/// The longest series one call may ask for: a year and a day (a leap year's worth).
pub const MAX_SERIES_DAYS: i64 = 366;

/// A run of whole days in the admin's time zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DayPeriod {
    first: NaiveDate,
    last: NaiveDate,
    utc_offset_minutes: i32,
}

/// Why a period was refused, by field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DayPeriodError {
    /// `last` comes before `first`.
    Reversed,
    /// More than [`MAX_SERIES_DAYS`] days.
    TooLong,
    /// The offset is beyond ±14 hours.
    Offset,
}

impl DayPeriod {
    /// # Errors
    /// `Reversed`, `TooLong`, or `Offset`.
    pub fn new(
        first: NaiveDate,
        last: NaiveDate,
        utc_offset_minutes: i32,
    ) -> Result<Self, DayPeriodError> {
        if !(-14 * 60..=14 * 60).contains(&utc_offset_minutes) {
            return Err(DayPeriodError::Offset);
        }
        let days = (last - first).num_days() + 1;
        if days < 1 {
            return Err(DayPeriodError::Reversed);
        }
        if days > MAX_SERIES_DAYS {
            return Err(DayPeriodError::TooLong);
        }
        Ok(Self {
            first,
            last,
            utc_offset_minutes,
        })
    }

    #[must_use]
    pub fn utc_offset_minutes(&self) -> i32 {
        self.utc_offset_minutes
    }

    /// From local midnight of the first day to local midnight after the last, in UTC.
    #[must_use]
    pub fn utc_range(&self) -> (DateTime<Utc>, DateTime<Utc>) {
        let offset = Duration::minutes(i64::from(self.utc_offset_minutes));
        let start = self.first.and_time(NaiveTime::MIN).and_utc() - offset;
        let end = self.last.and_time(NaiveTime::MIN).and_utc() + Duration::days(1) - offset;
        (start, end)
    }

    /// Every day of the period in order, taking the figures found and zeros elsewhere.
    #[must_use]
    pub fn fill(&self, found: Vec<DaySales>) -> Vec<DaySales> {
        let found: HashMap<NaiveDate, DaySales> = found.into_iter().map(|d| (d.date, d)).collect();
        self.first
            .iter_days()
            .take_while(|day| *day <= self.last)
            .map(|day| found.get(&day).copied().unwrap_or(DaySales::empty(day)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rifa_domain::money::Money;

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap_or_default()
    }

    fn ana() -> Actor {
        Actor {
            admin_id: Some(rifa_domain::admin::AdminId::new(3)),
            username: "ana".to_owned(),
            ip: Some("10.0.0.7".to_owned()),
        }
    }

    #[test]
    fn a_rejection_frees_the_numbers_and_each_verdict_sends_its_own_e_mail() {
        let at = Utc::now();
        let ana = ana();
        let rejected = decision_of(
            &Verdict::Reject {
                notes: "sin pago".into(),
            },
            at,
            Decider::One(&ana),
            PurchaseId::new(9),
        );
        assert_eq!(
            rejected.status,
            rifa_domain::purchase::PurchaseStatus::Rejected
        );
        assert!(rejected.release_numbers);
        assert_eq!(rejected.mail, MailKind::Rejected);
        assert_eq!(rejected.notes.as_deref(), Some("sin pago"));

        let approved = decision_of(
            &Verdict::Approve { notes: None },
            at,
            Decider::InBulk(&ana),
            PurchaseId::new(10),
        );
        assert_eq!(
            approved.status,
            rifa_domain::purchase::PurchaseStatus::Approved
        );
        assert!(!approved.release_numbers);
        assert_eq!(approved.mail, MailKind::Approved);
        assert_eq!(approved.decided_at, at);
    }

    #[test]
    fn a_decision_names_its_decider_and_what_changed_for_the_trail() {
        let at = Utc::now();
        let ana = ana();
        let rejected = decision_of(
            &Verdict::Reject {
                notes: "sin pago".into(),
            },
            at,
            Decider::One(&ana),
            PurchaseId::new(9),
        );
        assert_eq!(rejected.audit.actor, ana);
        assert_eq!(rejected.audit.action, AuditAction::PurchaseDecided);
        assert_eq!(rejected.audit.target.as_deref(), Some("purchase:9"));
        assert_eq!(
            rejected.audit.changes,
            vec![
                Change::new("status", Some("pending".into()), Some("rejected".into())),
                Change::new("adminNotes", None, Some("sin pago".into())),
            ]
        );
        let bulk = decision_of(
            &Verdict::Approve { notes: None },
            at,
            Decider::InBulk(&ana),
            PurchaseId::new(10),
        );
        assert_eq!(bulk.audit.action, AuditAction::PurchasesDecidedInBulk);
        assert_eq!(bulk.audit.at, at);
    }

    #[test]
    fn a_period_covers_whole_local_days() {
        let caracas = DayPeriod::new(day("2025-07-26"), day("2025-07-27"), -240);
        let (from, to) = caracas.map(|p| p.utc_range()).unwrap_or_default();
        assert_eq!(from.to_rfc3339(), "2025-07-26T04:00:00+00:00");
        assert_eq!(to.to_rfc3339(), "2025-07-28T04:00:00+00:00");
    }

    #[test]
    fn bad_periods_are_refused() {
        let (a, b) = (day("2025-07-26"), day("2025-07-25"));
        assert_eq!(DayPeriod::new(a, b, 0), Err(DayPeriodError::Reversed));
        assert_eq!(DayPeriod::new(a, a, 900), Err(DayPeriodError::Offset));
        assert_eq!(
            DayPeriod::new(day("2024-01-01"), day("2025-01-01"), 0),
            Err(DayPeriodError::TooLong)
        );
        assert!(DayPeriod::new(day("2024-01-01"), day("2024-12-31"), 0).is_ok());
    }

    #[test]
    fn missing_days_are_zeros_in_order() {
        let period = DayPeriod::new(day("2025-07-26"), day("2025-07-28"), 0)
            .unwrap_or_else(|e| panic!("{e:?}"));
        let sold = DaySales {
            date: day("2025-07-27"),
            revenue: Money::from_cents(2600).unwrap_or(Money::ZERO),
            tickets_sold: 2,
            purchases: 3,
        };

        let series = period.fill(vec![sold]);

        assert_eq!(
            series,
            [
                DaySales::empty(day("2025-07-26")),
                sold,
                DaySales::empty(day("2025-07-28"))
            ]
        );
    }
}
