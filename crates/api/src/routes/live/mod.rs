//! The admin panel's live connection at `/ws`.
//!
//! Protocol: the client's first message must be `{"type":"admin_auth","token":"…"}` within the
//! authentication timeout (10 s). A bad or expired token (or none in time) closes the connection
//! with code 1008 and a reason, and nothing else is sent. Once authenticated the client receives
//! `{"type":"authenticated"}`, then `{"type":"new_purchase","data":{…}}` for every purchase made
//! on any instance. The server pings every 20 s and drops a connection it has not heard from for
//! 60 s ([`crate::config::LiveTimings`]); it closes the connection when the admin's token expires
//! and when its session ends (signed out, everywhere, a new password, or the admin disabled),
//! with code 1008 and `session ended`: at once on the `access_changed` event the ending raises,
//! before any later notice, and within a second by polling should that event be missed.

use std::time::{Duration, Instant};

use actix_web::{HttpRequest, HttpResponse, web};
use actix_ws::{CloseCode, CloseReason, Message, MessageStream, Session};
use rifa_app::auth::AuthError;
use rifa_domain::admin::{AdminId, Permission};
use rifa_ports::{DomainEvent, EventBus as _, TokenError};
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use crate::AppState;

/// Client messages are tiny; anything bigger is abuse.
const MAX_FRAME: usize = 16 * 1024;

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ClientMessage {
    AdminAuth { token: String },
}

fn policy(description: &str) -> Option<CloseReason> {
    Some(CloseReason {
        code: CloseCode::Policy,
        description: Some(description.to_owned()),
    })
}

/// Why the connection must close now, if its session ended or its role no longer reviews
/// purchases (buyers' names are for those roles); `None` to go on. A database out of reach is
/// asked again at the next check.
async fn still_allowed(state: &AppState, token: &str) -> Option<Option<CloseReason>> {
    match state.auth.authenticate(Some(token)).await {
        Ok(admin) if admin.can(Permission::Purchases) => None,
        Ok(_) => Some(policy("not allowed")),
        Err(AuthError::Token(TokenError::Expired)) => Some(policy("token expired")),
        Err(AuthError::Unknown(error)) => {
            tracing::warn!(
                error = format!("{error:#}"),
                "a live connection's session could not be checked"
            );
            None
        }
        Err(_) => Some(policy("session ended")),
    }
}

/// Tells every instance's live connections of `admin` to check their session at once: after
/// a sign-out, a password change or a change of role.
pub async fn access_changed(state: &AppState, admin: AdminId) {
    state
        .events
        .publish(DomainEvent::AccessChanged { admin_id: admin })
        .await;
}

/// Upgrades to a WebSocket; see the module docs for the protocol.
#[tracing::instrument(name = "api.live.connect", skip_all)]
pub async fn connect(
    req: HttpRequest,
    body: web::Payload,
    state: web::Data<AppState>,
) -> actix_web::Result<HttpResponse> {
    let (response, session, stream) = actix_ws::handle(&req, body)?;
    let stream = stream.max_frame_size(MAX_FRAME);
    actix_web::rt::spawn(serve(state, session, stream));
    Ok(response)
}

async fn serve(state: web::Data<AppState>, mut session: Session, mut stream: MessageStream) {
    let timings = state.live;
    let (token, admin, expires_at) = match tokio::time::timeout(timings.auth_timeout, stream.recv())
        .await
    {
        Ok(Some(Ok(Message::Text(text)))) => match serde_json::from_str::<ClientMessage>(&text) {
            Ok(ClientMessage::AdminAuth { token }) => {
                match state.auth.authenticate(Some(&token)).await {
                    Ok(admin) if admin.can(Permission::Purchases) => {
                        (token, admin.admin_id, admin.expires_at)
                    }
                    Ok(_) => {
                        let _ = session.close(policy("not allowed")).await;
                        return;
                    }
                    Err(AuthError::Token(TokenError::Expired)) => {
                        let _ = session.close(policy("token expired")).await;
                        return;
                    }
                    Err(_) => {
                        let _ = session.close(policy("invalid token")).await;
                        return;
                    }
                }
            }
            Err(_) => {
                let _ = session.close(policy("expected admin_auth")).await;
                return;
            }
        },
        Ok(_) => {
            let _ = session.close(policy("expected admin_auth")).await;
            return;
        }
        Err(_) => {
            let _ = session.close(policy("authentication timed out")).await;
            return;
        }
    };
    if session.text(r#"{"type":"authenticated"}"#).await.is_err() {
        return;
    }
    let _counted = crate::metrics::LiveConnection::open();
    let mut events = state.events.subscribe();
    let mut ping = tokio::time::interval(timings.ping_every);
    let mut session_check = tokio::time::interval(timings.session_check);
    let mut last_heard = Instant::now();
    let until_expiry = (expires_at - chrono::Utc::now())
        .to_std()
        .unwrap_or(Duration::ZERO);
    let expiry = tokio::time::sleep(until_expiry);
    tokio::pin!(expiry);
    let reason = loop {
        tokio::select! {
            event = events.recv() => match event {
                // Checked before any later event is sent: a notice raised after a sign-out
                // never reaches the connection it ended.
                Ok(DomainEvent::AccessChanged { admin_id }) => {
                    if admin_id == admin
                        && let Some(reason) = still_allowed(&state, &token).await
                    {
                        break reason;
                    }
                }
                Ok(event) => {
                    if let Ok(text) = serde_json::to_string(&event)
                        && session.text(text).await.is_err()
                    {
                        return;
                    }
                }
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "a live connection fell behind and missed events");
                }
                Err(RecvError::Closed) => break None,
            },
            message = stream.recv() => match message {
                Some(Ok(Message::Ping(bytes))) => {
                    last_heard = Instant::now();
                    if session.pong(&bytes).await.is_err() {
                        return;
                    }
                }
                Some(Ok(Message::Close(_))) | None => break None,
                Some(Ok(_)) => last_heard = Instant::now(),
                Some(Err(_)) => break policy("protocol error"),
            },
            _ = ping.tick() => {
                if last_heard.elapsed() > timings.idle_limit {
                    break policy("no answer to pings");
                }
                if session.ping(b"").await.is_err() {
                    return;
                }
            }
            // Behind the events, for an instance that missed one (its bus was down).
            _ = session_check.tick() => {
                if let Some(reason) = still_allowed(&state, &token).await {
                    break reason;
                }
            }
            () = &mut expiry => break policy("token expired"),
        }
    };
    let _ = session.close(reason).await;
}
