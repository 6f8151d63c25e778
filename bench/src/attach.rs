//! `attach`: what a buyer waits for when attaching a proof (issue 16), while the API's proof
//! checker reads the proofs attached before. `--proofs` purchases are made first; then
//! `--concurrency` buyers each upload a receipt of the proof corpus and attach it: `--backlog`
//! of them first, untimed, so the checker is busy reading, then `--proofs` more, of which only
//! the attach call (`PUT /api/purchases/{id}/payment-proof`: read back, judged, decoded, stored,
//! its check queued) is timed. Afterwards the bench waits until every proof is checked and
//! reports how long the checker took. Run it against an API whose checker reads (the default)
//! and one whose checker waits (`RIFA_PROOF_CHECK_SECONDS` long): `bench/attach.sh` does both.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::sync::Mutex;

use crate::cli::{AttachArgs, Cli};
use crate::client::Api;
use crate::report::{Latency, micros, per_second, round2, row};
use crate::setup::Receipt;

/// The corpus's pictures, cycled through by the buyers.
fn receipts(corpus: &str) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let dir = PathBuf::from(corpus);
    let manifest: Value = serde_json::from_slice(
        &std::fs::read(dir.join("manifest.json")).context("the corpus has no manifest.json")?,
    )?;
    manifest["proofs"]
        .as_array()
        .context("manifest.json lists no proofs")?
        .iter()
        .filter_map(|p| p["file"].as_str())
        .map(|file| Ok((file.to_owned(), std::fs::read(dir.join(file))?)))
        .collect()
}

fn mime_of(file: &str) -> &'static str {
    match file.rsplit('.').next() {
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("webp") => "image/webp",
        _ => "application/pdf",
    }
}

/// Uploads `bytes` for `purchase` and attaches it; the attach call's duration.
pub(crate) async fn upload_and_attach(
    api: &Api,
    purchase: &Receipt,
    file: &str,
    bytes: &[u8],
) -> anyhow::Result<Duration> {
    let grant: Value = api
        .client
        .post(api.url("/api/objects/upload"))
        .json(
            &json!({"filename": file, "contentType": mime_of(file), "size": bytes.len(),
                      "purchaseId": purchase.id, "purchaseToken": purchase.token}),
        )
        .send()
        .await?
        .json()
        .await?;
    let url = grant["uploadURL"].as_str().context("no upload URL")?;
    let url = if url.starts_with('/') {
        api.url(url)
    } else {
        url.to_owned()
    };
    let mut put = api.client.put(url).body(bytes.to_vec());
    if let Some(headers) = grant["uploadHeaders"].as_object() {
        for (name, value) in headers {
            put = put.header(name, value.as_str().unwrap_or_default());
        }
    }
    let status = put.send().await?.status();
    ensure!(status.is_success(), "upload answered {status}");
    let started = Instant::now();
    let response = api
        .client
        .put(api.url(&format!("/api/purchases/{}/payment-proof", purchase.id)))
        .json(&json!({"purchaseToken": purchase.token}))
        .send()
        .await?;
    let elapsed = started.elapsed();
    let status = response.status();
    ensure!(status == StatusCode::OK, "attach answered {status}");
    Ok(elapsed)
}

