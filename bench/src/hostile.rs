//! `hostile-proofs`: what hostile proofs queued before it cost a buyer's proof (issue 31).
//! `--hostile` PDFs of a few hundred bytes, each a page `--page-points` a side (at 200 dpi,
//! 40,000 pixels for 14,400 points), are attached first; then one receipt of the proof corpus.
//! Reported: the time from the receipt's attach to its check being done, and where each
//! hostile proof's check stood then and at the end (`bench/hostile-proofs.sh` runs it and
//! samples the readers' memory meanwhile).

use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use lopdf::{Document, Object, dictionary};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::attach::upload_and_attach;
use crate::cli::{Cli, HostileArgs};
use crate::client::Api;
use crate::report::{round2, row};
use crate::setup::Receipt;

/// A one-page PDF whose page is `width`×`height` points and shows nothing.
fn oversized_pdf(width: u32, height: u32) -> anyhow::Result<Vec<u8>> {
    let mut document = Document::with_version("1.4");
    let pages = document.new_object_id();
    let page = document.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages,
        "MediaBox" => vec![0.into(), 0.into(), width.into(), height.into()],
    });
    document.objects.insert(
        pages,
        Object::Dictionary(
            dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 },
        ),
    );
    let catalog = document.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages });
    document.trailer.set("Root", catalog);
    let mut bytes = Vec::new();
    document.save_to(&mut bytes)?;
    Ok(bytes)
}

async fn check_of(api: &Api, purchase: i64) -> anyhow::Result<Value> {
    Ok(api
        .client
        .get(api.url(&format!("/api/admin/purchases/{purchase}/proof-check")))
        .bearer_auth(&api.token)
        .send()
        .await?
        .json()
        .await?)
}

/// `status`, and the light and the first signal's kind once done.
fn outcome(check: &Value) -> String {
    match check["status"].as_str() {
        Some("done") => format!(
            "done {} {}",
            check["light"].as_str().unwrap_or("?"),
            check["signals"][0]["kind"].as_str().unwrap_or("")
        ),
        Some("failed") => format!("failed: {}", check["reason"].as_str().unwrap_or("")),
        other => other.unwrap_or("?").to_owned(),
    }
}

pub(crate) async fn hostile(cli: &Cli, args: &HostileArgs) -> anyhow::Result<bool> {
    let receipt = std::fs::read(&args.receipt)
        .with_context(|| format!("cannot read the receipt {}", args.receipt))?;
    let api = Api::connect(cli, 4).await?;
    let method = api.payment_method().await?;
    let raffle = api
        .raffle("Rifa de rifa-bench hostile-proofs", args.hostile + 1, 1)
        .await?;
    let mut purchases = Vec::new();
    for number in 1..=args.hostile + 1 {
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
    let Some((honest, hostile)) = purchases.split_last() else {
        anyhow::bail!("no purchases");
    };
    let mut pdf_bytes = 0;
    for (n, purchase) in (0..).zip(hostile) {
        // Each a page a point taller, so no two are the same file (that would be red at once).
        let pdf = oversized_pdf(args.page_points, args.page_points + n)?;
        pdf_bytes = pdf.len();
        upload_and_attach(&api, purchase, "pago.pdf", &pdf).await?;
    }
    let started = Instant::now();
    upload_and_attach(&api, honest, "pago.png", &receipt).await?;

    let deadline = started + Duration::from_secs(args.max_seconds);
    let mut honest_check = check_of(&api, honest.id).await?;
    while honest_check["status"] == "pending" && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
        honest_check = check_of(&api, honest.id).await?;
    }
    let honest_s = started.elapsed().as_secs_f64();
    let mut when_honest_done = Vec::new();
    for purchase in hostile {
        when_honest_done.push(outcome(&check_of(&api, purchase.id).await?));
    }
    // The hostile ones' own end, for the record (an old checker retries them for minutes).
    let mut at_end = Vec::new();
    for purchase in hostile {
        let mut check = check_of(&api, purchase.id).await?;
        while check["status"] == "pending" && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(500)).await;
            check = check_of(&api, purchase.id).await?;
        }
        at_end.push(outcome(&check));
    }
    let honest_done = honest_check["status"] == "done";
    let result = json!({
        "scenario": "hostile-proofs",
        "hostile": args.hostile,
        "page_points": args.page_points,
        "pdf_bytes": pdf_bytes,
        "honest_checked": honest_done,
        "honest_check_s": round2(honest_s),
        "hostile_when_honest_checked": when_honest_done,
        "hostile_at_end": at_end,
        "ended_after_s": round2(started.elapsed().as_secs_f64()),
    });
    if !cli.json_only {
        row("hostile PDFs", args.hostile);
        row("PDF bytes", pdf_bytes);
        row("receipt checked in s", round2(honest_s));
        row("hostile then", when_honest_done.join(", "));
        row("hostile at end", at_end.join(", "));
    }
    println!("{result}");
    Ok(honest_done)
}
