use actix_web::HttpResponse;
use actix_web::http::header::{
    CacheControl, CacheDirective, ContentDisposition, DispositionParam, DispositionType,
};

/// The stdlib-only Python verifier (`scripts/verify_draw.py`), built into the binary so the
/// verification page can offer the very script this version's tests check against the draw's
/// test vectors.
const SCRIPT: &str = include_str!("../../../../../scripts/verify_draw.py");
/// The document it implements, every byte of the draw (`docs/VERIFYING.md`).
const DOCUMENT: &str = include_str!("../../../../../docs/VERIFYING.md");

fn download(body: &'static str, content_type: &str, name: &str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(name.to_owned())],
        })
        .insert_header(CacheControl(vec![
            CacheDirective::Public,
            CacheDirective::MaxAge(3600),
        ]))
        .body(body)
}

/// `verify_draw.py`: checks a published draw file offline with Python 3.9+ alone
/// (`python3 verify_draw.py sorteo.json [--ref RF-…] [--lang en]`).
#[tracing::instrument(name = "api.draws.verifier.script", skip_all)]
#[utoipa::path(get, path = "/api/draw/verifier/verify_draw.py", tag = "raffles", responses(
    (status = 200, content_type = "text/x-python", body = String),
))]
pub async fn script() -> HttpResponse {
    download(SCRIPT, "text/x-python; charset=utf-8", "verify_draw.py")
}

/// `VERIFYING.md`: every byte of the draw, the rules and the test vectors' layout.
#[tracing::instrument(name = "api.draws.verifier.document", skip_all)]
#[utoipa::path(get, path = "/api/draw/verifier/VERIFYING.md", tag = "raffles", responses(
    (status = 200, content_type = "text/markdown", body = String),
))]
pub async fn document() -> HttpResponse {
    download(DOCUMENT, "text/markdown; charset=utf-8", "VERIFYING.md")
}
