//! Every route of the API, in one table. Handlers live one per file, grouped by resource; each
//! parses and authorises, calls one use case and shapes the answer.
//!
//! A route's path and methods are written once, in its handler's `#[utoipa::path]`: the table
//! below only names handlers, and both actix's routing and the OpenAPI document are read from it.

pub mod audit;
pub mod auth;
pub mod draws;
pub mod exchange_rates;
pub mod live;
pub mod mail;
pub mod payment_methods;
pub mod photos;
pub mod proofs;
pub mod purchases;
pub mod raffles;
pub mod settings;
pub mod staff;
pub mod system;

use actix_multipart::form::MultipartFormConfig;
use actix_web::Route;
use actix_web::http::Method;
use actix_web::middleware::from_fn;
use actix_web::web::{self, resource, scope};
use utoipa::openapi::{OpenApi, PathItem};

use crate::error;

/// Bodies are small JSON documents; 64 KB leaves room for long descriptions.
const JSON_LIMIT: usize = 64 * 1024;
/// A purchase of all 99,999 numbers of a raffle is about 600 KB of JSON text.
const MULTIPART_LIMIT: usize = 1024 * 1024;

/// Static prefixes a request walks past with one string comparison; a path with a parameter is
/// matched by a regular expression, tried one route after another, so groups come first.
const SCOPES: [&str; 2] = ["/api/raffles", ADMIN_SCOPE];

/// The admin routes' group: its requests' sessions are looked up before their handlers run.
const ADMIN_SCOPE: &str = "/api/admin";

/// One operation the API serves.
pub struct Endpoint {
    pub path: String,
    pub methods: Vec<Method>,
    /// The handler's own OpenAPI fragment; `None` for the routes that are no JSON API (the live
    /// connection, the metrics and the proofs' and photos' byte streams).
    pub documentation: Option<OpenApi>,
    handler: fn(Route) -> Route,
}

impl Endpoint {
    /// A handler with a `#[utoipa::path]`: where and how it is served comes from its fragment.
    fn documented(documentation: OpenApi, handler: fn(Route) -> Route) -> Self {
        let (path, methods) = documentation
            .paths
            .paths
            .iter()
            .next()
            .map(|(path, item)| (path.clone(), methods(item)))
            .unwrap_or_default();
        Self {
            path,
            methods,
            documentation: Some(documentation),
            handler,
        }
    }

    fn undocumented(path: &str, methods: &[Method], handler: fn(Route) -> Route) -> Self {
        Self {
            path: path.to_owned(),
            methods: methods.to_vec(),
            documentation: None,
            handler,
        }
    }
}

fn methods(item: &PathItem) -> Vec<Method> {
    [
        (&item.get, Method::GET),
        (&item.head, Method::HEAD),
        (&item.post, Method::POST),
        (&item.put, Method::PUT),
        (&item.patch, Method::PATCH),
        (&item.delete, Method::DELETE),
        (&item.options, Method::OPTIONS),
        (&item.trace, Method::TRACE),
    ]
    .into_iter()
    .filter(|(operation, _)| operation.is_some())
    .map(|(_, method)| method)
    .collect()
}

/// A handler served where its `#[utoipa::path]` says. The one-path `OpenApi` derive is how a
/// declarative macro reaches the annotation's generated type (`__path_<handler>`) without
/// pasting identifiers together.
macro_rules! documented {
    ($($segment:ident)::+) => {{
        #[derive(utoipa::OpenApi)]
        #[openapi(paths($($segment)::+))]
        struct Fragment;
        Endpoint::documented(
            <Fragment as utoipa::OpenApi>::openapi(),
            |route| route.to($($segment)::+),
        )
    }};
}

