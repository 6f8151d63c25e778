//! The audit trail as the panel reads it.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use rifa_app::audit::Verification;
use rifa_domain::admin::AdminId;
use rifa_domain::audit::{ChainBreak, ChainedEntry, PersonFigures};
use rifa_domain::draw::ledger::to_hex;
use rifa_domain::validation::{TextKind, free_text};
use rifa_domain::{FieldError, FieldErrors};
use rifa_ports::AuditQuery;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::instant;

/// The longest actor, action or target a filter takes (the stored ones are far shorter).
const TEXT_FILTER_MAX: usize = 200;

/// A page of the trail, newest first.
#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct AuditParams {
    /// The `seq` of the last entry of the page the panel has: the next page holds older ones.
    #[param(minimum = 1)]
    pub before: Option<i64>,
    /// The username that acted.
    pub actor: Option<String>,
    /// One action, e.g. `purchase.decided`.
    pub action: Option<String>,
    /// What was acted on, as `kind:id` (`purchase:42`).
    pub target: Option<String>,
    /// From this instant on (RFC 3339).
    pub from: Option<String>,
    /// Before this instant (RFC 3339).
    pub until: Option<String>,
    /// 1 to 200; 50 when absent.
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// The trail's filters, for the export (which has no pages).
#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct AuditExportParams {
    /// The username that acted.
    pub actor: Option<String>,
    /// One action, e.g. `purchase.decided`.
    pub action: Option<String>,
    /// What was acted on, as `kind:id` (`purchase:42`).
    pub target: Option<String>,
    /// From this instant on (RFC 3339).
    pub from: Option<String>,
    /// Before this instant (RFC 3339).
    pub until: Option<String>,
}

impl AuditExportParams {
    /// # Errors
    /// Each bad field (the action is judged by the service).
    pub fn parse(&self) -> Result<AuditQuery, FieldErrors> {
        AuditParams {
            before: None,
            actor: self.actor.clone(),
            action: self.action.clone(),
            target: self.target.clone(),
            from: self.from.clone(),
            until: self.until.clone(),
            limit: None,
        }
        .parse()
    }
}

fn instant_of(
    errors: &mut FieldErrors,
    field: &'static str,
    raw: Option<&str>,
) -> Option<DateTime<Utc>> {
    let raw = raw.map(str::trim).filter(|r| !r.is_empty())?;
    errors.check(
        field,
        DateTime::parse_from_rfc3339(raw)
            .map(|at| at.with_timezone(&Utc))
            .map_err(|_| FieldError::InvalidDate),
    )
}

/// A text filter, trimmed; blank is no filter. It reaches the database as a bound value, so it
/// holds no control character (PostgreSQL text cannot hold NUL).
fn text_of(errors: &mut FieldErrors, field: &'static str, raw: Option<&str>) -> Option<String> {
    let text = errors.check(
        field,
        free_text(raw?, TextKind::SingleLine, TEXT_FILTER_MAX),
    )?;
    Some(text).filter(|t| !t.is_empty())
}

impl AuditParams {
    /// # Errors
    /// Each bad field (the limit and the action are judged by the service).
    pub fn parse(&self) -> Result<AuditQuery, FieldErrors> {
        let mut errors = FieldErrors::new();
        let before = self.before.and_then(|before| {
            errors.check(
                "before",
                u64::try_from(before)
                    .ok()
                    .filter(|b| *b >= 1)
                    .ok_or(FieldError::OutOfRange {
                        min: "1".into(),
                        max: i64::MAX.to_string(),
                    }),
            )
        });
        let from = instant_of(&mut errors, "from", self.from.as_deref());
        let until = instant_of(&mut errors, "until", self.until.as_deref());
        let actor = text_of(&mut errors, "actor", self.actor.as_deref());
        let action = text_of(&mut errors, "action", self.action.as_deref());
        let target = text_of(&mut errors, "target", self.target.as_deref());
        errors.into_result()?;
        Ok(AuditQuery {
            before,
            actor: actor.map(|a| a.to_lowercase()),
            action,
            target,
            from,
            until,
            limit: u64::try_from(self.limit.unwrap_or(50)).unwrap_or(0),
        })
    }
}

