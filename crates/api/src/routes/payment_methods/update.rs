use actix_web::web;

use crate::AppState;
use crate::dto::{ErrorBody, PaymentMethodDto, PaymentMethodRequest};
use crate::error::ApiError;
use crate::extract::{Acting, need};
use rifa_domain::payment::PaymentMethodId;

/// Replaces a payment method. Past purchases keep the name they were made with.
#[tracing::instrument(name = "api.payment_methods.update.update", skip_all)]
#[utoipa::path(put, path = "/api/admin/payment-methods/{id}", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), request_body = PaymentMethodRequest, responses(
    (status = 200, body = PaymentMethodDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 404, body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn update(
    Acting { actor, .. }: Acting<need::Catalogue>,
    state: web::Data<AppState>,
    id: web::Path<PaymentMethodId>,
    body: web::Json<PaymentMethodRequest>,
) -> Result<web::Json<PaymentMethodDto>, ApiError> {
    Ok(web::Json(
        state
            .payments
            .update_payment_method(*id, body.into_inner().into(), &actor)
            .await?
            .into(),
    ))
}
