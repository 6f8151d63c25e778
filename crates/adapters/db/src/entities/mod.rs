//! SeaORM entities, one per table.

pub mod admin_sessions;
pub mod admins;
pub mod audit_head;
pub mod audit_log;
pub mod draw_ledger_entries;
pub mod draw_ledgers;
pub mod exchange_rates;
pub mod mail_outbox;
pub mod payment_methods;
pub mod prize_deliveries;
pub mod prize_draws;
pub mod prize_results;
pub mod promotions;
pub mod proof_checks;
pub mod proof_picture_bands;
pub mod purchase_events;
pub mod purchase_hours;
pub mod purchase_tickets;
pub mod purchase_totals;
pub mod purchases;
pub mod raffle_prizes;
pub mod raffle_sold_counts;
pub mod raffles;
pub mod release_alerts;
pub mod settings;
