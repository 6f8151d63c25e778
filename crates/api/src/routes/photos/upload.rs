use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use futures_util::StreamExt as _;
use rifa_app::photos::PhotoError;
use rifa_domain::admin::Permission;
use rifa_domain::photo::MAX_PHOTO_BYTES;
use rifa_ports::outbound::PhotoRefusal;
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::dto::ErrorBody;
use crate::error::ApiError;
use crate::extract::{Acting, need};

/// Where an uploaded photo is served: what a raffle's or a prize's `image` may be.
#[derive(Serialize, ToSchema)]
pub struct UploadedPhoto {
    /// A path on the API (and on the site, which forwards `/api`): `/api/photos/{sha256}.jpg`.
    #[schema(
        example = "/api/photos/ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.jpg"
    )]
    pub url: String,
}

/// Uploads a photo of a raffle, a prize or a delivery: the request's body is the file (JPG,
/// PNG, GIF or WEBP, at most 15 MB and 50 megapixels). It is turned upright, fitted within
/// 1,600 px a side and encoded again without its metadata; the answer says where it is
/// served. Needs the catalogue or the draws permission.
#[tracing::instrument(name = "api.photos.upload.upload", skip_all)]
#[utoipa::path(post, path = "/api/admin/photos", tag = "admin", security(("bearer" = [])),
    request_body(content = Vec<u8>, content_type = "image/*"),
    responses(
        (status = 201, body = UploadedPhoto),
        (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody),
        (status = 408, body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
pub async fn upload(
    Acting { session, .. }: Acting<need::AnyRole>,
    state: web::Data<AppState>,
    mut body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    if !session.can(Permission::Catalogue) && !session.can(Permission::Draws) {
        return Err(ApiError::forbidden(session.role, Permission::Catalogue));
    }
    let mut bytes = Vec::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| {
            if crate::body_timeout::timed_out(&e) {
                ApiError::request_timeout()
            } else {
                ApiError::bad_request(e)
            }
        })?;
        if bytes.len() + chunk.len() > MAX_PHOTO_BYTES {
            return Err(too_large());
        }
        bytes.extend_from_slice(&chunk);
    }
    let name = state.photos.upload(bytes).await.map_err(|e| match e {
        PhotoError::TooLarge { .. } => too_large(),
        PhotoError::Refused(refusal) => refused(&refusal),
        PhotoError::Unknown(e) => ApiError::internal(&e),
    })?;
    Ok(HttpResponse::Created().json(UploadedPhoto { url: name.path() }))
}

fn too_large() -> ApiError {
    ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "photo_too_large").count(
        "maxMegabytes",
        u64::try_from(MAX_PHOTO_BYTES >> 20).unwrap_or(u64::MAX),
    )
}

fn refused(refusal: &PhotoRefusal) -> ApiError {
    let status = StatusCode::UNPROCESSABLE_ENTITY;
    match refusal {
        PhotoRefusal::NotAPicture => ApiError::new(status, "photo_not_a_picture"),
        PhotoRefusal::Heif => ApiError::new(status, "photo_heif"),
        PhotoRefusal::TooManyPixels { max_pixels } => {
            ApiError::new(status, "photo_too_many_pixels")
                .count("megapixels", max_pixels / 1_000_000)
        }
        PhotoRefusal::Unreadable => ApiError::new(status, "photo_unreadable"),
    }
}
