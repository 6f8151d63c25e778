//! The audit trail: who did what in the panel, chained so an edited or deleted entry shows.
//!
//! Each entry's hash covers its own fields and the hash of the entry before it (a hash chain, as
//! in an append-only log); the store also keeps the last sequence number and hash it handed out.
//! Changing an entry breaks its own hash, deleting one breaks the next entry's link, and cutting
//! the tail leaves the head pointing past the end. It shows tampering; it does not prevent it
//! (someone who can rewrite the database can rewrite the whole chain and its head), which is why
//! the head's hash is worth copying elsewhere (decision 0022).

use std::collections::BTreeMap;

use chrono::{DateTime, SecondsFormat, Utc};
use sha2::{Digest, Sha256};

use crate::draw::ledger::Hash;
use crate::id::AdminId;

/// What a hash is computed under, so a trail hash means nothing in another context.
const CONTEXT: &[u8] = b"rifa-audit-v1";

/// The hash before the first entry.
pub const GENESIS: Hash = [0; 32];

/// Who acted, and from where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    /// `None` when nobody signed in (a failed sign-in names the username tried instead).
    pub admin_id: Option<AdminId>,
    pub username: String,
    pub ip: Option<String>,
}

/// What an admin did. The stable names are what the trail stores, hashes and filters by; a
/// build reads only the names it knows (the trail is never read by an older build).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditAction {
    SignIn,
    SignInFailed,
    SignOut,
    SignOutEverywhere,
    PurchaseDecided,
    PurchasesDecidedInBulk,
    PurchaseReopened,
    TestPurchaseCreated,
    DrawPrizesSet,
    DrawLedgerFrozen,
    DrawResultRecorded,
    DrawPrizeDrawn,
    DrawPrizeDelivered,
    RaffleCreated,
    RaffleUpdated,
    RaffleDeleted,
    PaymentMethodCreated,
    PaymentMethodUpdated,
    PaymentMethodDeleted,
    ExchangeRateCreated,
    ExchangeRateUpdated,
    ExchangeRateDeleted,
    BrandingUpdated,
    EmailSettingsUpdated,
    DiscountsUpdated,
    StaffCreated,
    StaffUpdated,
    StaffPasswordReset,
    PasswordChanged,
    MailRetried,
    TestEmailSent,
    /// A stored action this build does not know. Never written: the trail is never read by an
    /// older build, so such a row was edited, and its entry fails its own hash (a break, not an
    /// unreadable trail). Not in [`AuditAction::ALL`], so no filter offers it.
    Unrecognised,
}

impl AuditAction {
    pub const ALL: [Self; 31] = [
        Self::SignIn,
        Self::SignInFailed,
        Self::SignOut,
        Self::SignOutEverywhere,
        Self::PurchaseDecided,
        Self::PurchasesDecidedInBulk,
        Self::PurchaseReopened,
        Self::TestPurchaseCreated,
        Self::DrawPrizesSet,
        Self::DrawLedgerFrozen,
        Self::DrawResultRecorded,
        Self::DrawPrizeDrawn,
        Self::DrawPrizeDelivered,
        Self::RaffleCreated,
        Self::RaffleUpdated,
        Self::RaffleDeleted,
        Self::PaymentMethodCreated,
        Self::PaymentMethodUpdated,
        Self::PaymentMethodDeleted,
        Self::ExchangeRateCreated,
        Self::ExchangeRateUpdated,
        Self::ExchangeRateDeleted,
        Self::BrandingUpdated,
        Self::EmailSettingsUpdated,
        Self::DiscountsUpdated,
        Self::StaffCreated,
        Self::StaffUpdated,
        Self::StaffPasswordReset,
        Self::PasswordChanged,
        Self::MailRetried,
        Self::TestEmailSent,
    ];

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::SignIn => "auth.sign_in",
            Self::SignInFailed => "auth.sign_in_failed",
            Self::SignOut => "auth.sign_out",
            Self::SignOutEverywhere => "auth.sign_out_everywhere",
            Self::PurchaseDecided => "purchase.decided",
            Self::PurchasesDecidedInBulk => "purchase.decided_in_bulk",
            Self::PurchaseReopened => "purchase.reopened",
            Self::TestPurchaseCreated => "purchase.test_created",
            Self::DrawPrizesSet => "draw.prizes_set",
            Self::DrawLedgerFrozen => "draw.ledger_frozen",
            Self::DrawResultRecorded => "draw.result_recorded",
            Self::DrawPrizeDrawn => "draw.prize_drawn",
            Self::DrawPrizeDelivered => "draw.prize_delivered",
            Self::RaffleCreated => "raffle.created",
            Self::RaffleUpdated => "raffle.updated",
            Self::RaffleDeleted => "raffle.deleted",
            Self::PaymentMethodCreated => "payment_method.created",
            Self::PaymentMethodUpdated => "payment_method.updated",
            Self::PaymentMethodDeleted => "payment_method.deleted",
            Self::ExchangeRateCreated => "exchange_rate.created",
            Self::ExchangeRateUpdated => "exchange_rate.updated",
            Self::ExchangeRateDeleted => "exchange_rate.deleted",
            Self::BrandingUpdated => "settings.branding_updated",
            Self::EmailSettingsUpdated => "settings.email_updated",
            Self::DiscountsUpdated => "settings.discounts_updated",
            Self::StaffCreated => "staff.created",
            Self::StaffUpdated => "staff.updated",
            Self::StaffPasswordReset => "staff.password_reset",
            Self::PasswordChanged => "auth.password_changed",
            Self::MailRetried => "mail.retried",
            Self::TestEmailSent => "settings.test_email_sent",
            Self::Unrecognised => "unrecognised",
        }
    }

    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.as_str() == raw)
    }
}

