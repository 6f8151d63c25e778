pub mod list;
pub mod verification;
