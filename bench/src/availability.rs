//! The `availability` scenario: the bitmap of a large, mostly sold raffle.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use rand::seq::SliceRandom;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::cli::{AvailabilityArgs, Cli};
use crate::client::Api;
use crate::lock;
use crate::report::{Latency, micros, per_second, round2, row};

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

pub(crate) async fn availability(cli: &Cli, args: &AvailabilityArgs) -> anyhow::Result<bool> {
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
