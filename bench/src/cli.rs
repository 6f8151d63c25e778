//! The command line: the scenarios and their knobs.

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::seed::Dialect;

#[derive(Parser)]
#[command(
    name = "rifa-bench",
    about = "Load generator for Rifa's purchase and availability calls"
)]
pub(crate) struct Cli {
    /// Base URL of a running API.
    #[arg(
        long,
        env = "RIFA_BENCH_URL",
        default_value = "http://127.0.0.1:8080",
        global = true
    )]
    pub(crate) url: String,
    /// An admin bearer token (or give --username and --password to sign in).
    #[arg(long, env = "RIFA_BENCH_TOKEN", hide_env_values = true, global = true)]
    pub(crate) token: Option<String>,
    #[arg(long, env = "RIFA_BENCH_USERNAME", global = true)]
    pub(crate) username: Option<String>,
    #[arg(
        long,
        env = "RIFA_BENCH_PASSWORD",
        hide_env_values = true,
        global = true
    )]
    pub(crate) password: Option<String>,
    /// Print only the JSON line.
    #[arg(long, global = true)]
    pub(crate) json_only: bool,
    /// Longest a single request may take (a deep page of a year of purchases takes seconds).
    #[arg(long, default_value_t = 60, global = true)]
    pub(crate) timeout_seconds: u64,
    #[command(subcommand)]
    pub(crate) scenario: Scenario,
}

#[derive(Subcommand)]
pub(crate) enum Scenario {
    /// Concurrent buyers on a fresh raffle: purchases/s, latency and conflicts.
    Purchases(PurchasesArgs),
    /// Latency and size of the availability bitmap of a large, mostly sold raffle.
    Availability(AvailabilityArgs),
    /// An unrelated read's latency while PDFs and wrong passwords burst in.
    Stall(StallArgs),
    /// Prints the SQL that fills a migrated database with a year of purchases (creates the
    /// payment methods through the API first).
    Seed(SeedArgs),
    /// Every read of the admin panel and the public site, in sequence: p50 and p95.
    Reads(ReadsArgs),
    /// One large raffle sold from empty to sold out by buyers who pick from the bitmap.
    Fill(FillArgs),
    /// The proof checks' signals and readers on the proof corpus, in process (no API).
    Proofs(ProofsArgs),
    /// Attaching proofs while the API's checker reads those attached before.
    Attach(AttachArgs),
    /// A buyer's proof checked while hostile PDFs (a page metres wide) are queued before it.
    HostileProofs(HostileArgs),
}

#[derive(Args)]
pub(crate) struct HostileArgs {
    /// Hostile PDFs attached before the buyer's receipt.
    #[arg(long, default_value_t = 3)]
    pub(crate) hostile: u32,
    /// Their page's side in points (14,400: 5 m, 40,000 pixels at 200 dpi).
    #[arg(long, default_value_t = 14_400)]
    pub(crate) page_points: u32,
    /// The buyer's receipt.
    #[arg(
        long,
        default_value = "crates/adapters/proofs/tests/corpus/zelle-04-original.png"
    )]
    pub(crate) receipt: String,
    /// How long to wait for the checks.
    #[arg(long, default_value_t = 900)]
    pub(crate) max_seconds: u64,
}

#[derive(Args)]
pub(crate) struct AttachArgs {
    /// Proofs attached first, untimed, for the checker to read meanwhile.
    #[arg(long, default_value_t = 60)]
    pub(crate) backlog: u32,
    /// Proofs attached then, each attach timed.
    #[arg(long, default_value_t = 200)]
    pub(crate) proofs: u32,
    /// Buyers attaching at once.
    #[arg(long, default_value_t = 8)]
    pub(crate) concurrency: usize,
    /// How long to wait for every proof to be checked (0: not at all).
    #[arg(long, default_value_t = 900)]
    pub(crate) max_check_seconds: u64,
    /// The corpus directory (its manifest.json and files).
    #[arg(long, default_value = "crates/adapters/proofs/tests/corpus")]
    pub(crate) corpus: String,
}

#[derive(Args)]
pub(crate) struct ProofsArgs {
    /// The corpus directory (its manifest.json and files).
    #[arg(long, default_value = "crates/adapters/proofs/tests/corpus")]
    pub(crate) corpus: String,
}

