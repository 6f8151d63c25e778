pub mod login;
pub mod logout;
pub mod me;
pub mod password;
