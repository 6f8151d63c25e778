//! The payment proof's journey (upload URL, the upload itself on the local store, attaching),
//! the admins' view of it, and the buyer's invoice.

pub mod attach;
pub mod buyer;
pub mod download;
pub mod invoice;
pub mod upload;
pub mod upload_url;
