//! The staff's photos of raffles, prizes and deliveries: uploaded from the panel, served to all.

pub mod get;
pub mod upload;