/// One field an action changed. Secrets are never given here: their change is recorded as
/// [`REDACTED`] on both sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub field: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// What a secret's before and after are recorded as.
pub const REDACTED: &str = "[redacted]";

impl Change {
    #[must_use]
    pub fn new(field: &str, before: Option<String>, after: Option<String>) -> Self {
        Self {
            field: field.to_owned(),
            before,
            after,
        }
    }
}

/// A record's fields as the trail shows them, in a fixed order.
pub type Fields = Vec<(&'static str, Option<String>)>;

/// The fields that differ between `before` and `after` (absent on one side for a creation or a
/// deletion: every field then, each with one side empty).
#[must_use]
pub fn changes(before: Option<&Fields>, after: Option<&Fields>) -> Vec<Change> {
    let value = |fields: Option<&Fields>, name: &str| {
        fields.and_then(|f| {
            f.iter()
                .find(|(n, _)| *n == name)
                .and_then(|(_, v)| v.clone())
        })
    };
    let mut names: Vec<&'static str> = Vec::new();
    for (name, _) in before.into_iter().chain(after).flatten() {
        if !names.contains(name) {
            names.push(name);
        }
    }
    names
        .into_iter()
        .filter_map(|name| {
            let (was, is) = (value(before, name), value(after, name));
            (was != is).then(|| Change {
                field: name.to_owned(),
                before: was,
                after: is,
            })
        })
        .collect()
}

/// An entry as the app writes it; the store gives it its place in the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    pub at: DateTime<Utc>,
    pub actor: Actor,
    pub action: AuditAction,
    /// What was acted on, as `kind:id` (`purchase:42`), when one thing was.
    pub target: Option<String>,
    pub changes: Vec<Change>,
}

/// An entry as the trail holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainedEntry {
    pub seq: u64,
    pub entry: AuditEntry,
    pub prev_hash: Hash,
    pub hash: Hash,
}

/// Feeds a field with its length first, so no two different entries hash alike by moving bytes
/// from one field to the next.
fn field(hasher: &mut Sha256, value: Option<&str>) {
    match value {
        None => hasher.update([0]),
        Some(value) => {
            hasher.update([1]);
            hasher.update(u64::try_from(value.len()).unwrap_or(u64::MAX).to_be_bytes());
            hasher.update(value.as_bytes());
        }
    }
}

/// The hash of entry `seq`, after `prev`.
#[must_use]
pub fn entry_hash(prev: &Hash, seq: u64, entry: &AuditEntry) -> Hash {
    let mut hasher = Sha256::new();
    hasher.update(CONTEXT);
    hasher.update(prev);
    hasher.update(seq.to_be_bytes());
    let at = entry.at.to_rfc3339_opts(SecondsFormat::Micros, true);
    field(&mut hasher, Some(&at));
    let admin = entry.actor.admin_id.map(|id| id.get().to_string());
    field(&mut hasher, admin.as_deref());
    field(&mut hasher, Some(&entry.actor.username));
    field(&mut hasher, entry.actor.ip.as_deref());
    field(&mut hasher, Some(entry.action.as_str()));
    field(&mut hasher, entry.target.as_deref());
    hasher.update(
        u64::try_from(entry.changes.len())
            .unwrap_or(u64::MAX)
            .to_be_bytes(),
    );
    for change in &entry.changes {
        field(&mut hasher, Some(&change.field));
        field(&mut hasher, change.before.as_deref());
        field(&mut hasher, change.after.as_deref());
    }
    hasher.finalize().into()
}