/// Attaches the proofs of `which` purchases with `concurrency` buyers; the attach calls'
/// durations and the failures.
async fn attach_all(
    api: &Api,
    files: &[(String, Vec<u8>)],
    purchases: &Arc<Vec<Receipt>>,
    which: std::ops::Range<usize>,
    concurrency: usize,
) -> anyhow::Result<(Vec<u64>, u64)> {
    let queue = Arc::new(Mutex::new(which.collect::<Vec<_>>()));
    let samples = Arc::new(Mutex::new(Vec::new()));
    let failures = Arc::new(Mutex::new(0_u64));
    let mut workers = Vec::new();
    for _ in 0..concurrency {
        let (queue, samples, failures, api, files, purchases) = (
            Arc::clone(&queue),
            Arc::clone(&samples),
            Arc::clone(&failures),
            api.clone(),
            files.to_vec(),
            Arc::clone(purchases),
        );
        workers.push(tokio::spawn(async move {
            loop {
                let Some(n) = queue.lock().await.pop() else {
                    return;
                };
                let (file, bytes) = &files[n % files.len()];
                match upload_and_attach(&api, &purchases[n], file, bytes).await {
                    Ok(elapsed) => samples.lock().await.push(micros(elapsed)),
                    Err(error) => {
                        eprintln!("attach failed: {error:#}");
                        *failures.lock().await += 1;
                    }
                }
            }
        }));
    }
    for worker in workers {
        worker.await?;
    }
    let samples = samples.lock().await.clone();
    let failed = *failures.lock().await;
    Ok((samples, failed))
}

pub(crate) async fn attach(cli: &Cli, args: &AttachArgs) -> anyhow::Result<bool> {
    let files = receipts(&args.corpus)?;
    ensure!(!files.is_empty(), "the corpus is empty");
    let api = Api::connect(cli, args.concurrency + 2).await?;
    let method = api.payment_method().await?;
    let total = args.backlog + args.proofs;
    let raffle = api.raffle("Rifa de rifa-bench attach", total, 1).await?;
    let mut purchases = Vec::new();
    for number in 1..=total {
        let (status, body) = api.buy(raffle, method, &[number], 0).await?;
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        ensure!(
            status == StatusCode::CREATED,
            "purchase answered {status}: {body}"
        );
        purchases.push(Receipt {
            id: body["purchase"]["id"].as_i64().context("no id")?,
            token: body["purchaseToken"]
                .as_str()
                .context("no token")?
                .to_owned(),
        });
    }
    if !cli.json_only {
        eprintln!("{} purchases made; attaching their proofs", purchases.len());
    }

    let purchases = Arc::new(purchases);
    // The backlog first, untimed: the checker is reading it while the timed buyers attach.
    let backlog = (args.backlog as usize).min(purchases.len());
    attach_all(&api, &files, &purchases, 0..backlog, args.concurrency).await?;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let started = Instant::now();
    let (samples, failed) = attach_all(
        &api,
        &files,
        &purchases,
        backlog..purchases.len(),
        args.concurrency,
    )
    .await?;
    let attached_in = started.elapsed();

    // Until every proof is checked (or the wait runs out).
    let deadline = Instant::now() + Duration::from_secs(args.max_check_seconds);
    let mut left: Vec<i64> = purchases.iter().map(|p| p.id).collect();
    while !left.is_empty() && Instant::now() < deadline {
        let mut still = Vec::new();
        for id in left {
            let check: Value = api
                .client
                .get(api.url(&format!("/api/admin/purchases/{id}/proof-check")))
                .bearer_auth(&api.token)
                .send()
                .await?
                .json()
                .await?;
            if check["status"] == "pending" {
                still.push(id);
            }
        }
        left = still;
        if !left.is_empty() {
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }
    let checked_in = started.elapsed();
    let checked = purchases.len() - left.len();

    let latency = Latency::of(samples);
    let result = json!({
        "scenario": "attach",
        "proofs": purchases.len() - backlog,
        "backlog": backlog,
        "concurrency": args.concurrency,
        "attach": latency.json(),
        "attach_failures": failed,
        "attached_in_s": round2(attached_in.as_secs_f64()),
        "checked": checked,
        "all_checked_in_s": round2(checked_in.as_secs_f64()),
        "checks_per_minute": round2(per_second(checked as u64, checked_in) * 60.0),
    });
    if !cli.json_only {
        row("attach p50 ms", latency.p50_ms);
        row("attach p95 ms", latency.p95_ms);
        row("checked", format!("{checked}/{}", purchases.len()));
        row("all checked in s", round2(checked_in.as_secs_f64()));
    }
    println!("{result}");
    Ok(failed == 0)
}
