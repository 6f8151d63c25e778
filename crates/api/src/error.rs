//! Where errors meet HTTP: one JSON shape, a stable `code`, messages in the caller's language.
//!
//! ```json
//! {"code": "validation_failed", "message": "Revisa los campos marcados",
//!  "fields": {"customerEmail": "Email inválido"}}
//! ```
//! Every error carries its Spanish and English text; [`localize`] picks the one the request's
//! `Accept-Language` asks for (Spanish by default). A 500 logs its cause once and says nothing
//! about it to the caller.

use std::fmt;

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::error::{JsonPayloadError, PathError, QueryPayloadError};
use actix_web::http::StatusCode;
use actix_web::http::header::{ACCEPT_LANGUAGE, CONTENT_LANGUAGE, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use rifa_app::WriteFailure;
use rifa_app::auth::{AuthError, LoginError};
use rifa_app::catalog::RaffleError;
use rifa_app::lookup::VerifyError;
use rifa_app::mail::TestEmailError;
use rifa_app::proofs::ProofFailure;
use rifa_app::purchasing::PurchaseError;
use rifa_app::review::DecideError;
use rifa_domain::proof::ProofError;
use rifa_domain::{FieldError, FieldErrors, Lang, Localized};
use rifa_ports::TokenError;
use serde_json::{Map, Value, json};

/// What a 503 asks the client to wait: enough for the pool to reconnect.
const DATABASE_RETRY_AFTER_SECS: u64 = 2;

/// A text in both languages.
#[derive(Debug, Clone)]
pub struct Text {
    es: String,
    en: String,
}

impl Text {
    pub fn new(es: impl Into<String>, en: impl Into<String>) -> Self {
        Self {
            es: es.into(),
            en: en.into(),
        }
    }

    pub fn of(message: &impl Localized) -> Self {
        Self {
            es: message.localized(Lang::Es),
            en: message.localized(Lang::En),
        }
    }

    fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::Es => &self.es,
            Lang::En => &self.en,
        }
    }
}

/// Boxed: errors travel through every `Result` of the API, so they stay one pointer wide.
#[derive(Debug)]
pub struct ApiError(Box<Details>);

#[derive(Debug)]
struct Details {
    status: StatusCode,
    code: &'static str,
    message: Text,
    fields: Vec<(&'static str, Text)>,
    extra: Map<String, Value>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: Text) -> Self {
        Self(Box::new(Details {
            status,
            code,
            message,
            fields: Vec::new(),
            extra: Map::new(),
        }))
    }

    fn with(mut self, key: &str, value: Value) -> Self {
        self.0.extra.insert(key.to_owned(), value);
        self
    }

