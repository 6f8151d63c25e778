//! Short-lived in-process copies of read-mostly data on the hot paths (the availability bitmap,
//! the active payment methods, the discount table).
//!
//! Correctness never depends on them: the database's unique index decides every sale, and the
//! server re-prices every purchase. A copy lives [`TTL`] at most, is dropped at once by this
//! process's own writes, and while one caller refreshes a stale entry the others keep serving
//! the previous copy (so a burst of readers costs one query, not one each).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How stale a copy may be. Other instances' writes show up within this time.
pub const TTL: Duration = Duration::from_secs(1);

struct Entry<V> {
    value: Arc<V>,
    fetched: Instant,
    refreshing: bool,
    /// When a write of this process made the copy wrong: it is never served again.
    invalidated: Option<Instant>,
}

impl<V> Entry<V> {
    fn is_fresh(&self) -> bool {
        self.invalidated.is_none() && self.fetched.elapsed() < TTL
    }
}

/// A map of keys to shared values, each refreshed by the caller that finds it stale.
pub struct Cache<K, V> {
    entries: Mutex<HashMap<K, Entry<V>>>,
}

impl<K: Eq + Hash + Clone, V> Default for Cache<K, V> {
    fn default() -> Self {
        Self {
            entries: Mutex::new(HashMap::new()),
        }
    }
}

enum Lookup<V> {
    Fresh(Arc<V>),
    /// Stale, but someone else is refreshing it: serve this meanwhile.
    Stale(Arc<V>),
    /// The caller must load it (and has been marked as the one refreshing).
    Load,
}

impl<K: Eq + Hash + Clone, V> Cache<K, V> {
    fn lookup(&self, key: &K) -> Lookup<V> {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        match entries.get_mut(key) {
            Some(entry) if entry.is_fresh() => Lookup::Fresh(Arc::clone(&entry.value)),
            // Whoever asks after this process's own write reads it (a new payment method, a
            // raffle closed), as if there were no copy.
            Some(entry) if entry.invalidated.is_some() => Lookup::Load,
            Some(entry) if entry.refreshing => Lookup::Stale(Arc::clone(&entry.value)),
            Some(entry) => {
                entry.refreshing = true;
                Lookup::Load
            }
            None => Lookup::Load,
        }
    }

    /// The cached value of `key`, or the result of `load` (then cached). A failed load leaves
    /// the previous copy in place for the next caller to retry.
    ///
    /// # Errors
    /// Whatever `load` returns.
    pub async fn get_or_load<E, F>(&self, key: &K, load: F) -> Result<Arc<V>, E>
    where
        F: Future<Output = Result<V, E>>,
    {
        match self.lookup(key) {
            Lookup::Fresh(value) | Lookup::Stale(value) => Ok(value),
            Lookup::Load => self.load(key, load).await,
        }
    }

    /// Loads `key` now, whatever the state of its copy, and keeps the result: for a caller
    /// that knows its copy is behind, without making every other caller load too.
    ///
    /// # Errors
    /// Whatever `load` returns.
    pub async fn reload<E, F>(&self, key: &K, load: F) -> Result<Arc<V>, E>
    where
        F: Future<Output = Result<V, E>>,
    {
        self.load(key, load).await
    }

    async fn load<E, F>(&self, key: &K, load: F) -> Result<Arc<V>, E>
    where
        F: Future<Output = Result<V, E>>,
    {
        let started = Instant::now();
        let loaded = load.await;
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        match loaded {
            Ok(value) => {
                let value = Arc::new(value);
                // A write invalidated the copy while this load read: what it read may predate
                // the write, so the next caller loads again.
                let invalidated = entries
                    .get(key)
                    .and_then(|entry| entry.invalidated)
                    .filter(|at| *at >= started);
                entries.insert(
                    key.clone(),
                    Entry {
                        value: Arc::clone(&value),
                        fetched: Instant::now(),
                        refreshing: false,
                        invalidated,
                    },
                );
                Ok(value)
            }
            Err(error) => {
                if let Some(entry) = entries.get_mut(key) {
                    entry.refreshing = false;
                }
                Err(error)
            }
        }
    }

