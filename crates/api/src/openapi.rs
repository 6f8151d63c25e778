//! The OpenAPI document, generated from the handlers' annotations, and its docs page.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
use utoipa::{Modify, OpenApi};
use utoipa_swagger_ui::SwaggerUi;

use crate::routes::{
    auth, exchange_rates, mail, payment_methods, proofs, purchases, raffles, settings, system,
};

#[derive(OpenApi)]
#[openapi(
    info(title = "Rifa API", description = "Online raffles: raffles, tickets, purchases and their administration. Errors share one shape (`ErrorBody`); messages follow `Accept-Language` (es by default, en)."),
    paths(
        system::health::live,
        system::health::ready,
        system::dev_mode::dev_mode,
        settings::branding_get::branding,
        payment_methods::list::public,
        raffles::verify::verify_tickets,
        raffles::list::public,
        raffles::get::public,
        raffles::tickets::public,
        raffles::availability::public,
        raffles::promotions::public,
        raffles::quote::quote,
        raffles::purchase::public,
        proofs::upload_url::upload_url,
        proofs::attach::attach,
        proofs::invoice::invoice,
        auth::login::login,
        auth::me::me,
        purchases::stats::stats,
        purchases::stats_daily::daily,
        raffles::list::admin,
        raffles::create::create,
        raffles::get::admin,
        raffles::update::update,
        raffles::delete::delete,
        raffles::tickets::admin,
        raffles::availability::admin,
        raffles::promotions::admin,
        raffles::quote::admin,
        raffles::purchase::admin_test,
        purchases::list::list,
        purchases::search::search,
        purchases::get::get,
        purchases::decide::decide,
        payment_methods::list::admin,
        payment_methods::create::create,
        payment_methods::update::update,
        payment_methods::delete::delete,
        exchange_rates::list::list,
        exchange_rates::create::create,
        exchange_rates::update::update,
        exchange_rates::delete::delete,
        settings::branding_update::update,
        settings::email_get::get,
        settings::email_update::update,
        settings::discounts_get::get,
        settings::discounts_update::update,
        mail::list::list,
        mail::retry::retry,
        mail::test::send,
    ),
    modifiers(&BearerAuth, &CommonAnswers),
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}

/// Answers any call may get, added to every operation rather than repeated in each handler's
/// annotation: 503 when the database cannot be reached, and 408 for a body that arrives too
/// slowly (operations that take one).
struct CommonAnswers;

impl Modify for CommonAnswers {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let error = |description: &str| {
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("ErrorBody")))
                        .build(),
                )
                .build()
        };
        for item in openapi.paths.paths.values_mut() {
            for operation in [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
                &mut item.head,
            ]
            .into_iter()
            .flatten()
            {
                let responses = &mut operation.responses.responses;
                if operation.request_body.is_some() {
                    responses.entry("408".to_owned()).or_insert_with(|| {
                        error("`request_timeout`: the body paused or took too long").into()
                    });
                }
                responses.entry("503".to_owned()).or_insert_with(|| {
                    error("`service_unavailable`: the database cannot be reached; retry after `Retry-After`").into()
                });
            }
        }
    }
}

/// `/api/openapi.json` and the interactive docs at `/api/docs/` (assets bundled in the binary).
pub fn docs() -> SwaggerUi {
    SwaggerUi::new("/api/docs/{_:.*}").url("/api/openapi.json", ApiDoc::openapi())
}
