use actix_web::web;
use rifa_domain::{FieldError, FieldErrors};
use rifa_ports::MailStatus;

use crate::AppState;
use crate::dto::{ErrorBody, MailDto, MailQuery};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

/// The e-mail outbox, newest first: every confirmation written to buyers, with its delivery
/// state, attempts and the mail server's last answer, or why it was withheld.
#[tracing::instrument(name = "api.mail.list.list", skip_all)]
#[utoipa::path(get, path = "/api/admin/mail-outbox", tag = "admin", security(("bearer" = [])), params(MailQuery),
    responses(
        (status = 200, body = Vec<MailDto>),
        (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
pub async fn list(
    _: Allowed<need::Settings>,
    state: web::Data<AppState>,
    query: web::Query<MailQuery>,
) -> Result<web::Json<Vec<MailDto>>, ApiError> {
    let status = query
        .status
        .as_deref()
        .map(|s| {
            MailStatus::parse(s.trim()).ok_or_else(|| {
                ApiError::bad_request("status must be pending, sent, failed or withheld")
            })
        })
        .transpose()?;
    let limit = query.limit.unwrap_or(100);
    if !(1..=500).contains(&limit) {
        let range = FieldError::OutOfRange {
            min: "1".into(),
            max: "500".into(),
        };
        return Err(ApiError::validation(&FieldErrors::single("limit", range)));
    }
    let records = state.mail.outbox(status, limit).await?;
    Ok(web::Json(records.into_iter().map(MailDto::from).collect()))
}
