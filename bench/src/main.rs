//! `rifa-bench`: a load generator for Rifa's two hot calls, run against a live API.
//!
//! * `purchases`: 9,999-number raffles (price 1, 1 to 3 numbers per purchase) sold in turn
//!   (`--raffles`) to `--buyers` concurrent buyers, each looping: pick 3 random numbers, post
//!   the purchase form, read the answer. 201 and 409 (`tickets_taken`) are both completed
//!   requests; anything else is counted as an error (and must stay at 0). Stops after
//!   `--duration` seconds or when the last raffle is sold out, whichever comes first.
//! * `availability`: a 99,999-number raffle, 90% sold quickly by large purchases, then the
//!   latency and size of `GET /api/raffles/{id}/availability`, sequentially and concurrently.
//!
//! * `stall`: a burst of CPU-heavy requests (PDF receipts of a 10,000-number purchase and wrong
//!   admin passwords) while one client keeps reading `GET /api/raffles`: the read's latency
//!   during the burst against its latency alone, and how the burst was answered.
//!
//! * `attach`: the attach call's latency while the API's checker reads the proofs attached
//!   before, and how long the checker takes to read them all.
//! * `proofs`: the proof checks' signals and readers on the proof corpus, in process: fields
//!   read, pairs taken for the same picture or a reuse (precision, recall), time per stage.
//!
//! Results are printed as a table, then as one JSON line (the last line of stdout) for scripts.
//! Progress goes to stderr. The exit status is 1 when any request failed unexpectedly.

mod attach;
mod availability;
mod cli;
mod client;
mod fill;
mod hostile;
mod proofs;
mod purchases;
mod reads;
mod report;
mod seed;
mod setup;
mod stall;

use std::sync::{Mutex, PoisonError};

use clap::Parser;

use availability::availability;
use cli::{Cli, Scenario};
use purchases::purchases;
use stall::stall;

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let ok = match &cli.scenario {
        Scenario::Purchases(args) => purchases(&cli, args).await?,
        Scenario::Availability(args) => availability(&cli, args).await?,
        Scenario::Stall(args) => stall(&cli, args).await?,
        Scenario::Seed(args) => seed::seed(&cli, args).await?,
        Scenario::Reads(args) => reads::reads(&cli, args).await?,
        Scenario::Fill(args) => fill::fill(&cli, args).await?,
        Scenario::Proofs(args) => proofs::proofs(&cli, args).await?,
        Scenario::Attach(args) => attach::attach(&cli, args).await?,
        Scenario::HostileProofs(args) => hostile::hostile(&cli, args).await?,
    };
    if !ok {
        eprintln!("rifa-bench: some requests failed or the numbers did not add up (see above)");
        std::process::exit(1);
    }
    Ok(())
}
