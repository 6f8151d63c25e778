//! The `fill` scenario (issue 20, "purchases as a raffle fills"): one raffle of `--tickets`
//! numbers sold from empty to sold out by `--buyers` buyers who do what the site does: load
//! the availability bitmap, pick random numbers among those it shows free, post the purchase,
//! and load the bitmap again after the answer (201 or 409). Reported per tenth of the raffle
//! sold: purchases/s, the purchase's p50/p99, the 409 share and the bitmap's latency.
//! With `--picks server` the buyers ask for `randomCount` numbers instead (the site's quick
//! buy): the bitmap only tells them how many are left, the server draws which.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::cli::{Cli, FillArgs, Picks};
use crate::client::Api;
use crate::lock;
use crate::report::{Latency, micros, per_second, round2};

const TENTHS: usize = 10;

/// What happened while the raffle was between k/10 and (k+1)/10 sold.
#[derive(Default)]
struct Tenth {
    purchase_latencies: Vec<u64>,
    bitmap_latencies: Vec<u64>,
    created: u64,
    conflicts: u64,
    /// When the numbers sold first reached k/10 (the first tenth starts with the run).
    reached: Option<Instant>,
}

struct Shared {
    api: Api,
    raffle: i64,
    method: i64,
    tickets: u64,
    per_purchase: usize,
    picks: Picks,
    sold: AtomicU64,
    other: AtomicU64,
    transport: AtomicU64,
    samples: Mutex<Vec<String>>,
    tenths: Mutex<Vec<Tenth>>,
    done: AtomicBool,
    deadline: Instant,
}

impl Shared {
    fn tenth_of(&self, sold: u64) -> usize {
        usize::try_from(sold.saturating_mul(TENTHS as u64) / self.tickets.max(1))
            .unwrap_or(TENTHS - 1)
            .min(TENTHS - 1)
    }

    fn sample(&self, text: String) {
        let mut samples = lock(&self.samples);
        if samples.len() < 5 {
            samples.push(text);
        }
    }
}

/// The available numbers of a bitmap: byte (n-1)/8, bit 7-((n-1)%8), most significant first.
fn free_numbers(bitmap: &[u8], max: u64) -> Vec<u32> {
    let mut free = Vec::new();
    for (i, byte) in bitmap.iter().enumerate() {
        if *byte == 0 {
            continue;
        }
        for bit in 0..8 {
            let n = (i * 8 + bit + 1) as u64;
            if n <= max && byte & (0x80 >> bit) != 0 {
                free.extend(u32::try_from(n).ok());
            }
        }
    }
    free
}

fn is_free(bitmap: &[u8], n: u64) -> bool {
    usize::try_from((n - 1) / 8)
        .ok()
        .and_then(|i| bitmap.get(i))
        .is_some_and(|byte| byte & (0x80 >> ((n - 1) % 8)) != 0)
}

/// `count` distinct numbers drawn uniformly among those the bitmap shows free (fewer when fewer
/// are free). While many are free, random numbers are tried until enough free ones turn up, as
/// a phone's picker can afford; listing every free number for every purchase made this client
/// use a fifth of the machine the server runs on.
fn pick_free(bitmap: &[u8], max: u64, count: usize, rng: &mut StdRng) -> Vec<u32> {
    let free: u64 = bitmap.iter().map(|byte| u64::from(byte.count_ones())).sum();
    let count = count.min(usize::try_from(free).unwrap_or(usize::MAX));
    if free.saturating_mul(16) < max {
        let free = free_numbers(bitmap, max);
        return rand::seq::index::sample(rng, free.len(), count)
            .into_iter()
            .map(|i| free[i])
            .collect();
    }
    let mut picks = Vec::with_capacity(count);
    while picks.len() < count {
        let n = rng.random_range(1..=max);
        if is_free(bitmap, n) && !picks.contains(&n) {
            picks.push(n);
        }
    }
    picks
        .into_iter()
        .filter_map(|n| u32::try_from(n).ok())
        .collect()
}

