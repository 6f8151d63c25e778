//! The HTTP client: an API signed in as an admin, and the purchase call the scenarios time.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Context, bail, ensure};
use reqwest::multipart::Form;
use reqwest::{Client, StatusCode};
use serde_json::{Value, json};

use crate::cli::Cli;

/// The API under test, signed in as an admin.
#[derive(Clone)]
pub(crate) struct Api {
    pub(crate) base: String,
    pub(crate) client: Client,
    pub(crate) token: String,
    /// Who buys next: every purchase is a different person. Starts at random so two
    /// benchmark processes on one API rarely name the same people.
    people: Arc<AtomicU64>,
}

impl Api {
    pub(crate) async fn connect(cli: &Cli, pool: usize) -> anyhow::Result<Self> {
        let client = Client::builder()
            .pool_max_idle_per_host(pool)
            .timeout(Duration::from_secs(cli.timeout_seconds))
            .tcp_nodelay(true)
            .build()
            .context("failed to build the HTTP client")?;
        let base = cli.url.trim_end_matches('/').to_owned();
        let token = match (&cli.token, &cli.username, &cli.password) {
            (Some(token), _, _) => token.clone(),
            (None, Some(username), Some(password)) => {
                let response = client
                    .post(format!("{base}/api/admin/login"))
                    .json(&json!({"username": username, "password": password}))
                    .send()
                    .await
                    .with_context(|| format!("failed to reach {base}"))?;
                let status = response.status();
                let body: Value = response.json().await.context("login answer is not JSON")?;
                ensure!(status == StatusCode::OK, "login failed: {status} {body}");
                body["token"]
                    .as_str()
                    .context("login answer has no token")?
                    .to_owned()
            }
            _ => bail!("give --token, or --username and --password (or RIFA_BENCH_* variables)"),
        };
        Ok(Self {
            base,
            client,
            token,
            people: Arc::new(AtomicU64::new(rand::random_range(0..10_000_000))),
        })
    }

    /// The same API over another HTTP client (its own connection pool).
    pub(crate) fn with_client(&self, client: Client) -> Self {
        Self {
            client,
            ..self.clone()
        }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub(crate) async fn admin_post(&self, path: &str, body: &Value) -> anyhow::Result<Value> {
        let response = self
            .client
            .post(self.url(path))
            .bearer_auth(&self.token)
            .json(body)
            .send()
            .await
            .with_context(|| format!("POST {path} failed"))?;
        let status = response.status();
        let answer: Value = response.json().await.unwrap_or(Value::Null);
        ensure!(
            status == StatusCode::CREATED,
            "POST {path}: {status} {answer}"
        );
        Ok(answer)
    }

    /// GETs `path` (as the admin when `admin`) and expects a 200 with JSON.
    pub(crate) async fn get_json(&self, path: &str, admin: bool) -> anyhow::Result<Value> {
        let mut request = self.client.get(self.url(path));
        if admin {
            request = request.bearer_auth(&self.token);
        }
        let response = request
            .send()
            .await
            .with_context(|| format!("GET {path} failed"))?;
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        ensure!(status == StatusCode::OK, "GET {path}: {status} {body}");
        Ok(body)
    }

    /// Posts a purchase of `numbers` at price 1 each; returns the status and body.
    pub(crate) async fn buy(
        &self,
        raffle: i64,
        method: i64,
        numbers: &[u32],
        buyer: usize,
    ) -> reqwest::Result<(StatusCode, Vec<u8>)> {
        let form = self
            .buyer_form(method, buyer, numbers.len())
            .text("ticketNumbers", numbers_json(numbers));
        self.post_purchase(raffle, form).await
    }

    /// A purchase of `count` numbers the server draws.
    pub(crate) async fn buy_random(
        &self,
        raffle: i64,
        method: i64,
        count: usize,
        buyer: usize,
    ) -> reqwest::Result<(StatusCode, Vec<u8>)> {
        let form = self
            .buyer_form(method, buyer, count)
            .text("randomCount", count.to_string());
        self.post_purchase(raffle, form).await
    }

    /// Everything of a purchase form but its numbers, priced at 1.00 a number.
    fn buyer_form(&self, method: i64, buyer: usize, count: usize) -> Form {
        // Each purchase a different person, as in a raffle selling out to the public: one
        // person may hold only the raffle's per-purchase maximum across purchases.
        let person = self.people.fetch_add(1, Ordering::Relaxed);
        Form::new()
            .text("customerName", "María González")
            .text("customerId", format!("V-{person:09}"))
            .text(
                "customerEmail",
                format!("buyer{buyer}-{person}@bench.example"),
            )
            .text(
                "customerPhone",
                format!("+58 414 {:07}", person % 10_000_000),
            )
            .text("customerCountry", "venezuela")
            .text("paymentMethod", method.to_string())
            .text("totalAmount", format!("{count}.00"))
            .text("discountApplied", "0")
            .text("acceptTerms", "true")
    }

    async fn post_purchase(
        &self,
        raffle: i64,
        form: Form,
    ) -> reqwest::Result<(StatusCode, Vec<u8>)> {
        let response = self
            .client
            .post(self.url(&format!("/api/raffles/{raffle}/purchase")))
            .multipart(form)
            .send()
            .await?;
        let status = response.status();
        let body = response.bytes().await?;
        Ok((status, body.to_vec()))
    }
}

pub(crate) fn numbers_json(numbers: &[u32]) -> String {
    let list: Vec<String> = numbers.iter().map(u32::to_string).collect();
    format!("[{}]", list.join(","))
}
