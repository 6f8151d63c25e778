//! Branding, e-mail settings and the discount table.

use rifa_domain::branding::{Branding, BrandingPatch};
use rifa_domain::email_settings::{EmailSettings, EmailSettingsInput};
use rifa_domain::pricing::{DiscountTable, DiscountTier};
use rifa_domain::{FieldError, FieldErrors};
use std::sync::Arc;

use rifa_domain::audit::{Actor, AuditAction, AuditEntry, Change, Fields, REDACTED};
use rifa_ports::{Clock, SettingsRepository};

use crate::WriteFailure;
use crate::audit::{Recorded, record_entry};
use crate::shared::{PurchaseTermsCache, Shared, now};

/// The operator's settings: branding, e-mail settings, the discount table.
#[async_trait::async_trait]
pub trait SettingsService: Send + Sync + 'static {
    /// The saved branding, or the spec's defaults.
    ///
    /// # Errors
    /// Storage failures only.
    async fn branding(&self) -> anyhow::Result<Branding>;

    /// # Errors
    /// `Invalid` with every bad field, or a storage failure.
    async fn update_branding(
        &self,
        patch: BrandingPatch,
        by: &Actor,
    ) -> Result<Branding, WriteFailure>;

    /// # Errors
    /// Storage failures only.
    async fn email_settings(&self) -> anyhow::Result<EmailSettings>;

    /// # Errors
    /// `Invalid` with every bad field, or a storage failure.
    async fn update_email_settings(
        &self,
        input: EmailSettingsInput,
        by: &Actor,
    ) -> Result<EmailSettings, WriteFailure>;

    /// # Errors
    /// Storage failures only.
    async fn discounts(&self) -> anyhow::Result<DiscountTable>;

    /// # Errors
    /// `Invalid` or a storage failure.
    async fn update_discounts(
        &self,
        tiers: Vec<DiscountTier>,
        by: &Actor,
    ) -> Result<DiscountTable, WriteFailure>;
}

/// How many times a branding patch is applied again to a branding someone else just saved.
const BRANDING_SAVE_ATTEMPTS: usize = 5;

/// Settings over their store, saves timed by `C`. A new discount table drops the purchase terms purchasing caches.
pub struct Settings<S, C> {
    store: S,
    clock: C,
    purchase_terms: Arc<PurchaseTermsCache>,
}

impl<S: SettingsRepository, C: Clock> Settings<S, C> {
    pub fn new(store: S, clock: C, shared: &Shared) -> Self {
        Self {
            store,
            clock,
            purchase_terms: Arc::clone(&shared.purchase_terms),
        }
    }

    /// The trail's entry for a save of a setting (one record, its fields as `fields` shows
    /// them). A setting never saved was its default, and the entry says what changed from it.
    fn entry<T: Default>(
        &self,
        by: &Actor,
        action: AuditAction,
        fields: fn(&T) -> Fields,
    ) -> impl Fn(Option<&T>, Option<&T>) -> AuditEntry + Sync + use<S, C, T> {
        let entry = record_entry(
            now(&self.clock),
            by,
            action,
            Recorded {
                kind: "settings",
                id: |_| 1,
                fields,
            },
        );
        move |before, after| match before {
            Some(before) => entry(Some(before), after),
            None => entry(Some(&T::default()), after),
        }
    }
}

/// What the trail records of the branding: every field an admin sets.
fn branding_fields(b: &Branding) -> Fields {
    let site = &b.site;
    let text = |value: &str| Some(value.to_owned());
    vec![
        ("primaryColor", text(b.primary_color.as_str())),
        ("secondaryColor", text(b.secondary_color.as_str())),
        ("accentColor", text(b.accent_color.as_str())),
        ("dangerColor", text(b.danger_color.as_str())),
        ("successColor", text(b.success_color.as_str())),
        ("companyName", text(&b.company_name)),
        ("description", text(&b.description)),
        ("logoUrl", text(&b.logo_url)),
        ("contactEmail", text(&site.contact_email)),
        ("contactPhone", text(&site.contact_phone)),
        ("whatsappUrl", text(&site.whatsapp_url)),
        ("facebookUrl", text(&site.facebook_url)),
        ("instagramUrl", text(&site.instagram_url)),
        ("tiktokUrl", text(&site.tiktok_url)),
        ("whatsappChannelUrl", text(&site.whatsapp_channel_url)),
        ("lotteryResultsUrl", text(&site.lottery_results_url)),
        ("videoUrls", Some(site.video_urls.join(" | "))),
        ("participants", Some(site.participants.to_string())),
        ("prizes", text(&site.prizes)),
        ("countries", Some(site.countries.to_string())),
        ("rafflesPagePrizes", text(&site.raffles_page_prizes)),
        (
            "rafflesPageParticipants",
            Some(site.raffles_page_participants.to_string()),
        ),
        (
            "rafflesPageWinners",
            Some(site.raffles_page_winners.to_string()),
        ),
    ]
}