/// Every route, in the order actix tries them within its group (`/purchases/search` before
/// `/purchases/{id}`).
#[must_use]
pub fn table() -> Vec<Endpoint> {
    vec![
        documented!(raffles::purchase::public),
        documented!(raffles::availability::public),
        documented!(raffles::list::public),
        documented!(raffles::get::public),
        documented!(raffles::tickets::public),
        documented!(raffles::promotions::public),
        documented!(raffles::quote::quote),
        documented!(raffles::release_alert::subscribe),
        documented!(draws::ledger::ledger),
        documented!(draws::public::view),
        documented!(draws::certificate::certificate),
        documented!(draws::verifier::script),
        documented!(draws::verifier::document),
        documented!(auth::login::login),
        documented!(auth::me::me),
        documented!(auth::logout::logout),
        documented!(auth::logout::everywhere),
        documented!(auth::password::change),
        documented!(staff::list::list),
        documented!(staff::create::create),
        documented!(staff::update::update),
        documented!(staff::reset_password::reset),
        documented!(audit::verification::verify),
        documented!(audit::figures::figures),
        documented!(audit::export::export),
        documented!(audit::list::list),
        documented!(purchases::stats::stats),
        documented!(purchases::stats_daily::daily),
        documented!(raffles::list::admin),
        documented!(raffles::create::create),
        documented!(raffles::get::admin),
        documented!(raffles::update::update),
        documented!(raffles::delete::delete),
        documented!(raffles::tickets::admin),
        documented!(raffles::quote::admin),
        documented!(raffles::availability::admin),
        documented!(raffles::promotions::admin),
        documented!(raffles::purchase::admin_test),
        documented!(draws::admin::view),
        documented!(draws::prizes::replace),
        documented!(draws::freeze::freeze),
        documented!(draws::result::preview),
        documented!(draws::result::record),
        documented!(draws::delivered::delivered),
        documented!(photos::upload::upload),
        documented!(purchases::list::list),
        documented!(purchases::search::search),
        documented!(purchases::export::export),
        documented!(purchases::proof_check::proof_check),
        documented!(purchases::proof_queue::queue),
        documented!(purchases::proof_queue::decide),
        documented!(purchases::get::get),
        documented!(purchases::decide::decide),
        documented!(purchases::reopen::reopen),
        documented!(mail::list::list),
        documented!(mail::retry::retry),
        documented!(mail::test::send),
        documented!(payment_methods::list::admin),
        documented!(payment_methods::create::create),
        documented!(payment_methods::update::update),
        documented!(payment_methods::delete::delete),
        documented!(exchange_rates::list::list),
        documented!(exchange_rates::create::create),
        documented!(exchange_rates::update::update),
        documented!(exchange_rates::delete::delete),
        documented!(settings::branding_update::update),
        documented!(settings::email_get::get),
        documented!(settings::email_update::update),
        documented!(settings::discounts_get::get),
        documented!(settings::discounts_update::update),
        documented!(system::health::live),
        documented!(system::health::ready),
        Endpoint::undocumented("/ws", &[Method::GET], |route| route.to(live::connect)),
        Endpoint::undocumented("/metrics", &[Method::GET], |route| {
            route.to(system::metrics::scrape)
        }),
        documented!(system::dev_mode::dev_mode),
        documented!(settings::branding_get::branding),
        documented!(payment_methods::list::public),
        documented!(raffles::verify::verify_tickets),
        documented!(draws::winners::list),
        documented!(proofs::upload_url::upload_url),
        Endpoint::undocumented("/api/uploads/{token}", &[Method::PUT], |route| {
            route.to(proofs::upload::upload)
        }),
        Endpoint::undocumented(
            "/api/proofs/{token}",
            &[Method::GET, Method::HEAD],
            |route| route.to(proofs::download::download),
        ),
        // The spec's original link shape, kept for links already sent.
        Endpoint::undocumented("/uploads/{token}", &[Method::GET, Method::HEAD], |route| {
            route.to(proofs::download::download)
        }),
        Endpoint::undocumented(
            "/api/photos/{name}",
            &[Method::GET, Method::HEAD],
            |route| route.to(photos::get::get),
        ),
        documented!(proofs::attach::attach),
        documented!(proofs::invoice::invoice),
        documented!(proofs::buyer::view),
    ]
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.app_data(
        web::JsonConfig::default()
            .limit(JSON_LIMIT)
            .error_handler(error::json_error),
    )
    .app_data(web::PathConfig::default().error_handler(error::path_error))
    .app_data(web::QueryConfig::default().error_handler(error::query_error))
    .app_data(
        MultipartFormConfig::default()
            .total_limit(MULTIPART_LIMIT)
            .memory_limit(MULTIPART_LIMIT)
            .error_handler(error::multipart_error),
    );
    let table = table();
    for prefix in SCOPES {
        let mut group = scope(prefix);
        for (path, endpoints) in by_path(&table) {
            if let Some(rest) = within(prefix, path) {
                group = group.service(resource_of(rest, &endpoints));
            }
        }
        if prefix == ADMIN_SCOPE {
            cfg.service(group.wrap(from_fn(crate::extract::authenticate_first)));
        } else {
            cfg.service(group);
        }
    }
    for (path, endpoints) in by_path(&table) {
        if SCOPES.iter().all(|prefix| within(prefix, path).is_none()) {
            cfg.service(resource_of(path, &endpoints));
        }
    }
    cfg.service(crate::openapi::docs(&table))
        .default_service(web::to(error::unknown_route));
}

