use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::{ErrorBody, PaymentMethodDto, PaymentMethodRequest};
use crate::error::ApiError;
use crate::extract::{Acting, need};

/// Adds a payment method (active unless `active: false`).
#[tracing::instrument(name = "api.payment_methods.create.create", skip_all)]
#[utoipa::path(post, path = "/api/admin/payment-methods", tag = "admin", security(("bearer" = [])), request_body = PaymentMethodRequest, responses(
    (status = 201, body = PaymentMethodDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 413, body = ErrorBody),
    (status = 415, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn create(
    Acting { actor, .. }: Acting<need::Catalogue>,
    state: web::Data<AppState>,
    body: web::Json<PaymentMethodRequest>,
) -> Result<HttpResponse, ApiError> {
    let method = state
        .payments
        .create_payment_method(body.into_inner().into(), &actor)
        .await?;
    Ok(HttpResponse::Created().json(PaymentMethodDto::from(method)))
}
