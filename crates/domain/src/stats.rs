//! Figures on the admin dashboard (SPEC §9 "Dashboard totals").

use crate::money::Money;

/// Revenue and tickets sold count approved purchases only; pending counts pending purchases;
/// active raffles are those with status available.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DashboardStats {
    pub tickets_sold: u64,
    pub total_revenue: Money,
    pub pending_purchases: u64,
    pub active_raffles: u64,
}

/// One day of the sales chart: the figures of purchases made that day (in the admin's time
/// zone). Revenue and tickets count approved purchases only, as the dashboard's; `purchases`
/// counts every real purchase made that day (pending, approved or rejected; tests excluded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DaySales {
    pub date: chrono::NaiveDate,
    pub revenue: Money,
    pub tickets_sold: u64,
    pub purchases: u64,
}

impl DaySales {
    /// A day without purchases.
    #[must_use]
    pub fn empty(date: chrono::NaiveDate) -> Self {
        Self {
            date,
            revenue: Money::ZERO,
            tickets_sold: 0,
            purchases: 0,
        }
    }
}
