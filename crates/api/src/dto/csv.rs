//! Purchases and the audit trail as CSV (RFC 4180, comma separated, CRLF, a byte-order mark so
//! spreadsheets read UTF-8), safe to open in a spreadsheet: no cell runs as a formula, whether
//! the file is read with `,` or `;` as the separator, or by a reader that ignores quotes.

use rifa_app::export::ExportedPurchase;
use rifa_domain::audit::ChainedEntry;
use rifa_domain::draw::ledger::to_hex;

use super::instant;

/// The columns, as the panel's export always named them.
pub const HEADER: [&str; 18] = [
    "id",
    "reference",
    "createdAt",
    "status",
    "raffleId",
    "raffleTitle",
    "ticketCount",
    "ticketNumbers",
    "totalAmount",
    "discountApplied",
    "paymentMethod",
    "customerName",
    "customerId",
    "customerEmail",
    "customerPhone",
    "customerCountry",
    "decidedAt",
    "adminNotes",
];

/// The audit trail's columns; `changes` reads `field: before → after`, changes apart by ` | `.
pub const AUDIT_HEADER: [&str; 10] = [
    "seq", "at", "actor", "actorId", "ip", "action", "target", "changes", "hash", "prevHash",
];

/// The first bytes of the purchases' file: the byte-order mark and the header line.
#[must_use]
pub fn head() -> String {
    head_of(&HEADER)
}

/// The first bytes of the trail's file.
#[must_use]
pub fn audit_head() -> String {
    head_of(&AUDIT_HEADER)
}

fn head_of(header: &[&str]) -> String {
    let mut text = String::from('\u{FEFF}');
    push_record(&mut text, header.iter().map(|h| (*h).to_owned()));
    text
}

/// One line per trail entry.
pub fn push_audit_entry(text: &mut String, chained: &ChainedEntry) {
    let entry = &chained.entry;
    let changes: Vec<String> = entry
        .changes
        .iter()
        .map(|c| {
            format!(
                "{}: {} → {}",
                c.field,
                c.before.as_deref().unwrap_or("—"),
                c.after.as_deref().unwrap_or("—")
            )
        })
        .collect();
    push_record(
        text,
        [
            chained.seq.to_string(),
            instant(entry.at),
            entry.actor.username.clone(),
            entry
                .actor
                .admin_id
                .map(|id| id.get().to_string())
                .unwrap_or_default(),
            entry.actor.ip.clone().unwrap_or_default(),
            entry.action.as_str().to_owned(),
            entry.target.clone().unwrap_or_default(),
            changes.join(" | "),
            to_hex(&chained.hash),
            to_hex(&chained.prev_hash),
        ],
    );
}

/// One line per purchase.
pub fn push_purchase(text: &mut String, row: &ExportedPurchase) {
    let p = &row.purchase;
    push_record(
        text,
        [
            p.id.get().to_string(),
            p.reference.clone(),
            instant(p.created_at),
            p.status.as_str().to_owned(),
            p.raffle_id.get().to_string(),
            p.raffle_title.clone(),
            p.ticket_numbers.len().to_string(),
            row.ticket_numbers.join(" "),
            p.total_amount.to_string(),
            p.discount_applied.to_string(),
            p.payment_method.clone(),
            p.customer_name.clone(),
            p.customer_id_document.clone(),
            p.customer_email.clone(),
            p.customer_phone.clone(),
            p.customer_country.clone(),
            p.decided_at.map(instant).unwrap_or_default(),
            p.admin_notes.clone().unwrap_or_default(),
        ],
    );
}

fn push_record(text: &mut String, cells: impl IntoIterator<Item = String>) {
    for (i, cell) in cells.into_iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&cell_of(&cell));
    }
    text.push_str("\r\n");
}

/// Where a spreadsheet may start a new cell: a separator it may guess (`,` or `;`, by locale)
/// or a line break (a reader that ignores quotes splits there).
fn breaks_cell(c: char) -> bool {
    matches!(c, ',' | ';' | '\r' | '\n')
}

/// A piece a spreadsheet would run as a formula (CSV injection): one starting with `=`, `+`,
/// `-` or `@` (some trim leading spaces first), or with a tab or carriage return; a plain number
/// such as `-5` is left alone.
fn runs_as_formula(piece: &str) -> bool {
    let trimmed = piece.trim_start();
    let formula = trimmed.starts_with(['=', '+', '-', '@']) || piece.starts_with(['\t', '\r']);
    formula && !is_plain_number(piece)
}

fn is_plain_number(piece: &str) -> bool {
    let digits = piece.strip_prefix('-').unwrap_or(piece);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "1"));
    [whole, fraction]
        .iter()
        .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
}

/// The cell as written: a `'` before every piece (at its start, after every separator or line
/// break inside it) that would run as a formula, then quoted when it holds a separator, a quote
/// or a line break.
fn cell_of(value: &str) -> String {
    let mut defused = String::with_capacity(value.len() + 2);
    let mut piece_start = 0;
    for (at, c) in value.char_indices().filter(|(_, c)| breaks_cell(*c)) {
        push_defused(&mut defused, &value[piece_start..at]);
        defused.push(c);
        piece_start = at + c.len_utf8();
    }
    push_defused(&mut defused, &value[piece_start..]);
    if defused.contains(['"', ',', ';', '\r', '\n']) {
        format!("\"{}\"", defused.replace('"', "\"\""))
    } else {
        defused
    }
}

fn push_defused(text: &mut String, piece: &str) {
    if runs_as_formula(piece) {
        text.push('\'');
    }
    text.push_str(piece);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_defused_in_every_piece_and_cells_with_separators_quoted() {
        let cases = [
            ("Ana", "Ana"),
            ("=1+1", "'=1+1"),
            ("  @SUM(A1)", "'  @SUM(A1)"),
            ("\t=cmd", "'\t=cmd"),
            ("-5", "-5"),
            ("-2.50", "-2.50"),
            ("-x", "'-x"),
            ("Ana;=1+1;", "\"Ana;'=1+1;\""),
            ("x; =2*3", "\"x;' =2*3\""),
            ("a\n=1+1", "\"a\n'=1+1\""),
            ("\"=1\";=2", "\"\"\"=1\"\";'=2\""),
            ("María, la de 1.234,56", "\"María, la de 1.234,56\""),
            ("Pérez, \"Juan\"", "\"Pérez, \"\"Juan\"\"\""),
            ("a\nb", "\"a\nb\""),
            ("", ""),
            ("+58 412", "'+58 412"),
            ("-5.00", "-5.00"),
            ("Ana,@SUM(A1)", "\"Ana,'@SUM(A1)\""),
            ("a\n+1", "\"a\n'+1\""),
            ("1;-5.00", "\"1;-5.00\""),
        ];
        for (value, written) in cases {
            assert_eq!(cell_of(value), written, "{value:?}");
        }
    }

    #[test]
    fn plain_numbers_are_told_from_formulas() {
        for plain in ["0", "12", "-12", "1.5", "-0.25"] {
            assert!(is_plain_number(plain), "{plain}");
        }
        for not in ["", "-", "1.", ".5", "1.2.3", "1e5", "- 1"] {
            assert!(!is_plain_number(not), "{not}");
        }
    }
}
