//! Request extractors: the signed-in admin and what their role allows, the client's address,
//! and multipart forms that answer every failure in the API's error shape.

use std::future::Future;
use std::marker::PhantomData;
use std::net::IpAddr;
use std::pin::Pin;

use actix_multipart::form::{MultipartCollect, MultipartForm};
use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::header::AUTHORIZATION;
use actix_web::middleware::Next;
use actix_web::{FromRequest, HttpMessage, HttpRequest, web};
use rifa_app::auth::{AdminSession, AuthError};
use rifa_domain::admin::Permission;
use rifa_domain::audit::Actor;

use crate::AppState;
use crate::error::ApiError;

fn state(req: &HttpRequest) -> Result<web::Data<AppState>, ApiError> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| ApiError::internal(&anyhow::anyhow!("application state is not registered")))
}

fn bearer(req: &HttpRequest) -> Option<String> {
    let value = req.headers().get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_owned())
}

/// The session an admin request's token belongs to, looked up by [`authenticate_first`].
struct Authenticated(Result<AdminSession, AuthError>);

/// Looks up the bearer token's session before the handler's extractors run. They are polled
/// together and the first to fail answers, so a session looked up meanwhile would let a
/// malformed body answer 400 before "who are you" (401) and "may you" (403); looked up here,
/// the admin extractors are ready at once and, named first, answer first.
///
/// # Errors
/// Only the handler's own.
pub async fn authenticate_first(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if let Some(token) = bearer(req.request())
        && let Some(state) = req.app_data::<web::Data<AppState>>().cloned()
    {
        let session = state.auth.authenticate(Some(&token)).await;
        req.extensions_mut().insert(Authenticated(session));
    }
    next.call(req).await
}

/// A request from a signed-in admin: a valid bearer token of a live session. Even an account
/// that must choose a new password passes: this is for the routes that let it do that (who am
/// I, change password, sign out). Every other admin route asks for [`Allowed`] or [`Acting`].
pub struct Admin(pub AdminSession);

impl FromRequest for Admin {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        if let Some(Authenticated(session)) = req.extensions_mut().remove() {
            return Box::pin(std::future::ready(session.map(Self).map_err(Into::into)));
        }
        let state = state(req);
        let token = bearer(req);
        Box::pin(async move { Ok(Self(state?.auth.authenticate(token.as_deref()).await?)) })
    }
}

/// The signed-in admin when the request carries a valid bearer token; `None` otherwise (for
/// routes that also serve the public on other grounds).
pub struct MaybeAdmin(pub Option<AdminSession>);

impl FromRequest for MaybeAdmin {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = state(req);
        let token = bearer(req);
        Box::pin(async move {
            let Some(token) = token else {
                return Ok(Self(None));
            };
            Ok(Self(state?.auth.authenticate(Some(&token)).await.ok()))
        })
    }
}

/// What a route needs of the admin calling it, named in the handler's signature
/// (`Allowed<need::Purchases>`), so each route's rule is read where the route is.
pub trait Need: 'static {
    /// `None`: any role (reading the catalogue every screen names things from).
    const PERMISSION: Option<Permission>;
    /// Whether an account with a handed-over password must replace it first.
    const PASSWORD_CHANGED: bool = true;
}

/// The needs a route can name: one per [`Permission`], [`need::AnyRole`], and
/// [`need::SignedIn`] for what an account does before anything else (sign out, change its
/// password).
pub mod need {
    use rifa_domain::admin::Permission;

    pub struct SignedIn;
    impl super::Need for SignedIn {
        const PERMISSION: Option<Permission> = None;
        const PASSWORD_CHANGED: bool = false;
    }

    macro_rules! needs {
        ($($name:ident => $permission:expr),+ $(,)?) => {$(
            pub struct $name;
            impl super::Need for $name {
                const PERMISSION: Option<Permission> = $permission;
            }
        )+};
    }

    needs! {
        AnyRole => None,
        Purchases => Some(Permission::Purchases),
        Reports => Some(Permission::Reports),
        Catalogue => Some(Permission::Catalogue),
        Draws => Some(Permission::Draws),
        Settings => Some(Permission::Settings),
        Staff => Some(Permission::Staff),
        Audit => Some(Permission::Audit),
    }
}

