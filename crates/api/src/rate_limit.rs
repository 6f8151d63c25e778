//! Per-client rate limits on the calls that could be abused: ticket lookups (harvesting buyers'
//! details), admin sign-in (guessing passwords) and purchases (a bot holding every number).
//!
//! Sign-in counts failures, not attempts: many admins behind one proxy address sign in freely,
//! while guessing is stopped both per username (an account attacked from many addresses) and
//! per address (one client trying many usernames).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::AppState;
use crate::error::ApiError;

/// An address may fail this many times the per-username budget: enough for a few colleagues
/// mistyping behind one proxy, far too few to spray usernames.
const ADDRESS_FAILURES_FACTOR: u32 = 4;
/// Usernames are keyed by at most this many characters, so a flood of long names stays small.
const USERNAME_KEY_CHARS: usize = 64;

pub struct RateLimits {
    lookups: DefaultKeyedRateLimiter<IpAddr>,
    failed_logins_by_username: FailureCounter<String>,
    failed_logins_by_address: FailureCounter<IpAddr>,
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

/// Failures per key as a leaky bucket (GCRA): `limit` failures in a row lock the key, and one
/// failure leaks out every `minute / limit`. Only failures fill it, so checking is free.
struct FailureCounter<K> {
    limit: u32,
    leak_every: Duration,
    /// When each key's bucket will be empty again.
    empty_at: Mutex<HashMap<K, Instant>>,
}

impl<K: Eq + Hash> FailureCounter<K> {
    fn per_minute(limit: u32) -> Self {
        let limit = limit.max(1);
        Self {
            limit,
            leak_every: Duration::from_secs(60) / limit,
            empty_at: Mutex::new(HashMap::new()),
        }
    }

    /// How long `key` must wait before its next attempt, if it is locked now.
    fn locked_for(&self, key: &K, now: Instant) -> Option<Duration> {
        let entries = self.empty_at.lock().unwrap_or_else(PoisonError::into_inner);
        let empty_at = *entries.get(key)?;
        let unlocks_at = empty_at.checked_sub(self.leak_every * (self.limit - 1))?;
        (unlocks_at > now).then(|| unlocks_at - now)
    }

    fn record_failure(&self, key: K, now: Instant) {
        let mut entries = self.empty_at.lock().unwrap_or_else(PoisonError::into_inner);
        let empty_at = entries.entry(key).or_insert(now);
        *empty_at = (*empty_at).max(now) + self.leak_every;
    }

    fn forget_empty(&self, now: Instant) {
        self.empty_at
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|_, empty_at| *empty_at > now);
    }
}

fn username_key(username: &str) -> String {
    username
        .trim()
        .chars()
        .take(USERNAME_KEY_CHARS)
        .flat_map(char::to_lowercase)
        .collect()
}

fn refuse_for(wait: Duration) -> ApiError {
    // Whole seconds, rounded up: a client waiting what it is told is let in.
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    ApiError::rate_limited(secs.max(1))
}

impl RateLimits {
    /// `failed_logins_per_minute` is per username; an address gets
    /// [`ADDRESS_FAILURES_FACTOR`] times as many.
    #[must_use]
    pub fn new(
        lookups_per_minute: u32,
        failed_logins_per_minute: u32,
        purchases_per_minute: u32,
    ) -> Self {
        Self {
            lookups: RateLimiter::keyed(per_minute(lookups_per_minute)),
            failed_logins_by_username: FailureCounter::per_minute(failed_logins_per_minute),
            failed_logins_by_address: FailureCounter::per_minute(
                failed_logins_per_minute.saturating_mul(ADDRESS_FAILURES_FACTOR),
            ),
            purchases: RateLimiter::keyed(per_minute(purchases_per_minute)),
        }
    }

    /// # Errors
    /// 429 once the client has used its lookups for now.
    pub fn lookup(&self, ip: IpAddr) -> Result<(), ApiError> {
        check(&self.lookups, ip)
    }

    /// Whether a sign-in may be tried: refused, before any password is checked, while the
    /// username or the address has failed too often.
    ///
    /// # Errors
    /// 429 with the longer of the two waits.
    pub fn login_allowed(&self, ip: IpAddr, username: &str) -> Result<(), ApiError> {
        let now = Instant::now();
        let wait = [
            self.failed_logins_by_username
                .locked_for(&username_key(username), now),
            self.failed_logins_by_address.locked_for(&ip, now),
        ]
        .into_iter()
        .flatten()
        .max();
        wait.map_or(Ok(()), |wait| Err(refuse_for(wait)))
    }

    /// Counts a wrong username or password against both the username and the address.
    pub fn login_failed(&self, ip: IpAddr, username: &str) {
        let now = Instant::now();
        self.failed_logins_by_username
            .record_failure(username_key(username), now);
        self.failed_logins_by_address.record_failure(ip, now);
    }

    /// # Errors
    /// 429 once the client has made its purchases for now.
    pub fn purchase(&self, ip: IpAddr) -> Result<(), ApiError> {
        check(&self.purchases, ip)
    }

    fn forget_idle_clients(&self) {
        let now = Instant::now();
        self.lookups.retain_recent();
        self.failed_logins_by_username.forget_empty(now);
        self.failed_logins_by_address.forget_empty(now);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_locks_after_its_budget_of_failures_and_unlocks_as_they_leak_out() {
        let counter = FailureCounter::per_minute(3);
        let start = Instant::now();
        for _ in 0..2 {
            counter.record_failure("ana", start);
        }
        assert_eq!(counter.locked_for(&"ana", start), None);
        counter.record_failure("ana", start);
        assert_eq!(
            counter.locked_for(&"ana", start),
            Some(Duration::from_secs(20))
        );
        assert_eq!(counter.locked_for(&"otra", start), None);
        assert_eq!(
            counter.locked_for(&"ana", start + Duration::from_secs(20)),
            None
        );
        counter.forget_empty(start + Duration::from_secs(61));
        assert!(counter.empty_at.lock().unwrap().is_empty());
    }

    #[test]
    fn usernames_are_keyed_trimmed_lowercased_and_short() {
        assert_eq!(username_key("  Jefe "), "jefe");
        assert_eq!(username_key(&"x".repeat(1_000)).len(), USERNAME_KEY_CHARS);
    }
}
