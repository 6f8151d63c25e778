use actix_web::web;

use crate::AppState;
use crate::dto::{ErrorBody, PaymentMethodDto};
use crate::error::ApiError;
use crate::extract::{Allowed, need};

async fn list(
    state: &AppState,
    active_only: bool,
) -> Result<web::Json<Vec<PaymentMethodDto>>, ApiError> {
    Ok(web::Json(
        state
            .payments
            .payment_methods(active_only)
            .await?
            .into_iter()
            .map(PaymentMethodDto::from)
            .collect(),
    ))
}

/// Active payment methods with their details and exchange rate.
#[tracing::instrument(name = "api.payment_methods.list.public", skip_all)]
#[utoipa::path(get, path = "/api/payment-methods", tag = "payments", responses((status = 200, body = Vec<PaymentMethodDto>)))]
pub async fn public(
    state: web::Data<AppState>,
) -> Result<web::Json<Vec<PaymentMethodDto>>, ApiError> {
    list(&state, true).await
}

/// Every payment method, active or not.
#[tracing::instrument(name = "api.payment_methods.list.admin", skip_all)]
#[utoipa::path(get, path = "/api/admin/payment-methods", tag = "admin", security(("bearer" = [])), responses(
    (status = 200, body = Vec<PaymentMethodDto>),
    (status = 401, body = ErrorBody),
))]
pub async fn admin(
    _: Allowed<need::AnyRole>,
    state: web::Data<AppState>,
) -> Result<web::Json<Vec<PaymentMethodDto>>, ApiError> {
    list(&state, false).await
}
