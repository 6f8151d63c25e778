//! Black-box tests of the API over real HTTP, each run against embedded SQLite and a real
//! PostgreSQL (a fresh database per test, cloned from a migrated template).
//!
//! PostgreSQL comes from `TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/test`).
//! When it cannot be reached the PostgreSQL variants say so and pass, unless
//! `REQUIRE_POSTGRES=1` (as in CI), where they fail.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod helpers;

mod admin_auth;
mod audit;
mod backups;
mod catalog;
mod concurrency;
mod draws;
mod errors;
mod export;
mod faults;
mod files;
mod first_run;
mod holds;
mod input;
mod live;
mod mail;
mod mail_caps;
mod metrics;
mod photos;
mod proof_checks;
mod proofs;
mod purchases;
mod random_picks;
mod review;
mod settings;
mod slow_clients;
mod staff;
