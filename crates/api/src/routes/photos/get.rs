use actix_web::http::header::{self, CacheControl, CacheDirective, ETag, EntityTag};
use actix_web::{HttpRequest, HttpResponse, web};
use rifa_domain::photo::PhotoName;

use crate::AppState;
use crate::error::ApiError;

/// A photo as the site shows it. Its name is its content's hash, so it never changes: cached
/// for a year by browsers and CDNs alike.
#[tracing::instrument(name = "api.photos.get.get", skip_all)]
pub async fn get(
    req: HttpRequest,
    state: web::Data<AppState>,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let name = PhotoName::parse(&name).ok_or_else(ApiError::not_found)?;
    let tag = EntityTag::new_strong(name.to_string());
    let cache = CacheControl(vec![
        CacheDirective::Public,
        CacheDirective::MaxAge(31_536_000),
        CacheDirective::Extension("immutable".into(), None),
    ]);
    let unchanged = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag.to_string()));
    if unchanged {
        return Ok(HttpResponse::NotModified()
            .insert_header(cache)
            .insert_header(ETag(tag))
            .finish());
    }
    let photo = state
        .photos
        .photo(&name)
        .await
        .map_err(|e| ApiError::internal(&e))?
        .ok_or_else(ApiError::not_found)?;
    Ok(HttpResponse::Ok()
        .content_type(photo.content_type)
        .insert_header(cache)
        .insert_header(ETag(tag))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(photo.bytes))
}
