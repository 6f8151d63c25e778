use rifa_domain::branding::{Branding, BrandingPatch, SiteInfoPatch};
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
    /// Support contact shown in the footer; blank hides it.
    pub contact_email: String,
    pub contact_phone: String,
    /// Where the support buttons and the phone link lead (`https://wa.me/…`).
    pub whatsapp_url: String,
    /// Social links of the footer; a blank one is left out.
    pub facebook_url: String,
    pub instagram_url: String,
    pub tiktok_url: String,
    pub whatsapp_channel_url: String,
    /// The official results that decide the draws (how-to-win step 3).
    pub lottery_results_url: String,
    /// The embedded how-to videos of steps 1 and 2 (exactly two; blank hides one).
    pub video_urls: [String; 2],
    /// Static marketing figures (SPEC §1), shown as "N+": home hero and FAQ.
    pub participants: u32,
    /// Text such as `2M+`.
    pub prizes: String,
    pub countries: u32,
    /// The all-raffles page's figures.
    pub raffles_page_prizes: String,
    pub raffles_page_participants: u32,
    pub raffles_page_winners: u32,
}

impl From<Branding> for BrandingDto {
    fn from(b: Branding) -> Self {
        let site = b.site;
        Self {
            contact_email: site.contact_email,
            contact_phone: site.contact_phone,
            whatsapp_url: site.whatsapp_url,
            facebook_url: site.facebook_url,
            instagram_url: site.instagram_url,
            tiktok_url: site.tiktok_url,
            whatsapp_channel_url: site.whatsapp_channel_url,
            lottery_results_url: site.lottery_results_url,
            video_urls: site.video_urls,
            participants: site.participants,
            prizes: site.prizes,
            countries: site.countries,
            raffles_page_prizes: site.raffles_page_prizes,
            raffles_page_participants: site.raffles_page_participants,
            raffles_page_winners: site.raffles_page_winners,
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
    /// An e-mail address, or blank.
    pub contact_email: Option<String>,
    pub contact_phone: Option<String>,
    /// Each link: absolute `http(s)` or blank.
    pub whatsapp_url: Option<String>,
    pub facebook_url: Option<String>,
    pub instagram_url: Option<String>,
    pub tiktok_url: Option<String>,
    pub whatsapp_channel_url: Option<String>,
    pub lottery_results_url: Option<String>,
    /// Exactly two, each a link or blank.
    pub video_urls: Option<Vec<String>>,
    /// 0 to 1,000,000,000.
    pub participants: Option<i64>,
    /// 1 to 20 characters.
    pub prizes: Option<String>,
    pub countries: Option<i64>,
    pub raffles_page_prizes: Option<String>,
    pub raffles_page_participants: Option<i64>,
    pub raffles_page_winners: Option<i64>,
}

impl From<BrandingRequest> for BrandingPatch {
    fn from(r: BrandingRequest) -> Self {
        Self {
            site: SiteInfoPatch {
                contact_email: r.contact_email,
                contact_phone: r.contact_phone,
                whatsapp_url: r.whatsapp_url,
                facebook_url: r.facebook_url,
                instagram_url: r.instagram_url,
                tiktok_url: r.tiktok_url,
                whatsapp_channel_url: r.whatsapp_channel_url,
                lottery_results_url: r.lottery_results_url,
                video_urls: r.video_urls,
                participants: r.participants,
                prizes: r.prizes,
                countries: r.countries,
                raffles_page_prizes: r.raffles_page_prizes,
                raffles_page_participants: r.raffles_page_participants,
                raffles_page_winners: r.raffles_page_winners,
            },
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
    /// The sender is missing or at a placeholder domain (`localhost`, `example.com`, `.test`…):
    /// buyers' e-mails would bounce or be filtered, so the panel warns.
    pub sender_is_placeholder: bool,
}

impl From<EmailSettings> for EmailSettingsDto {
    fn from(s: EmailSettings) -> Self {
        Self {
            sender_is_placeholder: s.sender_is_placeholder(),
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