async fn bitmap(shared: &Shared) -> anyhow::Result<(Vec<u8>, u64)> {
    let sent = Instant::now();
    let response = shared
        .api
        .client
        .get(
            shared
                .api
                .url(&format!("/api/raffles/{}/availability", shared.raffle)),
        )
        .send()
        .await?;
    ensure!(
        response.status() == StatusCode::OK,
        "availability answered {}",
        response.status()
    );
    let body = response.bytes().await?;
    Ok((body.to_vec(), micros(sent.elapsed())))
}

async fn buyer(shared: Arc<Shared>, id: usize) {
    let mut rng = StdRng::from_rng(&mut rand::rng());
    while !shared.done.load(Ordering::Relaxed) && Instant::now() < shared.deadline {
        let (map, took) = match bitmap(&shared).await {
            Ok(fetched) => fetched,
            Err(error) => {
                shared.transport.fetch_add(1, Ordering::Relaxed);
                shared.sample(format!("availability: {error}"));
                continue;
            }
        };
        let at = shared.tenth_of(shared.sold.load(Ordering::Relaxed));
        lock(&shared.tenths)[at].bitmap_latencies.push(took);
        let (sent, outcome, count) = match shared.picks {
            Picks::Buyer => {
                let picks = pick_free(&map, shared.tickets, shared.per_purchase, &mut rng);
                if picks.is_empty() {
                    shared.done.store(true, Ordering::Relaxed);
                    break;
                }
                let count = picks.len();
                let sent = Instant::now();
                let outcome = shared
                    .api
                    .buy(shared.raffle, shared.method, &picks, id)
                    .await;
                (sent, outcome, count)
            }
            Picks::Server => {
                // The page shows how many are left; the server draws which.
                let free: usize = map.iter().map(|byte| byte.count_ones() as usize).sum();
                if free == 0 {
                    shared.done.store(true, Ordering::Relaxed);
                    break;
                }
                let count = shared.per_purchase.min(free);
                let sent = Instant::now();
                let outcome = shared
                    .api
                    .buy_random(shared.raffle, shared.method, count, id)
                    .await;
                (sent, outcome, count)
            }
        };
        let latency = micros(sent.elapsed());
        match outcome {
            Ok((StatusCode::CREATED, _)) => {
                let before = shared.sold.fetch_add(count as u64, Ordering::Relaxed);
                let after = before + count as u64;
                let mut tenths = lock(&shared.tenths);
                let tenth = &mut tenths[shared.tenth_of(before)];
                tenth.created += 1;
                tenth.purchase_latencies.push(latency);
                // Every tenth this purchase carried the raffle into starts now.
                let now = Instant::now();
                for tenth in &mut tenths[shared.tenth_of(before) + 1..=shared.tenth_of(after)] {
                    tenth.reached.get_or_insert(now);
                }
            }
            Ok((StatusCode::CONFLICT, _)) => {
                let mut tenths = lock(&shared.tenths);
                let tenth = &mut tenths[shared.tenth_of(shared.sold.load(Ordering::Relaxed))];
                tenth.conflicts += 1;
                tenth.purchase_latencies.push(latency);
            }
            Ok((status, body)) => {
                shared.other.fetch_add(1, Ordering::Relaxed);
                shared.sample(format!(
                    "{status}: {}",
                    String::from_utf8_lossy(&body)
                        .chars()
                        .take(200)
                        .collect::<String>()
                ));
            }
            Err(error) => {
                shared.transport.fetch_add(1, Ordering::Relaxed);
                shared.sample(format!("purchase: {error}"));
            }
        }
    }
}

fn tenth_json(k: usize, tenth: &Tenth, seconds: f64) -> Value {
    let purchase = Latency::of(tenth.purchase_latencies.clone());
    let bitmap = Latency::of(tenth.bitmap_latencies.clone());
    let answered = tenth.created + tenth.conflicts;
    #[allow(clippy::cast_precision_loss)]
    let conflict_share = if answered == 0 {
        0.0
    } else {
        tenth.conflicts as f64 / answered as f64
    };
    json!({
        "from_pct": k * 10,
        "seconds": round2(seconds),
        "purchases": tenth.created,
        "conflicts": tenth.conflicts,
        "purchases_per_s": round2(per_second(tenth.created, Duration::from_secs_f64(seconds))),
        "conflict_share": (conflict_share * 10_000.0).round() / 10_000.0,
        "purchase_p50_ms": round2(purchase.p50_ms),
        "purchase_p99_ms": round2(purchase.p99_ms),
        "bitmap_p50_ms": round2(bitmap.p50_ms),
        "bitmap_p99_ms": round2(bitmap.p99_ms),
    })
}

