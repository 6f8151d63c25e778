//! The verifiable draw (issue 15, decision 0020): the frozen ledger and its commitment, and the
//! published rule that turns a public result into a winning number.

pub mod beacon;
pub mod fair;
pub mod ledger;
pub mod prize;
pub mod rule;
pub mod settle;
pub mod verify;
