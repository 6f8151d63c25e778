//! The audit trail of the seeded year: a decision entry for most purchases and the staff's
//! sign-ins, spread over the same year in order, chained onto the trail the API already holds
//! (its head read through the API before the SQL is written). The hashes are the domain's, so
//! the API's verification walks a year of chain and finds it intact, and the panel's trail
//! reads meet the rows a year of decisions leaves.
//!
//! Unlike the purchases, the entries are computed here, not inside the database: each hash
//! depends on the one before, which `INSERT … SELECT` cannot express on both databases.

use std::fmt::Write as _;
use std::io::Write;

use chrono::{DateTime, Utc};
use rifa_domain::admin::AdminId;
use rifa_domain::audit::{Actor, AuditAction, AuditEntry, ChainHead, Change};
use rifa_domain::draw::ledger::{Hash, to_hex};

use super::dialect::Dialect;

/// Who decides: a team of five, each with the address they work from.
const STAFF: [(i64, &str, &str); 5] = [
    (1001, "ana.caja", "190.202.10.4"),
    (1002, "luis.pagos", "190.202.10.9"),
    (1003, "maria.soporte", "186.14.77.21"),
    (1004, "pedro.noche", "200.44.8.130"),
    (1005, "dueno", "190.202.10.2"),
];

/// One entry in this many is a sign-in; the others are decisions.
const SIGN_IN_EVERY: u64 = 40;
/// One decision in this many is a rejection (the seeded purchases reject 12 of 82 decided).
const REJECT_EVERY: u64 = 7;
/// Rows per INSERT: long enough to load fast, short enough for either parser.
const ROWS_PER_INSERT: u64 = 500;

/// What the trail is written after and over.
pub(crate) struct Trail {
    /// The API's head when the script was written: the first seeded entry chains onto it.
    pub(crate) after: ChainHead,
    pub(crate) entries: u64,
    /// Purchases seeded, which decisions name (`purchase:1` … `purchase:N`).
    pub(crate) purchases: u64,
    /// Unix seconds of the first and last entry.
    pub(crate) from: i64,
    pub(crate) until: i64,
}

impl Trail {
    /// Entry `i` (from 0) of the seeded ones: its instant grows with `i`, and a decision names a
    /// purchase created around then (ids grow with time).
    fn entry(&self, i: u64) -> anyhow::Result<AuditEntry> {
        let span = u64::try_from(self.until - self.from)?;
        let at = self.from + i64::try_from(i * span / self.entries.max(1))?;
        let (id, username, ip) = STAFF[usize::try_from(i % STAFF.len() as u64)?];
        let actor = Actor {
            admin_id: Some(AdminId::new(id)),
            username: username.to_owned(),
            ip: Some(ip.to_owned()),
        };
        let at = DateTime::<Utc>::from_timestamp(at, 0)
            .ok_or_else(|| anyhow::anyhow!("{at} is not an instant"))?;
        if i.is_multiple_of(SIGN_IN_EVERY) {
            return Ok(AuditEntry {
                at,
                actor,
                action: AuditAction::SignIn,
                target: None,
                changes: Vec::new(),
            });
        }
        let purchase = 1 + i * self.purchases / self.entries.max(1);
        let verdict = if i.is_multiple_of(REJECT_EVERY) {
            "rejected"
        } else {
            "approved"
        };
        Ok(AuditEntry {
            at,
            actor,
            action: AuditAction::PurchaseDecided,
            target: Some(format!("purchase:{purchase}")),
            changes: vec![Change::new(
                "status",
                Some("pending".to_owned()),
                Some(verdict.to_owned()),
            )],
        })
    }

    /// The entries' INSERTs and the head's move past the last one, in a transaction of their
    /// own, written to `out` a statement at a time (a year is hundreds of megabytes of SQL).
    pub(crate) fn write(&self, dialect: Dialect, out: &mut impl Write) -> anyhow::Result<()> {
        let mut head = self.after;
        let mut sql = String::from("BEGIN;\n");
        for i in 0..self.entries {
            let entry = self.entry(i)?;
            let prev = head.hash;
            head = head.next(&entry);
            sql.push_str(if i.is_multiple_of(ROWS_PER_INSERT) {
                "INSERT INTO audit_log (seq, at, actor_id, actor, ip, action, target, changes, \
                 prev_hash, hash) VALUES\n"
            } else {
                ",\n"
            });
            push_row(&mut sql, dialect, head.seq, &entry, &prev, &head.hash)?;
            if (i + 1).is_multiple_of(ROWS_PER_INSERT) || i + 1 == self.entries {
                sql.push_str(";\n");
                out.write_all(sql.as_bytes())?;
                sql.clear();
            }
        }
        writeln!(
            sql,
            "UPDATE audit_head SET seq = {}, hash = '{}' WHERE id = 1;\nCOMMIT;",
            head.seq,
            to_hex(&head.hash)
        )?;
        if dialect == Dialect::Postgres {
            sql.push_str("VACUUM (ANALYZE) audit_log;\n");
        }
        out.write_all(sql.as_bytes())?;
        Ok(())
    }
}

