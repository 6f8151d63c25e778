//! Timing one read: a warm-up, then requests one after another, each answer checked.

use std::time::Instant;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::client::Api;
use crate::report::{Latency, micros, round2};

/// One read as the panel or the site makes it.
pub(crate) struct Read {
    pub(crate) label: String,
    pub(crate) path: String,
    /// A JSON body makes it a POST.
    pub(crate) body: Option<Value>,
    /// Sent with the admin's token.
    pub(crate) admin: bool,
}

impl Read {
    pub(crate) fn admin(label: impl Into<String>, path: impl Into<String>) -> Self {
        Self {
            label: label.into(),
            path: path.into(),
            body: None,
            admin: true,
        }
    }

    pub(crate) fn public(label: impl Into<String>, path: impl Into<String>) -> Self {
        Self {
            admin: false,
            ..Self::admin(label, path)
        }
    }

    pub(crate) fn post(label: impl Into<String>, path: impl Into<String>, body: Value) -> Self {
        Self {
            body: Some(body),
            ..Self::public(label, path)
        }
    }
}

pub(crate) struct Measured {
    pub(crate) label: String,
    pub(crate) path: String,
    pub(crate) latency: Latency,
    pub(crate) bytes: usize,
    /// The `total` of a search answer, or the `X-Total-Count` of the list.
    pub(crate) matched: Option<u64>,
    pub(crate) failures: usize,
    pub(crate) failure_sample: Option<String>,
}

impl Measured {
    pub(crate) fn json(&self) -> Value {
        json!({
            "label": self.label,
            "path": self.path,
            "count": self.latency.count,
            "p50_ms": round2(self.latency.p50_ms),
            "p95_ms": round2(self.latency.p95_ms),
            "max_ms": round2(self.latency.max_ms),
            "mean_ms": round2(self.latency.mean_ms),
            "bytes": self.bytes,
            "matched": self.matched,
            "failures": self.failures,
            "failure_sample": self.failure_sample,
        })
    }
}

struct Answer {
    latency: u64,
    status: StatusCode,
    bytes: usize,
    matched: Option<u64>,
    body: Vec<u8>,
}

async fn send(api: &Api, read: &Read) -> reqwest::Result<Answer> {
    let url = api.url(&read.path);
    let mut request = match &read.body {
        Some(body) => api.client.post(url).json(body),
        None => api.client.get(url),
    };
    if read.admin {
        request = request.bearer_auth(&api.token);
    }
    let sent = Instant::now();
    let response = request.send().await?;
    let status = response.status();
    let header_total = response
        .headers()
        .get("x-total-count")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok());
    let body = response.bytes().await?;
    let latency = micros(sent.elapsed());
    let matched = header_total.or_else(|| {
        serde_json::from_slice::<Value>(&body)
            .ok()
            .and_then(|v| v.get("total").and_then(Value::as_u64))
    });
    Ok(Answer {
        latency,
        status,
        bytes: body.len(),
        matched,
        body: body.to_vec(),
    })
}

/// `warmup` requests unmeasured, then `requests` measured; anything but 200 is a failure.
pub(crate) async fn measure(api: &Api, read: &Read, warmup: usize, requests: usize) -> Measured {
    let mut latencies = Vec::with_capacity(requests);
    let (mut bytes, mut matched, mut failures, mut failure_sample) = (0, None, 0, None);
    for i in 0..warmup + requests {
        match send(api, read).await {
            Ok(answer) if answer.status == StatusCode::OK => {
                if i >= warmup {
                    latencies.push(answer.latency);
                }
                bytes = answer.bytes;
                matched = answer.matched;
            }
            Ok(answer) => {
                failures += 1;
                failure_sample.get_or_insert_with(|| {
                    format!(
                        "{}: {}",
                        answer.status,
                        String::from_utf8_lossy(&answer.body)
                            .chars()
                            .take(200)
                            .collect::<String>()
                    )
                });
            }
            Err(error) => {
                failures += 1;
                failure_sample.get_or_insert_with(|| format!("transport: {error}"));
            }
        }
    }
    Measured {
        label: read.label.clone(),
        path: read.path.clone(),
        latency: Latency::of(latencies),
        bytes,
        matched,
        failures,
        failure_sample,
    }
}
