//! Data the scenarios run on: raffles, a payment method, whole-raffle purchases.

use anyhow::{Context, ensure};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::client::Api;

impl Api {
    /// A raffle on sale, price 1, with `per_purchase` numbers at most per purchase.
    pub(crate) async fn raffle(
        &self,
        title: &str,
        tickets: u32,
        per_purchase: u32,
    ) -> anyhow::Result<i64> {
        let raffle = self
            .admin_post(
                "/api/admin/raffles",
                &json!({
                    "title": title,
                    "description": "Rifa creada por rifa-bench",
                    "price": "1",
                    "maxTickets": tickets,
                    "minTicketsPerPurchase": 1,
                    "maxTicketsPerPurchase": per_purchase,
                    "drawDate": "2030-01-15",
                }),
            )
            .await?;
        raffle["id"].as_i64().context("raffle answer has no id")
    }

    pub(crate) async fn payment_method(&self) -> anyhow::Result<i64> {
        let method = self
            .admin_post(
                "/api/admin/payment-methods",
                &json!({
                    "name": "Bench Pay",
                    "type": "digital",
                    "details": {"email": "pagos@example.com"},
                    "exchangeRateId": null,
                }),
            )
            .await?;
        method["id"]
            .as_i64()
            .context("payment method answer has no id")
    }
}

/// A purchase as its buyer holds it: its id and access token.
pub(crate) struct Receipt {
    pub(crate) id: i64,
    pub(crate) token: String,
}

/// Buys every number of a fresh raffle of `numbers` in one purchase.
pub(crate) async fn whole_raffle_purchase(
    api: &Api,
    method: i64,
    numbers: u32,
    n: usize,
) -> anyhow::Result<Receipt> {
    let raffle = api
        .raffle(&format!("Rifa de rifa-bench stall {n}"), numbers, numbers)
        .await?;
    let all: Vec<u32> = (1..=numbers).collect();
    let (status, body) = api.buy(raffle, method, &all, n).await?;
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    ensure!(
        status == StatusCode::CREATED,
        "purchase answered {status}: {body}"
    );
    Ok(Receipt {
        id: body["purchase"]["id"]
            .as_i64()
            .context("purchase answer has no id")?,
        token: body["purchaseToken"]
            .as_str()
            .context("purchase answer has no token")?
            .to_owned(),
    })
}
