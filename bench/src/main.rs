//! `rifa-bench`: a load generator for Rifa's two hot calls, run against a live API.
//!
//! * `purchases`: 9,999-number raffles (price 1, 1 to 3 numbers per purchase) sold in turn
//!   (`--raffles`) to `--buyers` concurrent buyers, each looping: pick 3 random numbers, post
//!   the purchase form, read the answer. 201 and 409 (`tickets_taken`) are both completed
//!   requests; anything else is counted as an error (and must stay at 0). Stops after
//!   `--duration` seconds or when the last raffle is sold out, whichever comes first.
//! * `availability`: a 99,999-number raffle, 90% sold quickly by large purchases, then the
//!   latency and size of `GET /api/raffles/{id}/availability`, sequentially and concurrently.
//!
//! * `stall`: a burst of CPU-heavy requests (PDF receipts of a 10,000-number purchase and wrong
//!   admin passwords) while one client keeps reading `GET /api/raffles`: the read's latency
//!   during the burst against its latency alone, and how the burst was answered.
//!
//! Results are printed as a table, then as one JSON line (the last line of stdout) for scripts.
//! Progress goes to stderr. The exit status is 1 when any request failed unexpectedly.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use clap::{Args, Parser, Subcommand, ValueEnum};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use reqwest::multipart::Form;
use reqwest::{Client, StatusCode};
use serde_json::{Value, json};

#[derive(Parser)]
#[command(
    name = "rifa-bench",
    about = "Load generator for Rifa's purchase and availability calls"
)]
struct Cli {
    /// Base URL of a running API.
    #[arg(
        long,
        env = "RIFA_BENCH_URL",
        default_value = "http://127.0.0.1:8080",
        global = true
    )]
    url: String,
    /// An admin bearer token (or give --username and --password to sign in).
    #[arg(long, env = "RIFA_BENCH_TOKEN", hide_env_values = true, global = true)]
    token: Option<String>,
    #[arg(long, env = "RIFA_BENCH_USERNAME", global = true)]
    username: Option<String>,
    #[arg(
        long,
        env = "RIFA_BENCH_PASSWORD",
        hide_env_values = true,
        global = true
    )]
    password: Option<String>,
    /// Print only the JSON line.
    #[arg(long, global = true)]
    json_only: bool,
    #[command(subcommand)]
    scenario: Scenario,
}

#[derive(Subcommand)]
enum Scenario {
    /// Concurrent buyers on a fresh raffle: purchases/s, latency and conflicts.
    Purchases(PurchasesArgs),
    /// Latency and size of the availability bitmap of a large, mostly sold raffle.
    Availability(AvailabilityArgs),
    /// An unrelated read's latency while PDFs and wrong passwords burst in.
    Stall(StallArgs),
}

#[derive(Args)]
struct StallArgs {
    /// Numbers of the purchase whose PDF receipt is asked for.
    #[arg(long, default_value_t = 10_000)]
    numbers: u32,
    /// Concurrent PDF requests of the burst.
    #[arg(long, default_value_t = 40)]
    pdfs: usize,
    /// Distinct purchases the PDF requests are spread over (1: all ask for the same one).
    #[arg(long, default_value_t = 1)]
    purchases: usize,
    /// Concurrent sign-ins with a wrong password in the burst.
    #[arg(long, default_value_t = 40)]
    logins: usize,
    /// Seconds the unrelated read is measured alone, before the burst.
    #[arg(long, default_value_t = 5)]
    quiet_seconds: u64,
    /// Pause between two of its reads, in milliseconds.
    #[arg(long, default_value_t = 10)]
    probe_interval_ms: u64,
}

