//! Singleton settings stored as JSON documents under fixed keys.

use anyhow::{Context, anyhow};
use rifa_domain::branding::{Branding, BrandingPatch, SiteInfoPatch};
use rifa_domain::email_settings::EmailSettings;
use rifa_domain::pricing::{DiscountTable, DiscountTier};
use rifa_ports::{RecordAudit, SettingsRepository};
use sea_orm::sea_query::{Expr, OnConflict, Query};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, TransactionTrait};
use secrecy::{ExposeSecret, SecretString};
use serde_json::{Value, json};

use crate::entities::settings;
use crate::{Db, audit};

const BRANDING: &str = "branding";
const EMAIL: &str = "email";
const DISCOUNTS: &str = "discounts";

async fn read_setting(conn: &impl ConnectionTrait, key: &str) -> anyhow::Result<Option<Value>> {
    let row = settings::Entity::find_by_id(key.to_owned())
        .one(conn)
        .await
        .with_context(|| format!("failed to read setting {key}"))?;
    row.map(|r| {
        serde_json::from_str(&r.value).with_context(|| format!("setting {key} is not JSON"))
    })
    .transpose()
}

async fn write_setting(
    conn: &impl ConnectionTrait,
    key: &str,
    value: &Value,
) -> anyhow::Result<()> {
    settings::Entity::update_many()
        .col_expr(settings::Column::Value, Expr::value(value.to_string()))
        .filter(settings::Column::Key.eq(key))
        .exec(conn)
        .await
        .with_context(|| format!("failed to save setting {key}"))?;
    Ok(())
}

impl Db {
    async fn read_setting(&self, key: &str) -> anyhow::Result<Option<Value>> {
        read_setting(&self.conn, key).await
    }

    /// Saves `value` under `key` and its audit entry, made from the setting as it was (read
    /// inside the transaction, after holding the row) and as it becomes; unless what is stored
    /// fails `still`: then nothing is written (`false`).
    async fn save_audited<T>(
        &self,
        key: &str,
        value: &Value,
        parse: fn(&Value) -> anyhow::Result<T>,
        after: &T,
        still: impl Fn(Option<&T>) -> bool + Send,
        entry: RecordAudit<'_, T>,
    ) -> anyhow::Result<bool> {
        let txn = self
            .conn
            .begin()
            .await
            .with_context(|| format!("failed to start saving setting {key}"))?;
        // A first save creates the row, and a save racing it waits for it and then finds it
        // there; any other save holds the row (or SQLite's write lock) before reading it.
        let create = Query::insert()
            .into_table(settings::Entity)
            .columns([settings::Column::Key, settings::Column::Value])
            .values([key.into(), value.to_string().into()])
            .context("failed to build the setting's insert")?
            .on_conflict(
                OnConflict::column(settings::Column::Key)
                    .do_nothing()
                    .to_owned(),
            )
            .to_owned();
        let created = txn
            .execute_raw(txn.get_database_backend().build(&create))
            .await
            .with_context(|| format!("failed to create setting {key}"))?
            .rows_affected()
            == 1;
        let before = if created {
            None
        } else {
            settings::Entity::update_many()
                .col_expr(settings::Column::Key, Expr::col(settings::Column::Key))
                .filter(settings::Column::Key.eq(key))
                .exec(&txn)
                .await
                .with_context(|| format!("failed to hold setting {key}"))?;
            read_setting(&txn, key)
                .await?
                .map(|stored| parse(&stored))
                .transpose()?
        };
        if !still(before.as_ref()) {
            txn.rollback()
                .await
                .with_context(|| format!("failed to give up saving setting {key}"))?;
            return Ok(false);
        }
        if !created {
            write_setting(&txn, key, value).await?;
        }
        audit::append(&txn, &entry(before.as_ref(), Some(after))).await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit setting {key}"))?;
        Ok(true)
    }
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn number(value: &Value, key: &str) -> Option<i64> {
    value.get(key).and_then(Value::as_i64)
}

impl SettingsRepository for Db {
    #[tracing::instrument(name = "db.branding", skip_all)]
    async fn branding(&self) -> anyhow::Result<Option<Branding>> {
        self.read_setting(BRANDING)
            .await?
            .map(|value| branding_of(&value))
            .transpose()
    }

    #[tracing::instrument(name = "db.save_branding", skip_all)]
    async fn save_branding(
        &self,
        b: &Branding,
        read: Option<&Branding>,
        entry: RecordAudit<'_, Branding>,
    ) -> anyhow::Result<bool> {
        let still = |stored: Option<&Branding>| stored == read;
        self.save_audited(BRANDING, &branding_value(b), branding_of, b, still, entry)
            .await
    }

    #[tracing::instrument(name = "db.email_settings", skip_all)]
    async fn email_settings(&self) -> anyhow::Result<Option<EmailSettings>> {
        Ok(self
            .read_setting(EMAIL)
            .await?
            .map(|value| email_of(&value)))
    }

    #[tracing::instrument(name = "db.save_email_settings", skip_all)]
    async fn save_email_settings(
        &self,
        s: &EmailSettings,
        entry: RecordAudit<'_, EmailSettings>,
    ) -> anyhow::Result<()> {
        let value = json!({
            "host": s.host,
            "port": s.port,
            "user": s.user,
            "password": s.password.as_ref().map(ExposeSecret::expose_secret),
            "fromEmail": s.from_email,
        });
        self.save_audited(EMAIL, &value, |v| Ok(email_of(v)), s, |_| true, entry)
            .await
            .map(drop)
    }

