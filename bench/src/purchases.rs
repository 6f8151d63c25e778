//! The `purchases` scenario: buyers racing for the numbers of raffles sold in turn.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::cli::{Cli, Pick, PurchasesArgs};
use crate::client::Api;
use crate::lock;
use crate::report::{Latency, micros, per_second, round2, row};

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

pub(crate) async fn purchases(cli: &Cli, args: &PurchasesArgs) -> anyhow::Result<bool> {
    ensure!(
        args.buyers > 0 && args.per_purchase > 0 && args.tickets > 0,
        "nothing to run"
    );
    let api = Api::connect(cli, args.buyers).await?;
    let method = match args.method_id {
        Some(id) => id,
        None => api.payment_method().await?,
    };
    let settle = Duration::from_millis(args.settle_ms);
    // Every raffle exists before the clock starts (and, behind a load balancer, has been
    // visible to every instance for `settle`): the window measures purchases only.
    let warm = if args.warmup > 0 {
        Some(
            api.raffle("Calentamiento rifa-bench", args.tickets, args.per_purchase)
                .await?,
        )
    } else {
        None
    };
    let mut raffles = Vec::new();
    for turn in 1..=args.raffles {
        raffles.push(
            api.raffle(
                &format!("Rifa de rifa-bench {turn}"),
                args.tickets,
                args.per_purchase,
            )
            .await?,
        );
    }
    tokio::time::sleep(settle).await;
    if let Some(warm) = warm {
        eprintln!(
            "rifa-bench: warming up for {} s on raffle {warm}",
            args.warmup
        );
        let (market, results, _) =
            run_market(&api, warm, method, args, Duration::from_secs(args.warmup)).await?;
        let bad = market.tally.other.load(Ordering::Relaxed)
            + market.tally.transport_errors.load(Ordering::Relaxed);
        let samples: Vec<String> = results
            .into_iter()
            .flat_map(|r| r.samples)
            .take(3)
            .collect();
        ensure!(
            bad == 0,
            "{bad} warm-up purchases failed unexpectedly: {samples:?}"
        );
    }
    eprintln!(
        "rifa-bench: {} buyers on up to {} raffles of {} numbers, in turn, for up to {} s",
        args.buyers, args.raffles, args.tickets, args.duration
    );
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.duration);
    let (mut created, mut conflicts, mut other, mut transport, mut sold) = (0, 0, 0, 0, 0);
    let mut raffles_sold_out = 0_u32;
    let mut latencies = Vec::new();
    let mut samples = Vec::new();
    let mut timelines = Vec::new();
    let mut sold_per_raffle = Vec::new();
    for raffle in raffles {
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            break;
        }
        let (market, results, elapsed) = run_market(&api, raffle, method, args, remaining).await?;
        let tally = &market.tally;
        created += tally.created.load(Ordering::Relaxed);
        conflicts += tally.conflicts.load(Ordering::Relaxed);
        other += tally.other.load(Ordering::Relaxed);
        transport += tally.transport_errors.load(Ordering::Relaxed);
        let raffle_sold = tally.tickets_sold.load(Ordering::Relaxed);
        sold += raffle_sold;
        sold_per_raffle.push((raffle, raffle_sold));
        if market.sold_out.load(Ordering::Relaxed) {
            raffles_sold_out += 1;
        }
        for result in results {
            latencies.extend(result.latencies);
            samples.extend(result.samples);
        }
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
    // Integrity: the API's count of available numbers must match what the buyers were sold.
    tokio::time::sleep(settle).await;
    let mut integrity = true;
    for (raffle, raffle_sold) in sold_per_raffle {
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
    }
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
