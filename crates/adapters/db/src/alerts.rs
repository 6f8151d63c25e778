//! Release alerts: one notice the next time numbers of a raffle come back (decision 0016).

use anyhow::Context;
use chrono::{DateTime, Utc};
use rifa_domain::Lang;
use rifa_domain::raffle::RaffleId;
use rifa_ports::ReleaseAlerts;
use sea_orm::EntityTrait;
use sea_orm::Set;
use sea_orm::sea_query::OnConflict;

use crate::Db;
use crate::entities::release_alerts;

impl ReleaseAlerts for Db {
    #[tracing::instrument(name = "db.add_release_alert", skip_all, fields(raffle.id = raffle.get()))]
    async fn add_release_alert(
        &self,
        raffle: RaffleId,
        email: &str,
        lang: Lang,
        at: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        release_alerts::Entity::insert(release_alerts::ActiveModel {
            raffle_id: Set(raffle.get()),
            email: Set(email.to_owned()),
            lang: Set(lang.code().to_owned()),
            created_at: Set(at),
            ..Default::default()
        })
        .on_conflict(
            OnConflict::columns([
                release_alerts::Column::RaffleId,
                release_alerts::Column::Email,
            ])
            .do_nothing()
            .to_owned(),
        )
        .try_insert()
        .exec(&self.conn)
        .await
        .context("failed to record a release alert")?;
        Ok(())
    }
}
