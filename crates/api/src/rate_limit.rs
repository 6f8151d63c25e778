//! Per-client rate limits on the calls that could be abused: ticket lookups (harvesting buyers'
//! details), admin sign-in (guessing passwords) and purchases (a bot holding every number).
//!
//! Sign-in counts failures, not attempts: many admins behind one proxy address sign in freely,
//! while guessing is stopped both per username (an account attacked from many addresses) and
//! per address (one client trying many usernames). Each attempt is counted as a failure before
//! its password is checked, in the same step as the check, and given back when it succeeds:
//! simultaneous guesses cannot all pass a check none of them has counted yet. A browser that
//! signed in to the account before skips the username's count (decision 0026): other people's
//! failures never refuse its correct password; its address's own count still holds.

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

    /// Counts one failure for `key` now, unless it is locked: then how long it must wait.
    /// Checking and counting hold one lock, so racing attempts are counted one by one.
    fn reserve(&self, key: K, now: Instant) -> Result<(), Duration> {
        let mut entries = self.empty_at.lock().unwrap_or_else(PoisonError::into_inner);
        let empty_at = entries.get(&key).map_or(now, |at| (*at).max(now));
        if let Some(unlocks_at) = empty_at.checked_sub(self.leak_every * (self.limit - 1))
            && unlocks_at > now
        {
            return Err(unlocks_at - now);
        }
        entries.insert(key, empty_at + self.leak_every);
        Ok(())
    }

    /// Gives back a failure [`Self::reserve`] counted: the attempt succeeded.
    fn refund(&self, key: &K, now: Instant) {
        let mut entries = self.empty_at.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(empty_at) = entries.get_mut(key) {
            *empty_at = empty_at
                .checked_sub(self.leak_every)
                .map_or(now, |at| at.max(now));
        }
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

    /// Counts a sign-in attempt as a failure before its password is checked: refused while
    /// the address, or (for a browser not `known` to the account) the username, has failed too
    /// often. [`Self::login_succeeded`] gives the count back.
    ///
    /// # Errors
    /// 429 with the longer wait.
    pub fn login_attempt(
        &self,
        ip: IpAddr,
        username: &str,
        known: bool,
    ) -> Result<LoginAttempt, ApiError> {
        let now = Instant::now();
        self.failed_logins_by_address
            .reserve(ip, now)
            .map_err(refuse_for)?;
        let username = (!known).then(|| username_key(username));
        if let Some(key) = &username
            && let Err(wait) = self.failed_logins_by_username.reserve(key.clone(), now)
        {
            self.failed_logins_by_address.refund(&ip, now);
            return Err(refuse_for(wait));
        }
        Ok(LoginAttempt { ip, username })
    }

    /// The attempt was right (or failed for the server's reasons): it counts for nothing.
    pub fn login_succeeded(&self, attempt: &LoginAttempt) {
        let now = Instant::now();
        self.failed_logins_by_address.refund(&attempt.ip, now);
        if let Some(key) = &attempt.username {
            self.failed_logins_by_username.refund(key, now);
        }
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

/// A sign-in attempt counted as a failure until [`RateLimits::login_succeeded`] says otherwise.
#[derive(Debug)]
pub struct LoginAttempt {
    ip: IpAddr,
    /// The username's key, when the attempt was counted against it.
    username: Option<String>,
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
        for _ in 0..3 {
            assert_eq!(counter.reserve("ana", start), Ok(()));
        }
        assert_eq!(
            counter.reserve("ana", start),
            Err(Duration::from_secs(20)),
            "the fourth waits for one failure to leak out"
        );
        assert_eq!(counter.reserve("otra", start), Ok(()));
        assert_eq!(
            counter.reserve("ana", start + Duration::from_secs(20)),
            Ok(())
        );
        counter.forget_empty(start + Duration::from_secs(81));
        assert!(counter.empty_at.lock().unwrap().is_empty());
    }

    #[test]
    fn a_refund_gives_back_one_failure_and_never_credit() {
        let counter = FailureCounter::per_minute(2);
        let start = Instant::now();
        counter.refund(&"ana", start);
        for _ in 0..2 {
            assert_eq!(counter.reserve("ana", start), Ok(()));
        }
        assert!(counter.reserve("ana", start).is_err());
        counter.refund(&"ana", start);
        assert_eq!(counter.reserve("ana", start), Ok(()));
        // Refunds beyond what was counted do not bank attempts for later.
        for _ in 0..5 {
            counter.refund(&"ana", start);
        }
        for _ in 0..2 {
            assert_eq!(counter.reserve("ana", start), Ok(()));
        }
        assert!(counter.reserve("ana", start).is_err());
    }

    #[test]
    fn a_known_browser_skips_the_usernames_count_but_not_its_addresss() {
        let limits = RateLimits::new(100, 2, 100);
        let attacker: IpAddr = "203.0.113.7".parse().unwrap();
        let owner: IpAddr = "198.51.100.1".parse().unwrap();
        for n in 0..2 {
            let from: IpAddr = format!("203.0.113.{}", 10 + n).parse().unwrap();
            assert!(limits.login_attempt(from, "Jefe", false).is_ok());
        }
        assert!(limits.login_attempt(attacker, "jefe", false).is_err());
        assert!(
            limits.login_attempt(owner, "jefe", false).is_err(),
            "a new browser waits"
        );
        let known = limits
            .login_attempt(owner, "jefe", true)
            .expect("a known browser tries");
        limits.login_succeeded(&known);
        // The address's own failures still count: 8 for an address (4 × 2).
        for _ in 0..8 {
            assert!(limits.login_attempt(attacker, "otro", true).is_ok());
        }
        assert!(limits.login_attempt(attacker, "otro", true).is_err());
    }

    #[test]
    fn usernames_are_keyed_trimmed_lowercased_and_short() {
        assert_eq!(username_key("  Jefe "), "jefe");
        assert_eq!(username_key(&"x".repeat(1_000)).len(), USERNAME_KEY_CHARS);
    }
}