    #[tracing::instrument(name = "db.discounts", skip_all)]
    async fn discounts(&self) -> anyhow::Result<Option<DiscountTable>> {
        self.read_setting(DISCOUNTS)
            .await?
            .map(|value| discounts_of(&value))
            .transpose()
    }

    #[tracing::instrument(name = "db.save_discounts", skip_all)]
    async fn save_discounts(
        &self,
        table: &DiscountTable,
        entry: RecordAudit<'_, DiscountTable>,
    ) -> anyhow::Result<()> {
        let tiers: Vec<Value> = table
            .tiers()
            .iter()
            .map(|t| json!({"minTickets": t.min_tickets, "percentage": t.percentage.to_string(), "label": t.label}))
            .collect();
        self.save_audited(
            DISCOUNTS,
            &Value::Array(tiers),
            discounts_of,
            table,
            |_| true,
            entry,
        )
        .await
        .map(drop)
    }
}

fn branding_of(value: &Value) -> anyhow::Result<Branding> {
    // Stored through the same validation as an admin's edit, over the defaults.
    let patch = BrandingPatch {
        primary_color: text(value, "primaryColor"),
        secondary_color: text(value, "secondaryColor"),
        accent_color: text(value, "accentColor"),
        danger_color: text(value, "dangerColor"),
        success_color: text(value, "successColor"),
        company_name: text(value, "companyName"),
        description: text(value, "description"),
        logo_url: text(value, "logoUrl"),
        // Saved before these existed: the defaults stand.
        site: SiteInfoPatch {
            contact_email: text(value, "contactEmail"),
            contact_phone: text(value, "contactPhone"),
            whatsapp_url: text(value, "whatsappUrl"),
            facebook_url: text(value, "facebookUrl"),
            instagram_url: text(value, "instagramUrl"),
            tiktok_url: text(value, "tiktokUrl"),
            whatsapp_channel_url: text(value, "whatsappChannelUrl"),
            lottery_results_url: text(value, "lotteryResultsUrl"),
            video_urls: value
                .get("videoUrls")
                .and_then(Value::as_array)
                .map(|urls| {
                    urls.iter()
                        .map(|u| u.as_str().unwrap_or_default().to_owned())
                        .collect()
                }),
            participants: number(value, "participants"),
            prizes: text(value, "prizes"),
            countries: number(value, "countries"),
            raffles_page_prizes: text(value, "rafflesPagePrizes"),
            raffles_page_participants: number(value, "rafflesPageParticipants"),
            raffles_page_winners: number(value, "rafflesPageWinners"),
        },
    };
    Branding::default()
        .apply(patch)
        .map_err(|e| anyhow!("stored branding is invalid: {e:?}"))
}

fn branding_value(b: &Branding) -> Value {
    json!({
        "primaryColor": b.primary_color.as_str(),
        "secondaryColor": b.secondary_color.as_str(),
        "accentColor": b.accent_color.as_str(),
        "dangerColor": b.danger_color.as_str(),
        "successColor": b.success_color.as_str(),
        "companyName": b.company_name,
        "description": b.description,
        "logoUrl": b.logo_url,
        "contactEmail": b.site.contact_email,
        "contactPhone": b.site.contact_phone,
        "whatsappUrl": b.site.whatsapp_url,
        "facebookUrl": b.site.facebook_url,
        "instagramUrl": b.site.instagram_url,
        "tiktokUrl": b.site.tiktok_url,
        "whatsappChannelUrl": b.site.whatsapp_channel_url,
        "lotteryResultsUrl": b.site.lottery_results_url,
        "videoUrls": b.site.video_urls,
        "participants": b.site.participants,
        "prizes": b.site.prizes,
        "countries": b.site.countries,
        "rafflesPagePrizes": b.site.raffles_page_prizes,
        "rafflesPageParticipants": b.site.raffles_page_participants,
        "rafflesPageWinners": b.site.raffles_page_winners,
    })
}

fn email_of(value: &Value) -> EmailSettings {
    EmailSettings {
        host: text(value, "host").unwrap_or_default(),
        port: value
            .get("port")
            .and_then(Value::as_u64)
            .and_then(|p| u16::try_from(p).ok())
            .unwrap_or(587),
        user: text(value, "user").unwrap_or_default(),
        password: text(value, "password").map(SecretString::from),
        from_email: text(value, "fromEmail").unwrap_or_default(),
    }
}

fn discounts_of(value: &Value) -> anyhow::Result<DiscountTable> {
    let tiers = value
        .as_array()
        .context("stored discounts are not a list")?
        .iter()
        .map(|tier| {
            Some(DiscountTier {
                min_tickets: u32::try_from(tier.get("minTickets")?.as_u64()?).ok()?,
                percentage: tier.get("percentage")?.as_str()?.parse().ok()?,
                label: text(tier, "label")?,
            })
        })
        .collect::<Option<Vec<_>>>()
        .context("a stored discount tier is malformed")?;
    DiscountTable::new(tiers).map_err(|e| anyhow!("stored discounts are invalid: {e:?}"))
}
