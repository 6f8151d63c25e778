//! The `stall` scenario: CPU-heavy bursts against a client reading the catalogue.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use reqwest::{Client, StatusCode};
use serde_json::{Value, json};

use crate::cli::{Cli, StallArgs};
use crate::client::Api;
use crate::report::{Latency, micros, ms, round2, row};
use crate::setup::whole_raffle_purchase;

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

pub(crate) async fn stall(cli: &Cli, args: &StallArgs) -> anyhow::Result<bool> {
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
    let prober = api.with_client(
        Client::builder()
            .timeout(Duration::from_secs(60))
            .tcp_nodelay(true)
            .build()?,
    );
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
