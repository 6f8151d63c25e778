pub mod dev_mode;
pub mod health;
pub mod metrics;
