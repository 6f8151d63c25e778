//! The e-mail outbox, for admins: what was sent, what waits, what failed and why.

pub mod list;
pub mod retry;
pub mod test;
