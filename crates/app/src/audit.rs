//! Reading and verifying the audit trail (decision 0022). Entries are written by the actions
//! themselves, in their own transactions; this service only reads.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use futures_util::stream::{self, BoxStream, StreamExt};
use rifa_domain::audit::{
    Actor, AuditAction, AuditEntry, ChainBreak, ChainHead, ChainedEntry, Fields, FiguresTally,
    PersonFigures, changes, verify_end, verify_page,
};
use rifa_domain::{FieldError, FieldErrors};
use rifa_ports::{AuditQuery, AuditTrail};

use crate::review::DayPeriod;

/// The most entries one page holds.
pub const MAX_PAGE: u64 = 200;

/// Entries read per step of a verification or an export.
const BATCH: u64 = 1_000;

/// The span of decisions the figures read at a time: the tab's default 30 days in one read,
/// a year in twelve.
pub const FIGURES_STEP: chrono::Duration = chrono::Duration::days(31);

/// What a verification found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verification {
    /// Entries that verified, from the first on.
    pub verified: u64,
    /// The head the store keeps.
    pub head: ChainHead,
    /// The first break, when there is one.
    pub broken: Option<ChainBreak>,
}

#[derive(Debug, thiserror::Error)]
pub enum AuditQueryError {
    #[error("invalid query")]
    Invalid(FieldErrors),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[async_trait::async_trait]
pub trait AuditService: Send + Sync + 'static {
    /// A page of the trail, newest first.
    ///
    /// # Errors
    /// `Invalid` for a limit outside 1..=[`MAX_PAGE`] or an unknown action; storage failures.
    async fn entries(&self, query: AuditQuery) -> Result<Vec<ChainedEntry>, AuditQueryError>;

    /// What the targets of `entries` are called now (a purchase's reference, a raffle's
    /// title…), by target, for the trail to show instead of internal ids.
    ///
    /// # Errors
    /// Storage failures only.
    async fn target_names(
        &self,
        entries: &[ChainedEntry],
    ) -> anyhow::Result<BTreeMap<String, String>>;

    /// Every entry matching the filters of `query` (its limit is ignored), newest first, in
    /// batches keyed by `seq`: entries appended meanwhile are newer than where it is, so none
    /// is repeated or skipped. The stream ends at the first storage failure, with that error.
    ///
    /// # Errors
    /// `Invalid` for an unknown action.
    fn export(
        &self,
        query: AuditQuery,
    ) -> Result<BoxStream<'static, anyhow::Result<Vec<ChainedEntry>>>, AuditQueryError>;

    /// Each person's decisions over `period`: per local day, and the median time from a
    /// proof's arrival to its decision.
    ///
    /// # Errors
    /// Storage failures only.
    async fn figures(&self, period: &DayPeriod) -> anyhow::Result<Vec<PersonFigures>>;

    /// Walks the whole chain from its first entry and compares its end with the stored head.
    ///
    /// # Errors
    /// Storage failures only (a broken chain is a finding, not an error).
    async fn verify(&self) -> anyhow::Result<Verification>;
}

/// The trail over its store.
pub struct Audit<S> {
    store: S,
}

impl<S> Audit<S> {
    pub fn new(store: S) -> Self {
        Self { store }
    }
}

/// Refuses an action the trail does not know, into `errors`.
fn check_action(query: &AuditQuery, errors: &mut FieldErrors) {
    if let Some(action) = &query.action
        && AuditAction::parse(action).is_none()
    {
        errors.add(
            "action",
            FieldError::UnknownOption {
                allowed: AuditAction::ALL.iter().map(|a| a.as_str()).collect(),
            },
        );
    }
}

