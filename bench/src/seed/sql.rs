//! The seeding script: a year of raffles, buyers, purchases, their numbers and their e-mails,
//! generated inside the database (`INSERT … SELECT` over `generate_series`), so a million
//! purchases take minutes instead of a million round trips.
//!
//! The shape, for `purchases` N over `raffles` R of `tickets` T numbers each:
//!
//! * the year is cut into `R - W + 1` periods (W raffles are on sale at any time, a tenth of
//!   R by default); a purchase of period p goes to one of raffles p … p+W-1, so each raffle sells
//!   for W periods, the oldest and the newest ramp up and down, and the newest W are still on
//!   sale (`available`; the others `finished`);
//! * purchases are spread evenly over the year in id order (ids grow with `created_at`, as
//!   they do in production), each with 1 to 5 numbers (3 on average), 70% approved, 13%
//!   pending, 12% rejected, 5% test, from about N/3 buyers who come back;
//! * every purchase has its rows in `purchase_tickets` (held for pending and approved, not for
//!   rejected and test ones, as the API writes them); the numbers of a raffle are a
//!   permutation of 1…T walked in purchase order, so no two rows of a raffle share a number;
//! * `ticket_numbers` lists the same numbers, ascending, as the API writes it;
//! * the outbox holds the e-mails those purchases caused, all sent (optional).
//!
//! Staging happens in temporary tables; the API's tables get plain inserts, so every
//! constraint and index of the schema checks the data on the way in.

use std::fmt::Write as _;

use super::dialect::Dialect;
use super::names::{DOMAINS, FIRST_NAMES, LAST_NAMES, PRICES_CENTS, PRIZES, fold, mailbox, quoted};

/// A payment method created through the API before seeding.
pub(crate) struct Method {
    pub(crate) id: i64,
    pub(crate) name: String,
    /// Currency and rate of its conversion, as purchases record them.
    pub(crate) conversion: Option<(String, String)>,
    /// How many of ten purchases use it.
    pub(crate) weight: usize,
}

pub(crate) struct Plan {
    pub(crate) dialect: Dialect,
    pub(crate) purchases: u64,
    pub(crate) raffles: u64,
    pub(crate) on_sale: u64,
    pub(crate) tickets: u64,
    pub(crate) days: u64,
    /// Unix time of the last purchase's period end.
    pub(crate) now: i64,
    pub(crate) methods: Vec<Method>,
    pub(crate) outbox: bool,
}

/// Salts: one per drawn field, so fields do not move together.
mod salt {
    pub(super) const RAFFLE: u32 = 1;
    pub(super) const BUYER: u32 = 2;
    pub(super) const STATUS: u32 = 3;
    pub(super) const COUNT: u32 = 4;
    pub(super) const TIME: u32 = 5;
    pub(super) const METHOD: u32 = 6;
    pub(super) const PROOF: u32 = 7;
    pub(super) const DECIDED: u32 = 8;
    pub(super) const NOTE: u32 = 9;
    pub(super) const FIRST: u32 = 10;
    pub(super) const LAST1: u32 = 11;
    pub(super) const LAST2: u32 = 12;
    pub(super) const DOMAIN: u32 = 13;
    pub(super) const COUNTRY: u32 = 14;
    pub(super) const PHONE: u32 = 15;
    pub(super) const OPERATOR: u32 = 16;
    pub(super) const DOCUMENT: u32 = 17;
    pub(super) const STYLE: u32 = 18;
    pub(super) const PRICE: u32 = 19;
    pub(super) const PRIZE: u32 = 20;
    pub(super) const PERMUTATION: u32 = 21;
}

const CROCKFORD: &str = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

