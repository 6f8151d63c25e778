//! The panel's CSV export: one streamed request for every purchase
//! (`GET /api/admin/purchases/export`). How long it takes, how many rows and bytes arrive, and
//! the API's resident memory while it streams (sampled from `/proc`), against issue 20's bar: a
//! million rows in under 30 s with the API's memory growing by less than 50 MB.

use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use serde_json::{Value, json};

use crate::client::Api;
use crate::report::round2;

/// How often the API's memory is read while the file arrives.
const SAMPLE_EVERY: Duration = Duration::from_secs(1);

pub(crate) struct Export {
    pub(crate) rows: u64,
    pub(crate) bytes: u64,
    pub(crate) first_byte_ms: f64,
    pub(crate) total_s: f64,
    /// `(rows received, the API's resident MB)`, from before the request to after it.
    pub(crate) memory: Vec<(u64, f64)>,
}

impl Export {
    pub(crate) fn memory_growth_mb(&self) -> Option<f64> {
        let before = self.memory.first()?.1;
        let peak = self.memory.iter().map(|(_, mb)| *mb).fold(before, f64::max);
        Some(peak - before)
    }

    pub(crate) fn json(&self) -> Value {
        json!({
            "rows": self.rows,
            "bytes": self.bytes,
            "first_byte_ms": round2(self.first_byte_ms),
            "total_s": round2(self.total_s),
            "rows_per_s": round2(self.rows as f64 / self.total_s.max(1e-9)),
            "memory_growth_mb": self.memory_growth_mb().map(round2),
            "memory_mb": self.memory.iter().map(|(rows, mb)| json!([rows, round2(*mb)])).collect::<Vec<_>>(),
        })
    }
}

/// The resident memory of process `pid`, in MB.
fn resident_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1_024.0)
}

pub(crate) async fn export(api: &Api, api_pid: Option<u32>) -> anyhow::Result<Export> {
    let sample = |rows: u64, memory: &mut Vec<(u64, f64)>| {
        if let Some(mb) = api_pid.and_then(resident_mb) {
            memory.push((rows, mb));
        }
    };
    let mut memory = Vec::new();
    sample(0, &mut memory);
    let started = Instant::now();
    let mut response = api
        .client
        .get(api.url("/api/admin/purchases/export"))
        .bearer_auth(&api.token)
        .timeout(Duration::from_secs(3_600))
        .send()
        .await
        .context("the export failed")?;
    ensure!(
        response.status().is_success(),
        "the export answered {}",
        response.status()
    );
    let (mut rows, mut bytes, mut quoted) = (0_u64, 0_u64, false);
    let mut first_byte_ms = None;
    let mut sampled = Instant::now();
    while let Some(chunk) = response.chunk().await.context("the export broke off")? {
        first_byte_ms.get_or_insert_with(|| started.elapsed().as_secs_f64() * 1_000.0);
        bytes += chunk.len() as u64;
        for byte in chunk.iter() {
            match byte {
                b'"' => quoted = !quoted,
                b'\n' if !quoted => rows += 1,
                _ => {}
            }
        }
        if sampled.elapsed() >= SAMPLE_EVERY {
            sample(rows.saturating_sub(1), &mut memory);
            sampled = Instant::now();
        }
    }
    let total_s = started.elapsed().as_secs_f64();
    let rows = rows.saturating_sub(1);
    sample(rows, &mut memory);
    Ok(Export {
        rows,
        bytes,
        first_byte_ms: first_byte_ms.unwrap_or(0.0),
        total_s,
        memory,
    })
}