/// The path below `prefix`, if the path lies in that group.
fn within<'p>(prefix: &str, path: &'p str) -> Option<&'p str> {
    path.strip_prefix(prefix)
        .filter(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// The table's paths in first-seen order, each with every endpoint served there: one actix
/// resource per path, so a wrong method answers 405 with the methods that work.
fn by_path(table: &[Endpoint]) -> Vec<(&str, Vec<&Endpoint>)> {
    let mut paths: Vec<(&str, Vec<&Endpoint>)> = Vec::new();
    for endpoint in table {
        match paths.iter_mut().find(|(path, _)| *path == endpoint.path) {
            Some((_, endpoints)) => endpoints.push(endpoint),
            None => paths.push((&endpoint.path, vec![endpoint])),
        }
    }
    paths
}

fn resource_of(path: &str, endpoints: &[&Endpoint]) -> actix_web::Resource {
    endpoints
        .iter()
        .flat_map(|endpoint| {
            endpoint
                .methods
                .iter()
                .map(|method| (endpoint.handler)(web::method(method.clone())))
        })
        .fold(resource(path), actix_web::Resource::route)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn operations_of(document: &OpenApi) -> BTreeSet<(String, String)> {
        document
            .paths
            .paths
            .iter()
            .flat_map(|(path, item)| {
                methods(item)
                    .into_iter()
                    .map(|method| (path.clone(), method.to_string()))
            })
            .collect()
    }

    #[test]
    fn the_document_lists_every_documented_route_and_nothing_else() {
        let table = table();
        let served: BTreeSet<(String, String)> = table
            .iter()
            .filter(|endpoint| endpoint.documentation.is_some())
            .flat_map(|e| e.methods.iter().map(|m| (e.path.clone(), m.to_string())))
            .collect();

        assert!(served.len() > 40, "{}", served.len());
        assert_eq!(operations_of(&crate::openapi::document(&table)), served);
    }

    #[test]
    fn only_the_live_connection_the_metrics_and_the_byte_streams_are_left_out_of_the_document() {
        let table = table();
        let undocumented: Vec<&str> = table
            .iter()
            .filter(|endpoint| endpoint.documentation.is_none())
            .map(|endpoint| endpoint.path.as_str())
            .collect();

        assert_eq!(
            undocumented,
            [
                "/ws",
                "/metrics",
                "/api/uploads/{token}",
                "/api/proofs/{token}",
                "/uploads/{token}",
                "/api/photos/{name}"
            ]
        );
    }

    #[test]
    fn every_route_has_a_path_and_a_method_and_no_two_claim_the_same_operation() {
        let table = table();
        let mut seen = BTreeSet::new();
        for endpoint in &table {
            assert!(endpoint.path.starts_with('/'), "{}", endpoint.path);
            assert!(!endpoint.methods.is_empty(), "{}", endpoint.path);
            for method in &endpoint.methods {
                assert!(
                    seen.insert((endpoint.path.clone(), method.to_string())),
                    "{method} {} is served twice",
                    endpoint.path
                );
            }
        }
    }
}