/// Refuses a session that may not do `N`'s work: 403 naming the role and the permission, or
/// 403 `password_change_required` until a handed-over password is replaced.
fn allow<N: Need>(session: &AdminSession) -> Result<(), ApiError> {
    if N::PASSWORD_CHANGED && session.must_change_password {
        return Err(ApiError::password_change_required());
    }
    match N::PERMISSION {
        Some(permission) if !session.can(permission) => {
            Err(ApiError::forbidden(session.role, permission))
        }
        _ => Ok(()),
    }
}

/// A request from a signed-in admin whose role allows `N` (for routes that need no more of
/// the session than that).
pub struct Allowed<N: Need>(PhantomData<N>);

impl<N: Need> FromRequest for Allowed<N> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let admin = Admin::from_request(req, payload);
        Box::pin(async move {
            let Admin(session) = admin.await?;
            allow::<N>(&session)?;
            Ok(Self(PhantomData))
        })
    }
}

/// A request that changes something, from an admin whose role allows `N`: the session, and
/// the actor the audit trail names (the admin and the client's address).
pub struct Acting<N: Need> {
    pub session: AdminSession,
    pub actor: Actor,
    need: PhantomData<N>,
}

impl<N: Need> FromRequest for Acting<N> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let admin = Admin::from_request(req, payload);
        let ip = ClientIp::from_request(req, payload).into_inner();
        Box::pin(async move {
            let Admin(session) = admin.await?;
            allow::<N>(&session)?;
            let actor = actor_of(&session, ip.ok());
            Ok(Self {
                session,
                actor,
                need: PhantomData,
            })
        })
    }
}

/// The actor the audit trail names for a signed-in admin calling from `ip`.
fn actor_of(session: &AdminSession, ip: Option<ClientIp>) -> Actor {
    Actor {
        admin_id: Some(session.admin_id),
        username: session.username.clone(),
        ip: ip.map(|ClientIp(ip)| ip.to_string()),
    }
}

/// The caller's address: the socket peer or, behind a trusted proxy (`RIFA_TRUST_PROXY`), the
/// last `X-Forwarded-For` hop: the one the proxy itself appended. Earlier hops are written by
/// the client and would let it pick a new address per request to escape rate limits.
pub struct ClientIp(pub IpAddr);

impl FromRequest for ClientIp {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let trust_proxy = req
            .app_data::<web::Data<AppState>>()
            .is_some_and(|s| s.trust_proxy);
        let forwarded = trust_proxy.then(|| last_forwarded_hop(req)).flatten();
        let ip = forwarded
            .or_else(|| req.peer_addr().map(|a| a.ip()))
            .unwrap_or(IpAddr::from([0, 0, 0, 0]));
        std::future::ready(Ok(Self(ip)))
    }
}

/// The last hop of every `X-Forwarded-For` line joined in order (RFC 9110 §5.3): a proxy may
/// append its hop as a line of its own (HAProxy's `option forwardfor`) after the client's lines.
/// An unreadable last hop is no address at all, never an earlier, client-written one.
fn last_forwarded_hop(req: &HttpRequest) -> Option<IpAddr> {
    let last_line = req.headers().get_all("x-forwarded-for").last()?;
    let last_hop = last_line.to_str().ok()?.rsplit(',').next()?.trim();
    last_hop.parse().ok()
}

/// A `multipart/form-data` body parsed into `T`. A request that is not multipart with a boundary
/// is refused here with 415, before actix-multipart, which would answer in plain text.
pub struct Multipart<T>(pub T);

impl<T: MultipartCollect + 'static> FromRequest for Multipart<T> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let is_multipart = req.mime_type().ok().flatten().is_some_and(|mime| {
            mime.essence_str() == "multipart/form-data"
                && mime.get_param(actix_web::mime::BOUNDARY).is_some()
        });
        if !is_multipart {
            let refused = ApiError::unsupported_media_type("multipart/form-data");
            return Box::pin(async move { Err(refused.into()) });
        }
        let form = MultipartForm::<T>::from_request(req, payload);
        Box::pin(async move { form.await.map(|f| Self(f.into_inner())) })
    }
}
