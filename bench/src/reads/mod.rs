//! The `reads` scenario (issue 20): every read of the admin panel and of the public site,
//! one client asking in sequence, on whatever data the API holds (`rifa-bench seed` makes a
//! year of it). Each read: a warm-up, then `--requests` requests; p50 and p95.

mod days;
mod export;
mod measure;
mod targets;

use serde_json::json;

use crate::cli::{Cli, ReadsArgs};
use crate::client::Api;
use measure::{Measured, Read, measure};
use targets::{Targets, discover};

/// A query-string value: letters and digits as they are, every other byte escaped.
fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Every read of issue 20's table, in its order.
fn catalogue(t: &Targets, args: &ReadsArgs) -> Vec<Read> {
    let search = "/api/admin/purchases/search";
    let offset = args.utc_offset_minutes;
    let name = encode(&args.name);
    let ticket = encode(&args.ticket);
    let mut reads = vec![Read::admin(
        "search page 1, no filter",
        format!("{search}?page=1&pageSize=10"),
    )];
    for page in &args.deep_pages {
        reads.push(Read::admin(
            format!("search page {page}, asked by number"),
            format!("{search}?page={page}&pageSize=10"),
        ));
    }
    // What the panel's buttons ask: the next page from the one shown, and the last page.
    for (page, anchor) in &t.deep_anchors {
        reads.push(Read::admin(
            format!("search page {page}, next from page {}", page - 1),
            format!(
                "{search}?page={page}&pageSize=10&anchorId={anchor}&anchorPage={}",
                page - 1
            ),
        ));
    }
    reads.push(Read::admin(
        format!("search last page ({})", t.last_page),
        format!("{search}?page={}&pageSize=10", t.last_page),
    ));
    reads.extend([
        Read::admin(
            format!("search raffle {}", t.busiest_raffle),
            format!("{search}?raffleId={}&page=1&pageSize=10", t.busiest_raffle),
        ),
        Read::admin(
            format!("search name contains {:?}", args.name),
            format!("{search}?name={name}&page=1&pageSize=10"),
        ),
        Read::admin(
            "search status pending",
            format!("{search}?status=pending&page=1&pageSize=10"),
        ),
        Read::admin(
            format!("search ticket {}", args.ticket),
            format!("{search}?tickets={ticket}&page=1&pageSize=10"),
        ),
        Read::admin(
            format!("search date {}", t.date),
            format!(
                "{search}?date={}&utcOffsetMinutes={offset}&page=1&pageSize=10",
                t.date
            ),
        ),
        Read::admin(
            format!("search raffle+pending+{:?}", args.name),
            format!(
                "{search}?raffleId={}&status=pending&name={name}&page=1&pageSize=10",
                t.busiest_raffle
            ),
        ),
        Read::admin("list (newest 1,000)", "/api/admin/purchases"),
        Read::admin("stats (the four cards)", "/api/admin/stats"),
        Read::admin(
            "stats daily over a year",
            format!(
                "/api/admin/stats/daily?from={}&to={}&utcOffsetMinutes={offset}",
                t.year_from, t.today
            ),
        ),
        // An offset between whole hours: days summed from the purchases, not the hours.
        Read::admin(
            "stats daily over a year at UTC+5:30",
            format!(
                "/api/admin/stats/daily?from={}&to={}&utcOffsetMinutes=330",
                t.year_from, t.today
            ),
        ),
        Read::admin(
            format!("admin raffles ({})", t.raffles),
            "/api/admin/raffles",
        ),
        Read::public(
            format!("public raffles ({} on sale)", t.raffles_on_sale),
            "/api/raffles",
        ),
        Read::public(
            format!("raffle {} ({} sold)", t.public_raffle, t.public_raffle_sold),
            format!("/api/raffles/{}", t.public_raffle),
        ),
        Read::public(
            format!("raffle {} availability", t.public_raffle),
            format!("/api/raffles/{}/availability", t.public_raffle),
        ),
    ]);
    reads.extend(trail(t, args));
    reads.extend([
        Read::post(
            "verify tickets by e-mail",
            "/api/verify-tickets",
            json!({"email": t.buyer_email}),
        ),
        Read::post(
            "verify tickets by phone",
            "/api/verify-tickets",
            json!({"phone": t.buyer_phone}),
        ),
    ]);
    reads
}

