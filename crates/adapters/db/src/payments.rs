//! Payment methods and exchange rates.

use std::collections::HashMap;
use std::str::FromStr;

use anyhow::{Context, anyhow};
use chrono::{DateTime, Utc};
use rifa_domain::exchange::{Currency, ExchangeRate, ExchangeRateDraft, ExchangeRateId};
use rifa_domain::money::Rate;
use rifa_domain::payment::{
    Details, LinkedRate, PaymentMethod, PaymentMethodDraft, PaymentMethodId,
};
use rifa_domain::payment_reference::ReferencePolicy;
use rifa_ports::{
    ExchangeRateRepository, PaymentMethodRepository, RateWriteError, RecordAudit, WriteError,
};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, DbErr, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder, Set, SqlErr, TransactionTrait,
};

use crate::entities::{exchange_rates, payment_methods};
use crate::{Db, audit};

fn rate_of(row: exchange_rates::Model) -> anyhow::Result<ExchangeRate> {
    let bad = |what: &str| format!("exchange rate {} has an invalid {what}", row.id);
    Ok(ExchangeRate {
        id: ExchangeRateId::new(row.id),
        from: Currency::parse(&row.from_currency)
            .map_err(|e| anyhow!("{e:?}"))
            .with_context(|| bad("currency"))?,
        to: Currency::parse(&row.to_currency)
            .map_err(|e| anyhow!("{e:?}"))
            .with_context(|| bad("currency"))?,
        rate: Rate::from_str(&row.rate)
            .map_err(|e| anyhow!("{e:?}"))
            .with_context(|| bad("rate"))?,
        updated_at: row.updated_at,
    })
}

fn rate_model(draft: &ExchangeRateDraft, now: DateTime<Utc>) -> exchange_rates::ActiveModel {
    exchange_rates::ActiveModel {
        from_currency: Set(draft.from.code().to_owned()),
        to_currency: Set(draft.to.code().to_owned()),
        rate: Set(draft.rate.to_string()),
        updated_at: Set(now),
        ..Default::default()
    }
}

/// A delete of one row by id: none deleted means there was no such row.
fn deleted(result: sea_orm::DeleteResult) -> Result<(), WriteError> {
    if result.rows_affected == 0 {
        Err(WriteError::NotFound)
    } else {
        Ok(())
    }
}

fn method_of(
    row: payment_methods::Model,
    rates: &HashMap<ExchangeRateId, ExchangeRate>,
) -> anyhow::Result<PaymentMethod> {
    let details: Details = serde_json::from_str(&row.details)
        .with_context(|| format!("payment method {} has invalid details", row.id))?;
    Ok(PaymentMethod {
        id: PaymentMethodId::new(row.id),
        name: row.name,
        kind: row.kind,
        active: row.active,
        details,
        exchange_rate: row
            .exchange_rate_id
            .and_then(|id| rates.get(&ExchangeRateId::new(id)))
            .map(|r| LinkedRate {
                id: r.id,
                from: r.from,
                to: r.to,
                rate: r.rate,
            }),
        reference: ReferencePolicy::new(
            row.reference_required,
            u8::try_from(row.reference_min_length).unwrap_or(0),
        )
        .map_err(|e| {
            anyhow::anyhow!(
                "payment method {} has an invalid reference policy: {e:?}",
                row.id
            )
        })?,
    })
}

/// Every rate, by id.
async fn rates_by_id(
    conn: &impl ConnectionTrait,
) -> anyhow::Result<HashMap<ExchangeRateId, ExchangeRate>> {
    exchange_rates::Entity::find()
        .all(conn)
        .await
        .context("failed to list exchange rates")?
        .into_iter()
        .map(|row| rate_of(row).map(|r| (r.id, r)))
        .collect()
}

