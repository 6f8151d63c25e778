//! The verifiable draw (decision 0020): prizes and their sources, the freeze, each prize's
//! result, the delivery, and what the public reads to check it all.

pub mod admin;
pub mod certificate;
pub mod delivered;
pub mod freeze;
pub mod ledger;
pub mod prizes;
pub mod public;
pub mod result;
pub mod verifier;
pub mod winners;
