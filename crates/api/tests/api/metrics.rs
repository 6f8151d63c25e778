//! `/metrics`: Prometheus's text format, read back with a parser of that format, behind its
//! token, counting what the server did.

use openmetrics_parser::prometheus::parse_prometheus;
use openmetrics_parser::{MetricsExposition, PrometheusType, PrometheusValue};
use reqwest::{Method, StatusCode};
use secrecy::SecretString;

use crate::helpers::TestApp;
use crate::live::authenticate;

const TOKEN: &str = "a-metrics-token-for-the-tests";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_requests_purchases_and_connections_on_sqlite() {
    let mut config = TestApp::sqlite_config();
    config.metrics_token = Some(SecretString::from(TOKEN));
    metrics_count_requests_purchases_and_connections(TestApp::start(config, false).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_requests_purchases_and_connections_on_postgres() {
    let Some(mut config) = TestApp::postgres_config().await else {
        return;
    };
    config.metrics_token = Some(SecretString::from(TOKEN));
    metrics_count_requests_purchases_and_connections(TestApp::start(config, true).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_token_there_are_no_metrics() {
    let app = TestApp::sqlite().await;
    let response = app
        .request(Method::GET, "/metrics")
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

async fn scrape(app: &TestApp, token: Option<&str>) -> reqwest::Response {
    let request = app.request(Method::GET, "/metrics");
    let request = match token {
        Some(token) => request.bearer_auth(token),
        None => request,
    };
    request.send().await.unwrap()
}

type Exposition = MetricsExposition<PrometheusType, PrometheusValue>;

/// The values of `name` whose labels include every one of `labels`.
fn readings<'e>(
    exposition: &'e Exposition,
    name: &str,
    labels: &[(&str, &str)],
) -> Vec<&'e PrometheusValue> {
    let Some(family) = exposition.families.get(name) else {
        return Vec::new();
    };
    family
        .iter_samples()
        .filter(|sample| {
            let set = sample.get_labelset().unwrap();
            labels
                .iter()
                .all(|(k, v)| set.get_label_value(k) == Some(*v))
        })
        .map(|sample| &sample.value)
        .collect()
}

fn number(value: &PrometheusValue) -> f64 {
    match value {
        PrometheusValue::Counter(counter) => counter.value.as_f64(),
        PrometheusValue::Gauge(n) | PrometheusValue::Unknown(n) => n.as_f64(),
        other => panic!("not a number: {other:?}"),
    }
}

/// The sum of `name` over its samples with `labels` (0 when none).
fn total(exposition: &Exposition, name: &str, labels: &[(&str, &str)]) -> f64 {
    readings(exposition, name, labels)
        .into_iter()
        .map(number)
        .sum()
}

async fn read(app: &TestApp) -> Exposition {
    let response = scrape(app, Some(TOKEN)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let kind = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    let body = response.text().await.unwrap();
    parse_prometheus(&body).unwrap_or_else(|e| panic!("{e:?}\n{body}"))
}

async fn metrics_count_requests_purchases_and_connections(app: TestApp) {
    assert_eq!(scrape(&app, None).await.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        scrape(&app, Some("a-wrong-token-of-some-length"))
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
    // Other servers in this process count into the same recorder: compare before and after.
    let before = read(&app).await;
    let purchase_route = [("route", "/api/raffles/{id}/purchase"), ("method", "POST")];

    let raffle = app.raffle("5", 100, (1, 5)).await;
    let method = app.payment_method("Zelle", None).await;
    let bought = app.buy(raffle, method, &[7], 500, "m1@example.com").await;
    assert_eq!(bought.status(), StatusCode::CREATED);
    let taken = app.buy(raffle, method, &[7], 500, "m2@example.com").await;
    assert_eq!(taken.status(), StatusCode::CONFLICT);
    let _listening = authenticate(&app.ws_url(), &app.admin_token).await;

    let after = read(&app).await;
    let grew = |name: &str, labels: &[(&str, &str)]| {
        total(&after, name, labels) - total(&before, name, labels)
    };
    for (status, purchases) in [("201", "created"), ("409", "conflict")] {
        let mut labels = purchase_route.to_vec();
        labels.push(("status", status));
        assert!(grew("rifa_http_requests_total", &labels) >= 1.0, "{status}");
        assert!(
            grew(
                "rifa_purchases_total",
                &[("outcome", purchases), ("kind", "buyer")]
            ) >= 1.0,
            "{purchases}"
        );
    }
    let timed = readings(
        &after,
        "rifa_http_request_duration_seconds",
        &purchase_route,
    );
    let Some(PrometheusValue::Histogram(histogram)) = timed.first() else {
        panic!("the purchase route's latency histogram: {timed:?}");
    };
    assert!(histogram.buckets.iter().any(|b| b.upper_bound <= 0.01));
    assert!(histogram.count.is_some_and(|count| count >= 2));
    assert!(total(&after, "rifa_live_connections", &[]) >= 1.0);
    // A gauge of the process: the last server scraped sets it.
    assert!(total(&after, "rifa_db_pool_max_connections", &[]) >= 1.0);
    for state in ["in_use", "idle"] {
        assert_eq!(
            readings(&after, "rifa_db_pool_connections", &[("state", state)]).len(),
            1,
            "{state}"
        );
    }
    assert_eq!(readings(&after, "rifa_mail_outbox_pending", &[]).len(), 1);
    // The sweeper and the checker report every pass, work or none.
    for name in ["rifa_holds_expired_total", "rifa_proof_checks_total"] {
        assert!(!readings(&after, name, &[]).is_empty(), "{name}");
    }
    // The dashboard and the alerts in infra/ ask only for what the server exports.
    for file in ["alerts.yml", "grafana-dashboard.json"] {
        let path = format!(
            "{}/../../infra/monitoring/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap();
        for name in metric_names(&text) {
            assert!(
                after.families.contains_key(&name),
                "{file} asks for {name}, which /metrics does not export"
            );
        }
    }
}

/// The `rifa_…` metric names a file mentions, without a histogram's series suffix.
fn metric_names(text: &str) -> Vec<String> {
    let mut names: Vec<String> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| word.starts_with("rifa_") && word.len() > "rifa_".len())
        .map(|word| word.strip_suffix("_bucket").unwrap_or(word).to_owned())
        .collect();
    names.sort();
    names.dedup();
    names
}