    pub fn validation(fields: &FieldErrors) -> Self {
        let mut error = Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
            Text::new(
                "Revisa los campos marcados",
                "Please check the highlighted fields",
            ),
        );
        error.0.fields = fields
            .iter()
            .map(|(field, e)| (*field, Text::of(e)))
            .collect();
        // A single problem is also the message, so a toast can show it as is.
        if let [(_, only)] = error.0.fields.as_slice() {
            error.0.message = only.clone();
        }
        error
    }

    pub fn not_found() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "not_found",
            Text::new("No encontrado", "Not found"),
        )
    }

    pub fn raffle_not_found() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "raffle_not_found",
            Text::new("Sorteo no encontrado", "Raffle not found"),
        )
    }

    pub fn purchase_not_found() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "purchase_not_found",
            Text::new("Compra no encontrada", "Purchase not found"),
        )
    }

    pub fn bad_request(detail: impl fmt::Display) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            Text::new("La solicitud no es válida", "The request is malformed"),
        )
        .with("detail", Value::String(detail.to_string()))
    }

    pub fn payload_too_large() -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            Text::new(
                "La solicitud es demasiado grande",
                "The request is too large",
            ),
        )
    }

    pub fn unsupported_media_type(expected: &str) -> Self {
        Self::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            Text::new(
                format!("Se esperaba {expected}"),
                format!("Expected {expected}"),
            ),
        )
    }

    pub fn rate_limited(retry_after_secs: u64) -> Self {
        let (segundos, seconds) = if retry_after_secs == 1 {
            ("segundo", "second")
        } else {
            ("segundos", "seconds")
        };
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            Text::new(
                format!(
                    "Demasiados intentos. Espera {retry_after_secs} {segundos} e inténtalo de nuevo."
                ),
                format!("Too many attempts. Wait {retry_after_secs} {seconds} and try again."),
            ),
        )
        .with("retryAfterSeconds", json!(retry_after_secs))
    }

    /// The request body stopped arriving, or took longer than allowed.
    pub fn request_timeout() -> Self {
        Self::new(
            StatusCode::REQUEST_TIMEOUT,
            "request_timeout",
            Text::new(
                "La solicitud tardó demasiado en llegar. Revisa tu conexión e inténtalo de nuevo.",
                "The request took too long to arrive. Check your connection and try again.",
            ),
        )
    }

    /// A purchase's PDF receipt is already being rendered for another request.
    pub fn receipt_being_rendered(retry_after_secs: u64) -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "receipt_being_rendered",
            Text::new(
                format!(
                    "Ya estamos generando este comprobante. Espera {retry_after_secs} segundos e inténtalo de nuevo."
                ),
                format!(
                    "This receipt is already being generated. Wait {retry_after_secs} seconds and try again."
                ),
            ),
        )
        .with("retryAfterSeconds", json!(retry_after_secs))
    }

    /// The mail server refused or could not be reached; `detail` is its own answer.
    pub fn email_test_failed(detail: &str) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "email_test_failed",
            Text::new(
                format!("No se pudo enviar el correo de prueba: {detail}"),
                format!("The test e-mail could not be sent: {detail}"),
            ),
        )
    }

    pub fn forbidden() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            Text::new(
                "Solo el administrador principal puede hacer esto",
                "Only the main administrator can do this",
            ),
        )
    }

    /// Logs the cause once; the caller learns only that something failed on our side. When
    /// the database could not be reached (reads were already retried; a write is never
    /// half-done, its transaction rolled back) that is a 503 the client may retry.
    pub fn internal(cause: &anyhow::Error) -> Self {
        if rifa_db::is_unavailable(cause) {
            tracing::warn!(error = format!("{cause:#}"), "database unavailable");
            return Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "service_unavailable",
                Text::new(
                    "El servicio no está disponible en este momento. Inténtalo de nuevo en unos segundos.",
                    "The service is unavailable right now. Please try again in a few seconds.",
                ),
            )
            .with("retryAfterSeconds", json!(DATABASE_RETRY_AFTER_SECS));
        }
        tracing::error!(error = format!("{cause:#}"), "request failed");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal_error",
            Text::new(
                "Ocurrió un error inesperado. Inténtalo de nuevo.",
                "Something went wrong on our side. Please try again.",
            ),
        )
    }

    pub fn render(&self, lang: Lang) -> HttpResponse {
        let mut body = Map::new();
        body.insert("code".into(), json!(self.0.code));
        body.insert("message".into(), json!(self.0.message.get(lang)));
        if !self.0.fields.is_empty() {
            let fields: Map<String, Value> = self
                .0
                .fields
                .iter()
                .map(|(f, t)| ((*f).to_owned(), json!(t.get(lang))))
                .collect();
            body.insert("fields".into(), Value::Object(fields));
        }
        body.extend(self.0.extra.clone());
        let mut response = HttpResponse::build(self.0.status);
        if let Some(retry) = self.0.extra.get("retryAfterSeconds") {
            response.insert_header(("Retry-After", retry.to_string()));
        }
        response.json(Value::Object(body))
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.0.status.as_u16(), self.0.code)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.0.status
    }

    fn error_response(&self) -> HttpResponse {
        self.render(Lang::Es)
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(cause: anyhow::Error) -> Self {
        Self::internal(&cause)
    }
}

