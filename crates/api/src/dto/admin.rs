use rifa_domain::stats::{DashboardStats, DaySales};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

#[derive(Deserialize, ToSchema)]
pub struct LoginRequest {
    pub username: Option<String>,
    pub password: Option<String>,
}

/// The signed-in user as the panel stores it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionUserDto {
    pub id: i64,
    pub username: String,
    #[schema(example = "admin")]
    pub role: &'static str,
    pub authenticated: bool,
    /// May manage branding and e-mail and delete exchange rates.
    pub privileged: bool,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginResponse {
    /// HS256 JWT; send it as `Authorization: Bearer …`. Its `exp` claim is in seconds.
    pub token: String,
    pub expires_at: String,
    pub user: SessionUserDto,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatsDto {
    /// Tickets of approved purchases.
    pub tickets_sold: u64,
    /// Sum of approved totals, USD.
    #[schema(example = "1250.00")]
    pub total_revenue: String,
    pub pending_purchases: u64,
    /// Raffles with status available.
    pub active_raffles: u64,
}

impl From<DashboardStats> for StatsDto {
    fn from(s: DashboardStats) -> Self {
        Self {
            tickets_sold: s.tickets_sold,
            total_revenue: s.total_revenue.to_string(),
            pending_purchases: s.pending_purchases,
            active_raffles: s.active_raffles,
        }
    }
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct StatsParams {
    /// Only purchases made that day (`YYYY-MM-DD`, in the admin's time zone).
    pub date: Option<String>,
    pub utc_offset_minutes: Option<i32>,
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct DailyStatsParams {
    /// The first day, `YYYY-MM-DD`, in the admin's time zone.
    #[param(required = true, example = "2025-07-13")]
    pub from: Option<String>,
    /// The last day (included), at most 365 days after `from`.
    #[param(required = true, example = "2025-07-26")]
    pub to: Option<String>,
    /// The admin's offset from UTC in minutes (Caracas: -240). Defaults to 0.
    pub utc_offset_minutes: Option<i32>,
}

/// One day of sales.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DaySalesDto {
    /// `YYYY-MM-DD`, in the admin's time zone.
    #[schema(example = "2025-07-26")]
    pub date: String,
    /// Sum of the approved purchases made that day, USD.
    #[schema(example = "130.00")]
    pub revenue: String,
    /// Tickets of the approved purchases made that day.
    pub tickets_sold: u64,
    /// Purchases made that day in any status but `test` (pending, approved, rejected).
    pub purchases: u64,
}

impl From<DaySales> for DaySalesDto {
    fn from(d: DaySales) -> Self {
        Self {
            date: d.date.format("%Y-%m-%d").to_string(),
            revenue: d.revenue.to_string(),
            tickets_sold: d.tickets_sold,
            purchases: d.purchases,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct HealthDto {
    pub status: &'static str,
}