    /// The copy of `key` if it is fresh, without loading it otherwise.
    pub fn fresh(&self, key: &K) -> Option<Arc<V>> {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .filter(|entry| entry.is_fresh())
            .map(|entry| Arc::clone(&entry.value))
    }

    /// Replaces the copy of `key`, if there is one, by `change` of it, without making it any
    /// fresher: it goes stale when it would have (and other instances' writes arrive then).
    pub fn update(&self, key: &K, change: impl FnOnce(&V) -> V) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(entry) = entries.get_mut(key) {
            entry.value = Arc::new(change(&entry.value));
        }
    }

    /// Marks the copy of `key` wrong after a write by this process: every caller loads it anew
    /// until a load that began after the write is in.
    pub fn invalidate(&self, key: &K) {
        if let Some(entry) = self
            .entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_mut(key)
        {
            entry.invalidated = Some(Instant::now());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    #[tokio::test]
    async fn a_fresh_copy_is_served_until_invalidated() {
        let cache: Cache<u8, u32> = Cache::default();
        let loads = AtomicU32::new(0);
        let load = || async { Ok::<_, ()>(loads.fetch_add(1, Ordering::SeqCst) + 1) };
        assert_eq!(*cache.get_or_load(&1, load()).await.unwrap_or_default(), 1);
        assert_eq!(*cache.get_or_load(&1, load()).await.unwrap_or_default(), 1);
        cache.invalidate(&1);
        assert_eq!(*cache.get_or_load(&1, load()).await.unwrap_or_default(), 2);
    }

    #[tokio::test]
    async fn after_an_invalidation_nobody_is_served_the_previous_copy() {
        let cache: Cache<u8, u32> = Cache::default();
        assert_eq!(
            *cache
                .get_or_load(&1, async { Ok::<_, ()>(1) })
                .await
                .unwrap_or_default(),
            1
        );
        cache.invalidate(&1);
        let (release, wait) = tokio::sync::oneshot::channel::<()>();
        let reloading = cache.get_or_load(&1, async {
            wait.await.ok();
            Ok::<_, ()>(2)
        });
        let meanwhile = async {
            let served = cache.get_or_load(&1, async { Ok::<_, ()>(3) }).await;
            release.send(()).ok();
            served
        };

        let (reloaded, served) = tokio::join!(reloading, meanwhile);

        assert_eq!(
            (*reloaded.unwrap_or_default(), *served.unwrap_or_default()),
            (2, 3)
        );
    }

    #[tokio::test]
    async fn a_load_that_began_before_an_invalidation_is_not_taken_as_fresh() {
        let cache: Cache<u8, u32> = Cache::default();
        assert_eq!(
            *cache
                .get_or_load(&1, async { Ok::<_, ()>(1) })
                .await
                .unwrap_or_default(),
            1
        );
        cache.invalidate(&1);
        let reloaded = cache
            .get_or_load(&1, async {
                // A write lands while this load reads.
                cache.invalidate(&1);
                Ok::<_, ()>(2)
            })
            .await;
        assert_eq!(*reloaded.unwrap_or_default(), 2);

        let next = cache.get_or_load(&1, async { Ok::<_, ()>(3) }).await;

        assert_eq!(*next.unwrap_or_default(), 3);
    }

    #[tokio::test]
    async fn an_update_changes_a_copy_in_place_and_makes_none_where_there_is_none() {
        let cache: Cache<u8, u32> = Cache::default();
        cache.update(&1, |n| n + 1);
        assert_eq!(
            *cache
                .get_or_load(&1, async { Ok::<_, ()>(10) })
                .await
                .unwrap_or_default(),
            10
        );

        cache.update(&1, |n| n + 1);

        let loaded_again = cache.get_or_load(&1, async { Ok::<_, ()>(99) }).await;
        assert_eq!(*loaded_again.unwrap_or_default(), 11);
    }

    #[tokio::test]
    async fn a_failed_load_is_not_cached() {
        let cache: Cache<u8, u32> = Cache::default();
        assert_eq!(
            cache
                .get_or_load(&1, async { Err::<u32, _>("down") })
                .await
                .err(),
            Some("down")
        );
        assert_eq!(
            cache
                .get_or_load(&1, async { Ok::<_, &str>(7) })
                .await
                .ok()
                .as_deref(),
            Some(&7)
        );
    }
}
