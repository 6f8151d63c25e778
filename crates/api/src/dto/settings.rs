use rifa_domain::branding::{Branding, BrandingPatch};
use rifa_domain::email_settings::{EmailSettings, EmailSettingsInput};
use rifa_domain::pricing::{DiscountTable, DiscountTier};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BrandingDto {
    /// HSL as the theme's CSS variables take it: `"240 9% 3.9%"`.
    #[schema(example = "240 9% 3.9%")]
    pub primary_color: String,
    pub secondary_color: String,
    pub accent_color: String,
    pub danger_color: String,
    pub success_color: String,
    pub company_name: String,
    pub description: String,
    pub logo_url: String,
}

impl From<Branding> for BrandingDto {
    fn from(b: Branding) -> Self {
        Self {
            primary_color: b.primary_color.as_str().to_owned(),
            secondary_color: b.secondary_color.as_str().to_owned(),
            accent_color: b.accent_color.as_str().to_owned(),
            danger_color: b.danger_color.as_str().to_owned(),
            success_color: b.success_color.as_str().to_owned(),
            company_name: b.company_name,
            description: b.description,
            logo_url: b.logo_url,
        }
    }
}

/// Fields left out keep their value.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BrandingRequest {
    pub primary_color: Option<String>,
    pub secondary_color: Option<String>,
    pub accent_color: Option<String>,
    pub danger_color: Option<String>,
    pub success_color: Option<String>,
    pub company_name: Option<String>,
    pub description: Option<String>,
    pub logo_url: Option<String>,
}

impl From<BrandingRequest> for BrandingPatch {
    fn from(r: BrandingRequest) -> Self {
        Self {
            primary_color: r.primary_color,
            secondary_color: r.secondary_color,
            accent_color: r.accent_color,
            danger_color: r.danger_color,
            success_color: r.success_color,
            company_name: r.company_name,
            description: r.description,
            logo_url: r.logo_url,
        }
    }
}

/// The stored SMTP settings. The password is never sent back; `hasPassword` says whether one
/// is stored.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailSettingsDto {
    pub email_host: String,
    pub email_port: u16,
    pub email_user: String,
    pub has_password: bool,
    pub from_email: String,
}

impl From<EmailSettings> for EmailSettingsDto {
    fn from(s: EmailSettings) -> Self {
        Self {
            has_password: s.password.is_some(),
            email_host: s.host,
            email_port: s.port,
            email_user: s.user,
            from_email: s.from_email,
        }
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailSettingsRequest {
    pub email_host: Option<String>,
    /// Defaults to 587.
    pub email_port: Option<i64>,
    pub email_user: Option<String>,
    /// Write-only; leave out or empty to keep the stored one.
    pub email_pass: Option<String>,
    /// `true` deletes the stored password (a non-empty `emailPass` sent with it replaces it).
    pub clear_password: Option<bool>,
    pub from_email: Option<String>,
}

impl From<EmailSettingsRequest> for EmailSettingsInput {
    fn from(r: EmailSettingsRequest) -> Self {
        Self {
            host: r.email_host,
            port: r.email_port,
            user: r.email_user,
            password: r.email_pass,
            clear_password: r.clear_password.unwrap_or(false),
            from_email: r.from_email,
        }
    }
}

#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiscountTierDto {
    /// From this many tickets on.
    pub min_tickets: u32,
    /// Percent off, between 0 and 100 (exclusive): a decimal string (numbers are accepted too).
    #[schema(value_type = String, example = "10")]
    pub percentage: rust_decimal::Decimal,
    pub label: String,
}

/// The volume discounts; empty by default (no discount ever applies).
#[derive(Serialize, Deserialize, ToSchema)]
pub struct DiscountsDto {
    pub tiers: Vec<DiscountTierDto>,
}

impl From<DiscountTable> for DiscountsDto {
    fn from(t: DiscountTable) -> Self {
        Self {
            tiers: t
                .tiers()
                .iter()
                .map(|d| DiscountTierDto {
                    min_tickets: d.min_tickets,
                    percentage: d.percentage,
                    label: d.label.clone(),
                })
                .collect(),
        }
    }
}

impl From<DiscountsDto> for Vec<DiscountTier> {
    fn from(d: DiscountsDto) -> Self {
        d.tiers
            .into_iter()
            .map(|t| DiscountTier {
                min_tickets: t.min_tickets,
                percentage: t.percentage,
                label: t.label,
            })
            .collect()
    }
}
