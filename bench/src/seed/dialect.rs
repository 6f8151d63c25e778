//! The few places where PostgreSQL and SQLite spell the same thing differently. Everything else
//! the seeder writes is SQL both accept, so one generator yields the same data on both.

use clap::ValueEnum;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Dialect {
    Postgres,
    Sqlite,
}

/// 2^32 - 1: the hash works on 32-bit values inside 64-bit integers, so no product overflows
/// SQLite's signed 64-bit arithmetic.
const MASK32: &str = "4294967295";

impl Dialect {
    /// `a XOR b` (SQLite has no XOR operator; `(a | b) - (a & b)` is the same on integers).
    fn xor(self, a: &str, b: &str) -> String {
        match self {
            Self::Postgres => format!("(({a}) # ({b}))"),
            Self::Sqlite => format!("((({a}) | ({b})) - (({a}) & ({b})))"),
        }
    }

    /// A well-mixed value in `0..2^24` from an integer expression and a salt: one
    /// multiply-xorshift round of a 32-bit hash, keeping the high bits. Deterministic, so a seed
    /// of the same size is the same data on both databases. Each field draws with its own salt,
    /// so fields of one row do not move together (a name does not predict a status).
    pub(crate) fn hash(self, x: &str, salt: u32) -> String {
        let offset = u64::from(salt).wrapping_mul(0x9E37_79B9) & 0xFFFF_FFFF;
        let seeded = format!("((({x}) * 2654435761 + {offset}) & {MASK32})");
        let shifted = format!("({seeded} >> 15)");
        // A multiplier under 2^27 keeps the product of a 32-bit value under 2^59.
        let mixed = format!("(({} * 73244475) & {MASK32})", self.xor(&seeded, &shifted));
        format!("({} >> 8)", self.xor(&mixed, &format!("({mixed} >> 13)")))
    }

    /// `hash(x, salt) % m`: a draw in `0..m`.
    pub(crate) fn draw(self, x: &str, salt: u32, m: u64) -> String {
        format!("({} % {m})", self.hash(x, salt))
    }

    /// A Unix time (seconds) as the timestamp the API writes: `timestamptz` on PostgreSQL, on
    /// SQLite the RFC 3339 text sqlx writes for a whole second (`…T12:00:00+00:00`), which is
    /// what the API's range filters compare against as text.
    pub(crate) fn timestamp(self, seconds: &str) -> String {
        match self {
            Self::Postgres => format!("to_timestamp({seconds})"),
            Self::Sqlite => format!("strftime('%Y-%m-%dT%H:%M:%S+00:00', {seconds}, 'unixepoch')"),
        }
    }

    pub(crate) fn least(self, a: &str, b: &str) -> String {
        match self {
            Self::Postgres => format!("LEAST({a}, {b})"),
            Self::Sqlite => format!("MIN({a}, {b})"),
        }
    }

    /// `generate_series(from, to)` as a table `alias` whose one column is `alias.value`.
    pub(crate) fn series(self, from: &str, to: &str, alias: &str) -> String {
        match self {
            // BIGINT, so that sums of seconds over a year of purchases do not overflow.
            Self::Postgres => format!(
                "generate_series(CAST({from} AS BIGINT), CAST({to} AS BIGINT)) AS {alias}(value)"
            ),
            Self::Sqlite => format!("generate_series({from}, {to}) AS {alias}"),
        }
    }

    /// `true`/`false` as the column stores them (SQLite: 1/0, as sqlx writes a bool).
    pub(crate) fn boolean(self, condition: &str) -> String {
        match self {
            Self::Postgres => format!("({condition})"),
            Self::Sqlite => format!("(CASE WHEN {condition} THEN 1 ELSE 0 END)"),
        }
    }

    /// 64 lower-case hex characters, the shape of a buyer's access digest (nobody holds the key
    /// of a seeded purchase).
    pub(crate) fn digest(self, x: &str) -> String {
        match self {
            Self::Postgres => format!("md5(CAST({x} AS text)) || md5(CAST(-({x}) AS text))"),
            Self::Sqlite => "lower(hex(randomblob(32)))".to_owned(),
        }
    }

    /// Numbers of a purchase as the API stores them in `ticket_numbers` (without the brackets):
    /// ascending, comma-separated. `source` yields `j` and `n`.
    pub(crate) fn number_list(self, source: &str) -> String {
        match self {
            Self::Postgres => format!(
                "SELECT j, string_agg(CAST(n AS text), ',' ORDER BY n) AS list FROM {source} GROUP BY j"
            ),
            // SQLite 3.40 has no ORDER BY inside an aggregate; group_concat follows the order
            // of the rows it reads, so they are read sorted.
            Self::Sqlite => format!(
                "SELECT j, group_concat(n, ',') AS list FROM (SELECT j, n FROM {source} ORDER BY j, n) GROUP BY j"
            ),
        }
    }

    /// Integer column type of the staging tables.
    pub(crate) fn int(self) -> &'static str {
        match self {
            Self::Postgres => "BIGINT",
            Self::Sqlite => "INTEGER",
        }
    }
}
