//! Sessions and the audit trail in memory, as the database keeps them: a session lives until
//! it is revoked or expires; trail entries are chained as they are appended, and a test may
//! tamper with them as someone with the database could.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use rifa_domain::admin::AdminUser;
use rifa_domain::audit::{AuditAction, AuditEntry, ChainHead, ChainedEntry, DecisionTiming};
use rifa_domain::purchase::PurchaseEventKind;
use rifa_domain::purchase::PurchaseId;
use rifa_domain::raffle::RaffleId;
use rifa_ports::{AuditQuery, AuditTrail, NewSession, SessionsToEnd};

use super::{MemoryStore, State};

#[derive(Default)]
pub(super) struct AuditState {
    pub(super) sessions: Vec<(NewSession, Option<DateTime<Utc>>)>,
    trail: Vec<ChainedEntry>,
    head: Option<ChainHead>,
    /// The periods of decisions read, in order.
    timing_reads: Vec<(DateTime<Utc>, DateTime<Utc>)>,
}

impl State {
    pub(in crate::support) fn append_audit(&mut self, entry: &AuditEntry) {
        let audit = &mut self.audit;
        let before = audit.head.unwrap_or(ChainHead::EMPTY);
        let head = before.next(entry);
        audit.trail.push(ChainedEntry {
            seq: head.seq,
            entry: entry.clone(),
            prev_hash: before.hash,
            hash: head.hash,
        });
        audit.head = Some(head);
    }
}

impl MemoryStore {
    pub(super) fn open_session_now(&self, session: &NewSession, entry: &AuditEntry) {
        let mut state = self.state();
        state.audit.sessions.push((session.clone(), None));
        state.append_audit(entry);
    }

    pub(super) fn admin_of_live_session_now(
        &self,
        id: &str,
        at: DateTime<Utc>,
    ) -> Option<AdminUser> {
        let state = self.state();
        let (session, _) = state
            .audit
            .sessions
            .iter()
            .find(|(s, revoked)| s.id == id && revoked.is_none() && s.expires_at > at)?;
        state
            .admins
            .iter()
            .find(|a| a.id == session.admin_id && !a.disabled)
            .cloned()
    }

    pub(super) fn revoke_sessions_now(
        &self,
        sessions: SessionsToEnd<'_>,
        at: DateTime<Utc>,
        entry: &AuditEntry,
    ) -> u64 {
        let mut state = self.state();
        let mut ended = 0;
        for (session, revoked) in &mut state.audit.sessions {
            let chosen = match sessions {
                SessionsToEnd::One(id) => session.id == id,
                SessionsToEnd::AllOf(admin) => session.admin_id == admin,
            };
            if chosen && revoked.is_none() {
                *revoked = Some(at);
                ended += 1;
            }
        }
        state.append_audit(entry);
        ended
    }

    /// Changes the trail's stored entries behind the store's back.
    pub fn tamper_with_trail(&self, change: impl FnOnce(&mut Vec<ChainedEntry>)) {
        change(&mut self.state().audit.trail);
    }

    /// The trail as stored, oldest first.
    pub fn trail(&self) -> Vec<ChainedEntry> {
        self.state().audit.trail.clone()
    }

    /// The periods of decisions the figures read, in order.
    pub fn timing_reads(&self) -> Vec<(DateTime<Utc>, DateTime<Utc>)> {
        self.state().audit.timing_reads.clone()
    }
}

impl AuditTrail for MemoryStore {
    async fn append_audit(&self, entry: &AuditEntry) -> anyhow::Result<()> {
        self.state().append_audit(entry);
        Ok(())
    }

    async fn audit_entries(&self, query: &AuditQuery) -> anyhow::Result<Vec<ChainedEntry>> {
        let state = self.state();
        Ok(state
            .audit
            .trail
            .iter()
            .rev()
            .filter(|c| query.before.is_none_or(|before| c.seq < before))
            .filter(|c| {
                query
                    .actor
                    .as_ref()
                    .is_none_or(|a| *a == c.entry.actor.username)
            })
            .filter(|c| {
                query
                    .action
                    .as_ref()
                    .is_none_or(|a| a == c.entry.action.as_str())
            })
            .filter(|c| query.target.is_none() || query.target == c.entry.target)
            .filter(|c| query.from.is_none_or(|from| c.entry.at >= from))
            .filter(|c| query.until.is_none_or(|until| c.entry.at < until))
            .take(usize::try_from(query.limit).unwrap_or(usize::MAX))
            .cloned()
            .collect())
    }

    async fn audit_chain(&self, after: u64, limit: u64) -> anyhow::Result<Vec<ChainedEntry>> {
        let state = self.state();
        let mut chain: Vec<ChainedEntry> = state
            .audit
            .trail
            .iter()
            .filter(|c| c.seq > after)
            .cloned()
            .collect();
        chain.sort_by_key(|c| c.seq);
        chain.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok(chain)
    }

    async fn decision_timings(
        &self,
        from: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> anyhow::Result<Vec<DecisionTiming>> {
        let mut state = self.state();
        state.audit.timing_reads.push((from, until));
        Ok(state
            .audit
            .trail
            .iter()
            .map(|c| &c.entry)
            .filter(|e| {
                matches!(
                    e.action,
                    AuditAction::PurchaseDecided | AuditAction::PurchasesDecidedInBulk
                ) && e.at >= from
                    && e.at < until
            })
            .map(|e| {
                let purchase = e
                    .target
                    .as_deref()
                    .and_then(|t| t.strip_prefix("purchase:"))
                    .and_then(|id| id.parse::<i64>().ok());
                let proof_at = state
                    .history
                    .iter()
                    .filter(|(id, event)| {
                        Some(id.get()) == purchase
                            && event.kind == PurchaseEventKind::ProofAttached
                            && event.at <= e.at
                    })
                    .map(|(_, event)| event.at)
                    .max();
                DecisionTiming {
                    actor_id: e.actor.admin_id,
                    actor: e.actor.username.clone(),
                    decided_at: e.at,
                    proof_at,
                }
            })
            .collect())
    }

    async fn audit_head(&self) -> anyhow::Result<ChainHead> {
        Ok(self.state().audit.head.unwrap_or(ChainHead::EMPTY))
    }

    async fn target_names(&self, targets: &[&str]) -> anyhow::Result<BTreeMap<String, String>> {
        let state = self.state();
        Ok(targets
            .iter()
            .filter_map(|target| {
                let (kind, id) = target.split_once(':')?;
                let id: i64 = id.parse().ok()?;
                let name = match kind {
                    "purchase" => state
                        .purchases
                        .get(&PurchaseId::new(id))
                        .map(|p| p.purchase.reference.clone()),
                    "raffle" => state
                        .raffles
                        .get(&RaffleId::new(id))
                        .map(|r| r.title.clone()),
                    "admin" => state
                        .admins
                        .iter()
                        .find(|a| a.id.get() == id)
                        .map(|a| a.username.clone()),
                    _ => None,
                }?;
                Some(((*target).to_owned(), name))
            })
            .collect())
    }
}
