use rifa_app::payments::PaymentMethodInput;
use rifa_domain::exchange::{ExchangeRate, ExchangeRateDraft, ExchangeRateId};
use rifa_domain::payment::PaymentMethod;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use super::instant;
use crate::error::ApiError;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkedRateDto {
    pub id: i64,
    pub from_currency: String,
    pub to_currency: String,
    pub rate: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentMethodDto {
    pub id: i64,
    pub name: String,
    /// digital, zelle, binance, crypto, bank, bank_transfer, transfer, mobile_payment or mobile.
    #[serde(rename = "type")]
    pub kind: String,
    pub active: bool,
    /// Key/value pairs shown to the buyer, in order.
    #[schema(value_type = Object)]
    pub details: Map<String, Value>,
    pub exchange_rate_id: Option<i64>,
    pub exchange_rate: Option<LinkedRateDto>,
    /// Whether the purchase form requires a payment reference with this method.
    pub reference_required: bool,
    /// The fewest letters and digits the reference may have (0: any).
    pub reference_min_length: u8,
}

impl From<PaymentMethod> for PaymentMethodDto {
    fn from(m: PaymentMethod) -> Self {
        Self {
            id: m.id.get(),
            name: m.name,
            kind: m.kind,
            active: m.active,
            details: m
                .details
                .into_iter()
                .map(|(k, v)| (k, Value::String(v)))
                .collect(),
            exchange_rate_id: m.exchange_rate.as_ref().map(|r| r.id.get()),
            exchange_rate: m.exchange_rate.map(|r| LinkedRateDto {
                id: r.id.get(),
                from_currency: r.from.code().to_owned(),
                to_currency: r.to.code().to_owned(),
                rate: r.rate.to_string(),
            }),
            reference_required: m.reference.required,
            reference_min_length: m.reference.min_length,
        }
    }
}

/// A payment method as an admin saves it. Details by type: bank needs `bankName`,
/// `accountNumber` and `accountType` (corriente or ahorro); crypto needs `walletAddress` and
/// `network` (bitcoin, ethereum, bsc, tron or polygon); others take free pairs.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentMethodRequest {
    pub name: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Values may be strings or numbers.
    #[schema(value_type = Option<Object>)]
    pub details: Option<Map<String, Value>>,
    pub exchange_rate_id: Option<i64>,
    /// Defaults to true.
    pub active: Option<bool>,
    /// Whether purchases must carry a payment reference; defaults to false.
    pub reference_required: Option<bool>,
    /// The fewest letters and digits a reference may have, 0 to 30; defaults to 0.
    pub reference_min_length: Option<i64>,
}

impl From<PaymentMethodRequest> for PaymentMethodInput {
    fn from(r: PaymentMethodRequest) -> Self {
        let details = r
            .details
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| {
                let value = match v {
                    Value::String(s) => s,
                    Value::Null => String::new(),
                    other => other.to_string(),
                };
                (k, value)
            })
            .collect();
        Self {
            name: r.name,
            kind: r.kind,
            active: r.active,
            details,
            exchange_rate_id: r.exchange_rate_id.map(ExchangeRateId::new),
            reference_required: r.reference_required,
            reference_min_length: r.reference_min_length,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExchangeRateDto {
    pub id: i64,
    pub from_currency: String,
    pub to_currency: String,
    /// Units of `toCurrency` per one `fromCurrency`.
    #[schema(example = "36.5012")]
    pub rate: String,
    pub updated_at: String,
}

impl From<ExchangeRate> for ExchangeRateDto {
    fn from(r: ExchangeRate) -> Self {
        Self {
            id: r.id.get(),
            from_currency: r.from.code().to_owned(),
            to_currency: r.to.code().to_owned(),
            rate: r.rate.to_string(),
            updated_at: instant(r.updated_at),
        }
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExchangeRateRequest {
    /// USD, EUR, VES or COP; defaults to USD.
    pub from_currency: Option<String>,
    /// USD, EUR, VES or COP; defaults to VES.
    pub to_currency: Option<String>,
    /// Positive, a number or a decimal string.
    #[schema(value_type = f64, example = 36.5)]
    pub rate: Option<rust_decimal::Decimal>,
}

impl ExchangeRateRequest {
    /// The rate as the domain knows it, or every bad field.
    ///
    /// # Errors
    /// A 422 naming each field the domain refuses.
    pub fn parse(&self) -> Result<ExchangeRateDraft, ApiError> {
        ExchangeRateDraft::parse(
            self.from_currency.as_deref(),
            self.to_currency.as_deref(),
            self.rate,
        )
        .map_err(|fields| ApiError::validation(&fields))
    }
}
