use rifa_app::staff::HandedOver;
use rifa_domain::admin::{AdminId, Role, StaffMember};
use rifa_domain::stats::{DashboardStats, DaySales};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::instant;

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
    /// Always `admin` (the spec's value); the staff role is `staffRole`.
    #[schema(example = "admin")]
    pub role: &'static str,
    pub authenticated: bool,
    /// An owner: may do everything, including staff, settings and the audit trail.
    pub privileged: bool,
    #[schema(example = "reviewer")]
    pub staff_role: &'static str,
    /// What the role allows: `purchases`, `reports`, `catalogue`, `draws`, `settings`, `staff`,
    /// `audit`. Empty until a handed-over password is replaced.
    pub permissions: Vec<&'static str>,
    /// The password was handed over by an owner: only changing it is allowed.
    pub must_change_password: bool,
}

impl SessionUserDto {
    #[must_use]
    pub fn new(id: AdminId, username: String, role: Role, must_change_password: bool) -> Self {
        let permissions = if must_change_password {
            Vec::new()
        } else {
            role.permissions().iter().map(|p| p.as_str()).collect()
        };
        Self {
            id: id.get(),
            username,
            role: "admin",
            authenticated: true,
            privileged: role == Role::Owner,
            staff_role: role.as_str(),
            permissions,
            must_change_password,
        }
    }
}

/// A staff account as the staff screen lists it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffMemberDto {
    pub id: i64,
    pub username: String,
    #[schema(example = "reviewer")]
    pub role: &'static str,
    pub disabled: bool,
    /// Holds a password an owner handed over, not yet replaced.
    pub must_change_password: bool,
    pub created_at: String,
    pub last_sign_in_at: Option<String>,
}

impl From<StaffMember> for StaffMemberDto {
    fn from(member: StaffMember) -> Self {
        Self {
            id: member.id.get(),
            username: member.username,
            role: member.role.as_str(),
            disabled: member.disabled,
            must_change_password: member.must_change_password,
            created_at: instant(member.created_at),
            last_sign_in_at: member.last_sign_in_at.map(instant),
        }
    }
}

/// An account and the one-time password to hand over to its person: shown once, never stored
/// in clear, to be replaced at the first sign-in.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HandedOverDto {
    pub member: StaffMemberDto,
    pub temporary_password: String,
}

impl From<HandedOver> for HandedOverDto {
    fn from(handed: HandedOver) -> Self {
        Self {
            member: handed.member.into(),
            temporary_password: handed.temporary_password,
        }
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewStaffRequest {
    pub username: String,
    /// `owner`, `manager`, `reviewer` or `catalogue`.
    #[schema(example = "reviewer")]
    pub role: String,
}

/// What an owner changes on an account; fields left out keep their value.
// Read only from a JSON object: serde would also take an array of the fields in order, and
// `[null, null]` would pass for an update that changes nothing.
#[derive(Deserialize, ToSchema)]
#[serde(
    rename_all = "camelCase",
    try_from = "serde_json::Map<String, serde_json::Value>"
)]
pub struct StaffUpdateRequest {
    #[schema(example = "manager")]
    pub role: Option<String>,
    /// Disabling ends every session of the account at once.
    pub disabled: Option<bool>,
}

/// The fields of [`StaffUpdateRequest`], as serde reads them once the body is an object.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StaffUpdateFields {
    role: Option<String>,
    disabled: Option<bool>,
}

impl TryFrom<serde_json::Map<String, serde_json::Value>> for StaffUpdateRequest {
    type Error = serde_json::Error;

    fn try_from(object: serde_json::Map<String, serde_json::Value>) -> Result<Self, Self::Error> {
        let fields: StaffUpdateFields = serde_json::from_value(object.into())?;
        Ok(Self {
            role: fields.role,
            disabled: fields.disabled,
        })
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasswordChangeRequest {
    pub current_password: String,
    pub new_password: String,
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