/// Holds the row of `E` whose `id` column is `id` for the rest of the transaction (and SQLite's
/// write lock) with a no-op update, so what is read next is what the write replaces; `false`
/// when there is no such row.
async fn hold<E: EntityTrait>(
    txn: &DatabaseTransaction,
    id_column: E::Column,
    id: i64,
) -> anyhow::Result<bool> {
    let held = E::update_many()
        .col_expr(id_column, Expr::col(id_column))
        .filter(id_column.eq(id))
        .exec(txn)
        .await
        .with_context(|| format!("failed to hold a row of {}", E::default().table_name()))?;
    Ok(held.rows_affected > 0)
}

async fn hold_method(txn: &DatabaseTransaction, id: PaymentMethodId) -> anyhow::Result<bool> {
    hold::<payment_methods::Entity>(txn, payment_methods::Column::Id, id.get()).await
}

async fn hold_rate(txn: &DatabaseTransaction, id: ExchangeRateId) -> anyhow::Result<bool> {
    hold::<exchange_rates::Entity>(txn, exchange_rates::Column::Id, id.get()).await
}

/// The method with `id` as `conn` sees it.
async fn method_in(
    conn: &impl ConnectionTrait,
    id: PaymentMethodId,
) -> anyhow::Result<Option<PaymentMethod>> {
    let Some(row) = payment_methods::Entity::find_by_id(id.get())
        .one(conn)
        .await
        .context("failed to load payment method")?
    else {
        return Ok(None);
    };
    Ok(Some(method_of(row, &rates_by_id(conn).await?)?))
}

/// The rate with `id` as `conn` sees it.
async fn rate_in(
    conn: &impl ConnectionTrait,
    id: ExchangeRateId,
) -> anyhow::Result<Option<ExchangeRate>> {
    exchange_rates::Entity::find_by_id(id.get())
        .one(conn)
        .await
        .context("failed to load exchange rate")?
        .map(rate_of)
        .transpose()
}

impl Db {
    async fn check_rate_exists(
        conn: &impl ConnectionTrait,
        id: Option<ExchangeRateId>,
    ) -> Result<(), WriteError> {
        if let Some(id) = id {
            let found = exchange_rates::Entity::find_by_id(id.get())
                .count(conn)
                .await
                .context("failed to look up rate")?;
            if found == 0 {
                return Err(WriteError::MissingReference("exchangeRateId"));
            }
        }
        Ok(())
    }

    fn method_columns(
        model: &mut payment_methods::ActiveModel,
        draft: &PaymentMethodDraft,
    ) -> anyhow::Result<()> {
        model.name = Set(draft.name.clone());
        model.kind = Set(draft.kind.clone());
        model.active = Set(draft.active);
        model.details =
            Set(serde_json::to_string(&draft.details).context("failed to encode details")?);
        model.exchange_rate_id = Set(draft.exchange_rate_id.map(ExchangeRateId::get));
        model.reference_required = Set(draft.reference.required);
        model.reference_min_length = Set(i16::from(draft.reference.min_length));
        Ok(())
    }
}

impl PaymentMethodRepository for Db {
    #[tracing::instrument(name = "db.list_payment_methods", skip_all)]
    async fn list_payment_methods(&self, active_only: bool) -> anyhow::Result<Vec<PaymentMethod>> {
        let mut query = payment_methods::Entity::find().order_by_asc(payment_methods::Column::Id);
        if active_only {
            query = query.filter(payment_methods::Column::Active.eq(true));
        }
        let rows = query
            .all(&self.conn)
            .await
            .context("failed to list payment methods")?;
        let rates = rates_by_id(&self.conn).await?;
        rows.into_iter().map(|row| method_of(row, &rates)).collect()
    }

    #[tracing::instrument(name = "db.get_payment_method", skip_all, fields(payment_method.id = id.get()))]
    async fn get_payment_method(
        &self,
        id: PaymentMethodId,
    ) -> anyhow::Result<Option<PaymentMethod>> {
        let Some(row) = payment_methods::Entity::find_by_id(id.get())
            .one(&self.conn)
            .await
            .context("failed to load payment method")?
        else {
            return Ok(None);
        };
        method_of(row, &rates_by_id(&self.conn).await?).map(Some)
    }