#[derive(Args)]
struct PurchasesArgs {
    /// Concurrent buyers (each one HTTP connection, one request at a time).
    #[arg(long, default_value_t = 64)]
    buyers: usize,
    /// Seconds of measurement (the run also ends when the last raffle is sold out).
    #[arg(long, default_value_t = 20)]
    duration: u64,
    /// Raffles sold in turn: the buyers move to the next one when one sells out, so the
    /// measurement window is long enough to be stable (a 9,999-number raffle sells out in
    /// about two seconds).
    #[arg(long, default_value_t = 8)]
    raffles: u32,
    /// Seconds of purchases on a separate throwaway raffle first (opens connections).
    #[arg(long, default_value_t = 2)]
    warmup: u64,
    /// Numbers in the raffle.
    #[arg(long, default_value_t = 9_999)]
    tickets: u32,
    /// Numbers per purchase (the raffle's maximum per purchase).
    #[arg(long, default_value_t = 3)]
    per_purchase: u32,
    /// How buyers choose their numbers.
    #[arg(long, value_enum, default_value_t = Pick::Informed)]
    pick: Pick,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Pick {
    /// At random among the numbers not yet known to be sold (what the picker shows a buyer
    /// who loaded the availability a moment ago): conflicts come from buyers racing for the
    /// same free numbers, and grow as the raffle fills.
    Informed,
    /// At random among all numbers: conflicts approach 100% as the raffle fills, and it never
    /// sells out within the duration.
    Blind,
}

#[derive(Args)]
struct AvailabilityArgs {
    /// Numbers in the raffle.
    #[arg(long, default_value_t = 99_999)]
    tickets: u32,
    /// Share of the numbers sold before measuring.
    #[arg(long, default_value_t = 0.9)]
    fill: f64,
    /// Numbers per filling purchase (the raffle's maximum per purchase).
    #[arg(long, default_value_t = 1_000)]
    batch: u32,
    /// Concurrent filling purchases.
    #[arg(long, default_value_t = 8)]
    fill_concurrency: usize,
    /// Requests of the sequential phase.
    #[arg(long, default_value_t = 2_000)]
    requests: usize,
    /// Clients of the concurrent phase.
    #[arg(long, default_value_t = 16)]
    concurrency: usize,
    /// Requests of the concurrent phase (all clients together).
    #[arg(long, default_value_t = 4_000)]
    concurrent_requests: usize,
    /// Sequential requests sent with `Accept-Encoding: gzip` (as browsers do).
    #[arg(long, default_value_t = 500)]
    gzip_requests: usize,
    /// A phase stops early after this many seconds (a slow API would otherwise take long).
    #[arg(long, default_value_t = 60)]
    phase_seconds: u64,
}

/// The API under test, signed in as an admin.
#[derive(Clone)]
struct Api {
    base: String,
    client: Client,
    token: String,
}

impl Api {
    async fn connect(cli: &Cli, pool: usize) -> anyhow::Result<Self> {
        let client = Client::builder()
            .pool_max_idle_per_host(pool)
            .timeout(Duration::from_secs(60))
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
        })
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    async fn admin_post(&self, path: &str, body: &Value) -> anyhow::Result<Value> {
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

    /// A raffle on sale, price 1, with `per_purchase` numbers at most per purchase.
    async fn raffle(&self, title: &str, tickets: u32, per_purchase: u32) -> anyhow::Result<i64> {
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

    async fn payment_method(&self) -> anyhow::Result<i64> {
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

    /// Posts a purchase of `numbers` at price 1 each; returns the status and body.
    async fn buy(
        &self,
        raffle: i64,
        method: i64,
        numbers: &[u32],
        buyer: usize,
    ) -> reqwest::Result<(StatusCode, Vec<u8>)> {
        let form = Form::new()
            .text("customerName", "María González")
            .text("customerId", format!("V-{:08}", 10_000_000 + buyer))
            .text("customerEmail", format!("buyer{buyer}@bench.example"))
            .text("customerPhone", "+58 414 555 0101")
            .text("customerCountry", "venezuela")
            .text("paymentMethod", method.to_string())
            .text("ticketNumbers", numbers_json(numbers))
            .text("totalAmount", format!("{}.00", numbers.len()))
            .text("discountApplied", "0")
            .text("acceptTerms", "true");
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

fn numbers_json(numbers: &[u32]) -> String {
    let list: Vec<String> = numbers.iter().map(u32::to_string).collect();
    format!("[{}]", list.join(","))
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Latencies in microseconds, summarised.
#[derive(Clone, Copy, Default)]
struct Latency {
    count: usize,
    mean_ms: f64,
    p50_ms: f64,
    p90_ms: f64,
    p99_ms: f64,
    max_ms: f64,
}

impl Latency {
    fn of(mut samples: Vec<u64>) -> Self {
        if samples.is_empty() {
            return Self::default();
        }
        samples.sort_unstable();
        let n = samples.len();
        let at = |p: f64| {
            // Nearest rank: the smallest sample with at least p of the samples at or below it.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let rank = ((p * n as f64).ceil() as usize).clamp(1, n);
            ms(samples[rank - 1])
        };
        #[allow(clippy::cast_precision_loss)]
        let mean_ms = samples.iter().sum::<u64>() as f64 / n as f64 / 1_000.0;
        Self {
            count: n,
            mean_ms,
            p50_ms: at(0.50),
            p90_ms: at(0.90),
            p99_ms: at(0.99),
            max_ms: ms(samples[n - 1]),
        }
    }

    fn json(&self) -> Value {
        json!({
            "count": self.count,
            "mean_ms": round2(self.mean_ms),
            "p50_ms": round2(self.p50_ms),
            "p90_ms": round2(self.p90_ms),
            "p99_ms": round2(self.p99_ms),
            "max_ms": round2(self.max_ms),
        })
    }
}

#[allow(clippy::cast_precision_loss)]
fn ms(micros: u64) -> f64 {
    micros as f64 / 1_000.0
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn micros(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX)
}

#[allow(clippy::cast_precision_loss)]
fn per_second(count: u64, elapsed: Duration) -> f64 {
    count as f64 / elapsed.as_secs_f64().max(f64::EPSILON)
}

fn row(label: &str, value: impl std::fmt::Display) {
    println!("  {label:<34} {value}");
}

// ---------------------------------------------------------------------------------------------
// Purchases

/// The numbers the bench believes are still for sale, with O(1) removal.
struct Picker {
    available: Vec<u32>,
    /// Position of each number in `available`, `usize::MAX` once removed (index 0 unused).
    position: Vec<usize>,
}

impl Picker {
    fn new(tickets: u32) -> Self {
        let available: Vec<u32> = (1..=tickets).collect();
        let mut position = vec![usize::MAX; available.len() + 1];
        for (i, n) in available.iter().enumerate() {
            position[*n as usize] = i;
        }
        Self {
            available,
            position,
        }
    }

    fn len(&self) -> usize {
        self.available.len()
    }

    fn remove(&mut self, number: u32) {
        let Some(&at) = self.position.get(number as usize) else {
            return;
        };
        if at == usize::MAX {
            return;
        }
        self.available.swap_remove(at);
        if let Some(&moved) = self.available.get(at) {
            self.position[moved as usize] = at;
        }
        self.position[number as usize] = usize::MAX;
    }

    fn pick(&self, rng: &mut impl Rng, count: usize) -> Vec<u32> {
        let count = count.min(self.available.len());
        rand::seq::index::sample(rng, self.available.len(), count)
            .into_iter()
            .map(|i| self.available[i])
            .collect()
    }
}

#[derive(Default)]
struct Tally {
    created: AtomicU64,
    conflicts: AtomicU64,
    other: AtomicU64,
    transport_errors: AtomicU64,
    tickets_sold: AtomicU64,
}

struct BuyerResult {
    latencies: Vec<u64>,
    samples: Vec<String>,
}

struct Market {
    api: Api,
    raffle: i64,
    method: i64,
    per_purchase: usize,
    tickets: u32,
    pick: Pick,
    picker: Mutex<Picker>,
    sold_out: AtomicBool,
    tally: Tally,
    /// 201s and 409s per second since the start.
    timeline: Vec<(AtomicU64, AtomicU64)>,
}

async fn buyer(
    market: Arc<Market>,
    buyer: usize,
    start: Instant,
    deadline: Instant,
) -> BuyerResult {
    let mut rng = StdRng::from_rng(&mut rand::rng());
    let mut latencies = Vec::with_capacity(4_096);
    let mut samples = Vec::new();
    while Instant::now() < deadline && !market.sold_out.load(Ordering::Relaxed) {
        let numbers = {
            let picker = lock(&market.picker);
            if picker.len() == 0 {
                market.sold_out.store(true, Ordering::Relaxed);
                break;
            }
            match market.pick {
                Pick::Informed => picker.pick(&mut rng, market.per_purchase),
                Pick::Blind => {
                    let all = market.tickets as usize;
                    rand::seq::index::sample(&mut rng, all, market.per_purchase.min(all))
                        .into_iter()
                        .filter_map(|i| u32::try_from(i + 1).ok())
                        .collect()
                }
            }
        };
        let sent = Instant::now();
        let outcome = market
            .api
            .buy(market.raffle, market.method, &numbers, buyer)
            .await;
        let latency = sent.elapsed();
        let second = sent.duration_since(start).as_secs() as usize;
        let tally = &market.tally;
        match outcome {
            Ok((StatusCode::CREATED, _)) => {
                latencies.push(micros(latency));
                tally.created.fetch_add(1, Ordering::Relaxed);
                tally
                    .tickets_sold
                    .fetch_add(numbers.len() as u64, Ordering::Relaxed);
                if let Some((created, _)) = market.timeline.get(second) {
                    created.fetch_add(1, Ordering::Relaxed);
                }
                let mut picker = lock(&market.picker);
                for n in &numbers {
                    picker.remove(*n);
                }
                if picker.len() == 0 {
                    market.sold_out.store(true, Ordering::Relaxed);
                }
            }
            Ok((StatusCode::CONFLICT, body))
                if serde_json::from_slice::<Value>(&body)
                    .is_ok_and(|b| b["code"] == "tickets_taken") =>
            {
                latencies.push(micros(latency));
                tally.conflicts.fetch_add(1, Ordering::Relaxed);
                if let Some((_, conflicts)) = market.timeline.get(second) {
                    conflicts.fetch_add(1, Ordering::Relaxed);
                }
                let taken: Vec<u32> = serde_json::from_slice::<Value>(&body)
                    .ok()
                    .and_then(|b| b["numbers"].as_array().cloned())
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|n| n.as_u64().and_then(|n| u32::try_from(n).ok()))
                    .collect();
                let mut picker = lock(&market.picker);
                for n in taken {
                    picker.remove(n);
                }
            }
            Ok((status, body)) => {
                tally.other.fetch_add(1, Ordering::Relaxed);
                if samples.len() < 3 {
                    let text = String::from_utf8_lossy(&body);
                    samples.push(format!(
                        "{status}: {}",
                        text.chars().take(300).collect::<String>()
                    ));
                }
            }
            Err(error) => {
                tally.transport_errors.fetch_add(1, Ordering::Relaxed);
                if samples.len() < 3 {
                    samples.push(format!("transport: {error}"));
                }
            }
        }
    }
    BuyerResult { latencies, samples }
}

/// Runs `buyers` buyers on `raffle` until `duration` has passed or it is sold out.
async fn run_market(
    api: &Api,
    raffle: i64,
    method: i64,
    args: &PurchasesArgs,
    duration: Duration,
) -> anyhow::Result<(Arc<Market>, Vec<BuyerResult>, Duration)> {
    let market = Arc::new(Market {
        api: api.clone(),
        raffle,
        method,
        per_purchase: args.per_purchase as usize,
        tickets: args.tickets,
        pick: args.pick,
        picker: Mutex::new(Picker::new(args.tickets)),
        sold_out: AtomicBool::new(false),
        tally: Tally::default(),
        timeline: (0..=duration.as_secs() + 1)
            .map(|_| (AtomicU64::new(0), AtomicU64::new(0)))
            .collect(),
    });
    let start = Instant::now();
    let deadline = start + duration;
    let handles: Vec<_> = (0..args.buyers)
        .map(|i| tokio::spawn(buyer(market.clone(), i, start, deadline)))
        .collect();
    let mut results = Vec::with_capacity(handles.len());
    for handle in handles {
        results.push(handle.await.context("a buyer task panicked")?);
    }
    Ok((market, results, start.elapsed()))
}

async fn purchases(cli: &Cli, args: &PurchasesArgs) -> anyhow::Result<bool> {
    ensure!(
        args.buyers > 0 && args.per_purchase > 0 && args.tickets > 0,
        "nothing to run"
    );
    let api = Api::connect(cli, args.buyers).await?;
    let method = api.payment_method().await?;
    if args.warmup > 0 {
        let warm = api
            .raffle("Calentamiento rifa-bench", args.tickets, args.per_purchase)
            .await?;
        eprintln!(
            "rifa-bench: warming up for {} s on raffle {warm}",
            args.warmup
        );
        let (market, _, _) =
            run_market(&api, warm, method, args, Duration::from_secs(args.warmup)).await?;
        let bad = market.tally.other.load(Ordering::Relaxed)
            + market.tally.transport_errors.load(Ordering::Relaxed);
        ensure!(bad == 0, "{bad} warm-up purchases failed unexpectedly");
    }
    eprintln!(
        "rifa-bench: {} buyers on up to {} raffles of {} numbers, in turn, for up to {} s",
        args.buyers, args.raffles, args.tickets, args.duration
    );
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.duration);
    let (mut created, mut conflicts, mut other, mut transport, mut sold) = (0, 0, 0, 0, 0);
    let (mut raffles_sold_out, mut integrity) = (0_u32, true);
    let mut latencies = Vec::new();
    let mut samples = Vec::new();
    let mut timelines = Vec::new();
    for turn in 1..=args.raffles {
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            break;
        }
        let raffle = api
            .raffle(
                &format!("Rifa de rifa-bench {turn}"),
                args.tickets,
                args.per_purchase,
            )
            .await?;
        let (market, results, elapsed) = run_market(&api, raffle, method, args, remaining).await?;
        let tally = &market.tally;
        created += tally.created.load(Ordering::Relaxed);
        conflicts += tally.conflicts.load(Ordering::Relaxed);
        other += tally.other.load(Ordering::Relaxed);
        transport += tally.transport_errors.load(Ordering::Relaxed);
        let raffle_sold = tally.tickets_sold.load(Ordering::Relaxed);
        sold += raffle_sold;
        if market.sold_out.load(Ordering::Relaxed) {
            raffles_sold_out += 1;
        }
        for result in results {
            latencies.extend(result.latencies);
            samples.extend(result.samples);
        }
        // Integrity: the API's count of available numbers must match what the buyers were sold.
        let response = api
            .client
            .get(api.url(&format!("/api/raffles/{raffle}/availability")))
            .send()
            .await
            .context("availability check failed")?;
        let available: Option<u64> = response
            .headers()
            .get("x-available-count")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok());
        integrity &= available == Some(u64::from(args.tickets) - raffle_sold);
        timelines.push(
            market
                .timeline
                .iter()
                .map(|(c, x)| json!([c.load(Ordering::Relaxed), x.load(Ordering::Relaxed)]))
                .take(elapsed.as_secs() as usize + 1)
                .collect::<Vec<Value>>(),
        );
    }
    let elapsed = started.elapsed();
    let sold_out = raffles_sold_out == args.raffles;
    let latency = Latency::of(latencies);

    let ok = other == 0 && transport == 0 && integrity;
    let result = json!({
        "scenario": "purchases",
        "buyers": args.buyers,
        "tickets": args.tickets,
        "raffles": args.raffles,
        "raffles_sold_out": raffles_sold_out,
        "per_purchase": args.per_purchase,
        "pick": match args.pick { Pick::Informed => "informed", Pick::Blind => "blind" },
        "duration_s": args.duration,
        "elapsed_s": round2(elapsed.as_secs_f64()),
        "sold_out": sold_out,
        "purchases": created,
        "conflicts": conflicts,
        "other_status": other,
        "transport_errors": transport,
        "tickets_sold": sold,
        "purchases_per_s": round2(per_second(created, elapsed)),
        "requests_per_s": round2(per_second(created + conflicts, elapsed)),
        "latency": latency.json(),
        "integrity_ok": integrity,
        "timeline_created_conflicts_per_s": timelines,
        "error_samples": samples,
    });
    if !cli.json_only {
        println!();
        println!(
            "Purchases: {} buyers, raffles of {} numbers in turn, {} per purchase ({} picks)",
            args.buyers,
            args.tickets,
            args.per_purchase,
            if args.pick == Pick::Informed {
                "informed"
            } else {
                "blind"
            }
        );
        row(
            "elapsed",
            format!(
                "{:.2} s, {raffles_sold_out} of {} raffles sold out",
                elapsed.as_secs_f64(),
                args.raffles
            ),
        );
        row("purchases (201)", created);
        row("conflicts (409 tickets_taken)", conflicts);
        row("other statuses (must be 0)", other);
        row("transport errors (must be 0)", transport);
        row(
            "tickets sold",
            format!(
                "{sold} of {}",
                u64::from(args.tickets) * u64::from(args.raffles)
            ),
        );
        row(
            "purchases/s",
            format!("{:.1}", per_second(created, elapsed)),
        );
        row(
            "requests/s (201 + 409)",
            format!("{:.1}", per_second(created + conflicts, elapsed)),
        );
        row(
            "latency p50 / p90 / p99 / max",
            format!(
                "{:.2} / {:.2} / {:.2} / {:.2} ms (mean {:.2})",
                latency.p50_ms, latency.p90_ms, latency.p99_ms, latency.max_ms, latency.mean_ms
            ),
        );
        row(
            "availability count matches sales",
            if integrity { "yes" } else { "NO" },
        );
        for sample in &samples {
            row("error sample", sample);
        }
    }
    println!("{result}");
    Ok(ok)
}

// ---------------------------------------------------------------------------------------------
// Availability

struct Fetch {
    latency: u64,
    bytes: usize,
}

async fn fetch_availability(api: &Api, raffle: i64, gzip: bool) -> anyhow::Result<Fetch> {
    let mut request = api
        .client
        .get(api.url(&format!("/api/raffles/{raffle}/availability")));
    if gzip {
        request = request.header("Accept-Encoding", "gzip");
    }
    let sent = Instant::now();
    let response = request
        .send()
        .await
        .context("availability request failed")?;
    let status = response.status();
    let body = response.bytes().await.context("availability body failed")?;
    let latency = micros(sent.elapsed());
    ensure!(status == StatusCode::OK, "availability answered {status}");
    Ok(Fetch {
        latency,
        bytes: body.len(),
    })
}

struct Phase {
    latency: Latency,
    per_second: f64,
    bytes: usize,
}

impl Phase {
    fn json(&self) -> Value {
        let mut value = self.latency.json();
        value["requests_per_s"] = json!(round2(self.per_second));
        value["body_bytes"] = json!(self.bytes);
        value
    }
}

async fn sequential(
    api: &Api,
    raffle: i64,
    requests: usize,
    gzip: bool,
    limit: Duration,
) -> anyhow::Result<Phase> {
    let mut latencies = Vec::with_capacity(requests);
    let mut bytes = 0;
    let start = Instant::now();
    while latencies.len() < requests && start.elapsed() < limit {
        let fetch = fetch_availability(api, raffle, gzip).await?;
        latencies.push(fetch.latency);
        bytes = fetch.bytes;
    }
    let elapsed = start.elapsed();
    Ok(Phase {
        per_second: per_second(latencies.len() as u64, elapsed),
        latency: Latency::of(latencies),
        bytes,
    })
}

async fn concurrent(
    api: &Api,
    raffle: i64,
    clients: usize,
    requests: usize,
    limit: Duration,
) -> anyhow::Result<Phase> {
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let handles: Vec<_> = (0..clients.max(1))
        .map(|_| {
            let api = api.clone();
            let next = next.clone();
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut bytes = 0;
                while start.elapsed() < limit && next.fetch_add(1, Ordering::Relaxed) < requests {
                    let fetch = fetch_availability(&api, raffle, false).await?;
                    latencies.push(fetch.latency);
                    bytes = fetch.bytes;
                }
                anyhow::Ok((latencies, bytes))
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(requests);
    let mut bytes = 0;
    for handle in handles {
        let (mine, size) = handle.await.context("a client task panicked")??;
        latencies.extend(mine);
        bytes = bytes.max(size);
    }
    let elapsed = start.elapsed();
    Ok(Phase {
        per_second: per_second(latencies.len() as u64, elapsed),
        latency: Latency::of(latencies),
        bytes,
    })
}

async fn availability(cli: &Cli, args: &AvailabilityArgs) -> anyhow::Result<bool> {
    ensure!(
        (0.0..=1.0).contains(&args.fill),
        "--fill is a share between 0 and 1"
    );
    let api = Api::connect(cli, args.concurrency.max(args.fill_concurrency)).await?;
    let method = api.payment_method().await?;
    let raffle = api
        .raffle("Rifa grande de rifa-bench", args.tickets, args.batch)
        .await?;

    // Sell `fill` of the numbers, in random order, in purchases of `batch` numbers.
    let mut numbers: Vec<u32> = (1..=args.tickets).collect();
    numbers.shuffle(&mut rand::rng());
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let to_sell = ((f64::from(args.tickets) * args.fill).round() as usize).min(numbers.len());
    numbers.truncate(to_sell);
    let batches: VecDeque<Vec<u32>> = numbers
        .chunks(args.batch.max(1) as usize)
        .map(<[u32]>::to_vec)
        .collect();
    let purchases = batches.len();
    eprintln!(
        "rifa-bench: selling {to_sell} of {} numbers of raffle {raffle} in {purchases} purchases",
        args.tickets
    );
    let queue = Arc::new(Mutex::new(batches));
    let fill_start = Instant::now();
    let handles: Vec<_> = (0..args.fill_concurrency.max(1))
        .map(|i| {
            let api = api.clone();
            let queue = queue.clone();
            tokio::spawn(async move {
                loop {
                    let Some(batch) = lock(&queue).pop_front() else {
                        return anyhow::Ok(());
                    };
                    let (status, body) = api.buy(raffle, method, &batch, i).await?;
                    ensure!(
                        status == StatusCode::CREATED,
                        "filling purchase answered {status}: {}",
                        String::from_utf8_lossy(&body)
                    );
                }
            })
        })
        .collect();
    for handle in handles {
        handle.await.context("a filling task panicked")??;
    }
    let fill_elapsed = fill_start.elapsed();

    // The bitmap must say exactly what was sold.
    let response = api
        .client
        .get(api.url(&format!("/api/raffles/{raffle}/availability")))
        .send()
        .await?;
    let header = response
        .headers()
        .get("x-available-count")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    let bitmap = response.bytes().await?;
    let set_bits: usize = bitmap.iter().map(|b| b.count_ones() as usize).sum();
    let expected = args.tickets as usize - to_sell;
    let integrity = header == Some(expected) && set_bits == expected;

    // Warm-up, then the measured phases.
    let limit = Duration::from_secs(args.phase_seconds);
    sequential(&api, raffle, 50, false, limit).await?;
    let seq = sequential(&api, raffle, args.requests, false, limit).await?;
    let conc = concurrent(
        &api,
        raffle,
        args.concurrency,
        args.concurrent_requests,
        limit,
    )
    .await?;
    let gzip = sequential(&api, raffle, args.gzip_requests, true, limit).await?;

    let ok = integrity;
    let result = json!({
        "scenario": "availability",
        "tickets": args.tickets,
        "sold": to_sell,
        "fill_purchases": purchases,
        "fill_s": round2(fill_elapsed.as_secs_f64()),
        "integrity_ok": integrity,
        "body_bytes": seq.bytes,
        "gzip_body_bytes": gzip.bytes,
        "sequential": seq.json(),
        "concurrent": { "clients": args.concurrency, "latency": conc.json() },
        "gzip": gzip.json(),
    });
    if !cli.json_only {
        println!();
        println!(
            "Availability: raffle of {} numbers, {to_sell} sold ({purchases} purchases of up to {} in {:.2} s)",
            args.tickets,
            args.batch,
            fill_elapsed.as_secs_f64()
        );
        row("bitmap matches sales", if integrity { "yes" } else { "NO" });
        row(
            "body (identity / gzip)",
            format!("{} / {} bytes", seq.bytes, gzip.bytes),
        );
        for (label, phase) in [
            (format!("sequential ×{}", seq.latency.count), &seq),
            (
                format!("{} clients ×{}", args.concurrency, conc.latency.count),
                &conc,
            ),
            (format!("sequential gzip ×{}", gzip.latency.count), &gzip),
        ] {
            row(
                &label,
                format!(
                    "p50 {:.2} / p90 {:.2} / p99 {:.2} / max {:.2} ms, {:.0} req/s",
                    phase.latency.p50_ms,
                    phase.latency.p90_ms,
                    phase.latency.p99_ms,
                    phase.latency.max_ms,
                    phase.per_second
                ),
            );
        }
    }
    println!("{result}");
    Ok(ok)
}

// ---------------------------------------------------------------------------------------------
// Stall

/// A purchase as its buyer holds it: its id and access token.
struct Receipt {
    id: i64,
    token: String,
}

/// Buys every number of a fresh raffle of `numbers` in one purchase.
async fn whole_raffle_purchase(
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

/// Reads `GET /api/raffles` one at a time until `stop`; the latencies and any failures.
async fn probe(api: Api, interval: Duration, stop: Arc<AtomicBool>) -> (Vec<u64>, u64) {
    let mut samples = Vec::new();
    let mut failures = 0;
    while !stop.load(Ordering::Relaxed) {
        let started = Instant::now();
        let ok = match api.client.get(api.url("/api/raffles")).send().await {
            Ok(response) => response.status() == StatusCode::OK && response.bytes().await.is_ok(),
            Err(_) => false,
        };
        if ok {
            samples.push(micros(started.elapsed()));
        } else {
            failures += 1;
        }
        tokio::time::sleep(interval).await;
    }
    (samples, failures)
}

/// How the burst's requests were answered: status → count, and the slowest.
#[derive(Default)]
struct BurstAnswers {
    statuses: std::collections::BTreeMap<u16, u64>,
    transport_errors: u64,
    slowest: Duration,
}

impl BurstAnswers {
    fn json(&self) -> Value {
        let statuses: serde_json::Map<String, Value> = self
            .statuses
            .iter()
            .map(|(status, count)| (status.to_string(), json!(count)))
            .collect();
        json!({
            "statuses": statuses,
            "transport_errors": self.transport_errors,
            "slowest_ms": round2(ms(micros(self.slowest))),
        })
    }
}

async fn stall(cli: &Cli, args: &StallArgs) -> anyhow::Result<bool> {
    let api = Api::connect(cli, args.pdfs + args.logins + 4).await?;
    let method = api.payment_method().await?;
    eprintln!(
        "rifa-bench: {} purchase(s) of {} numbers to render",
        args.purchases.max(1),
        args.numbers
    );
    let mut receipts = Vec::new();
    for n in 0..args.purchases.max(1) {
        receipts.push(whole_raffle_purchase(&api, method, args.numbers, n).await?);
    }

    // A separate client, so the probe never waits for a pooled connection the burst holds.
    let prober = Api {
        client: Client::builder()
            .timeout(Duration::from_secs(60))
            .tcp_nodelay(true)
            .build()?,
        ..api.clone()
    };
    let interval = Duration::from_millis(args.probe_interval_ms);
    let stop = Arc::new(AtomicBool::new(false));
    let quiet = tokio::spawn(probe(prober.clone(), interval, stop.clone()));
    tokio::time::sleep(Duration::from_secs(args.quiet_seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let (quiet_samples, quiet_failures) = quiet.await?;

    eprintln!(
        "rifa-bench: burst of {} PDFs and {} wrong sign-ins",
        args.pdfs, args.logins
    );
    let stop = Arc::new(AtomicBool::new(false));
    let during = tokio::spawn(probe(prober, interval, stop.clone()));
    let burst_started = Instant::now();
    let pdfs: Vec<_> = (0..args.pdfs)
        .map(|n| {
            let receipt = &receipts[n % receipts.len()];
            let request = api
                .client
                .get(api.url(&format!("/api/purchases/{}/invoice", receipt.id)))
                .query(&[("format", "pdf"), ("token", receipt.token.as_str())]);
            tokio::spawn(timed(request))
        })
        .collect();
    let logins: Vec<_> = (0..args.logins)
        .map(|n| {
            let request = api
                .client
                .post(api.url("/api/admin/login"))
                .json(&json!({"username": "admin", "password": format!("wrong-password-{n}")}));
            tokio::spawn(timed(request))
        })
        .collect();
    let mut pdf_answers = BurstAnswers::default();
    for handle in pdfs {
        record(&mut pdf_answers, handle.await?);
    }
    let mut login_answers = BurstAnswers::default();
    for handle in logins {
        record(&mut login_answers, handle.await?);
    }
    let burst_elapsed = burst_started.elapsed();
    stop.store(true, Ordering::Relaxed);
    let (during_samples, during_failures) = during.await?;

    let (alone, burst) = (Latency::of(quiet_samples), Latency::of(during_samples));
    let ok = quiet_failures == 0 && during_failures == 0;
    let result = json!({
        "scenario": "stall",
        "numbers": args.numbers,
        "pdfs": args.pdfs,
        "purchases": receipts.len(),
        "logins": args.logins,
        "burst_s": round2(burst_elapsed.as_secs_f64()),
        "read_alone": alone.json(),
        "read_during_burst": burst.json(),
        "read_failures": quiet_failures + during_failures,
        "pdf_answers": pdf_answers.json(),
        "login_answers": login_answers.json(),
        "target_p99_ms": 50,
        "met": ok && burst.p99_ms < 50.0,
    });
    if !cli.json_only {
        println!();
        println!(
            "Stall: GET /api/raffles while {} PDFs of {} numbers ({} purchase(s)) and {} wrong sign-ins burst in ({:.2} s)",
            args.pdfs,
            args.numbers,
            receipts.len(),
            args.logins,
            burst_elapsed.as_secs_f64()
        );
        for (label, latency) in [("read alone", &alone), ("read during the burst", &burst)] {
            row(
                &format!("{label} ×{}", latency.count),
                format!(
                    "p50 {:.2} / p90 {:.2} / p99 {:.2} / max {:.2} ms",
                    latency.p50_ms, latency.p90_ms, latency.p99_ms, latency.max_ms
                ),
            );
        }
        row("PDF answers", pdf_answers.json());
        row("sign-in answers", login_answers.json());
        row(
            "target: p99 during the burst < 50 ms",
            if burst.p99_ms < 50.0 { "met" } else { "MISSED" },
        );
    }
    println!("{result}");
    Ok(ok)
}

async fn timed(request: reqwest::RequestBuilder) -> (Result<u16, reqwest::Error>, Duration) {
    let started = Instant::now();
    let status = match request.send().await {
        Ok(response) => {
            let status = response.status().as_u16();
            response.bytes().await.map(|_| status)
        }
        Err(error) => Err(error),
    };
    (status, started.elapsed())
}

fn record(answers: &mut BurstAnswers, (status, took): (Result<u16, reqwest::Error>, Duration)) {
    match status {
        Ok(status) => *answers.statuses.entry(status).or_default() += 1,
        Err(_) => answers.transport_errors += 1,
    }
    answers.slowest = answers.slowest.max(took);
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let ok = match &cli.scenario {
        Scenario::Purchases(args) => purchases(&cli, args).await?,
        Scenario::Availability(args) => availability(&cli, args).await?,
        Scenario::Stall(args) => stall(&cli, args).await?,
    };
    if !ok {
        eprintln!("rifa-bench: some requests failed or the numbers did not add up (see above)");
        std::process::exit(1);
    }
    Ok(())
}
