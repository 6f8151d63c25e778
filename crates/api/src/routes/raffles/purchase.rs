use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use rifa_app::purchasing::PurchaseMode;
use rifa_domain::raffle::RaffleId;

use crate::AppState;
use crate::dto::{ErrorBody, PurchaseMultipart, PurchaseResponse};
use crate::error::ApiError;
use crate::extract::{Acting, ClientIp, Multipart, need};

async fn purchase(
    state: &AppState,
    req: &HttpRequest,
    raffle: RaffleId,
    form: PurchaseMultipart,
    mode: PurchaseMode,
) -> Result<HttpResponse, ApiError> {
    let lang = crate::error::request_lang(req);
    let test = mode != PurchaseMode::Public;
    let receipt = state
        .purchasing
        .purchase(raffle, form.parse(raffle), mode, lang)
        .await;
    match receipt {
        Ok(receipt) => {
            crate::metrics::purchase(StatusCode::CREATED, test);
            Ok(HttpResponse::Created().json(PurchaseResponse::from(receipt)))
        }
        Err(failure) => {
            let error = ApiError::from(failure);
            crate::metrics::purchase(error.status_code(), test);
            Err(error)
        }
    }
}

/// Buys numbers of a raffle on sale. The server prices the purchase itself and refuses a
/// `totalAmount` that differs (409 `total_mismatch`); numbers someone else holds give 409
/// `tickets_taken` naming them, and nothing is written. Limited per client address (429).
/// The answer's `purchaseToken` is the buyer's only key to attach the proof and read the
/// invoice; the confirmation e-mail is written in the request's language.
#[tracing::instrument(name = "api.raffles.purchase.public", skip_all)]
#[utoipa::path(post, path = "/api/raffles/{id}/purchase", tag = "raffles", params(("id" = i64, Path)),
    request_body(content = crate::dto::PurchaseFormSchema, content_type = "multipart/form-data"),
    responses(
        (status = 201, body = PurchaseResponse),
        (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody),
    ))]
pub async fn public(
    req: HttpRequest,
    state: web::Data<AppState>,
    ip: ClientIp,
    id: web::Path<RaffleId>,
    form: Multipart<PurchaseMultipart>,
) -> Result<HttpResponse, ApiError> {
    state.limits.purchase(ip.0)?;
    purchase(&state, &req, *id, form.0, PurchaseMode::Public).await
}

/// An admin's test purchase, in any raffle status: validated and priced like a real one, stored
/// with status `test`, holding no numbers; the answer has `testMode: true`. The trail records it
/// (`purchase.test_created`).
#[tracing::instrument(name = "api.raffles.purchase.admin_test", skip_all)]
#[utoipa::path(post, path = "/api/admin/raffles/{id}/purchase", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)),
    request_body(content = crate::dto::PurchaseFormSchema, content_type = "multipart/form-data"),
    responses(
        (status = 201, body = PurchaseResponse),
        (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
pub async fn admin_test(
    Acting { actor, .. }: Acting<need::Catalogue>,
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<RaffleId>,
    form: Multipart<PurchaseMultipart>,
) -> Result<HttpResponse, ApiError> {
    purchase(&state, &req, *id, form.0, PurchaseMode::AdminTest(actor)).await
}
