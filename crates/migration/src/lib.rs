//! Rifa's schema, one migration per file, runnable on PostgreSQL and SQLite alike.

pub use sea_orm_migration::prelude::*;

mod m20260101_000001_initial_schema;
mod m20261123_000001_buyer_access_and_mail_outbox;
mod m20261123_000002_upload_granted_at;
mod m20261124_000001_mail_recipient_caps;
mod m20261124_000012_one_exchange_rate_per_pair;
mod m20261126_000001_holds_that_expire;
mod m20261127_000001_maintained_counts;
mod m20261127_000002_sales_per_hour;
mod m20261127_000003_outbox_by_purchase;
mod m20261127_000004_verifiable_draw;
mod m20261127_000005_proof_checks;
mod m20261127_000006_payment_references;
mod m20261128_000001_sessions_and_audit_trail;
mod m20261128_000002_staff_roles;
mod m20261128_000003_audit_actions_by_time;
mod m20261202_000001_what_decides_the_winner;
mod m20261202_000002_fair_rules;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20260101_000001_initial_schema::Migration),
            Box::new(m20261123_000001_buyer_access_and_mail_outbox::Migration),
            Box::new(m20261123_000002_upload_granted_at::Migration),
            Box::new(m20261124_000001_mail_recipient_caps::Migration),
            Box::new(m20261124_000012_one_exchange_rate_per_pair::Migration),
            Box::new(m20261126_000001_holds_that_expire::Migration),
            Box::new(m20261127_000001_maintained_counts::Migration),
            Box::new(m20261127_000002_sales_per_hour::Migration),
            Box::new(m20261127_000003_outbox_by_purchase::Migration),
            Box::new(m20261127_000004_verifiable_draw::Migration),
            Box::new(m20261127_000005_proof_checks::Migration),
            Box::new(m20261127_000006_payment_references::Migration),
            Box::new(m20261128_000001_sessions_and_audit_trail::Migration),
            Box::new(m20261128_000002_staff_roles::Migration),
            Box::new(m20261128_000003_audit_actions_by_time::Migration),
            Box::new(m20261202_000001_what_decides_the_winner::Migration),
            Box::new(m20261202_000002_fair_rules::Migration),
        ]
    }
}