/// Where the chain stands: the last entry's number and hash (`0` and [`GENESIS`] when empty).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChainHead {
    pub seq: u64,
    pub hash: Hash,
}

impl ChainHead {
    pub const EMPTY: Self = Self {
        seq: 0,
        hash: GENESIS,
    };

    /// The head after appending `entry`.
    #[must_use]
    pub fn next(&self, entry: &AuditEntry) -> Self {
        let seq = self.seq + 1;
        Self {
            seq,
            hash: entry_hash(&self.hash, seq, entry),
        }
    }
}

/// The first place the chain does not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainBreak {
    /// Entry `seq`'s fields do not give its hash: it was edited.
    Edited { seq: u64 },
    /// The entry before `seq` is not the one `seq` was chained to: entries were removed (or
    /// numbers skipped) before it.
    Missing { seq: u64 },
    /// The head says `expected` entries were written; the trail ends at `found`.
    Truncated { expected: u64, found: u64 },
}

/// Where a walk along the chain stopped: the last entry that held, and the break after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Broken {
    pub reached: ChainHead,
    pub at: ChainBreak,
}

/// Checks entries in sequence order from `after` on (so a long trail is checked page by page);
/// returns the head reached.
///
/// # Errors
/// The first break, with the last entry that held before it.
pub fn verify_page(after: ChainHead, entries: &[ChainedEntry]) -> Result<ChainHead, Broken> {
    let mut head = after;
    for chained in entries {
        let at = if chained.seq != head.seq + 1 || chained.prev_hash != head.hash {
            Some(ChainBreak::Missing { seq: chained.seq })
        } else if entry_hash(&head.hash, chained.seq, &chained.entry) != chained.hash {
            Some(ChainBreak::Edited { seq: chained.seq })
        } else {
            None
        };
        if let Some(at) = at {
            return Err(Broken { reached: head, at });
        }
        head = ChainHead {
            seq: chained.seq,
            hash: chained.hash,
        };
    }
    Ok(head)
}

/// Checks that the whole trail, ending at `reached`, ends where the stored head says.
///
/// # Errors
/// [`ChainBreak::Truncated`] when it stops short, or [`ChainBreak::Edited`] of the last entry
/// when the head's hash differs.
pub fn verify_end(reached: ChainHead, stored: ChainHead) -> Result<(), ChainBreak> {
    if reached.seq != stored.seq {
        return Err(ChainBreak::Truncated {
            expected: stored.seq,
            found: reached.seq,
        });
    }
    if reached.hash != stored.hash {
        return Err(ChainBreak::Edited { seq: reached.seq });
    }
    Ok(())
}

/// One decision the trail records, with when its proof arrived (`None`: decided without one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionTiming {
    pub actor_id: Option<AdminId>,
    pub actor: String,
    pub decided_at: DateTime<Utc>,
    pub proof_at: Option<DateTime<Utc>>,
}

/// One person's decisions over a period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonFigures {
    pub actor_id: Option<AdminId>,
    pub actor: String,
    pub decisions: u64,
    /// Decisions per local day, only days with some, in order.
    pub per_day: Vec<(chrono::NaiveDate, u64)>,
    /// The median time from the proof's arrival to the decision, over the decisions that had
    /// a proof; `None` when none had.
    pub median_proof_to_decision: Option<chrono::Duration>,
}

/// One person's decisions counted so far: per local day, and each wait in seconds.
#[derive(Debug)]
struct Tally {
    person: PersonFigures,
    days: BTreeMap<chrono::NaiveDate, u64>,
    waits: Vec<i64>,
}

/// Each person's figures, counted one decision at a time, so a long period is read in parts
/// (a year of decisions is most of a million); days are local to the offset it was made with.
/// Decisions may come in any order.
#[derive(Debug)]
pub struct FiguresTally {
    offset: chrono::Duration,
    // A team is a handful of people.
    tallies: Vec<Tally>,
}

impl FiguresTally {
    #[must_use]
    pub fn new(utc_offset_minutes: i32) -> Self {
        Self {
            offset: chrono::Duration::minutes(i64::from(utc_offset_minutes)),
            tallies: Vec::new(),
        }
    }

