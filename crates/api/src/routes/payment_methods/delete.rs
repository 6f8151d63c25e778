use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::ErrorBody;
use crate::error::ApiError;
use crate::extract::{Acting, need};
use rifa_domain::payment::PaymentMethodId;

/// Deletes a payment method; past purchases keep its name.
#[tracing::instrument(name = "api.payment_methods.delete.delete", skip_all)]
#[utoipa::path(delete, path = "/api/admin/payment-methods/{id}", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 204),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn delete(
    Acting { actor, .. }: Acting<need::Catalogue>,
    state: web::Data<AppState>,
    id: web::Path<PaymentMethodId>,
) -> Result<HttpResponse, ApiError> {
    state.payments.delete_payment_method(*id, &actor).await?;
    Ok(HttpResponse::NoContent().finish())
}