/// One field an action changed (secrets read `[redacted]`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditChangeDto {
    pub field: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// One entry of the trail.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntryDto {
    pub seq: u64,
    pub at: String,
    /// The admin's id; absent for a failed sign-in or the demo data.
    pub actor_id: Option<i64>,
    /// The username that acted (for a failed sign-in, the one tried).
    pub actor: String,
    pub ip: Option<String>,
    pub action: String,
    pub target: Option<String>,
    /// What the target is called now (a purchase's reference, a raffle's title, a method's
    /// name…); absent for kinds without a name, or a record gone since.
    pub target_name: Option<String>,
    pub changes: Vec<AuditChangeDto>,
    /// SHA-256 over this entry and `prevHash`, hex.
    pub hash: String,
    pub prev_hash: String,
}

impl From<ChainedEntry> for AuditEntryDto {
    fn from(chained: ChainedEntry) -> Self {
        let entry = chained.entry;
        Self {
            seq: chained.seq,
            at: instant(entry.at),
            actor_id: entry.actor.admin_id.map(|id| id.get()),
            actor: entry.actor.username,
            ip: entry.actor.ip,
            action: entry.action.as_str().to_owned(),
            target: entry.target,
            target_name: None,
            changes: entry
                .changes
                .into_iter()
                .map(|c| AuditChangeDto {
                    field: c.field,
                    before: c.before,
                    after: c.after,
                })
                .collect(),
            hash: to_hex(&chained.hash),
            prev_hash: to_hex(&chained.prev_hash),
        }
    }
}

/// A page of the trail.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditPageDto {
    pub items: Vec<AuditEntryDto>,
    /// `before` for the next (older) page; absent on the last page.
    pub next_before: Option<u64>,
}

impl AuditPageDto {
    #[must_use]
    pub fn new(entries: Vec<ChainedEntry>, limit: u64, names: &BTreeMap<String, String>) -> Self {
        let full = u64::try_from(entries.len()).is_ok_and(|n| n == limit);
        let next_before = entries.last().filter(|_| full).map(|e| e.seq);
        Self {
            items: entries
                .into_iter()
                .map(|entry| {
                    let mut item = AuditEntryDto::from(entry);
                    item.target_name = item.target.as_ref().and_then(|t| names.get(t).cloned());
                    item
                })
                .collect(),
            next_before,
        }
    }
}

/// What checking the whole chain found.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditVerificationDto {
    /// Whether every entry holds and the chain ends where the head says.
    pub intact: bool,
    /// Entries checked good, from the first on.
    pub verified: u64,
    /// Entries the head says were written.
    pub head_seq: u64,
    /// The head's hash: copy it elsewhere to be able to prove later that nothing before it changed.
    pub head_hash: String,
    /// `edited`, `missing` or `truncated`, when the chain is broken.
    pub problem: Option<String>,
    /// The entry where the chain first breaks (for `truncated`: where it ends).
    pub at_seq: Option<u64>,
}

impl From<Verification> for AuditVerificationDto {
    fn from(found: Verification) -> Self {
        let (problem, at_seq) = match found.broken {
            None => (None, None),
            Some(ChainBreak::Edited { seq }) => (Some("edited"), Some(seq)),
            Some(ChainBreak::Missing { seq }) => (Some("missing"), Some(seq)),
            Some(ChainBreak::Truncated { found, .. }) => (Some("truncated"), Some(found)),
        };
        Self {
            intact: found.broken.is_none(),
            verified: found.verified,
            head_seq: found.head.seq,
            head_hash: to_hex(&found.head.hash),
            problem: problem.map(str::to_owned),
            at_seq,
        }
    }
}

/// One person's decisions over the period asked.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonFiguresDto {
    /// `None` for decisions by no account (none today; kept for the trail's own actors).
    pub actor_id: Option<i64>,
    pub actor: String,
    pub decisions: u64,
    /// Days with decisions, in the admin's time zone, in order.
    pub per_day: Vec<DayDecisionsDto>,
    /// The median time from a proof's arrival to its decision, in seconds, over the decisions
    /// that had a proof; `null` when none had.
    pub median_proof_to_decision_seconds: Option<i64>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DayDecisionsDto {
    #[schema(example = "2026-11-27")]
    pub date: String,
    pub decisions: u64,
}

impl From<PersonFigures> for PersonFiguresDto {
    fn from(person: PersonFigures) -> Self {
        Self {
            actor_id: person.actor_id.map(AdminId::get),
            actor: person.actor,
            decisions: person.decisions,
            per_day: person
                .per_day
                .into_iter()
                .map(|(day, decisions)| DayDecisionsDto {
                    date: day.format("%Y-%m-%d").to_string(),
                    decisions,
                })
                .collect(),
            median_proof_to_decision_seconds: person
                .median_proof_to_decision
                .map(|wait| wait.num_seconds()),
        }
    }
}