    async fn create_payment_method(
        &self,
        draft: &PaymentMethodDraft,
        entry: RecordAudit<'_, PaymentMethod>,
    ) -> Result<PaymentMethod, WriteError> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start creating a payment method")?;
        Self::check_rate_exists(&txn, draft.exchange_rate_id).await?;
        let mut model = payment_methods::ActiveModel {
            ..Default::default()
        };
        Self::method_columns(&mut model, draft)?;
        let row = model
            .insert(&txn)
            .await
            .context("failed to create payment method")?;
        let created = method_of(row, &rates_by_id(&txn).await?)?;
        audit::append(&txn, &entry(None, Some(&created))).await?;
        txn.commit()
            .await
            .context("failed to commit a new payment method")?;
        Ok(created)
    }

    #[tracing::instrument(name = "db.update_payment_method", skip_all, fields(payment_method.id = id.get()))]
    async fn update_payment_method(
        &self,
        id: PaymentMethodId,
        draft: &PaymentMethodDraft,
        entry: RecordAudit<'_, PaymentMethod>,
    ) -> Result<PaymentMethod, WriteError> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start updating a payment method")?;
        // A no-op update first holds the row (and SQLite's write lock), so "before" is the state
        // this update replaces.
        if !hold_method(&txn, id).await? {
            return Err(WriteError::NotFound);
        }
        let before = method_in(&txn, id).await?;
        Self::check_rate_exists(&txn, draft.exchange_rate_id).await?;
        let mut model = payment_methods::ActiveModel {
            ..Default::default()
        };
        Self::method_columns(&mut model, draft)?;
        payment_methods::Entity::update_many()
            .set(model)
            .filter(payment_methods::Column::Id.eq(id.get()))
            .exec(&txn)
            .await
            .context("failed to update payment method")?;
        let updated = method_in(&txn, id).await?.ok_or(WriteError::NotFound)?;
        audit::append(&txn, &entry(before.as_ref(), Some(&updated))).await?;
        txn.commit()
            .await
            .context("failed to commit a payment method's update")?;
        Ok(updated)
    }

    #[tracing::instrument(name = "db.delete_payment_method", skip_all, fields(payment_method.id = id.get()))]
    async fn delete_payment_method(
        &self,
        id: PaymentMethodId,
        entry: RecordAudit<'_, PaymentMethod>,
    ) -> Result<(), WriteError> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start deleting a payment method")?;
        if !hold_method(&txn, id).await? {
            return Err(WriteError::NotFound);
        }
        let before = method_in(&txn, id).await?;
        let result = payment_methods::Entity::delete_by_id(id.get())
            .exec(&txn)
            .await
            .context("failed to delete payment method")?;
        deleted(result)?;
        audit::append(&txn, &entry(before.as_ref(), None)).await?;
        txn.commit()
            .await
            .context("failed to commit a payment method's deletion")?;
        Ok(())
    }
}

impl Db {
    /// A write of `draft` refused by the unique index on the pair becomes `PairTaken` with the
    /// rate that holds the pair; anything else is `Unknown`.
    async fn rate_write_error(&self, error: DbErr, draft: &ExchangeRateDraft) -> RateWriteError {
        if !matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) {
            return RateWriteError::Unknown(
                anyhow::Error::new(error).context("failed to write exchange rate"),
            );
        }
        let existing = exchange_rates::Entity::find()
            .filter(exchange_rates::Column::FromCurrency.eq(draft.from.code()))
            .filter(exchange_rates::Column::ToCurrency.eq(draft.to.code()))
            .one(&self.conn)
            .await;
        match existing {
            Ok(Some(row)) => match rate_of(row) {
                Ok(rate) => RateWriteError::PairTaken(rate),
                Err(e) => RateWriteError::Unknown(e),
            },
            // The holder was deleted in between: the writer may simply try again.
            Ok(None) => RateWriteError::Unknown(anyhow!(
                "exchange rate pair was taken, then freed, during the write"
            )),
            Err(e) => RateWriteError::Unknown(
                anyhow::Error::new(e).context("failed to look up the pair's exchange rate"),
            ),
        }
    }
}

