use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::ErrorBody;
use crate::error::ApiError;
use crate::extract::{Acting, need};
use rifa_domain::id::MailId;

/// Puts a failed or withheld e-mail back in line for delivery now (an admin may send a message
/// withheld by the recipient caps). 404 unless the message exists and failed or was withheld.
#[tracing::instrument(name = "api.mail.retry.retry", skip_all)]
#[utoipa::path(post, path = "/api/admin/mail-outbox/{id}/retry", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)),
    responses(
        (status = 204),
        (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody),
    ))]
pub async fn retry(
    Acting { actor, .. }: Acting<need::Settings>,
    state: web::Data<AppState>,
    id: web::Path<MailId>,
) -> Result<HttpResponse, ApiError> {
    if state.mail.retry_mail(*id, &actor).await? {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(ApiError::not_found())
    }
}
