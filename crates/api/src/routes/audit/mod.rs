pub mod export;
pub mod figures;
pub mod list;
pub mod verification;