/// One entry as a row of the INSERT; the seeded texts hold no quote to escape.
fn push_row(
    sql: &mut String,
    dialect: Dialect,
    seq: u64,
    entry: &AuditEntry,
    prev: &Hash,
    hash: &Hash,
) -> anyhow::Result<()> {
    let changes: Vec<String> = entry
        .changes
        .iter()
        .map(|c| {
            format!(
                r#"{{"field":"{}","before":{},"after":{}}}"#,
                c.field,
                json_text(c.before.as_deref()),
                json_text(c.after.as_deref()),
            )
        })
        .collect();
    let nullable =
        |text: Option<String>| text.map_or_else(|| "NULL".to_owned(), |t| format!("'{t}'"));
    write!(
        sql,
        "({seq}, {at}, {actor_id}, '{actor}', {ip}, '{action}', {target}, '[{changes}]', '{prev}', '{hash}')",
        at = dialect.timestamp(&entry.at.timestamp().to_string()),
        actor_id = entry
            .actor
            .admin_id
            .map_or_else(|| "NULL".to_owned(), |id| id.get().to_string()),
        actor = entry.actor.username,
        ip = nullable(entry.actor.ip.clone()),
        action = entry.action.as_str(),
        target = nullable(entry.target.clone()),
        changes = changes.join(","),
        prev = to_hex(prev),
        hash = to_hex(hash),
    )?;
    Ok(())
}

/// A JSON string or null, quoted by serde_json; the seeded texts hold no quote SQL would escape.
fn json_text(text: Option<&str>) -> String {
    serde_json::Value::from(text).to_string()
}

#[cfg(test)]
mod tests {
    use rifa_domain::audit::{ChainedEntry, verify_page};

    use super::*;

    fn trail(after: ChainHead) -> Trail {
        Trail {
            after,
            entries: 100,
            purchases: 120,
            from: 1_700_000_000,
            until: 1_700_000_000 + 86_400 * 365,
        }
    }

    #[test]
    fn the_seeded_entries_chain_onto_the_head_they_were_written_after() {
        let before = ChainHead::EMPTY.next(&trail(ChainHead::EMPTY).entry(3).unwrap());
        let trail = trail(before);
        let mut head = before;
        let mut chained = Vec::new();
        for i in 0..trail.entries {
            let entry = trail.entry(i).unwrap();
            let prev = head.hash;
            head = head.next(&entry);
            chained.push(ChainedEntry {
                seq: head.seq,
                entry,
                prev_hash: prev,
                hash: head.hash,
            });
        }
        assert_eq!(verify_page(before, &chained), Ok(head));
        assert!(chained.windows(2).all(|w| w[0].entry.at <= w[1].entry.at));
        assert_eq!(chained[0].entry.action, AuditAction::SignIn);
        let last = chained.last().unwrap().entry.target.clone().unwrap();
        assert!(
            last.starts_with("purchase:") && last != "purchase:121",
            "{last}"
        );
    }

    #[test]
    fn the_script_holds_every_entry_and_moves_the_head() {
        let trail = trail(ChainHead::EMPTY);
        let mut out = Vec::new();
        trail.write(Dialect::Postgres, &mut out).unwrap();
        let sql = String::from_utf8(out).unwrap();
        assert_eq!(sql.matches("INSERT INTO audit_log").count(), 1);
        assert!(sql.starts_with("BEGIN;") && sql.contains("COMMIT;"));
        assert_eq!(sql.matches("to_timestamp(").count(), 100);
        assert!(sql.contains("UPDATE audit_head SET seq = 100, hash = '"));
        assert!(sql.contains(r#"'[{"field":"status","before":"pending","after":"rejected"}]'"#));
    }
}
