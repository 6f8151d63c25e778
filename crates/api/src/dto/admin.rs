use rifa_domain::stats::DashboardStats;
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
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct StatsParams {
    /// Only purchases made that day (`YYYY-MM-DD`, in the admin's time zone).
    pub date: Option<String>,
    pub utc_offset_minutes: Option<i32>,
}

#[derive(Serialize, ToSchema)]
pub struct HealthDto {
    pub status: &'static str,
}
