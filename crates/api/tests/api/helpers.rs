//! A running API per test, and helpers that read like the API.

#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use chrono::{DateTime, Utc};
use reqwest::multipart::Form;
use reqwest::{Method, RequestBuilder, Response, StatusCode};
use rifa_api::{Application, Config};
pub use rifa_domain::admin::Role;
use rifa_domain::audit::Actor;
use serde_json::{Value, json};

/// Runs one test body against SQLite and PostgreSQL, as two tests.
#[macro_export]
macro_rules! on_both {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name($crate::helpers::TestApp::sqlite().await).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(app) = $crate::helpers::TestApp::postgres().await {
                    super::$name(app).await;
                }
            }
        }
    )+};
}

pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    /// The privileged admin created on first run.
    pub admin_token: String,
    pub config: Config,
    pub postgres: bool,
}

/// One person per e-mail (any case): the ID document and phone of the purchase forms follow
/// from it, so a test's buyers are as many people as it names addresses, each with their own
/// allowance.
fn buyer_seed(email: &str) -> u64 {
    email
        .trim()
        .to_lowercase()
        .bytes()
        .fold(7_u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
        % 10_000_000
}

/// The ID document of the buyer `email` names.
pub fn buyer_document(email: &str) -> String {
    format!("V-{:07}", buyer_seed(email))
}

/// The phone of the buyer `email` names, as typed in the form (`+58 414 …`).
pub fn buyer_phone(email: &str) -> String {
    format!("+58 414 {:07}", buyer_seed(email))
}

impl TestApp {
    /// A configuration on a fresh SQLite database (tests may change it before `start`).
    pub fn sqlite_config() -> Config {
        let (url, dir) = rifa_test_support::sqlite_database();
        Config::for_tests(url, dir)
    }

    pub async fn sqlite() -> Self {
        Self::start(Self::sqlite_config(), false).await
    }

    pub async fn postgres() -> Option<Self> {
        let config = Self::postgres_config().await?;
        Some(Self::start(config, true).await)
    }

    /// A configuration on a fresh PostgreSQL database, when the server is reachable.
    pub async fn postgres_config() -> Option<Config> {
        let url = rifa_test_support::postgres_database().await?;
        let mut config = Config::for_tests(url, rifa_test_support::scratch_dir());
        config.db_max_connections = 10;
        Some(config)
    }

    /// The live connection's address.
    pub fn ws_url(&self) -> String {
        format!("{}/ws", self.base.replacen("http://", "ws://", 1))
    }

    pub async fn start(config: Config, postgres: bool) -> Self {
        let application = Application::build(config.clone()).await.unwrap();
        let port = application.port();
        let (username, password) = application.first_admin().cloned().unwrap();
        let password = secrecy::ExposeSecret::expose_secret(&password).to_owned();
        tokio::spawn(application.run_until_stopped());
        let base = format!("http://127.0.0.1:{port}");
        let client = reqwest::Client::new();
        let mut app = Self {
            base,
            client,
            admin_token: String::new(),
            config,
            postgres,
        };
        app.admin_token = app.login_ok(&username, &password).await;
        app
    }

    /// A server on a database that already has its admins (a restored copy): nobody signed in.
    pub async fn around(application: Application, config: Config, postgres: bool) -> Self {
        let port = application.port();
        tokio::spawn(application.run_until_stopped());
        Self {
            base: format!("http://127.0.0.1:{port}"),
            client: reqwest::Client::new(),
            admin_token: String::new(),
            config,
            postgres,
        }
    }

    /// A second server on the same database and secrets (as a second instance behind a load
    /// balancer), signed in as the same admin.
    pub async fn another_instance(&self) -> Self {
        let application = Application::build(self.config.clone()).await.unwrap();
        let port = application.port();
        tokio::spawn(application.run_until_stopped());
        Self {
            base: format!("http://127.0.0.1:{port}"),
            client: reqwest::Client::new(),
            admin_token: self.admin_token.clone(),
            config: self.config.clone(),
            postgres: self.postgres,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.client.request(method, self.url(path))
    }

    pub fn as_admin(&self, method: Method, path: &str) -> RequestBuilder {
        self.request(method, path).bearer_auth(&self.admin_token)
    }

    pub async fn get(&self, path: &str) -> Response {
        self.request(Method::GET, path).send().await.unwrap()
    }

    pub async fn get_json(&self, path: &str) -> Value {
        let response = self.get(path).await;
        assert_eq!(response.status(), StatusCode::OK, "GET {path}");
        response.json().await.unwrap()
    }

    pub async fn admin_get(&self, path: &str) -> Value {
        let response = self.as_admin(Method::GET, path).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "GET {path}");
        response.json().await.unwrap()
    }

    pub async fn admin_send(&self, method: Method, path: &str, body: &Value) -> Response {
        self.as_admin(method, path).json(body).send().await.unwrap()
    }

    pub async fn login(&self, username: &str, password: &str) -> Response {
        self.request(Method::POST, "/api/admin/login")
            .json(&json!({"username": username, "password": password}))
            .send()
            .await
            .unwrap()
    }

    pub async fn login_ok(&self, username: &str, password: &str) -> String {
        let response = self.login(username, password).await;
        assert_eq!(response.status(), StatusCode::OK);
        let body: Value = response.json().await.unwrap();
        body["token"].as_str().unwrap().to_owned()
    }

    /// Creates an admin the way `rifa-api create-admin` does and signs it in: an owner when
    /// `privileged`, a manager (what an admin without the flag could do) otherwise.
    pub async fn other_admin(&self, username: &str, privileged: bool) -> String {
        let role = if privileged {
            Role::Owner
        } else {
            Role::Manager
        };
        self.staff_member(username, role).await
    }

    /// Creates an account with `role` the way `rifa-api create-admin` does and signs it in.
    pub async fn staff_member(&self, username: &str, role: Role) -> String {
        let staff = rifa_api::staff_accounts(&self.config).await.unwrap();
        let password = "a-long-test-password".to_owned();
        staff
            .create_account(&command_line(), username, Some(password.clone()), role)
            .await
            .unwrap();
        self.login_ok(username, &password).await
    }

    /// A raffle on sale with `max_tickets` numbers, `min..=max` per purchase, price `price`,
    /// and its first prize (which a raffle on sale needs).
    pub async fn raffle(&self, price: &str, max_tickets: u32, limits: (u32, u32)) -> i64 {
        let response = self
            .admin_send(
                Method::POST,
                "/api/admin/raffles",
                &json!({
                    "title": "Rifa de prueba",
                    "description": "Un premio de prueba",
                    "price": price,
                    "maxTickets": max_tickets,
                    "minTicketsPerPurchase": limits.0,
                    "maxTicketsPerPurchase": limits.1,
                    "drawDate": "2030-01-15",
                    "prizes": [first_prize()],
                }),
            )
            .await;
        assert_eq!(response.status(), StatusCode::CREATED);
        response.json::<Value>().await.unwrap()["id"]
            .as_i64()
            .unwrap()
    }

    /// An active payment method, optionally converting with a new USD→VES rate.
    pub async fn payment_method(&self, name: &str, rate: Option<&str>) -> i64 {
        let rate_id = match rate {
            Some(rate) => {
                let response = self
                    .admin_send(
                        Method::POST,
                        "/api/admin/exchange-rates",
                        &json!({"fromCurrency": "USD", "toCurrency": "VES", "rate": rate}),
                    )
                    .await;
                assert_eq!(response.status(), StatusCode::CREATED);
                Some(
                    response.json::<Value>().await.unwrap()["id"]
                        .as_i64()
                        .unwrap(),
                )
            }
            None => None,
        };
        let response = self
            .admin_send(
                Method::POST,
                "/api/admin/payment-methods",
                &json!({"name": name, "type": "digital", "details": {"email": "pagos@example.com"}, "exchangeRateId": rate_id}),
            )
            .await;
        assert_eq!(response.status(), StatusCode::CREATED);
        response.json::<Value>().await.unwrap()["id"]
            .as_i64()
            .unwrap()
    }

    /// A complete, valid purchase form; tests override single fields.
    pub fn purchase_form(
        &self,
        method_id: i64,
        numbers: &[u32],
        total: &str,
        email: &str,
    ) -> Vec<(&'static str, String)> {
        vec![
            ("customerName", "María González".to_owned()),
            ("customerId", buyer_document(email)),
            ("customerEmail", email.to_owned()),
            ("customerPhone", buyer_phone(email)),
            ("customerCountry", "venezuela".to_owned()),
            ("paymentMethod", method_id.to_string()),
            ("ticketNumbers", serde_json::to_string(numbers).unwrap()),
            ("totalAmount", total.to_owned()),
            ("discountApplied", "0".to_owned()),
            ("acceptTerms", "true".to_owned()),
        ]
    }

    pub async fn post_form(
        &self,
        path: &str,
        fields: Vec<(&'static str, String)>,
        token: Option<&str>,
    ) -> Response {
        let form = fields
            .into_iter()
            .fold(Form::new(), |form, (k, v)| form.text(k, v));
        let mut request = self.request(Method::POST, path).multipart(form);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().await.unwrap()
    }

    /// Buys `numbers` of a raffle priced `price` each, as buyer `email`.
    pub async fn buy(
        &self,
        raffle: i64,
        method: i64,
        numbers: &[u32],
        unit_price_cents: i64,
        email: &str,
    ) -> Response {
        let total = unit_price_cents * i64::try_from(numbers.len()).unwrap();
        let total = format!("{}.{:02}", total / 100, total % 100);
        let form = self.purchase_form(method, numbers, &total, email);
        self.post_form(&format!("/api/raffles/{raffle}/purchase"), form, None)
            .await
    }

    pub async fn decide(&self, purchase: i64, status: &str, notes: Option<&str>) -> Response {
        self.admin_send(
            Method::PUT,
            &format!("/api/admin/purchases/{purchase}/status"),
            &json!({"status": status, "adminNotes": notes}),
        )
        .await
    }

    /// The availability bitmap, decoded to the list of available numbers.
    pub async fn available(&self, raffle: i64) -> Vec<u32> {
        let response = self
            .get(&format!("/api/raffles/{raffle}/availability"))
            .await;
        assert_eq!(response.status(), StatusCode::OK);
        let bytes = response.bytes().await.unwrap();
        (0..bytes.len() * 8)
            .filter(|bit| bytes[bit / 8] & (0x80 >> (bit % 8)) != 0)
            .map(|bit| u32::try_from(bit + 1).unwrap())
            .collect()
    }
}

/// The JSON body of an error answer, after checking its status and code.
/// Moves a purchase's hold deadline, as if it had been bought earlier: tests cannot wait half an
/// hour, and the sweeper and the attach judge deadlines by the database's clock.
pub async fn set_hold_deadline(app: &TestApp, purchase: i64, deadline: DateTime<Utc>) {
    use sea_orm::{ConnectionTrait as _, Database, Statement};
    let db = Database::connect(&app.config.database_url).await.unwrap();
    db.execute_raw(Statement::from_sql_and_values(
        db.get_database_backend(),
        "UPDATE purchases SET hold_expires_at = $1 WHERE id = $2",
        [deadline.into(), purchase.into()],
    ))
    .await
    .unwrap();
    db.close().await.unwrap();
}

/// Runs `sql` on the app's database (as someone with its keys would) and answers its error, if
/// any.
pub async fn run_sql(app: &TestApp, sql: &str) -> Option<String> {
    use sea_orm::{ConnectionTrait as _, Database};
    let db = Database::connect(&app.config.database_url).await.unwrap();
    let outcome = db
        .execute_unprepared(sql)
        .await
        .err()
        .map(|e| e.to_string());
    db.close().await.unwrap();
    outcome
}

/// Runs `sql` (a query of one integer column named `n`) on the app's database.
pub async fn count_rows(app: &TestApp, sql: &str) -> i64 {
    use sea_orm::{ConnectionTrait as _, Database, Statement};
    let db = Database::connect(&app.config.database_url).await.unwrap();
    let row = db
        .query_one_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .unwrap();
    let n: i64 = row.try_get("", "n").unwrap();
    db.close().await.unwrap();
    n
}

pub async fn expect_error(response: Response, status: StatusCode, code: &str) -> Value {
    assert_eq!(response.status(), status, "expected {status} {code}");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], code, "{body}");
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    body
}

/// Sends the buyers' e-mails to `port` on 127.0.0.1 (plain SMTP: the test server has no TLS).
pub fn smtp_to(config: &mut Config, port: u16) {
    config.mail.env_settings = Some(rifa_domain::email_settings::EmailSettings {
        host: "127.0.0.1".into(),
        port,
        user: String::new(),
        password: None,
        from_email: "rifa@example.com".into(),
    });
    config.mail.smtp.security = Some(rifa_mail::SmtpSecurity::Plain);
}

/// The trail's actor for accounts made outside the panel.
pub fn command_line() -> Actor {
    Actor {
        admin_id: None,
        username: "command-line".to_owned(),
        ip: None,
    }
}

/// A raffle's first prize as the create form sends it: the raffle itself, drawn by a drand
/// round far after any test's sales close.
pub fn first_prize() -> Value {
    json!({
        "title": "Rifa de prueba",
        "source": {"kind": "beacon", "round": 999_000_000},
    })
}
