pub mod branding_get;
pub mod branding_update;
pub mod discounts_get;
pub mod discounts_update;
pub mod email_get;
pub mod email_update;