#[async_trait::async_trait]
impl<S: AuditTrail + Clone> AuditService for Audit<S> {
    async fn entries(&self, query: AuditQuery) -> Result<Vec<ChainedEntry>, AuditQueryError> {
        let mut errors = FieldErrors::new();
        if !(1..=MAX_PAGE).contains(&query.limit) {
            errors.add(
                "limit",
                FieldError::OutOfRange {
                    min: "1".to_owned(),
                    max: MAX_PAGE.to_string(),
                },
            );
        }
        check_action(&query, &mut errors);
        errors.into_result().map_err(AuditQueryError::Invalid)?;
        Ok(self.store.audit_entries(&query).await?)
    }

    async fn target_names(
        &self,
        entries: &[ChainedEntry],
    ) -> anyhow::Result<BTreeMap<String, String>> {
        let mut targets: Vec<&str> = entries
            .iter()
            .filter_map(|e| e.entry.target.as_deref())
            .collect();
        targets.sort_unstable();
        targets.dedup();
        self.store.target_names(&targets).await
    }

    fn export(
        &self,
        query: AuditQuery,
    ) -> Result<BoxStream<'static, anyhow::Result<Vec<ChainedEntry>>>, AuditQueryError> {
        let mut errors = FieldErrors::new();
        check_action(&query, &mut errors);
        errors.into_result().map_err(AuditQueryError::Invalid)?;
        let store = self.store.clone();
        let first = AuditQuery {
            limit: BATCH,
            ..query
        };
        Ok(stream::try_unfold(Some(first), move |query| {
            let store = store.clone();
            async move {
                let Some(query) = query else {
                    return Ok(None);
                };
                let batch = store.audit_entries(&query).await?;
                let next = batch.last().map(|last| AuditQuery {
                    before: Some(last.seq),
                    ..query.clone()
                });
                Ok(if batch.is_empty() {
                    None
                } else {
                    Some((batch, next))
                })
            }
        })
        .boxed())
    }

    async fn figures(&self, period: &DayPeriod) -> anyhow::Result<Vec<PersonFigures>> {
        let (from, until) = period.utc_range();
        let mut tally = FiguresTally::new(period.utc_offset_minutes());
        // A month at a time: read at once, a year of decisions (most of a million rows) took
        // hundreds of megabytes, which the allocator kept after the answer.
        let mut start = from;
        while start < until {
            let end = (start + FIGURES_STEP).min(until);
            for timing in self.store.decision_timings(start, end).await? {
                tally.add(&timing);
            }
            start = end;
        }
        Ok(tally.finish())
    }

    async fn verify(&self) -> anyhow::Result<Verification> {
        let head = self.store.audit_head().await?;
        let mut reached = ChainHead::EMPTY;
        loop {
            let page = self.store.audit_chain(reached.seq, BATCH).await?;
            if page.is_empty() {
                break;
            }
            match verify_page(reached, &page) {
                Ok(next) => reached = next,
                Err(broken) => {
                    return Ok(Verification {
                        verified: broken.reached.seq,
                        head,
                        broken: Some(broken.at),
                    });
                }
            }
        }
        Ok(Verification {
            verified: reached.seq,
            head,
            broken: verify_end(reached, head).err(),
        })
    }
}

/// How the trail names and shows a kind of record.
pub(crate) struct Recorded<T> {
    /// The target's prefix: `raffle` in `raffle:7`.
    pub kind: &'static str,
    pub id: fn(&T) -> i64,
    pub fields: fn(&T) -> Fields,
}

/// The entry of a write of a record by `by` at `at`, made from the record as the storage read
/// it before and after the write (inside the write's transaction): only the fields that differ.
pub(crate) fn record_entry<T>(
    at: DateTime<Utc>,
    by: &Actor,
    action: AuditAction,
    recorded: Recorded<T>,
) -> impl Fn(Option<&T>, Option<&T>) -> AuditEntry + Sync + use<T> {
    let by = by.clone();
    move |before, after| AuditEntry {
        at,
        actor: by.clone(),
        action,
        target: before
            .or(after)
            .map(|record| format!("{}:{}", recorded.kind, (recorded.id)(record))),
        changes: changes(
            before.map(recorded.fields).as_ref(),
            after.map(recorded.fields).as_ref(),
        ),
    }
}
