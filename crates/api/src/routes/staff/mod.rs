//! The staff screen: the owners' accounts, roles, disabling and password resets.

pub mod create;
pub mod list;
pub mod reset_password;
pub mod update;

use actix_web::http::StatusCode;
use rifa_app::staff::StaffError;
use rifa_domain::admin::StaffRefusal;

use crate::error::ApiError;

impl From<StaffError> for ApiError {
    fn from(error: StaffError) -> Self {
        match error {
            StaffError::Invalid(fields) => Self::validation(&fields),
            StaffError::UsernameTaken => Self::new(StatusCode::CONFLICT, "username_taken"),
            StaffError::NotFound => Self::new(StatusCode::NOT_FOUND, "staff_not_found"),
            StaffError::Refused(StaffRefusal::NotAnOwner) => {
                Self::new(StatusCode::FORBIDDEN, "not_an_owner")
            }
            StaffError::Refused(StaffRefusal::OwnAccount) => {
                Self::new(StatusCode::CONFLICT, "own_account")
            }
            StaffError::Unknown(e) => Self::internal(&e),
        }
    }
}
