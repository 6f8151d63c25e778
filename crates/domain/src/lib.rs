//! Rifa's domain: raffles, tickets, purchases, pricing and the settings an operator keeps.
//!
//! Pure types and rules: no I/O, no async, no framework. Values are parsed once at the edge into
//! the types here ("parse, don't validate"), so code holding a [`purchase::NewPurchase`] or a
//! [`ticket::TicketSelection`] never checks them again. Refusals name what went wrong with a
//! stable `code()` and the values involved; their words, in Spanish and English, live in the
//! `rifa-text` catalogue.

pub mod admin;
pub mod audit;
pub mod branding;
pub mod calendar;
pub mod customer;
pub mod draw;
pub mod email_settings;
pub mod exchange;
pub mod id;
pub mod lang;
pub mod lookup;
pub mod money;
pub mod payment;
pub mod payment_reference;
pub mod photo;
pub mod pricing;
pub mod proof;
pub mod proof_reading;
pub mod proof_signals;
pub mod purchase;
pub mod raffle;
pub mod sales;
pub mod stats;
pub mod ticket;
pub mod validation;

pub use lang::Lang;
pub use validation::{FieldError, FieldErrors};
