//! The OpenAPI document, generated from the handlers' annotations, and its docs page.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
use utoipa::{Modify, OpenApi};
use utoipa_swagger_ui::SwaggerUi;

use crate::routes::Endpoint;

/// What the document says besides its operations, which come from the route table.
#[derive(OpenApi)]
#[openapi(
    info(title = "Rifa API", description = "Online raffles: raffles, tickets, purchases and their administration. Errors share one shape (`ErrorBody`); messages follow `Accept-Language` (es by default, en)."),
    modifiers(&BearerAuth),
)]
struct ApiDoc;

/// The OpenAPI document of every documented route in the table.
#[must_use]
pub fn document(table: &[Endpoint]) -> utoipa::openapi::OpenApi {
    let mut document = ApiDoc::openapi();
    for fragment in table
        .iter()
        .filter_map(|endpoint| endpoint.documentation.clone())
    {
        document.merge(fragment);
    }
    CommonAnswers.modify(&mut document);
    document
}

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
/// annotation: 503 when the database cannot be reached, 408 for a body that arrives too slowly
/// (operations that take one), and 403 for an admin route the caller's role does not allow
/// (every admin operation but the `auth` ones, which need only a session).
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
                let needs_a_role = operation.security.as_ref().is_some_and(|s| !s.is_empty())
                    && !operation
                        .tags
                        .as_ref()
                        .is_some_and(|tags| tags.iter().any(|tag| tag == "auth"));
                let responses = &mut operation.responses.responses;
                if needs_a_role {
                    responses.entry("403".to_owned()).or_insert_with(|| {
                        error("`forbidden`: the caller's role lacks the permission this route needs (named in `permission`); `password_change_required`: the account must choose its own password first").into()
                    });
                }
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
pub fn docs(table: &[Endpoint]) -> SwaggerUi {
    SwaggerUi::new("/api/docs/{_:.*}").url("/api/openapi.json", document(table))
}
