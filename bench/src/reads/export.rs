//! The panel's CSV export as it works today (frontend/src/lib/admin/export.ts): the search
//! read 100 rows at a time, every page after the first pinned to the first page's highest id
//! (`maxId`). What a page costs at the start, the middle and the end of a year of purchases,
//! and what that makes the whole export cost.

use anyhow::Context;
use serde_json::{Value, json};

use super::measure::{Measured, Read, measure};
use crate::client::Api;
use crate::report::round2;

/// The site's `EXPORT_PAGE`.
const PAGE_SIZE: u64 = 100;

pub(crate) struct Export {
    pub(crate) rows: u64,
    pub(crate) pages: Vec<(u64, Measured)>,
    /// The whole export's time, if each page costs what a line through the first and the last
    /// measured page's medians says (OFFSET grows linearly with the page).
    pub(crate) estimated_total_s: Option<f64>,
}

impl Export {
    pub(crate) fn json(&self) -> Value {
        json!({
            "page_size": PAGE_SIZE,
            "rows": self.rows,
            "pages": self.pages.iter().map(|(page, m)| {
                let mut value = m.json();
                value["page"] = json!(page);
                value
            }).collect::<Vec<_>>(),
            "estimated_total_s": self.estimated_total_s.map(round2),
        })
    }
}

pub(crate) async fn export(
    api: &Api,
    pages: &[u64],
    warmup: usize,
    requests: usize,
) -> anyhow::Result<Export> {
    let first = api
        .client
        .get(api.url(&format!(
            "/api/admin/purchases/search?page=1&pageSize={PAGE_SIZE}"
        )))
        .bearer_auth(&api.token)
        .send()
        .await
        .context("the export's first page failed")?
        .json::<Value>()
        .await
        .context("the export's first page is not JSON")?;
    let rows = first["total"].as_u64().unwrap_or(0);
    let max_id = first["items"]
        .as_array()
        .and_then(|items| items.iter().filter_map(|p| p["id"].as_i64()).max())
        .context("no purchase to export")?;
    let mut measured = Vec::new();
    for &page in pages {
        let read = Read::admin(
            format!("export page {page} ({PAGE_SIZE} rows)"),
            format!("/api/admin/purchases/search?maxId={max_id}&page={page}&pageSize={PAGE_SIZE}"),
        );
        eprintln!("rifa-bench: {}", read.label);
        measured.push((page, measure(api, &read, warmup, requests).await));
    }
    let total_pages = rows.div_ceil(PAGE_SIZE);
    let estimated_total_s = match (measured.first(), measured.last()) {
        (Some((p1, first)), Some((p2, last))) if p2 > p1 && total_pages > 0 => {
            #[allow(clippy::cast_precision_loss)]
            let (x1, x2, n) = (*p1 as f64, *p2 as f64, total_pages as f64);
            let slope = (last.latency.p50_ms - first.latency.p50_ms) / (x2 - x1);
            let intercept = first.latency.p50_ms - slope * x1;
            // The sum of intercept + slope * p over p = 1..n.
            Some((intercept * n + slope * n * (n + 1.0) / 2.0) / 1_000.0)
        }
        _ => None,
    };
    Ok(Export {
        rows,
        pages: measured,
        estimated_total_s,
    })
}