/// What the trail records of the e-mail settings: the password only as set or not.
fn email_fields(s: &EmailSettings) -> Fields {
    vec![
        ("host", Some(s.host.clone())),
        ("port", Some(s.port.to_string())),
        ("user", Some(s.user.clone())),
        ("password", s.password.as_ref().map(|_| REDACTED.to_owned())),
        ("fromEmail", Some(s.from_email.clone())),
    ]
}

#[async_trait::async_trait]
impl<S: SettingsRepository, C: Clock> SettingsService for Settings<S, C> {
    async fn branding(&self) -> anyhow::Result<Branding> {
        Ok(self.store.branding().await?.unwrap_or_default())
    }

    async fn update_branding(
        &self,
        patch: BrandingPatch,
        by: &Actor,
    ) -> Result<Branding, WriteFailure> {
        let entry = self.entry(by, AuditAction::BrandingUpdated, branding_fields);
        // The patch applies to what is stored when it is written: two owners saving different
        // fields at once both keep theirs.
        for _ in 0..BRANDING_SAVE_ATTEMPTS {
            let read = self.store.branding().await?;
            let next = read
                .clone()
                .unwrap_or_default()
                .apply(patch.clone())
                .map_err(WriteFailure::Invalid)?;
            if self
                .store
                .save_branding(&next, read.as_ref(), &entry)
                .await?
            {
                return Ok(next);
            }
        }
        Err(anyhow::anyhow!("the branding kept changing while it was saved").into())
    }

    async fn email_settings(&self) -> anyhow::Result<EmailSettings> {
        Ok(self.store.email_settings().await?.unwrap_or_default())
    }

    async fn update_email_settings(
        &self,
        input: EmailSettingsInput,
        by: &Actor,
    ) -> Result<EmailSettings, WriteFailure> {
        let new_password = input
            .password
            .as_deref()
            .is_some_and(|p| !p.trim().is_empty());
        let next = self
            .email_settings()
            .await?
            .apply(input)
            .map_err(WriteFailure::Invalid)?;
        let fields = self.entry(by, AuditAction::EmailSettingsUpdated, email_fields);
        // The password is never written down: a new one shows as a change of a redacted value.
        let entry = |before: Option<&EmailSettings>, after: Option<&EmailSettings>| {
            let mut entry = fields(before, after);
            if new_password && !entry.changes.iter().any(|c| c.field == "password") {
                entry.changes.push(Change::new(
                    "password",
                    Some(REDACTED.to_owned()),
                    Some(REDACTED.to_owned()),
                ));
            }
            entry
        };
        self.store.save_email_settings(&next, &entry).await?;
        Ok(next)
    }

    async fn discounts(&self) -> anyhow::Result<DiscountTable> {
        Ok(self.store.discounts().await?.unwrap_or_default())
    }

    async fn update_discounts(
        &self,
        tiers: Vec<DiscountTier>,
        by: &Actor,
    ) -> Result<DiscountTable, WriteFailure> {
        let table = DiscountTable::new(tiers)
            .map_err(|e: FieldError| WriteFailure::Invalid(FieldErrors::single("tiers", e)))?;
        let entry = self.entry(
            by,
            AuditAction::DiscountsUpdated,
            |table: &DiscountTable| {
                let tiers: Vec<String> = table
                    .tiers()
                    .iter()
                    .map(|t| format!("{}+: {}% ({})", t.min_tickets, t.percentage, t.label))
                    .collect();
                vec![("tiers", Some(tiers.join("; ")))]
            },
        );
        self.store.save_discounts(&table, &entry).await?;
        self.purchase_terms.changed();
        Ok(table)
    }
}