pub(crate) async fn fill(cli: &Cli, args: &FillArgs) -> anyhow::Result<bool> {
    ensure!(
        args.buyers > 0 && args.per_purchase > 0 && args.tickets > 0,
        "nothing to run"
    );
    let api = Api::connect(cli, args.buyers).await?;
    let method = api.payment_method().await?;
    let raffle = api
        .raffle(
            "Rifa de rifa-bench: de vacía a agotada",
            args.tickets,
            args.per_purchase,
        )
        .await?;
    eprintln!(
        "rifa-bench: {} buyers filling raffle {raffle} of {} numbers, {} per purchase",
        args.buyers, args.tickets, args.per_purchase
    );
    let start = Instant::now();
    let mut tenths: Vec<Tenth> = (0..TENTHS).map(|_| Tenth::default()).collect();
    tenths[0].reached = Some(start);
    let shared = Arc::new(Shared {
        api: api.clone(),
        raffle,
        method,
        tickets: u64::from(args.tickets),
        per_purchase: args.per_purchase as usize,
        picks: args.picks,
        sold: AtomicU64::new(0),
        other: AtomicU64::new(0),
        transport: AtomicU64::new(0),
        samples: Mutex::new(Vec::new()),
        tenths: Mutex::new(tenths),
        done: AtomicBool::new(false),
        deadline: start + Duration::from_secs(args.max_seconds),
    });
    let handles: Vec<_> = (0..args.buyers)
        .map(|i| tokio::spawn(buyer(shared.clone(), i)))
        .collect();
    for handle in handles {
        handle.await.context("a buyer task panicked")?;
    }
    let end = Instant::now();
    let elapsed = end - start;

    let sold = shared.sold.load(Ordering::Relaxed);
    let available = api
        .client
        .get(api.url(&format!("/api/raffles/{raffle}/availability")))
        .send()
        .await?
        .headers()
        .get("x-available-count")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let sold_out = sold == u64::from(args.tickets);
    let integrity = available == Some(u64::from(args.tickets) - sold);
    let other = shared.other.load(Ordering::Relaxed);
    let transport = shared.transport.load(Ordering::Relaxed);
    let tenths = std::mem::take(&mut *lock(&shared.tenths));
    let samples = lock(&shared.samples).clone();

    let mut rows = Vec::new();
    for (k, tenth) in tenths.iter().enumerate() {
        let from = tenth.reached.unwrap_or(end);
        let to = tenths.get(k + 1).and_then(|t| t.reached).unwrap_or(end);
        rows.push(tenth_json(
            k,
            tenth,
            to.saturating_duration_since(from).as_secs_f64(),
        ));
    }
    let created: u64 = tenths.iter().map(|t| t.created).sum();
    let conflicts: u64 = tenths.iter().map(|t| t.conflicts).sum();
    let rate = |k: usize| rows[k]["purchases_per_s"].as_f64().unwrap_or(0.0);
    let ninety_vs_ten = if rate(1) > 0.0 {
        Some(round2(rate(9) / rate(1)))
    } else {
        None
    };
    let all_purchases: Vec<u64> = tenths
        .iter()
        .flat_map(|t| t.purchase_latencies.iter().copied())
        .collect();
    let latency = Latency::of(all_purchases);
    let result = json!({
        "scenario": "fill",
        "raffle": raffle,
        "tickets": args.tickets,
        "buyers": args.buyers,
        "per_purchase": args.per_purchase,
        "picks": match args.picks { Picks::Buyer => "buyer", Picks::Server => "server" },
        "elapsed_s": round2(elapsed.as_secs_f64()),
        "sold": sold,
        "sold_out": sold_out,
        "purchases": created,
        "conflicts": conflicts,
        "other_status": other,
        "transport_errors": transport,
        "purchases_per_s": round2(per_second(created, elapsed)),
        "latency": latency.json(),
        "tenths": rows,
        "rate_90_over_10": ninety_vs_ten,
        "integrity_ok": integrity,
        "error_samples": samples,
    });
    if !cli.json_only {
        println!();
        println!(
            "Fill: raffle of {} numbers, {} buyers, {} per purchase, bitmap reloaded after every answer, numbers picked by the {}",
            args.tickets,
            args.buyers,
            args.per_purchase,
            match args.picks {
                Picks::Buyer => "buyer",
                Picks::Server => "server",
            }
        );
        println!(
            "  {:<9} {:>8} {:>10} {:>12} {:>10} {:>10} {:>9} {:>11} {:>11}",
            "sold",
            "seconds",
            "purchases",
            "purchases/s",
            "p50 ms",
            "p99 ms",
            "409 share",
            "bitmap p50",
            "bitmap p99"
        );
        for row in &rows {
            println!(
                "  {:<9} {:>8.2} {:>10} {:>12.1} {:>10.2} {:>10.2} {:>8.1}% {:>11.2} {:>11.2}",
                format!(
                    "{}–{}%",
                    row["from_pct"],
                    row["from_pct"].as_u64().unwrap_or(0) + 10
                ),
                row["seconds"].as_f64().unwrap_or(0.0),
                row["purchases"],
                row["purchases_per_s"].as_f64().unwrap_or(0.0),
                row["purchase_p50_ms"].as_f64().unwrap_or(0.0),
                row["purchase_p99_ms"].as_f64().unwrap_or(0.0),
                row["conflict_share"].as_f64().unwrap_or(0.0) * 100.0,
                row["bitmap_p50_ms"].as_f64().unwrap_or(0.0),
                row["bitmap_p99_ms"].as_f64().unwrap_or(0.0),
            );
        }
        println!(
            "  whole run: {:.1} purchases/s over {:.1} s ({created} × 201, {conflicts} × 409, {other} other, {transport} transport errors), {}",
            per_second(created, elapsed),
            elapsed.as_secs_f64(),
            if sold_out { "sold out" } else { "NOT sold out" }
        );
        if let Some(ratio) = ninety_vs_ten {
            println!(
                "  rate at 90–100% over rate at 10–20%: {:.0}% (goal: within 20%)",
                ratio * 100.0
            );
        }
        println!(
            "  bitmap matches sales: {}",
            if integrity { "yes" } else { "NO" }
        );
        for sample in &samples {
            println!("  error sample: {sample}");
        }
    }
    println!("{result}");
    Ok(other == 0 && transport == 0 && integrity && sold_out)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::{free_numbers, pick_free};

    #[test]
    fn picks_are_distinct_free_numbers_whether_many_or_few_are_free() {
        let mut rng = StdRng::seed_from_u64(7);
        // 1,000 numbers: only 1–8 and 1,000 free (few: the listing path), then three in four
        // free (many: the trying path).
        let mut few = vec![0_u8; 125];
        few[0] = 0xff;
        few[124] = 0x01;
        let many: Vec<u8> = (0..125)
            .map(|i| [0b1101_1011, 0b0110_1101, 0b1011_0110][i % 3])
            .collect();
        for (bitmap, count) in [(&few, 3), (&many, 3), (&few, 20)] {
            let free = free_numbers(bitmap, 1000);
            for _ in 0..200 {
                let picks = pick_free(bitmap, 1000, count, &mut rng);
                assert_eq!(picks.len(), count.min(free.len()));
                assert!(picks.iter().all(|n| free.contains(n)), "{picks:?}");
                let mut distinct = picks.clone();
                distinct.sort_unstable();
                distinct.dedup();
                assert_eq!(distinct.len(), picks.len());
            }
        }
    }

    #[test]
    fn the_bitmap_reads_most_significant_bit_first() {
        // Numbers 1 and 8 free in the first byte, 9 in the second; 10 and beyond past max.
        assert_eq!(free_numbers(&[0b1000_0001, 0b1100_0000], 9), vec![1, 8, 9]);
        assert!(free_numbers(&[0, 0], 16).is_empty());
    }
}