const REJECTION_NOTES: &[&str] = &[
    "Comprobante ilegible",
    "El pago no se ve reflejado en la cuenta",
    "Monto incompleto",
    "Referencia duplicada",
];

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl Plan {
    /// Refuses sizes the numbering cannot hold: a raffle receives about N / (R - W + 1)
    /// purchases of 3 numbers on average, and all of them must fit in its T numbers.
    pub(crate) fn check(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.purchases > 0 && self.raffles > 0 && self.tickets > 0 && self.days > 0,
            "purchases, raffles, tickets and days must be positive"
        );
        anyhow::ensure!(
            (1..=self.raffles).contains(&self.on_sale),
            "raffles on sale must be between 1 and the number of raffles"
        );
        let per_raffle = self.purchases.div_ceil(self.periods());
        // Twice the mean number of rows leaves room for the draw's spread.
        anyhow::ensure!(
            per_raffle * 6 <= self.tickets,
            "{} purchases over {} raffles is about {per_raffle} purchases per raffle, more than \
             {} numbers can hold: add raffles or numbers",
            self.purchases,
            self.raffles,
            self.tickets
        );
        Ok(())
    }

    fn periods(&self) -> u64 {
        self.raffles - self.on_sale + 1
    }

    fn span(&self) -> u64 {
        self.days * 86_400
    }

    pub(super) fn start(&self) -> i64 {
        self.now - i64::try_from(self.span()).unwrap_or(i64::MAX)
    }

    fn buyers(&self) -> u64 {
        (self.purchases / 3).max(1)
    }

    /// A multiplier coprime with T: `(slot * A + b) mod T` then walks a permutation. Near T
    /// over the golden ratio, so a purchase's consecutive slots land far apart and its numbers,
    /// sorted, do not read as an arithmetic progression.
    fn multiplier(&self) -> u64 {
        (self.tickets * 618 / 1_000 + 1..)
            .find(|a| gcd(*a, self.tickets) == 1)
            .unwrap_or(1)
    }

    /// The whole script, statements separated by `;\n`.
    pub(crate) fn script(&self) -> String {
        let mut sql = String::new();
        self.preamble(&mut sql);
        sql.push_str("BEGIN;\n");
        self.lookups(&mut sql);
        self.raffles_sql(&mut sql);
        self.buyers_sql(&mut sql);
        self.purchases_sql(&mut sql);
        self.tickets_sql(&mut sql);
        self.insert_purchases(&mut sql);
        self.insert_tickets(&mut sql);
        if self.outbox {
            self.insert_outbox(&mut sql);
        }
        self.finish(&mut sql);
        sql
    }

    fn preamble(&self, sql: &mut String) {
        match self.dialect {
            Dialect::Postgres => {
                sql.push_str("\\set ON_ERROR_STOP on\n");
                // This session only: sorts and hashes of a million rows stay in memory, and
                // the one commit need not wait for its WAL flush.
                sql.push_str("SET work_mem = '256MB';\nSET maintenance_work_mem = '512MB';\n");
                sql.push_str("SET synchronous_commit = off;\n");
            }
            Dialect::Sqlite => {
                sql.push_str(".bail on\n");
                sql.push_str("PRAGMA temp_store = MEMORY;\nPRAGMA cache_size = -262144;\n");
            }
        }
    }

    /// Small lookup tables the draws index into.
    fn lookups(&self, sql: &mut String) {
        let int = self.dialect.int();
        let _ = writeln!(
            sql,
            "CREATE TEMP TABLE seed_base AS SELECT \
             (SELECT COALESCE(MAX(id), 0) FROM raffles) AS rb, \
             (SELECT COALESCE(MAX(id), 0) FROM purchases) AS pb;"
        );
        let table = |sql: &mut String, name: &str, columns: &str, rows: Vec<String>| {
            let _ = writeln!(
                sql,
                "CREATE TEMP TABLE {name} (i {int} PRIMARY KEY, {columns});"
            );
            let values: Vec<String> = rows
                .iter()
                .enumerate()
                .map(|(i, row)| format!("({i}, {row})"))
                .collect();
            let _ = writeln!(sql, "INSERT INTO {name} VALUES {};", values.join(", "));
        };
        let names = |list: &[&str]| {
            list.iter()
                .map(|n| {
                    format!(
                        "{}, {}, {}",
                        quoted(n),
                        quoted(&fold(n)),
                        quoted(&mailbox(n))
                    )
                })
                .collect()
        };
        let columns = "name TEXT, folded TEXT, mailbox TEXT";
        table(sql, "seed_first", columns, names(FIRST_NAMES));
        table(sql, "seed_last", columns, names(LAST_NAMES));
        table(
            sql,
            "seed_domain",
            "domain TEXT",
            DOMAINS.iter().map(|d| quoted(d)).collect(),
        );
        table(
            sql,
            "seed_prize",
            "title TEXT",
            PRIZES.iter().map(|p| quoted(p)).collect(),
        );
        table(
            sql,
            "seed_price",
            &format!("cents {int}"),
            PRICES_CENTS.iter().map(i64::to_string).collect(),
        );
        table(
            sql,
            "seed_note",
            "note TEXT",
            REJECTION_NOTES.iter().map(|n| quoted(n)).collect(),
        );
        let slots: Vec<String> = self
            .methods
            .iter()
            .flat_map(|m| {
                let (currency, rate) = m.conversion.as_ref().map_or_else(
                    || ("NULL".to_owned(), "NULL".to_owned()),
                    |(c, r)| (quoted(c), quoted(r)),
                );
                std::iter::repeat_n(
                    format!("{}, {}, {currency}, {rate}", m.id, quoted(&m.name)),
                    m.weight,
                )
            })
            .collect();
        table(
            sql,
            "seed_method",
            &format!("id {int}, name TEXT, currency TEXT, rate TEXT"),
            slots,
        );
    }

    fn raffles_sql(&self, sql: &mut String) {
        let d = self.dialect;
        let int = d.int();
        let (r, w, t) = (self.raffles, self.on_sale, self.tickets);
        let period = self.span() / self.periods();
        let start = self.start();
        let _ = writeln!(
            sql,
            "CREATE TEMP TABLE seed_r (k {int} PRIMARY KEY, id {int}, price {int}, title TEXT, \
             status TEXT, created {int}, draw {int}, b {int});"
        );
        let _ = writeln!(
            sql,
            "INSERT INTO seed_r SELECT g.value, base.rb + g.value + 1, pr.cents, \
             z.title || ' · Sorteo ' || (g.value + 1), \
             CASE WHEN g.value >= {first_on_sale} THEN 'available' ELSE 'finished' END, \
             {start} + (g.value - {w} + 1) * {period} - 86400, \
             {start} + (g.value + 1) * {period} + 3600, {b} \
             FROM {series} CROSS JOIN seed_base base \
             JOIN seed_price pr ON pr.i = {price} JOIN seed_prize z ON z.i = {prize};",
            first_on_sale = r - w,
            b = d.draw("g.value", salt::PERMUTATION, t),
            series = d.series("0", &(r - 1).to_string(), "g"),
            price = d.draw("g.value", salt::PRICE, PRICES_CENTS.len() as u64),
            prize = d.draw("g.value", salt::PRIZE, PRIZES.len() as u64),
        );
        let _ = writeln!(
            sql,
            "INSERT INTO raffles (id, title, description, image, price_cents, status, max_tickets, \
             min_per_purchase, max_per_purchase, draw_date, end_date, created_at) \
             SELECT id, title, 'Sorteo con los resultados de la Lotería del Táchira. ' || title, '', \
             price, status, {t}, 1, 100, {draw}, NULL, {created} FROM seed_r ORDER BY k;",
            draw = d.timestamp("draw"),
            created = d.timestamp("created"),
        );
    }

    fn buyers_sql(&self, sql: &mut String) {
        let d = self.dialect;
        let int = d.int();
        let c = "g.value";
        // The draws first, then the text built from them (each draw computed once).
        let _ = writeln!(
            sql,
            "CREATE TEMP TABLE seed_draw (c {int} PRIMARY KEY, f {int}, l1 {int}, l2 {int}, \
             dom {int}, cp {int}, n7 TEXT, op {int}, doc {int}, style {int});"
        );
        let _ = writeln!(
            sql,
            "INSERT INTO seed_draw SELECT {c}, {f}, {l1}, {l2}, {dom}, {cp}, \
             substr(CAST(10000000 + {n7} AS TEXT), 2), {op}, {doc}, {style} FROM {series};",
            f = d.draw(c, salt::FIRST, FIRST_NAMES.len() as u64),
            l1 = d.draw(c, salt::LAST1, LAST_NAMES.len() as u64),
            l2 = d.draw(c, salt::LAST2, LAST_NAMES.len() as u64),
            dom = d.draw(c, salt::DOMAIN, DOMAINS.len() as u64),
            cp = d.draw(c, salt::COUNTRY, 100),
            n7 = d.draw(c, salt::PHONE, 10_000_000),
            op = d.draw(c, salt::OPERATOR, 5),
            doc = d.draw(c, salt::DOCUMENT, 20_000_000),
            style = d.draw(c, salt::STYLE, 2),
            series = d.series("0", &(self.buyers() - 1).to_string(), "g"),
        );
        // Countries in the proportions of a Venezuelan operator's buyers; phones written the
        // way each country writes them (the lookup compares the digits only).
        let country = "CASE WHEN x.cp < 55 THEN 'venezuela' WHEN x.cp < 70 THEN 'colombia' \
             WHEN x.cp < 78 THEN 'mexico' WHEN x.cp < 83 THEN 'argentina' WHEN x.cp < 88 THEN 'peru' \
             WHEN x.cp < 92 THEN 'ecuador' WHEN x.cp < 97 THEN 'estados-unidos' ELSE 'other' END";
        // PostgreSQL's substr wants an `integer` start, and a BIGINT does not cast to it implicitly.
        let ve = "substr('412414416424426', CAST(x.op * 3 + 1 AS INTEGER), 3)";
        let co = "'3' || substr('0001101520', CAST(x.op * 2 + 1 AS INTEGER), 2)";
        let phone = format!(
            "CASE WHEN x.cp < 55 THEN (CASE WHEN x.style = 0 THEN '+58 ' || {ve} || ' ' || x.n7 \
             ELSE '0' || {ve} || '-' || x.n7 END) \
             WHEN x.cp < 70 THEN '+57 ' || {co} || ' ' || x.n7 \
             WHEN x.cp < 78 THEN '+52 55 ' || x.op || substr(x.n7, 1, 3) || ' ' || substr(x.n7, 4, 4) \
             WHEN x.cp < 83 THEN '+54 9 11 ' || x.op || substr(x.n7, 1, 3) || '-' || substr(x.n7, 4, 4) \
             WHEN x.cp < 88 THEN '+51 9' || x.op || substr(x.n7, 1, 1) || ' ' || substr(x.n7, 2, 3) || ' ' || substr(x.n7, 5, 3) \
             WHEN x.cp < 92 THEN '+593 9' || x.op || ' ' || substr(x.n7, 1, 3) || ' ' || substr(x.n7, 4, 4) \
             WHEN x.cp < 97 THEN '+1 (305) ' || substr(x.n7, 1, 3) || '-' || substr(x.n7, 4, 4) \
             ELSE '+34 6' || x.op || substr(x.n7, 1, 1) || ' ' || substr(x.n7, 2, 3) || ' ' || substr(x.n7, 5, 3) END"
        );
        let digits = format!(
            "CASE WHEN x.cp < 55 THEN (CASE WHEN x.style = 0 THEN '58' ELSE '0' END) || {ve} || x.n7 \
             WHEN x.cp < 70 THEN '57' || {co} || x.n7 \
             WHEN x.cp < 78 THEN '5255' || x.op || x.n7 \
             WHEN x.cp < 83 THEN '54911' || x.op || x.n7 \
             WHEN x.cp < 88 THEN '519' || x.op || x.n7 \
             WHEN x.cp < 92 THEN '5939' || x.op || x.n7 \
             WHEN x.cp < 97 THEN '1305' || x.n7 \
             ELSE '346' || x.op || x.n7 END"
        );
        let document = "CASE WHEN x.cp < 55 THEN 'V-' || (4000000 + x.doc) \
             WHEN x.cp < 70 THEN 'CC ' || (1000000000 + x.doc) \
             WHEN x.cp < 78 THEN 'INE ' || (100000000 + x.doc) \
             WHEN x.cp < 83 THEN 'DNI ' || (20000000 + x.doc) \
             ELSE 'P-' || (30000000 + x.doc) END";
        let _ = writeln!(
            sql,
            "CREATE TEMP TABLE seed_b (c {int} PRIMARY KEY, name TEXT, folded TEXT, email TEXT, \
             phone TEXT, digits TEXT, country TEXT, doc TEXT, lang TEXT);"
        );
        let _ = writeln!(
            sql,
            "INSERT INTO seed_b SELECT x.c, f.name || ' ' || l1.name || ' ' || l2.name, \
             f.folded || ' ' || l1.folded || ' ' || l2.folded, \
             f.mailbox || '.' || l1.mailbox || x.c || '@' || m.domain, \
             {phone}, {digits}, {country}, {document}, \
             CASE WHEN x.cp >= 92 AND x.cp < 97 THEN 'en' ELSE 'es' END \
             FROM seed_draw x JOIN seed_first f ON f.i = x.f JOIN seed_last l1 ON l1.i = x.l1 \
             JOIN seed_last l2 ON l2.i = x.l2 JOIN seed_domain m ON m.i = x.dom;"
        );
    }

    fn purchases_sql(&self, sql: &mut String) {
        let d = self.dialect;
        let int = d.int();
        let n = self.purchases;
        let j = "g.value";
        let slot = (self.span() / n).max(1);
        let _ = writeln!(
            sql,
            "CREATE TEMP TABLE seed_p (j {int} PRIMARY KEY, k {int}, c {int}, status TEXT, \
             tc {int}, t {int}, m {int}, proof {int}, dd {int}, note {int}, slot {int});"
        );
        // The raffle's running count of numbers before this purchase is where its numbers
        // start in the raffle's permutation.
        let _ = writeln!(
            sql,
            "INSERT INTO seed_p SELECT j, k, c, status, tc, t, m, proof, dd, note, \
             SUM(tc) OVER (PARTITION BY k ORDER BY j ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) - tc \
             FROM (SELECT {j} AS j, ({j} - 1) * {periods} / {n} + {raffle} AS k, {buyer} AS c, \
             CASE WHEN {status} < 70 THEN 'approved' WHEN {status} < 83 THEN 'pending' \
             WHEN {status} < 95 THEN 'rejected' ELSE 'test' END AS status, \
             1 + {count} AS tc, {start} + ({j} - 1) * {span} / {n} + {time} AS t, {method} AS m, \
             {proof} AS proof, 600 + {decided} AS dd, {note} AS note FROM {series}) AS s;",
            periods = self.periods(),
            raffle = d.draw(j, salt::RAFFLE, self.on_sale),
            buyer = d.draw(j, salt::BUYER, self.buyers()),
            status = d.draw(j, salt::STATUS, 100),
            count = d.draw(j, salt::COUNT, 5),
            start = self.start(),
            span = self.span(),
            time = d.draw(j, salt::TIME, slot),
            method = d.draw(
                j,
                salt::METHOD,
                self.methods.iter().map(|m| m.weight).sum::<usize>() as u64
            ),
            proof = d.draw(j, salt::PROOF, 10),
            decided = d.draw(j, salt::DECIDED, 43_200),
            note = d.draw(j, salt::NOTE, REJECTION_NOTES.len() as u64),
            series = d.series("1", &n.to_string(), "g"),
        );
    }

    fn tickets_sql(&self, sql: &mut String) {
        let d = self.dialect;
        let int = d.int();
        let _ = writeln!(
            sql,
            "CREATE TEMP TABLE seed_t (j {int}, k {int}, n {int}, held {int});"
        );
        let _ = writeln!(
            sql,
            "INSERT INTO seed_t SELECT p.j, p.k, ((p.slot + g.value) * {a} + r.b) % {t} + 1, \
             CASE WHEN p.status IN ('approved', 'pending') THEN 1 ELSE 0 END \
             FROM seed_p p JOIN seed_r r ON r.k = p.k JOIN {series} ON g.value < p.tc;",
            a = self.multiplier(),
            t = self.tickets,
            series = d.series("0", "4", "g"),
        );
        let _ = writeln!(
            sql,
            "CREATE TEMP TABLE seed_n (j {int} PRIMARY KEY, list TEXT);"
        );
        let _ = writeln!(sql, "INSERT INTO seed_n {};", d.number_list("seed_t"));
        if d == Dialect::Postgres {
            // Temporary tables are never analysed automatically: without row counts the
            // planner would join a million rows by nested loops.
            sql.push_str("ANALYZE seed_r;\nANALYZE seed_b;\nANALYZE seed_p;\nANALYZE seed_t;\nANALYZE seed_n;\n");
        }
    }

    /// `RF-` and eight Crockford characters, as the API's references look: the purchase id
    /// times an odd constant modulo 2^40, five bits per character, so distinct ids give
    /// distinct references.
    fn reference(id: &str) -> String {
        let x = format!("(({id}) * 2654435761 & 1099511627775)");
        let chars: Vec<String> = (0..8)
            .rev()
            .map(|i| {
                format!(
                    "substr('{CROCKFORD}', CAST((({x} >> {}) & 31) + 1 AS INTEGER), 1)",
                    i * 5
                )
            })
            .collect();
        format!("'RF-' || {}", chars.join(" || "))
    }

    fn insert_purchases(&self, sql: &mut String) {
        let d = self.dialect;
        let id = "(base.pb + p.j)";
        let decided = d.least("p.t + p.dd", &self.now.to_string());
        let _ = writeln!(
            sql,
            "INSERT INTO purchases (id, reference, raffle_id, customer_name, customer_name_folded, \
             customer_id_document, customer_email, customer_phone, customer_phone_digits, \
             customer_country, payment_method_id, payment_method_name, conversion_currency, \
             conversion_rate, ticket_numbers, ticket_count, total_cents, discount_cents, status, \
             created_at, decided_at, payment_proof, admin_notes, lang, access_digest, upload_grants) \
             SELECT {id}, {reference}, r.id, b.name, b.folded, b.doc, b.email, b.phone, b.digits, \
             b.country, m.id, m.name, m.currency, m.rate, '[' || n.list || ']', p.tc, \
             p.tc * r.price, 0, p.status, {created}, \
             CASE WHEN p.status IN ('approved', 'rejected') THEN {decided_at} END, \
             CASE WHEN p.status <> 'test' AND p.proof < 9 THEN 'proofs/' || {id} || '/comprobante-' || {id} || '.jpg' END, \
             CASE WHEN p.status = 'rejected' THEN o.note END, b.lang, {digest}, 0 \
             FROM seed_p p JOIN seed_r r ON r.k = p.k JOIN seed_b b ON b.c = p.c \
             JOIN seed_n n ON n.j = p.j JOIN seed_method m ON m.i = p.m \
             JOIN seed_note o ON o.i = p.note CROSS JOIN seed_base base ORDER BY p.j;",
            reference = Self::reference(id),
            created = d.timestamp("p.t"),
            decided_at = d.timestamp(&decided),
            digest = d.digest(id),
        );
    }

    fn insert_tickets(&self, sql: &mut String) {
        let held = self.dialect.boolean("t.held = 1");
        let _ = writeln!(
            sql,
            "INSERT INTO purchase_tickets (purchase_id, raffle_id, number, held) \
             SELECT base.pb + t.j, r.id, t.n, {held} FROM seed_t t JOIN seed_r r ON r.k = t.k \
             CROSS JOIN seed_base base ORDER BY t.j, t.n;"
        );
    }

    fn insert_outbox(&self, sql: &mut String) {
        let d = self.dialect;
        let decided = d.least("p.t + p.dd", &self.now.to_string());
        let sent = d.least("p.t + p.dd + 60", &self.now.to_string());
        let _ = writeln!(
            sql,
            "INSERT INTO mail_outbox (purchase_id, kind, recipient, lang, status, attempts, \
             next_attempt_at, last_error, created_at, sent_at, withheld_reason) \
             SELECT base.pb + p.j, 'received', b.email, b.lang, 'sent', 1, {created}, NULL, \
             {created}, {received_sent}, NULL FROM seed_p p JOIN seed_b b ON b.c = p.c \
             CROSS JOIN seed_base base WHERE p.status <> 'test' \
             UNION ALL \
             SELECT base.pb + p.j, p.status, b.email, b.lang, 'sent', 1, {decided_at}, NULL, \
             {decided_at}, {decision_sent}, NULL FROM seed_p p JOIN seed_b b ON b.c = p.c \
             CROSS JOIN seed_base base WHERE p.status IN ('approved', 'rejected');",
            created = d.timestamp("p.t"),
            received_sent = d.timestamp("p.t + 60"),
            decided_at = d.timestamp(&decided),
            decision_sent = d.timestamp(&sent),
        );
    }

    fn finish(&self, sql: &mut String) {
        match self.dialect {
            Dialect::Postgres => {
                // Explicit ids leave the sequences behind; the API's next insert must not clash.
                sql.push_str(
                    "SELECT setval(pg_get_serial_sequence('raffles', 'id'), (SELECT MAX(id) FROM raffles));\n\
                     SELECT setval(pg_get_serial_sequence('purchases', 'id'), (SELECT MAX(id) FROM purchases));\n\
                     COMMIT;\n",
                );
                // What autovacuum would do within minutes of such a load: statistics for the
                // planner and a visibility map for index-only scans.
                sql.push_str(
                    "VACUUM (ANALYZE) raffles;\nVACUUM (ANALYZE) purchases;\n\
                     VACUUM (ANALYZE) purchase_tickets;\nVACUUM (ANALYZE) mail_outbox;\n",
                );
            }
            Dialect::Sqlite => {
                // AUTOINCREMENT keeps its counter in sqlite_sequence, which explicit ids move
                // forward by themselves. No ANALYZE: the API never runs one, so its queries
                // meet a database without statistics.
                sql.push_str("COMMIT;\n");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(dialect: Dialect) -> Plan {
        Plan {
            dialect,
            purchases: 1_000_000,
            raffles: 300,
            on_sale: 30,
            tickets: 99_999,
            days: 365,
            now: 1_800_000_000,
            methods: vec![Method {
                id: 1,
                name: "Zelle".into(),
                conversion: None,
                weight: 10,
            }],
            outbox: true,
        }
    }

    #[test]
    fn a_year_fits_and_an_overfull_raffle_is_refused() {
        assert!(plan(Dialect::Postgres).check().is_ok());
        let mut crowded = plan(Dialect::Postgres);
        crowded.raffles = 40;
        crowded.on_sale = 4;
        assert!(crowded.check().is_err());
    }

    #[test]
    fn the_permutation_multiplier_is_coprime_with_the_raffle_size() {
        let p = plan(Dialect::Sqlite);
        assert_eq!(gcd(p.multiplier(), 99_999), 1);
        assert!(p.multiplier() > 60_000);
        assert_eq!(
            gcd(
                Plan {
                    tickets: 7_919 * 3,
                    ..p
                }
                .multiplier(),
                7_919 * 3
            ),
            1
        );
    }

    #[test]
    fn scripts_differ_only_where_the_dialects_do() {
        let pg = plan(Dialect::Postgres).script();
        let lite = plan(Dialect::Sqlite).script();
        assert!(pg.contains(" # ") && !lite.contains(" # "));
        assert!(lite.contains("unixepoch") && pg.contains("to_timestamp"));
        assert!(pg.contains("VACUUM (ANALYZE) purchases"));
    }
}