    pub fn add(&mut self, timing: &DecisionTiming) {
        let index = self
            .tallies
            .iter()
            .position(|t| t.person.actor_id == timing.actor_id && t.person.actor == timing.actor)
            .unwrap_or_else(|| {
                self.tallies.push(Tally {
                    person: PersonFigures {
                        actor_id: timing.actor_id,
                        actor: timing.actor.clone(),
                        decisions: 0,
                        per_day: Vec::new(),
                        median_proof_to_decision: None,
                    },
                    days: BTreeMap::new(),
                    waits: Vec::new(),
                });
                self.tallies.len() - 1
            });
        let tally = &mut self.tallies[index];
        tally.person.decisions += 1;
        *tally
            .days
            .entry((timing.decided_at + self.offset).date_naive())
            .or_default() += 1;
        if let Some(proof_at) = timing.proof_at {
            tally
                .waits
                .push((timing.decided_at - proof_at).num_seconds().max(0));
        }
    }

    /// Each person's figures, busiest first; ties fall to the name, then the account.
    #[must_use]
    pub fn finish(self) -> Vec<PersonFigures> {
        let mut figures: Vec<PersonFigures> = self
            .tallies
            .into_iter()
            .map(|mut tally| {
                tally.waits.sort_unstable();
                PersonFigures {
                    per_day: tally.days.into_iter().collect(),
                    median_proof_to_decision: median(&tally.waits).map(chrono::Duration::seconds),
                    ..tally.person
                }
            })
            .collect();
        figures.sort_by(|a, b| {
            b.decisions
                .cmp(&a.decisions)
                .then_with(|| a.actor.cmp(&b.actor))
                .then_with(|| a.actor_id.cmp(&b.actor_id))
        });
        figures
    }
}

