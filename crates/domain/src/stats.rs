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
