//! CPU-bound work (argon2 verification, PDF rendering) kept off the async workers.
//!
//! A PDF of a 10,000-number purchase takes the better part of a second, an argon2 verification
//! tens of milliseconds; on the async workers either stalls every request queued behind it.
//! Here the work runs on the runtime's blocking threads, at most one job per core at a time;
//! callers beyond that wait asynchronously, so the workers stay free to answer others.

use std::sync::Arc;

use anyhow::Context;
use tokio::sync::Semaphore;

#[derive(Clone, Debug)]
pub struct CpuPool {
    permits: Arc<Semaphore>,
}

impl CpuPool {
    #[must_use]
    pub fn new(concurrent_jobs: usize) -> Self {
        Self {
            permits: Arc::new(Semaphore::new(concurrent_jobs.max(1))),
        }
    }

    /// One job at a time per core of this machine.
    #[must_use]
    pub fn sized_to_cores() -> Self {
        Self::new(std::thread::available_parallelism().map_or(1, usize::from))
    }

    /// Runs `work` on a blocking thread once a core is free.
    ///
    /// # Errors
    /// Only when `work` panicked.
    pub async fn run<T, F>(&self, work: F) -> anyhow::Result<T>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let permit = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .context("the CPU pool is closed")?;
        // The permit moves into the job: a caller that gives up (the client left) does not free
        // a core the job is still using.
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .context("CPU-bound work panicked")
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    #[tokio::test(flavor = "current_thread")]
    async fn jobs_run_off_the_async_thread_and_never_more_than_the_permits_at_once() {
        let pool = CpuPool::new(2);
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let caller = std::thread::current().id();
        let jobs: Vec<_> = (0..6)
            .map(|_| {
                let (pool, running, most) = (pool.clone(), Arc::clone(&running), Arc::clone(&most));
                tokio::spawn(async move {
                    pool.run(move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(50));
                        running.fetch_sub(1, Ordering::SeqCst);
                        std::thread::current().id()
                    })
                    .await
                })
            })
            .collect();
        // One async thread: had a job blocked it, this timer would fire late.
        let started = std::time::Instant::now();
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(started.elapsed() < Duration::from_millis(40));
        for job in jobs {
            let thread = job.await.unwrap().unwrap();
            assert_ne!(thread, caller);
        }
        assert_eq!(most.load(Ordering::SeqCst), 2);
    }
}