/// The middle of sorted `values`; of an even count, the mean of the two middle ones (rounded
/// down).
fn median(sorted: &[i64]) -> Option<i64> {
    let middle = sorted.len() / 2;
    match sorted.len() {
        0 => None,
        n if n % 2 == 1 => Some(sorted[middle]),
        _ => Some(i64::midpoint(sorted[middle - 1], sorted[middle])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: u32) -> AuditEntry {
        AuditEntry {
            at: DateTime::from_timestamp(1_800_000_000 + i64::from(n), 123_456_000)
                .expect("a valid instant"),
            actor: Actor {
                admin_id: Some(AdminId::new(1)),
                username: "ana".to_owned(),
                ip: Some("10.0.0.1".to_owned()),
            },
            action: AuditAction::PurchaseDecided,
            target: Some(format!("purchase:{n}")),
            changes: vec![Change::new(
                "status",
                Some("pending".to_owned()),
                Some("approved".to_owned()),
            )],
        }
    }

    fn chain(n: u32) -> (Vec<ChainedEntry>, ChainHead) {
        let mut head = ChainHead::EMPTY;
        let mut entries = Vec::new();
        for i in 1..=n {
            let entry = entry(i);
            let next = head.next(&entry);
            entries.push(ChainedEntry {
                seq: next.seq,
                entry,
                prev_hash: head.hash,
                hash: next.hash,
            });
            head = next;
        }
        (entries, head)
    }

    #[test]
    fn an_untouched_chain_verifies_whole_and_page_by_page() {
        let (entries, head) = chain(7);
        let whole = verify_page(ChainHead::EMPTY, &entries).expect("intact");
        assert_eq!(whole, head);
        let first = verify_page(ChainHead::EMPTY, &entries[..3]).expect("intact");
        let rest = verify_page(first, &entries[3..]).expect("intact");
        assert_eq!(verify_end(rest, head), Ok(()));
    }

    #[test]
    fn an_edited_field_is_found_at_its_entry() {
        let (mut entries, _) = chain(5);
        entries[2].entry.changes[0].after = Some("rejected".to_owned());
        let broken = verify_page(ChainHead::EMPTY, &entries).expect_err("edited");
        assert_eq!(broken.at, ChainBreak::Edited { seq: 3 });
        assert_eq!(broken.reached.seq, 2, "the entries before it still hold");
        let (mut entries, _) = chain(5);
        entries[1].entry.actor.username = "eve".to_owned();
        assert_eq!(
            verify_page(ChainHead::EMPTY, &entries).map_err(|b| b.at),
            Err(ChainBreak::Edited { seq: 2 })
        );
    }

    #[test]
    fn a_deleted_entry_breaks_the_next_link_and_a_cut_tail_the_head() {
        let (mut entries, _) = chain(5);
        entries.remove(1);
        let broken = verify_page(ChainHead::EMPTY, &entries).expect_err("a gap");
        assert_eq!(broken.at, ChainBreak::Missing { seq: 3 });
        assert_eq!(broken.reached.seq, 1);
        let (mut entries, head) = chain(5);
        entries.pop();
        let reached = verify_page(ChainHead::EMPTY, &entries).expect("what is left links up");
        assert_eq!(
            verify_end(reached, head),
            Err(ChainBreak::Truncated {
                expected: 5,
                found: 4
            })
        );
    }

    #[test]
    fn moving_bytes_between_fields_changes_the_hash() {
        let mut a = entry(1);
        let mut b = entry(1);
        a.target = Some("purchase:1".to_owned());
        a.actor.username = "ana".to_owned();
        b.target = Some("1".to_owned());
        b.actor.username = "anapurchase:".to_owned();
        assert_ne!(entry_hash(&GENESIS, 1, &a), entry_hash(&GENESIS, 1, &b));
    }

    #[test]
    fn changes_name_only_what_differs_and_everything_on_creation_or_deletion() {
        let before: Fields = vec![
            ("title", Some("Moto".into())),
            ("price", Some("5.00".into())),
        ];
        let after: Fields = vec![
            ("title", Some("Moto".into())),
            ("price", Some("6.00".into())),
        ];
        assert_eq!(
            changes(Some(&before), Some(&after)),
            [Change::new(
                "price",
                Some("5.00".into()),
                Some("6.00".into())
            )]
        );
        assert_eq!(changes(Some(&before), Some(&before)), []);
        assert_eq!(
            changes(None, Some(&after)),
            [
                Change::new("title", None, Some("Moto".into())),
                Change::new("price", None, Some("6.00".into())),
            ]
        );
        assert_eq!(changes(Some(&before), None).len(), 2);
    }

    #[test]
    fn action_names_go_both_ways() {
        for action in AuditAction::ALL {
            assert_eq!(AuditAction::parse(action.as_str()), Some(action));
        }
        assert_eq!(AuditAction::parse("nope"), None);
    }

    fn figures(timings: &[DecisionTiming], utc_offset_minutes: i32) -> Vec<PersonFigures> {
        let mut tally = FiguresTally::new(utc_offset_minutes);
        timings.iter().for_each(|t| tally.add(t));
        tally.finish()
    }

    #[test]
    fn figures_count_each_persons_decisions_by_local_day_and_their_median_wait() {
        let at = |text: &str| {
            DateTime::parse_from_rfc3339(text)
                .map(|t| t.with_timezone(&Utc))
                .unwrap_or_default()
        };
        let timing = |who: i64, name: &str, decided: &str, proof: Option<&str>| DecisionTiming {
            actor_id: Some(AdminId::new(who)),
            actor: name.to_owned(),
            decided_at: at(decided),
            proof_at: proof.map(at),
        };
        let timings = [
            // 03:00 UTC is the evening before in Caracas (UTC-4).
            timing(
                1,
                "rita",
                "2026-11-02T03:00:00Z",
                Some("2026-11-02T02:50:00Z"),
            ),
            timing(
                1,
                "rita",
                "2026-11-02T15:00:00Z",
                Some("2026-11-02T14:00:00Z"),
            ),
            timing(
                1,
                "rita",
                "2026-11-02T16:00:00Z",
                Some("2026-11-02T15:58:00Z"),
            ),
            timing(2, "dario", "2026-11-02T16:00:00Z", None),
        ];
        let found = figures(&timings, -240);
        assert_eq!(found.len(), 2);
        let rita = &found[0];
        assert_eq!((rita.actor.as_str(), rita.decisions), ("rita", 3));
        let day =
            |text: &str| chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap_or_default();
        assert_eq!(
            rita.per_day,
            [(day("2026-11-01"), 1), (day("2026-11-02"), 2)]
        );
        // Waits of 10 min, 60 min and 2 min: the median is 10 min.
        assert_eq!(
            rita.median_proof_to_decision,
            Some(chrono::Duration::minutes(10))
        );
        assert_eq!(found[1].median_proof_to_decision, None, "no proof, no wait");
        assert_eq!(median(&[60, 120]), Some(90));
        assert_eq!(median(&[]), None);

        // The store reads them in no order; the figures are the same.
        let mut shuffled = timings.to_vec();
        shuffled.reverse();
        shuffled.swap(0, 2);
        assert_eq!(figures(&shuffled, -240), found);
        // Two accounts that share a name and a count keep one order.
        let namesakes = [
            timing(7, "ana", "2026-11-02T16:00:00Z", None),
            timing(3, "ana", "2026-11-02T16:00:00Z", None),
        ];
        let ids = |found: Vec<PersonFigures>| found.iter().map(|p| p.actor_id).collect::<Vec<_>>();
        let mut reversed = namesakes.to_vec();
        reversed.reverse();
        assert_eq!(ids(figures(&namesakes, 0)), ids(figures(&reversed, 0)));
    }
}
