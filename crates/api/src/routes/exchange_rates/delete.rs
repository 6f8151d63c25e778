use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::ErrorBody;
use crate::error::ApiError;
use crate::extract::{Acting, need};
use rifa_domain::exchange::ExchangeRateId;

/// Deletes an exchange rate; methods using it are left without one. The spec gives this to the
/// privileged admin alone (§6), so it needs the settings permission (owners), not the catalogue.
#[tracing::instrument(name = "api.exchange_rates.delete.delete", skip_all)]
#[utoipa::path(delete, path = "/api/admin/exchange-rates/{id}", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 204),
    (status = 401, body = ErrorBody),
    (status = 403, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn delete(
    Acting {
        session: admin,
        actor,
        ..
    }: Acting<need::Settings>,
    state: web::Data<AppState>,
    id: web::Path<ExchangeRateId>,
) -> Result<HttpResponse, ApiError> {
    state.payments.delete_exchange_rate(*id, &actor).await?;
    tracing::info!(
        admin.id = admin.admin_id.get(),
        rate.id = id.get(),
        "exchange rate deleted"
    );
    Ok(HttpResponse::NoContent().finish())
}