/// The audit trail's reads: its pages and filters, each person's figures and the check of the
/// whole chain (a year of decisions is most of a million entries).
fn trail(t: &Targets, args: &ReadsArgs) -> Vec<Read> {
    let trail = "/api/admin/audit";
    let offset = args.utc_offset_minutes;
    let today = days::today(offset);
    let (day, next_day) = (days::format(today - 30), days::format(today - 29));
    vec![
        Read::admin("trail page 1", format!("{trail}?limit=50")),
        Read::admin(
            "trail page in the middle",
            format!("{trail}?limit=50&before={}", t.trail_head / 2),
        ),
        Read::admin(
            "trail actor",
            format!("{trail}?limit=50&actor=maria.soporte"),
        ),
        Read::admin(
            "trail action sign-in",
            format!("{trail}?limit=50&action=auth.sign_in"),
        ),
        Read::admin(
            format!("trail target {}", t.trail_target),
            format!("{trail}?limit=50&target={}", encode(&t.trail_target)),
        ),
        Read::admin(
            format!("trail day {day}"),
            format!("{trail}?limit=50&from={day}T00:00:00Z&until={next_day}T00:00:00Z"),
        ),
        Read::admin(
            "trail figures over 30 days",
            format!(
                "{trail}/figures?from={}&to={}&utcOffsetMinutes={offset}",
                days::format(today - 29),
                t.today
            ),
        ),
        Read::admin(
            "trail figures over a year",
            format!(
                "{trail}/figures?from={}&to={}&utcOffsetMinutes={offset}",
                t.year_from, t.today
            ),
        ),
        Read::admin(
            format!("trail verification ({} entries)", t.trail_head),
            format!("{trail}/verification"),
        ),
    ]
}

fn print_row(m: &Measured) {
    let matched = m.matched.map(|n| format!("{n}")).unwrap_or_default();
    let failed = if m.failures > 0 {
        format!(
            "  {} FAILED: {}",
            m.failures,
            m.failure_sample.as_deref().unwrap_or("")
        )
    } else {
        String::new()
    };
    println!(
        "  {:<40} {:>10.2} {:>10.2} {:>10.2} {:>9} {:>9}{failed}",
        m.label, m.latency.p50_ms, m.latency.p95_ms, m.latency.max_ms, m.bytes, matched
    );
}

pub(crate) async fn reads(cli: &Cli, args: &ReadsArgs) -> anyhow::Result<bool> {
    let api = Api::connect(cli, 1).await?;
    let targets = discover(&api, args).await?;
    let mut measured = Vec::new();
    for read in catalogue(&targets, args) {
        eprintln!("rifa-bench: {}", read.label);
        measured.push(measure(&api, &read, args.warmup, args.requests).await);
    }
    let export = if args.no_export {
        None
    } else {
        eprintln!("rifa-bench: the CSV export of every purchase");
        Some(export::export(&api, args.api_pid).await?)
    };
    let ok = measured.iter().all(|m| m.failures == 0);
    if !cli.json_only {
        println!();
        println!(
            "Reads: one client in sequence, {} warm-up + {} requests each",
            args.warmup, args.requests
        );
        println!(
            "  {:<40} {:>10} {:>10} {:>10} {:>9} {:>9}",
            "read", "p50 ms", "p95 ms", "max ms", "bytes", "matched"
        );
        measured.iter().for_each(print_row);
        if let Some(export) = &export {
            println!(
                "CSV export, one streamed request: {} rows, {:.1} MB in {:.1} s (first byte {:.0} ms); the API's memory grew {}",
                export.rows,
                export.bytes as f64 / 1_048_576.0,
                export.total_s,
                export.first_byte_ms,
                export
                    .memory_growth_mb()
                    .map_or_else(|| "(not sampled)".to_owned(), |mb| format!("{mb:.1} MB")),
            );
        }
    }
    let result = json!({
        "scenario": "reads",
        "warmup": args.warmup,
        "requests": args.requests,
        "targets": targets.json(),
        "reads": measured.iter().map(Measured::json).collect::<Vec<_>>(),
        "export": export.as_ref().map(export::Export::json),
    });
    println!("{result}");
    Ok(ok)
}