#[derive(Args)]
pub(crate) struct FillArgs {
    /// Numbers in the raffle.
    #[arg(long, default_value_t = 99_999)]
    pub(crate) tickets: u32,
    /// Concurrent buyers (each one connection, one request at a time).
    #[arg(long, default_value_t = 64)]
    pub(crate) buyers: usize,
    /// Numbers per purchase (pgbench's shape: 3).
    #[arg(long, default_value_t = 3)]
    pub(crate) per_purchase: u32,
    /// Give up after this many seconds even if numbers are left.
    #[arg(long, default_value_t = 900)]
    pub(crate) max_seconds: u64,
    /// Who picks the numbers: the buyer, among those the bitmap shows free (the picker), or
    /// the server, drawing `randomCount` numbers in the purchase (the site's quick buy).
    #[arg(long, value_enum, default_value_t = Picks::Buyer)]
    pub(crate) picks: Picks,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Picks {
    Buyer,
    Server,
}

#[derive(Args)]
pub(crate) struct ReadsArgs {
    /// Measured requests per read.
    #[arg(long, env = "BENCH_READ_REQUESTS", default_value_t = 10)]
    pub(crate) requests: usize,
    /// Unmeasured requests first, per read.
    #[arg(long, default_value_t = 2)]
    pub(crate) warmup: usize,
    /// Deep pages of the unfiltered search (10 rows per page, the panel's default).
    #[arg(long, value_delimiter = ',', default_value = "5000,50000")]
    pub(crate) deep_pages: Vec<u32>,
    /// Skip the CSV export of every purchase.
    #[arg(long)]
    pub(crate) no_export: bool,
    /// The API's process id, to sample its memory while the export streams.
    #[arg(long)]
    pub(crate) api_pid: Option<u32>,
    /// The name filter.
    #[arg(long, default_value = "mari")]
    pub(crate) name: String,
    /// The ticket filter.
    #[arg(long, default_value = "1234")]
    pub(crate) ticket: String,
    /// The raffle filter (default: the raffle with most numbers sold).
    #[arg(long)]
    pub(crate) raffle: Option<i64>,
    /// The date filter, `YYYY-MM-DD` (default: 30 days ago).
    #[arg(long)]
    pub(crate) date: Option<String>,
    /// The admin's offset from UTC in minutes (Caracas).
    #[arg(long, default_value_t = -240, allow_hyphen_values = true)]
    pub(crate) utc_offset_minutes: i32,
}

#[derive(Args)]
pub(crate) struct SeedArgs {
    /// Which database the SQL is for.
    #[arg(long, value_enum, default_value_t = Dialect::Postgres)]
    pub(crate) dialect: Dialect,
    #[arg(long, env = "BENCH_PURCHASES", default_value_t = 1_000_000)]
    pub(crate) purchases: u64,
    #[arg(long, env = "BENCH_SEED_RAFFLES", default_value_t = 300)]
    pub(crate) raffles: u64,
    /// Raffles on sale at the end of the year (default: a tenth of them).
    #[arg(long)]
    pub(crate) on_sale: Option<u64>,
    /// Numbers in each raffle.
    #[arg(long, default_value_t = 99_999)]
    pub(crate) tickets: u64,
    /// Days the purchases span, ending now.
    #[arg(long, default_value_t = 365)]
    pub(crate) days: u64,
    /// "Now" as a Unix time, to reproduce a seed exactly (default: the clock).
    #[arg(long)]
    pub(crate) now: Option<i64>,
    /// Leave the e-mail outbox empty (by default every purchase's e-mails are there, sent).
    #[arg(long)]
    pub(crate) no_outbox: bool,
    /// Leave the audit trail as the API left it (by default a year of decisions and sign-ins,
    /// chained onto it).
    #[arg(long)]
    pub(crate) no_trail: bool,
}

#[derive(Args)]
pub(crate) struct StallArgs {
    /// Numbers of the purchase whose PDF receipt is asked for.
    #[arg(long, default_value_t = 10_000)]
    pub(crate) numbers: u32,
    /// Concurrent PDF requests of the burst.
    #[arg(long, default_value_t = 40)]
    pub(crate) pdfs: usize,
    /// Distinct purchases the PDF requests are spread over (1: all ask for the same one).
    #[arg(long, default_value_t = 1)]
    pub(crate) purchases: usize,
    /// Concurrent sign-ins with a wrong password in the burst.
    #[arg(long, default_value_t = 40)]
    pub(crate) logins: usize,
    /// Seconds the unrelated read is measured alone, before the burst.
    #[arg(long, default_value_t = 5)]
    pub(crate) quiet_seconds: u64,
    /// Pause between two of its reads, in milliseconds.
    #[arg(long, default_value_t = 10)]
    pub(crate) probe_interval_ms: u64,
}

#[derive(Args)]
pub(crate) struct PurchasesArgs {
    /// Concurrent buyers (each one HTTP connection, one request at a time).
    #[arg(long, default_value_t = 64)]
    pub(crate) buyers: usize,
    /// Seconds of measurement (the run also ends when the last raffle is sold out).
    #[arg(long, default_value_t = 20)]
    pub(crate) duration: u64,
    /// Raffles sold in turn: the buyers move to the next one when one sells out, so the
    /// measurement window is long enough to be stable (a 9,999-number raffle sells out in
    /// about two seconds).
    #[arg(long, default_value_t = 8)]
    pub(crate) raffles: u32,
    /// Seconds of purchases on a separate throwaway raffle first (opens connections).
    #[arg(long, default_value_t = 2)]
    pub(crate) warmup: u64,
    /// Numbers in the raffle.
    #[arg(long, default_value_t = 9_999)]
    pub(crate) tickets: u32,
    /// Numbers per purchase (the raffle's maximum per purchase).
    #[arg(long, default_value_t = 3)]
    pub(crate) per_purchase: u32,
    /// How buyers choose their numbers.
    #[arg(long, value_enum, default_value_t = Pick::Informed)]
    pub(crate) pick: Pick,
    /// Wait after creating the raffles and before the availability checks, in milliseconds:
    /// behind a load balancer the other instances hold copies (of the payment methods, of a
    /// raffle's availability) up to a second old, their caches' TTL.
    #[arg(long, default_value_t = 0)]
    pub(crate) settle_ms: u64,
    /// Pay with this existing payment method instead of creating one. Behind a load
    /// balancer, a method created a moment ago is unknown to the instances whose cached copy
    /// of the methods predates it (they serve that copy while one request refreshes it).
    #[arg(long)]
    pub(crate) method_id: Option<i64>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Pick {
    /// At random among the numbers not yet known to be sold (what the picker shows a buyer
    /// who loaded the availability a moment ago): conflicts come from buyers racing for the
    /// same free numbers, and grow as the raffle fills.
    Informed,
    /// At random among all numbers: conflicts approach 100% as the raffle fills, and it never
    /// sells out within the duration.
    Blind,
}

#[derive(Args)]
pub(crate) struct AvailabilityArgs {
    /// Numbers in the raffle.
    #[arg(long, default_value_t = 99_999)]
    pub(crate) tickets: u32,
    /// Share of the numbers sold before measuring.
    #[arg(long, default_value_t = 0.9)]
    pub(crate) fill: f64,
    /// Numbers per filling purchase (the raffle's maximum per purchase).
    #[arg(long, default_value_t = 1_000)]
    pub(crate) batch: u32,
    /// Concurrent filling purchases.
    #[arg(long, default_value_t = 8)]
    pub(crate) fill_concurrency: usize,
    /// Requests of the sequential phase.
    #[arg(long, default_value_t = 2_000)]
    pub(crate) requests: usize,
    /// Clients of the concurrent phase.
    #[arg(long, default_value_t = 16)]
    pub(crate) concurrency: usize,
    /// Requests of the concurrent phase (all clients together).
    #[arg(long, default_value_t = 4_000)]
    pub(crate) concurrent_requests: usize,
    /// Sequential requests sent with `Accept-Encoding: gzip` (as browsers do).
    #[arg(long, default_value_t = 500)]
    pub(crate) gzip_requests: usize,
    /// A phase stops early after this many seconds (a slow API would otherwise take long).
    #[arg(long, default_value_t = 60)]
    pub(crate) phase_seconds: u64,
}