impl ExchangeRateRepository for Db {
    #[tracing::instrument(name = "db.list_exchange_rates", skip_all)]
    async fn list_exchange_rates(&self) -> anyhow::Result<Vec<ExchangeRate>> {
        exchange_rates::Entity::find()
            .order_by_asc(exchange_rates::Column::Id)
            .all(&self.conn)
            .await
            .context("failed to list exchange rates")?
            .into_iter()
            .map(rate_of)
            .collect()
    }

    #[tracing::instrument(name = "db.create_exchange_rate", skip_all)]
    async fn create_exchange_rate(
        &self,
        draft: &ExchangeRateDraft,
        now: DateTime<Utc>,
        entry: RecordAudit<'_, ExchangeRate>,
    ) -> Result<ExchangeRate, RateWriteError> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start creating an exchange rate")?;
        let created = match rate_model(draft, now).insert(&txn).await {
            Ok(row) => rate_of(row)?,
            Err(error) => {
                txn.rollback().await.context("failed to roll back")?;
                return Err(self.rate_write_error(error, draft).await);
            }
        };
        audit::append(&txn, &entry(None, Some(&created))).await?;
        txn.commit()
            .await
            .context("failed to commit a new exchange rate")?;
        Ok(created)
    }

    #[tracing::instrument(name = "db.update_exchange_rate", skip_all, fields(exchange_rate.id = id.get()))]
    async fn update_exchange_rate(
        &self,
        id: ExchangeRateId,
        draft: &ExchangeRateDraft,
        now: DateTime<Utc>,
        entry: RecordAudit<'_, ExchangeRate>,
    ) -> Result<ExchangeRate, RateWriteError> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start updating an exchange rate")?;
        if !hold_rate(&txn, id).await? {
            return Err(RateWriteError::NotFound);
        }
        let before = rate_in(&txn, id).await?;
        if let Err(error) = exchange_rates::Entity::update_many()
            .set(rate_model(draft, now))
            .filter(exchange_rates::Column::Id.eq(id.get()))
            .exec(&txn)
            .await
        {
            txn.rollback().await.context("failed to roll back")?;
            return Err(self.rate_write_error(error, draft).await);
        }
        let updated = rate_in(&txn, id).await?.ok_or(RateWriteError::NotFound)?;
        audit::append(&txn, &entry(before.as_ref(), Some(&updated))).await?;
        txn.commit()
            .await
            .context("failed to commit an exchange rate's update")?;
        Ok(updated)
    }

    #[tracing::instrument(name = "db.delete_exchange_rate", skip_all, fields(exchange_rate.id = id.get()))]
    async fn delete_exchange_rate(
        &self,
        id: ExchangeRateId,
        entry: RecordAudit<'_, ExchangeRate>,
    ) -> Result<(), WriteError> {
        let txn = self
            .conn
            .begin()
            .await
            .context("failed to start deleting an exchange rate")?;
        if !hold_rate(&txn, id).await? {
            return Err(WriteError::NotFound);
        }
        let before = rate_in(&txn, id).await?;
        let result = exchange_rates::Entity::delete_by_id(id.get())
            .exec(&txn)
            .await
            .context("failed to delete exchange rate")?;
        deleted(result)?;
        audit::append(&txn, &entry(before.as_ref(), None)).await?;
        txn.commit()
            .await
            .context("failed to commit an exchange rate's deletion")?;
        Ok(())
    }
}
