//! Latency summaries and the printed table.

use std::time::Duration;

use serde_json::{Value, json};

/// Latencies in microseconds, summarised.
#[derive(Clone, Copy, Default)]
pub(crate) struct Latency {
    pub(crate) count: usize,
    pub(crate) mean_ms: f64,
    pub(crate) p50_ms: f64,
    pub(crate) p90_ms: f64,
    pub(crate) p95_ms: f64,
    pub(crate) p99_ms: f64,
    pub(crate) max_ms: f64,
}

impl Latency {
    pub(crate) fn of(mut samples: Vec<u64>) -> Self {
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
            p95_ms: at(0.95),
            p99_ms: at(0.99),
            max_ms: ms(samples[n - 1]),
        }
    }

    pub(crate) fn json(&self) -> Value {
        json!({
            "count": self.count,
            "mean_ms": round2(self.mean_ms),
            "p50_ms": round2(self.p50_ms),
            "p90_ms": round2(self.p90_ms),
            "p95_ms": round2(self.p95_ms),
            "p99_ms": round2(self.p99_ms),
            "max_ms": round2(self.max_ms),
        })
    }
}

#[allow(clippy::cast_precision_loss)]
pub(crate) fn ms(micros: u64) -> f64 {
    micros as f64 / 1_000.0
}

pub(crate) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

pub(crate) fn micros(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX)
}

#[allow(clippy::cast_precision_loss)]
pub(crate) fn per_second(count: u64, elapsed: Duration) -> f64 {
    count as f64 / elapsed.as_secs_f64().max(f64::EPSILON)
}

pub(crate) fn row(label: &str, value: impl std::fmt::Display) {
    println!("  {label:<34} {value}");
}
