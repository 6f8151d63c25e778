//! One person, one allowance per raffle (decision 0016): `buyer_allowance` counts the tickets
//! each buyer key holds, and its check `tickets <= cap` makes the database refuse the write that
//! would pass the cap, whatever runs at the same time.

use anyhow::Context;
use rifa_domain::raffle::RaffleId;
use rifa_domain::sales::BuyerKeys;
use sea_orm::{ConnectionTrait, DbErr, FromQueryResult, Statement};

/// The check's name, which both databases put in the error of a write that passes a cap.
const CAP_CHECK: &str = "ck_buyer_allowance_cap";

/// Whether `error` is a write refused because it passed an allowance.
pub(crate) fn passes_cap(error: &DbErr) -> bool {
    error.to_string().contains(CAP_CHECK)
}

/// The upsert that counts more tickets for each of three keys in a raffle, with the raffle's
/// cap: parameters numbered from `first` (1 alone, later inside a larger statement) in the
/// order of [`take_values`].
pub(crate) fn take_sql(first: usize) -> String {
    let p = |n: usize| format!("${}", first + n);
    format!(
        "INSERT INTO buyer_allowance (raffle_id, buyer_key, tickets, cap) VALUES \
         ({r}, {k1}, {n}, {c}), ({r}, {k2}, {n}, {c}), ({r}, {k3}, {n}, {c}) \
         ON CONFLICT (raffle_id, buyer_key) DO UPDATE SET \
         tickets = buyer_allowance.tickets + excluded.tickets, cap = excluded.cap",
        r = p(0),
        k1 = p(1),
        k2 = p(2),
        k3 = p(3),
        n = p(4),
        c = p(5),
    )
}

/// The values of [`take_sql`], in order.
pub(crate) fn take_values(
    raffle: RaffleId,
    keys: &BuyerKeys,
    tickets: u32,
    cap: u32,
) -> Vec<sea_orm::Value> {
    let [document, email, phone] = keys.tagged();
    vec![
        raffle.get().into(),
        document.into(),
        email.into(),
        phone.into(),
        i64::from(tickets).into(),
        i64::from(cap).into(),
    ]
}

/// Counts a purchase's tickets against the buyer's allowance.
///
/// # Errors
/// The database's error; [`passes_cap`] tells a passed cap.
pub(crate) async fn take(
    conn: &impl ConnectionTrait,
    raffle: RaffleId,
    keys: &BuyerKeys,
    tickets: u32,
    cap: u32,
) -> Result<(), DbErr> {
    let backend = conn.get_database_backend();
    conn.execute_raw(Statement::from_sql_and_values(
        backend,
        take_sql(1),
        take_values(raffle, keys, tickets, cap),
    ))
    .await?;
    Ok(())
}

#[derive(FromQueryResult)]
struct Used {
    used: Option<i64>,
}

/// The most tickets any of the buyer's keys holds in the raffle: what the buyer has used.
pub(crate) async fn used(
    conn: &impl ConnectionTrait,
    raffle: RaffleId,
    keys: &BuyerKeys,
) -> anyhow::Result<u32> {
    let [document, email, phone] = keys.tagged();
    let row = Used::find_by_statement(Statement::from_sql_and_values(
        conn.get_database_backend(),
        "SELECT CAST(MAX(tickets) AS BIGINT) AS used FROM buyer_allowance \
         WHERE raffle_id = $1 AND buyer_key IN ($2, $3, $4)",
        [
            raffle.get().into(),
            document.into(),
            email.into(),
            phone.into(),
        ],
    ))
    .one(conn)
    .await
    .context("failed to read a buyer's allowance")?;
    Ok(row
        .and_then(|r| r.used)
        .and_then(|u| u32::try_from(u).ok())
        .unwrap_or(0))
}

/// Gives back the tickets of the purchases whose ids `purchases_sql` selects (a subquery
/// yielding `id`): each one's count, from each of its buyer's keys.
pub(crate) fn give_back_sql(purchases_sql: &str) -> String {
    let per_key = |prefix: &str, column: &str| {
        format!(
            "SELECT p.raffle_id AS raffle_id, '{prefix}' || p.{column} AS buyer_key, \
             SUM(p.ticket_count) AS n FROM purchases p WHERE p.id IN ({purchases_sql}) \
             GROUP BY p.raffle_id, p.{column}"
        )
    };
    format!(
        "UPDATE buyer_allowance SET tickets = buyer_allowance.tickets - released.n \
         FROM ({} UNION ALL {} UNION ALL {}) AS released \
         WHERE buyer_allowance.raffle_id = released.raffle_id \
         AND buyer_allowance.buyer_key = released.buyer_key",
        per_key("doc:", "buyer_document_key"),
        per_key("email:", "customer_email"),
        per_key("phone:", "buyer_phone_key"),
    )
}
