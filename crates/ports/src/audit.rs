//! The audit trail's store (decision 0022). Actions append their entry inside their own
//! transaction through the port that carries them out (a decision, a sign-in); this port reads
//! the trail and appends what has no other write (a failed sign-in).

use std::collections::BTreeMap;
use std::future::Future;

use chrono::{DateTime, Utc};
use rifa_domain::audit::{AuditEntry, ChainHead, ChainedEntry, DecisionTiming};

/// Filters of the panel's trail, newest first, keyset-paged by `before`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditQuery {
    /// Entries numbered below this one (the last one of the page before).
    pub before: Option<u64>,
    /// The username that acted.
    pub actor: Option<String>,
    /// A stored action name.
    pub action: Option<String>,
    /// `kind:id` of what was acted on.
    pub target: Option<String>,
    pub from: Option<DateTime<Utc>>,
    pub until: Option<DateTime<Utc>>,
    pub limit: u64,
}

pub trait AuditTrail: Send + Sync + 'static {
    /// Appends `entry` in a transaction of its own.
    ///
    /// # Errors
    /// Storage failures only.
    fn append_audit(&self, entry: &AuditEntry) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// # Errors
    /// Storage failures only.
    fn audit_entries(
        &self,
        query: &AuditQuery,
    ) -> impl Future<Output = anyhow::Result<Vec<ChainedEntry>>> + Send;

    /// Up to `limit` entries numbered after `after`, oldest first, as stored: the chain's pages.
    ///
    /// # Errors
    /// Storage failures only; an entry whose stored fields cannot be read is an error too.
    fn audit_chain(
        &self,
        after: u64,
        limit: u64,
    ) -> impl Future<Output = anyhow::Result<Vec<ChainedEntry>>> + Send;

    /// Every purchase decision recorded from `from` (included) to `until` (excluded), in no
    /// particular order, each with its purchase's latest proof before the decision.
    ///
    /// # Errors
    /// Storage failures only.
    fn decision_timings(
        &self,
        from: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<Vec<DecisionTiming>>> + Send;

    /// The last number and hash handed out.
    ///
    /// # Errors
    /// Storage failures only.
    fn audit_head(&self) -> impl Future<Output = anyhow::Result<ChainHead>> + Send;

    /// What each `kind:id` target is called now: a purchase's reference, a raffle's or a
    /// prize's title, a payment method's name, a rate's pair (`USD → VES`), an account's
    /// username. Targets of other kinds, or gone, are left out.
    ///
    /// # Errors
    /// Storage failures only.
    fn target_names(
        &self,
        targets: &[&str],
    ) -> impl Future<Output = anyhow::Result<BTreeMap<String, String>>> + Send;
}
