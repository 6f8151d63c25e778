//! Per-client rate limits on the calls that could be abused: ticket lookups (harvesting buyers'
//! details), admin sign-in (guessing passwords) and purchases (a bot holding every number).

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::AppState;
use crate::error::ApiError;

pub struct RateLimits {
    lookups: DefaultKeyedRateLimiter<IpAddr>,
    logins: DefaultKeyedRateLimiter<IpAddr>,
    purchases: DefaultKeyedRateLimiter<IpAddr>,
}

fn per_minute(n: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN))
}

fn check(limiter: &DefaultKeyedRateLimiter<IpAddr>, ip: IpAddr) -> Result<(), ApiError> {
    limiter.check_key(&ip).map_err(|not_until| {
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        ApiError::rate_limited(wait.as_secs().max(1))
    })
}

impl RateLimits {
    #[must_use]
    pub fn new(lookups_per_minute: u32, logins_per_minute: u32, purchases_per_minute: u32) -> Self {
        Self {
            lookups: RateLimiter::keyed(per_minute(lookups_per_minute)),
            logins: RateLimiter::keyed(per_minute(logins_per_minute)),
            purchases: RateLimiter::keyed(per_minute(purchases_per_minute)),
        }
    }

    /// # Errors
    /// 429 once the client has used its lookups for now.
    pub fn lookup(&self, ip: IpAddr) -> Result<(), ApiError> {
        check(&self.lookups, ip)
    }

    /// # Errors
    /// 429 once the client has used its sign-in attempts for now.
    pub fn login(&self, ip: IpAddr) -> Result<(), ApiError> {
        check(&self.logins, ip)
    }

    /// # Errors
    /// 429 once the client has made its purchases for now.
    pub fn purchase(&self, ip: IpAddr) -> Result<(), ApiError> {
        check(&self.purchases, ip)
    }

    fn forget_idle_clients(&self) {
        self.lookups.retain_recent();
        self.logins.retain_recent();
        self.purchases.retain_recent();
    }
}

/// Drops the state of clients that have been quiet, so memory stays bounded.
pub fn spawn_cleanup(state: Arc<AppState>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            state.limits.forget_idle_clients();
        }
    });
}