impl From<RaffleError> for ApiError {
    fn from(error: RaffleError) -> Self {
        match error {
            RaffleError::Invalid(fields) => Self::validation(&fields),
            RaffleError::NotFound => Self::raffle_not_found(),
            RaffleError::BelowHeldNumber { highest_held } => Self::new(
                StatusCode::CONFLICT,
                "max_below_held_number",
                Text::new(
                    format!("No puedes reducir el máximo de boletos: el boleto {highest_held} ya está vendido o reservado"),
                    format!("You cannot lower the ticket maximum: ticket {highest_held} is already sold or reserved"),
                ),
            )
            .with("highestHeld", json!(highest_held)),
            RaffleError::HasPurchases { count } => Self::new(
                StatusCode::CONFLICT,
                "raffle_has_purchases",
                Text::new(
                    format!("Este sorteo tiene {count} compra(s) y no se puede eliminar; cambia su estado a finalizado"),
                    format!("This raffle has {count} purchase(s) and cannot be deleted; set its status to finished instead"),
                ),
            ),
            RaffleError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<PurchaseError> for ApiError {
    fn from(error: PurchaseError) -> Self {
        match error {
            PurchaseError::Invalid(fields) => Self::validation(&fields),
            PurchaseError::RaffleNotFound => Self::raffle_not_found(),
            PurchaseError::RaffleNotOnSale => Self::new(
                StatusCode::CONFLICT,
                "raffle_not_on_sale",
                Text::new(
                    "Sorteo No Disponible - Este sorteo ha finalizado o no está disponible en este momento.",
                    "Raffle unavailable - This raffle has ended or is not available right now.",
                ),
            ),
            PurchaseError::TotalMismatch { expected, sent } => Self::new(
                StatusCode::CONFLICT,
                "total_mismatch",
                Text::new(
                    format!("El total enviado (US$ {sent}) no coincide con el precio actual (US$ {expected}). Actualiza la página e inténtalo de nuevo."),
                    format!("The total sent (US$ {sent}) does not match the current price (US$ {expected}). Refresh the page and try again."),
                ),
            )
            .with("expectedTotal", json!(expected.to_string())),
            PurchaseError::NumbersTaken { numbers, max_tickets } => {
                let list = numbers
                    .iter()
                    .map(|n| rifa_domain::ticket::display_number(*n, max_tickets))
                    .collect::<Vec<_>>()
                    .join(", ");
                Self::new(
                    StatusCode::CONFLICT,
                    "tickets_taken",
                    Text::new(
                        format!("Estos boletos ya no están disponibles: {list}. Elige otros y vuelve a intentarlo."),
                        format!("These tickets are no longer available: {list}. Pick others and try again."),
                    ),
                )
                .with("numbers", json!(numbers))
            }
            PurchaseError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<ProofFailure> for ApiError {
    fn from(error: ProofFailure) -> Self {
        match error {
            ProofFailure::NotFound => Self::purchase_not_found(),
            ProofFailure::NotPending(_) => Self::new(
                StatusCode::CONFLICT,
                "purchase_not_pending",
                Text::new(
                    "Esta compra ya fue revisada; no admite un nuevo comprobante",
                    "This purchase was already reviewed; it takes no new proof",
                ),
            ),
            ProofFailure::Refused(refusal) => {
                let code = match refusal {
                    ProofError::Missing => "proof_missing",
                    ProofError::TooLarge { .. } => "proof_too_large",
                    ProofError::WrongType => "proof_wrong_type",
                    ProofError::NotAsDeclared { .. } => "proof_type_mismatch",
                    ProofError::Unreadable { .. } => "proof_unreadable",
                    ProofError::TooManyPixels { .. } => "proof_too_many_pixels",
                };
                Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, Text::of(&refusal))
            }
            ProofFailure::TooManyUploads => Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_uploads",
                Text::new(
                    "Ya se pidieron demasiadas cargas de comprobante para esta compra; escríbenos y te ayudamos",
                    "Too many proof uploads were requested for this purchase; contact us and we will help",
                ),
            ),
            ProofFailure::SizeRequired => {
                Self::validation(&FieldErrors::single("size", FieldError::Required))
            }
            ProofFailure::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<DecideError> for ApiError {
    fn from(error: DecideError) -> Self {
        match error {
            DecideError::Invalid(fields) => Self::validation(&fields),
            DecideError::NotFound => Self::purchase_not_found(),
            DecideError::NotPending(e) => {
                Self::new(StatusCode::CONFLICT, "purchase_not_pending", Text::of(&e))
            }
            DecideError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<VerifyError> for ApiError {
    fn from(error: VerifyError) -> Self {
        match error {
            VerifyError::Invalid(fields) => Self::validation(&fields),
            VerifyError::Miss(miss) => {
                let code = match miss {
                    rifa_domain::lookup::LookupMiss::NoPurchases => "no_tickets_found",
                    rifa_domain::lookup::LookupMiss::NoneInActiveRaffles => "no_active_tickets",
                };
                Self::new(StatusCode::NOT_FOUND, code, Text::of(&miss))
            }
            VerifyError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<LoginError> for ApiError {
    fn from(error: LoginError) -> Self {
        match error {
            LoginError::MissingFields => Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "missing_fields",
                Text::new(
                    "Por favor completa todos los campos",
                    "Please fill in all fields",
                ),
            ),
            LoginError::InvalidCredentials => Self::new(
                StatusCode::UNAUTHORIZED,
                "invalid_credentials",
                Text::new("Credenciales inválidas", "Invalid credentials"),
            ),
            LoginError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<AuthError> for ApiError {
    fn from(error: AuthError) -> Self {
        let (code, es, en) = match error {
            AuthError::Missing => (
                "unauthorized",
                "Inicia sesión para continuar",
                "Sign in to continue",
            ),
            AuthError::Token(TokenError::Expired) => (
                "token_expired",
                "Tu sesión expiró; inicia sesión de nuevo",
                "Your session has expired; sign in again",
            ),
            AuthError::Token(TokenError::Invalid) | AuthError::UnknownAdmin => (
                "token_invalid",
                "Sesión no válida; inicia sesión de nuevo",
                "Invalid session; sign in again",
            ),
            AuthError::Unknown(e) => return Self::internal(&e),
        };
        Self::new(StatusCode::UNAUTHORIZED, code, Text::new(es, en))
    }
}

impl From<TestEmailError> for ApiError {
    fn from(error: TestEmailError) -> Self {
        match error {
            TestEmailError::Invalid(fields) => Self::validation(&fields),
            TestEmailError::Failed(detail) => Self::email_test_failed(&detail),
            TestEmailError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<WriteFailure> for ApiError {
    fn from(error: WriteFailure) -> Self {
        match error {
            WriteFailure::Invalid(fields) => Self::validation(&fields),
            WriteFailure::NotFound => Self::not_found(),
            WriteFailure::Unknown(e) => Self::internal(&e),
        }
    }
}

/// The language a request asks for.
pub fn request_lang(req: &HttpRequest) -> Lang {
    Lang::from_accept_language(
        req.headers()
            .get(ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    )
}

/// Middleware: renders an [`ApiError`] in the request's language and says which it used.
pub async fn localize(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let lang = request_lang(req.request());
    let res = next.call(req).await?;
    let translated = (lang != Lang::Es)
        .then(|| {
            res.response()
                .error()
                .and_then(|e| e.as_error::<ApiError>())
                .map(|e| e.render(lang))
        })
        .flatten();
    let mut res = match translated {
        Some(response) => res.into_response(response).map_into_right_body(),
        None => res.map_into_left_body(),
    };
    res.headers_mut()
        .insert(CONTENT_LANGUAGE, HeaderValue::from_static(lang.code()));
    Ok(res)
}

pub fn json_error(error: JsonPayloadError, _req: &HttpRequest) -> actix_web::Error {
    match error {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            ApiError::payload_too_large().into()
        }
        JsonPayloadError::ContentType => {
            ApiError::unsupported_media_type("application/json").into()
        }
        JsonPayloadError::Payload(ref body) if crate::body_timeout::timed_out(body) => {
            ApiError::request_timeout().into()
        }
        other => ApiError::bad_request(other).into(),
    }
}

pub fn path_error(_error: PathError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::not_found().into()
}

pub fn query_error(error: QueryPayloadError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::bad_request(error).into()
}

pub fn multipart_error(
    error: actix_multipart::MultipartError,
    _req: &HttpRequest,
) -> actix_web::Error {
    use actix_multipart::MultipartError as M;
    match error {
        M::Payload(actix_web::error::PayloadError::Overflow) => {
            ApiError::payload_too_large().into()
        }
        M::Payload(ref body) if crate::body_timeout::timed_out(body) => {
            ApiError::request_timeout().into()
        }
        M::ContentTypeMissing
        | M::ContentTypeParse
        | M::ContentTypeIncompatible
        | M::BoundaryMissing => ApiError::unsupported_media_type("multipart/form-data").into(),
        other => {
            let text = other.to_string();
            if text.contains("limit") {
                ApiError::payload_too_large().into()
            } else {
                ApiError::bad_request(text).into()
            }
        }
    }
}

/// Every path the API does not know, as JSON.
pub async fn unknown_route() -> Result<HttpResponse, ApiError> {
    Err(ApiError::new(
        StatusCode::NOT_FOUND,
        "route_not_found",
        Text::new("Ruta no encontrada", "Route not found"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limited_says_one_second_in_the_singular() {
        assert_eq!(
            ApiError::rate_limited(1).0.message.es,
            "Demasiados intentos. Espera 1 segundo e inténtalo de nuevo."
        );
        assert_eq!(
            ApiError::rate_limited(1).0.message.en,
            "Too many attempts. Wait 1 second and try again."
        );
        assert_eq!(
            ApiError::rate_limited(2).0.message.es,
            "Demasiados intentos. Espera 2 segundos e inténtalo de nuevo."
        );
        assert_eq!(
            ApiError::rate_limited(2).0.message.en,
            "Too many attempts. Wait 2 seconds and try again."
        );
    }
}
