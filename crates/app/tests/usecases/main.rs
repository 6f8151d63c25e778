//! Unit tests of every use case over in-memory fakes of the ports (`tests/support`): no
//! database, no network, a clock that moves only when told. One binary, one module per service.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod audit;
mod auth;
mod catalog;
mod draws;
mod export;
mod holds;
mod lookup;
mod mail;
mod payments;
mod photos;
mod proof_checks;
mod proofs;
mod purchasing;
mod receipts;
mod review;
mod settings;
mod staff;
