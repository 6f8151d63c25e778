//! Every route of the API, in one table. Handlers live one per file, grouped by resource; each
//! parses and authorises, calls one use case and shapes the answer.

pub mod auth;
pub mod exchange_rates;
pub mod live;
pub mod mail;
pub mod payment_methods;
pub mod proofs;
pub mod purchases;
pub mod raffles;
pub mod settings;
pub mod system;

use actix_multipart::form::MultipartFormConfig;
use actix_web::web::{self, delete, get, head, post, put, resource, scope};

use crate::error;

/// Bodies are small JSON documents; 64 KB leaves room for long descriptions.
const JSON_LIMIT: usize = 64 * 1024;
/// A purchase of all 99,999 numbers of a raffle is about 600 KB of JSON text.
const MULTIPART_LIMIT: usize = 1024 * 1024;

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
    )
    // Static prefixes first, so a request walks past whole groups with a string comparison; a
    // path with a parameter is matched by a regular expression, tried one route after another.
    .service(
        scope("/api/raffles")
            .service(resource("/{id}/purchase").route(post().to(raffles::purchase::public)))
            .service(resource("/{id}/availability").route(get().to(raffles::availability::public)))
            .service(resource("").route(get().to(raffles::list::public)))
            .service(resource("/{id}").route(get().to(raffles::get::public)))
            .service(resource("/{id}/tickets").route(get().to(raffles::tickets::public)))
            .service(resource("/{id}/promotions").route(get().to(raffles::promotions::public)))
            .service(resource("/{id}/quote").route(get().to(raffles::quote::quote))),
    )
    .service(scope("/api/admin").configure(admin))
    .service(
        resource("/healthz")
            .route(get().to(system::health::live))
            .route(head().to(system::health::live)),
    )
    .service(
        resource("/readyz")
            .route(get().to(system::health::ready))
            .route(head().to(system::health::ready)),
    )
    .service(resource("/ws").route(get().to(live::connect)))
    .service(resource("/api/dev-mode").route(get().to(system::dev_mode::dev_mode)))
    .service(resource("/api/branding").route(get().to(settings::branding_get::branding)))
    .service(resource("/api/payment-methods").route(get().to(payment_methods::list::public)))
    .service(resource("/api/verify-tickets").route(post().to(raffles::verify::verify_tickets)))
    .service(resource("/api/objects/upload").route(post().to(proofs::upload_url::upload_url)))
    .service(resource("/api/uploads/{token}").route(put().to(proofs::upload::upload)))
    .service(
        resource("/api/proofs/{token}")
            .route(get().to(proofs::download::download))
            .route(head().to(proofs::download::download)),
    )
    .service(
        resource("/uploads/{token}")
            .route(get().to(proofs::download::download))
            .route(head().to(proofs::download::download)),
    )
    .service(resource("/api/purchases/{id}/payment-proof").route(put().to(proofs::attach::attach)))
    .service(resource("/api/purchases/{id}/invoice").route(get().to(proofs::invoice::invoice)))
    .service(crate::openapi::docs())
    .default_service(web::to(error::unknown_route));
}

/// Everything under `/api/admin`.
fn admin(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/login").route(post().to(auth::login::login)))
        .service(resource("/me").route(get().to(auth::me::me)))
        .service(resource("/stats").route(get().to(purchases::stats::stats)))
        .service(resource("/stats/daily").route(get().to(purchases::stats_daily::daily)))
        .service(
            resource("/raffles")
                .route(get().to(raffles::list::admin))
                .route(post().to(raffles::create::create)),
        )
        .service(
            resource("/raffles/{id}")
                .route(get().to(raffles::get::admin))
                .route(put().to(raffles::update::update))
                .route(delete().to(raffles::delete::delete)),
        )
        .service(resource("/raffles/{id}/tickets").route(get().to(raffles::tickets::admin)))
        .service(resource("/raffles/{id}/quote").route(get().to(raffles::quote::admin)))
        .service(
            resource("/raffles/{id}/availability").route(get().to(raffles::availability::admin)),
        )
        .service(resource("/raffles/{id}/promotions").route(get().to(raffles::promotions::admin)))
        .service(resource("/raffles/{id}/purchase").route(post().to(raffles::purchase::admin_test)))
        .service(resource("/purchases").route(get().to(purchases::list::list)))
        .service(resource("/purchases/search").route(get().to(purchases::search::search)))
        .service(resource("/purchases/{id}").route(get().to(purchases::get::get)))
        .service(resource("/purchases/{id}/status").route(put().to(purchases::decide::decide)))
        .service(resource("/mail-outbox").route(get().to(mail::list::list)))
        .service(resource("/mail-outbox/{id}/retry").route(post().to(mail::retry::retry)))
        .service(resource("/email-settings/test").route(post().to(mail::test::send)))
        .service(
            resource("/payment-methods")
                .route(get().to(payment_methods::list::admin))
                .route(post().to(payment_methods::create::create)),
        )
        .service(
            resource("/payment-methods/{id}")
                .route(put().to(payment_methods::update::update))
                .route(delete().to(payment_methods::delete::delete)),
        )
        .service(
            resource("/exchange-rates")
                .route(get().to(exchange_rates::list::list))
                .route(post().to(exchange_rates::create::create)),
        )
        .service(
            resource("/exchange-rates/{id}")
                .route(put().to(exchange_rates::update::update))
                .route(delete().to(exchange_rates::delete::delete)),
        )
        .service(resource("/branding").route(post().to(settings::branding_update::update)))
        .service(
            resource("/email-settings")
                .route(get().to(settings::email_get::get))
                .route(put().to(settings::email_update::update)),
        )
        .service(
            resource("/discounts")
                .route(get().to(settings::discounts_get::get))
                .route(put().to(settings::discounts_update::update)),
        );
}
