//! Where errors meet HTTP: one JSON shape, a stable `code`, messages in the caller's language.
//!
//! ```json
//! {"code": "validation_failed", "message": "Revisa los campos marcados",
//!  "fields": {"customerEmail": "Email inválido"}}
//! ```
//! Every error carries a catalogue message (`rifa-text`: its key is the `code`, its parameters
//! the values it names); [`localize`] renders it in the language the request's `Accept-Language`
//! asks for (Spanish by default). A 500 logs its cause once and says nothing about it to the
//! caller.

use std::fmt;

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::error::{JsonPayloadError, PathError, QueryPayloadError};
use actix_web::http::StatusCode;
use actix_web::http::header::{CONTENT_LANGUAGE, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use rifa_app::WriteFailure;
use rifa_app::audit::AuditQueryError;
use rifa_app::auth::{AuthError, LoginError, PasswordChangeError};
use rifa_app::catalog::RaffleError;
use rifa_app::draws::DrawError;
use rifa_app::holds::AlertError;
use rifa_app::lookup::VerifyError;
use rifa_app::mail::TestEmailError;
use rifa_app::proof_queue::BulkError;
use rifa_app::proofs::ProofFailure;
use rifa_app::purchasing::PurchaseError;
use rifa_app::review::{DecideError, ReopenFailure};
use rifa_domain::admin::{Permission, Role};
use rifa_domain::ticket::{TicketNumber, display_number};
use rifa_domain::validation::FieldName;
use rifa_domain::{FieldError, FieldErrors, Lang};
use rifa_ports::TokenError;
use rifa_text::Message;
use serde_json::{Map, Value, json};

use crate::dto::PendingPurchaseDto;

pub use crate::lang::request_lang;

/// What a 503 asks the client to wait: enough for the pool to reconnect.
const DATABASE_RETRY_AFTER_SECS: u64 = 2;

/// Boxed: errors travel through every `Result` of the API, so they stay one pointer wide.
#[derive(Debug)]
pub struct ApiError(Box<Details>);

#[derive(Debug)]
struct Details {
    status: StatusCode,
    code: &'static str,
    message: Message,
    fields: Vec<(FieldName, Message)>,
    extra: Map<String, Value>,
}

impl ApiError {
    /// An error worded by the catalogue's text for `code`.
    pub fn new(status: StatusCode, code: &'static str) -> Self {
        Self::worded(status, code, Message::new(code))
    }

    /// An error whose words are another catalogue message (a domain refusal, or one of the
    /// wordings of a code used by several refusals).
    pub fn worded(status: StatusCode, code: &'static str, message: Message) -> Self {
        Self(Box::new(Details {
            status,
            code,
            message,
            fields: Vec::new(),
            extra: Map::new(),
        }))
    }

    /// A value the message names.
    #[must_use]
    pub fn text(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.0.message = self.0.message.text(name, value);
        self
    }

    /// A count the message chooses its words by.
    #[must_use]
    pub fn count(mut self, name: &'static str, value: impl Into<u64>) -> Self {
        self.0.message = self.0.message.count(name, value);
        self
    }

    fn with(mut self, key: &str, value: Value) -> Self {
        self.0.extra.insert(key.to_owned(), value);
        self
    }

    pub fn validation(fields: &FieldErrors) -> Self {
        let mut error = Self::new(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
        error.0.fields = fields
            .iter()
            .map(|(field, e)| (field.clone(), Message::from(e)))
            .collect();
        // A single problem is also the message, so a toast can show it as is.
        if let [(_, only)] = error.0.fields.as_slice() {
            error.0.message = only.clone();
        }
        error
    }

    /// A refusal naming ticket numbers: padded for people in the message, plain in `numbers`.
    fn numbers(
        status: StatusCode,
        code: &'static str,
        numbers: &[TicketNumber],
        max_tickets: u32,
    ) -> Self {
        let list = numbers
            .iter()
            .map(|n| display_number(*n, max_tickets))
            .collect::<Vec<_>>()
            .join(", ");
        Self::new(status, code).text("numbers", list).with(
            "numbers",
            json!(numbers.iter().map(|n| n.get()).collect::<Vec<_>>()),
        )
    }

    pub fn not_found() -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found")
    }

    pub fn raffle_not_found() -> Self {
        Self::new(StatusCode::NOT_FOUND, "raffle_not_found")
    }

    pub fn purchase_not_found() -> Self {
        Self::new(StatusCode::NOT_FOUND, "purchase_not_found")
    }

    pub fn bad_request(detail: impl fmt::Display) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request")
            .with("detail", Value::String(detail.to_string()))
    }

    pub fn payload_too_large() -> Self {
        Self::new(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large")
    }

    pub fn unsupported_media_type(expected: &str) -> Self {
        Self::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
            .text("expected", expected)
    }

    pub fn rate_limited(retry_after_secs: u64) -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited")
            .count("seconds", retry_after_secs)
            .with("retryAfterSeconds", json!(retry_after_secs))
    }

    /// The request body stopped arriving, or took longer than allowed.
    pub fn request_timeout() -> Self {
        Self::new(StatusCode::REQUEST_TIMEOUT, "request_timeout")
    }

    /// A purchase's PDF receipt is already being rendered for another request.
    pub fn receipt_being_rendered(retry_after_secs: u64) -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, "receipt_being_rendered")
            .count("seconds", retry_after_secs)
            .with("retryAfterSeconds", json!(retry_after_secs))
    }

    /// The mail server refused or could not be reached; `detail` is its own answer.
    pub fn email_test_failed(detail: &str) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, "email_test_failed").text("detail", detail)
    }

    /// The caller's role lacks `permission`: the message names both, so the person knows whom
    /// to ask.
    pub fn forbidden(role: Role, permission: Permission) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden")
            .text("role", role.as_str())
            .text("permission", permission.as_str())
            .with("permission", json!(permission.as_str()))
    }

    /// The account's password was handed over by an owner and must be replaced first.
    pub fn password_change_required() -> Self {
        Self::new(StatusCode::FORBIDDEN, "password_change_required")
    }

    /// Logs the cause once; the caller learns only that something failed on our side. When
    /// the database could not be reached (reads were already retried; a write is never
    /// half-done, its transaction rolled back) that is a 503 the client may retry.
    pub fn internal(cause: &anyhow::Error) -> Self {
        if rifa_db::is_unavailable(cause) {
            tracing::warn!(error = format!("{cause:#}"), "database unavailable");
            return Self::new(StatusCode::SERVICE_UNAVAILABLE, "service_unavailable")
                .with("retryAfterSeconds", json!(DATABASE_RETRY_AFTER_SECS));
        }
        tracing::error!(error = format!("{cause:#}"), "request failed");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal_error")
    }

    pub fn render(&self, lang: Lang) -> HttpResponse {
        let mut body = Map::new();
        body.insert("code".into(), json!(self.0.code));
        body.insert("message".into(), json!(self.0.message.render(lang)));
        if !self.0.fields.is_empty() {
            let fields: Map<String, Value> = self
                .0
                .fields
                .iter()
                .map(|(f, m)| (f.to_string(), json!(m.render(lang))))
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
        self.render(Lang::default())
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
            RaffleError::BelowHeldNumber { highest_held } => {
                Self::new(StatusCode::CONFLICT, "max_below_held_number")
                    .text("highest_held", highest_held.to_string())
                    .with("highestHeld", json!(highest_held.get()))
            }
            RaffleError::HasPurchases { count } => {
                Self::new(StatusCode::CONFLICT, "raffle_has_purchases")
                    .text("count", count.to_string())
            }
            RaffleError::SizeLocked => Self::new(StatusCode::CONFLICT, "raffle_size_locked"),
            RaffleError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<PurchaseError> for ApiError {
    fn from(error: PurchaseError) -> Self {
        match error {
            PurchaseError::Invalid(fields) => Self::validation(&fields),
            PurchaseError::RaffleNotFound => Self::raffle_not_found(),
            PurchaseError::RaffleNotOnSale => Self::new(StatusCode::CONFLICT, "raffle_not_on_sale"),
            PurchaseError::SalesClosed { closed_at } => {
                Self::new(StatusCode::CONFLICT, "sales_closed")
                    .with("closedAt", json!(crate::dto::instant(closed_at)))
            }
            PurchaseError::TotalMismatch { expected, sent } => {
                Self::new(StatusCode::CONFLICT, "total_mismatch")
                    .text("sent", sent.to_string())
                    .text("expected", expected.to_string())
                    .with("expectedTotal", json!(expected.to_string()))
            }
            PurchaseError::NumbersTaken {
                numbers,
                max_tickets,
            } => Self::numbers(StatusCode::CONFLICT, "tickets_taken", &numbers, max_tickets),
            PurchaseError::TooFewLeft { available } => {
                Self::new(StatusCode::CONFLICT, "too_few_left")
                    .count("available", available)
                    .with("available", json!(available))
            }
            PurchaseError::DrawContended => {
                Self::new(StatusCode::CONFLICT, "random_draw_contended")
            }
            PurchaseError::PaymentReferenceUsed => {
                Self::new(StatusCode::CONFLICT, "payment_reference_used")
            }
            PurchaseError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<ProofFailure> for ApiError {
    fn from(error: ProofFailure) -> Self {
        match error {
            ProofFailure::NotFound => Self::purchase_not_found(),
            ProofFailure::HoldExpired => Self::new(StatusCode::CONFLICT, "hold_expired"),
            ProofFailure::NotPending(_) => Self::worded(
                StatusCode::CONFLICT,
                "purchase_not_pending",
                Message::new("purchase_not_pending-proof"),
            ),
            ProofFailure::Refused(refusal) => Self::worded(
                StatusCode::UNPROCESSABLE_ENTITY,
                refusal.code(),
                Message::from(&refusal),
            ),
            ProofFailure::TooManyUploads => {
                Self::new(StatusCode::TOO_MANY_REQUESTS, "too_many_uploads")
            }
            ProofFailure::SizeRequired => {
                Self::validation(&FieldErrors::single("size", FieldError::Required))
            }
            ProofFailure::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<ReopenFailure> for ApiError {
    fn from(error: ReopenFailure) -> Self {
        match error {
            ReopenFailure::NotFound => Self::purchase_not_found(),
            ReopenFailure::NotExpired(status) => {
                Self::new(StatusCode::CONFLICT, "purchase_not_expired")
                    .with("status", json!(status.as_str()))
            }
            ReopenFailure::NumbersTaken {
                numbers,
                max_tickets,
            } => Self::numbers(
                StatusCode::CONFLICT,
                "numbers_no_longer_free",
                &numbers,
                max_tickets,
            ),
            ReopenFailure::PerPersonLimit { max, used } => Self::validation(&FieldErrors::single(
                "ticketNumbers",
                FieldError::PerPersonLimit { max, used },
            )),
            ReopenFailure::LedgerFrozen => Self::new(StatusCode::CONFLICT, "draw_ledger_frozen"),
            ReopenFailure::PaymentReferenceUsed => {
                Self::new(StatusCode::CONFLICT, "payment_reference_used")
            }
            ReopenFailure::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<AlertError> for ApiError {
    fn from(error: AlertError) -> Self {
        match error {
            AlertError::RaffleNotFound => Self::raffle_not_found(),
            AlertError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<DrawError> for ApiError {
    fn from(error: DrawError) -> Self {
        let conflict = |code| Self::new(StatusCode::CONFLICT, code);
        match error {
            DrawError::RaffleNotFound => Self::raffle_not_found(),
            DrawError::PrizeNotFound => Self::new(StatusCode::NOT_FOUND, "prize_not_found"),
            DrawError::Invalid(fields) => Self::validation(&fields),
            DrawError::RulesLocked => conflict("draw_rules_locked"),
            DrawError::OnSaleNeedsPrize => conflict("draw_on_sale_needs_prize"),
            DrawError::SalesStillOpen { closes_at } => conflict("draw_sales_still_open")
                .with("salesCloseAt", json!(closes_at.map(crate::dto::instant))),
            DrawError::PurchasesPending(pending) => {
                let listed: Vec<PendingPurchaseDto> = pending.iter().map(Into::into).collect();
                conflict("draw_purchases_pending")
                    .count("count", u64::try_from(pending.len()).unwrap_or(u64::MAX))
                    .with("pendingPurchases", json!(listed))
            }
            DrawError::NoPrizes => conflict("draw_no_prizes"),
            DrawError::AlreadyFrozen => conflict("draw_already_frozen"),
            DrawError::NothingSold => conflict("draw_nothing_sold"),
            DrawError::NotFrozen => conflict("draw_not_frozen"),
            DrawError::AlreadyDrawn => conflict("prize_already_drawn"),
            DrawError::WrongSource => conflict("prize_wrong_source"),
            DrawError::NotDrawn => conflict("prize_not_drawn"),
            DrawError::AlreadyDelivered => conflict("prize_already_delivered"),
            DrawError::BeaconRoundTooEarly { position, round } => {
                conflict("draw_beacon_round_too_early")
                    .count("position", position)
                    .count("round", round)
            }
            DrawError::SourceDrawsBeforeFreeze {
                position,
                draws_at,
                local,
            } => conflict("draw_source_before_freeze")
                .count("position", position)
                .with("position", json!(position))
                .text("drawsAtLocal", local)
                .with("drawsAt", json!(crate::dto::instant(draws_at))),
            DrawError::SourceNotDrawnYet { draws_at, local } => {
                conflict("prize_source_not_drawn_yet")
                    .text("drawsAtLocal", local)
                    .with("drawsAt", json!(crate::dto::instant(draws_at)))
            }
            DrawError::SourceDeadlinePassed {
                deadline,
                local,
                round,
            } => conflict("prize_source_deadline_passed")
                .text("deadlineLocal", local)
                .count("round", round)
                .with("deadline", json!(crate::dto::instant(deadline))),
            DrawError::ResultAlreadyRecorded => conflict("prize_result_already_recorded"),
            DrawError::BeaconRoundNotYet { round, at } => conflict("beacon_round_not_yet")
                .count("round", round)
                .with("publishedAt", json!(crate::dto::instant(at))),
            DrawError::BeaconUnavailable(e) => {
                tracing::warn!(error = format!("{e:#}"), "drand round not fetched");
                Self::new(StatusCode::SERVICE_UNAVAILABLE, "beacon_unavailable")
            }
            DrawError::BeaconSignatureInvalid { round } => {
                Self::new(StatusCode::UNPROCESSABLE_ENTITY, "beacon_signature_invalid")
                    .count("round", round)
            }
            DrawError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<DecideError> for ApiError {
    fn from(error: DecideError) -> Self {
        match error {
            DecideError::Invalid(fields) => Self::validation(&fields),
            DecideError::NotFound => Self::purchase_not_found(),
            DecideError::NotPending(e) => Self::worded(
                StatusCode::CONFLICT,
                "purchase_not_pending",
                Message::from(&e),
            ),
            DecideError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<AuditQueryError> for ApiError {
    fn from(error: AuditQueryError) -> Self {
        match error {
            AuditQueryError::Invalid(fields) => Self::validation(&fields),
            AuditQueryError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<BulkError> for ApiError {
    fn from(error: BulkError) -> Self {
        match error {
            BulkError::Invalid(fields) => Self::validation(&fields),
            BulkError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<VerifyError> for ApiError {
    fn from(error: VerifyError) -> Self {
        match error {
            VerifyError::Invalid(fields) => Self::validation(&fields),
            VerifyError::Miss(miss) => Self::new(StatusCode::NOT_FOUND, miss.code()),
            VerifyError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<LoginError> for ApiError {
    fn from(error: LoginError) -> Self {
        match error {
            LoginError::MissingFields => {
                Self::new(StatusCode::UNPROCESSABLE_ENTITY, "missing_fields")
            }
            LoginError::InvalidCredentials => {
                Self::new(StatusCode::UNAUTHORIZED, "invalid_credentials")
            }
            LoginError::Unknown(e) => Self::internal(&e),
        }
    }
}

impl From<AuthError> for ApiError {
    fn from(error: AuthError) -> Self {
        let code = match error {
            AuthError::Missing => "unauthorized",
            AuthError::Token(TokenError::Expired) => "token_expired",
            AuthError::Token(TokenError::Invalid) => "token_invalid",
            AuthError::SessionEnded => "session_ended",
            AuthError::Unknown(e) => return Self::internal(&e),
        };
        Self::new(StatusCode::UNAUTHORIZED, code)
    }
}

impl From<PasswordChangeError> for ApiError {
    fn from(error: PasswordChangeError) -> Self {
        match error {
            PasswordChangeError::WrongCurrent => Self::validation(&FieldErrors::single(
                "currentPassword",
                FieldError::WrongCurrentPassword,
            )),
            PasswordChangeError::Invalid(fields) => Self::validation(&fields),
            PasswordChangeError::Unknown(e) => Self::internal(&e),
        }
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

/// Middleware: renders an [`ApiError`] in the request's language and says which it used.
pub async fn localize(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let lang = request_lang(req.request());
    let res = next.call(req).await?;
    let translated = (lang != Lang::default())
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
    Err(ApiError::new(StatusCode::NOT_FOUND, "route_not_found"))
}

#[cfg(test)]
mod tests {
    use rifa_domain::proof::ProofError;
    use rifa_domain::ticket::TicketNumber;

    use super::*;

    fn message(error: &ApiError, lang: Lang) -> String {
        error
            .0
            .message
            .try_render(lang)
            .unwrap_or_else(|e| panic!("{error}: {e}"))
    }

    #[test]
    fn rate_limited_says_one_second_in_the_singular() {
        let cases = [
            (
                1,
                Lang::Es,
                "Demasiados intentos. Espera 1 segundo e inténtalo de nuevo.",
            ),
            (
                1,
                Lang::En,
                "Too many attempts. Wait 1 second and try again.",
            ),
            (
                2,
                Lang::Es,
                "Demasiados intentos. Espera 2 segundos e inténtalo de nuevo.",
            ),
            (
                2,
                Lang::En,
                "Too many attempts. Wait 2 seconds and try again.",
            ),
        ];
        for (seconds, lang, expected) in cases {
            assert_eq!(message(&ApiError::rate_limited(seconds), lang), expected);
        }
    }

    /// Every `StatusCode::…, "code"` written in this crate's sources: the codes the API answers
    /// with besides the domain's own (which rifa-text's tests cover).
    fn codes_in_sources() -> Vec<String> {
        fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
            let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}"));
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let source: String = std::fs::read_to_string(&path)
                        .unwrap_or_default()
                        .lines()
                        .filter(|line| !line.trim_start().starts_with("//"))
                        .flat_map(|line| [line, "\n"])
                        .collect();
                    for (at, _) in source.match_indices("StatusCode::") {
                        let rest = &source[at..];
                        let after_status = rest.trim_start_matches(|c: char| c != ',' && c != ')');
                        let Some(literal) = after_status.strip_prefix(',') else {
                            continue;
                        };
                        let Some(literal) = literal.trim_start().strip_prefix('"') else {
                            continue;
                        };
                        if let Some((code, _)) = literal.split_once('"') {
                            out.push(code.to_owned());
                        }
                    }
                }
            }
        }
        let mut codes = Vec::new();
        walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut codes,
        );
        codes.sort();
        codes.dedup();
        codes
    }

    #[test]
    fn every_code_the_api_answers_with_has_its_text_in_both_languages() {
        let codes = codes_in_sources();
        assert!(codes.len() > 20, "{codes:?}");
        let keys = rifa_text::keys();
        for code in &codes {
            assert!(
                keys.iter().any(|k| k == code
                    || k.strip_prefix(code.as_str())
                        .is_some_and(|r| r.starts_with('-'))),
                "no text for {code}"
            );
        }
        // The errors built other than by `StatusCode::…, "code"`, and those with parameters.
        let decided = rifa_domain::purchase::NotPending {
            current: rifa_domain::purchase::PurchaseStatus::Approved,
        };
        let errors = [
            ApiError::from(AuthError::Missing),
            ApiError::from(AuthError::Token(TokenError::Expired)),
            ApiError::from(AuthError::Token(TokenError::Invalid)),
            ApiError::from(ProofFailure::NotPending(
                rifa_domain::purchase::PurchaseStatus::Approved,
            )),
            ApiError::from(ProofFailure::Refused(ProofError::WrongType)),
            ApiError::from(DecideError::NotPending(decided)),
            ApiError::from(VerifyError::Miss(
                rifa_domain::lookup::LookupMiss::NoPurchases,
            )),
            ApiError::from(RaffleError::BelowHeldNumber {
                highest_held: TicketNumber::from_stored(7),
            }),
            ApiError::from(RaffleError::HasPurchases { count: 2 }),
            ApiError::from(PurchaseError::TotalMismatch {
                expected: rifa_domain::money::Money::from_cents(2_600)
                    .unwrap_or_else(|e| panic!("{e:?}")),
                sent: rifa_domain::money::Money::from_cents(1_300)
                    .unwrap_or_else(|e| panic!("{e:?}")),
            }),
            ApiError::from(PurchaseError::NumbersTaken {
                numbers: vec![TicketNumber::from_stored(7), TicketNumber::from_stored(42)],
                max_tickets: 100,
            }),
            ApiError::unsupported_media_type("application/json"),
            ApiError::receipt_being_rendered(3),
            ApiError::email_test_failed("refused"),
            ApiError::validation(&FieldErrors::single("email", FieldError::InvalidEmail)),
        ];
        for error in &errors {
            for lang in [Lang::Es, Lang::En] {
                assert!(!message(error, lang).is_empty(), "{error}");
            }
        }
        assert_eq!(
            message(&errors[10], Lang::Es),
            "Estos boletos ya no están disponibles: 0007, 0042. Elige otros y vuelve a intentarlo."
        );
    }
}
