//! What the reads are about, found through the API itself: the busiest raffle (for the raffle
//! filter), the on-sale raffle with most numbers sold (a raffle's page), a buyer with active
//! tickets (the verification look-ups) and the days the panel would ask for.

use anyhow::Context;
use serde_json::{Value, json};

use super::days;
use crate::cli::ReadsArgs;
use crate::client::Api;

pub(crate) struct Targets {
    /// The raffle with most numbers sold, whatever its status.
    pub(crate) busiest_raffle: i64,
    /// The on-sale raffle with most numbers sold.
    pub(crate) public_raffle: i64,
    pub(crate) public_raffle_sold: u64,
    pub(crate) raffles: usize,
    pub(crate) raffles_on_sale: usize,
    pub(crate) buyer_email: String,
    pub(crate) buyer_phone: String,
    /// A day in the admin's zone with purchases (`--date`, else 30 days ago).
    pub(crate) date: String,
    /// The year the daily chart covers: 365 days ending today.
    pub(crate) year_from: String,
    pub(crate) today: String,
    /// Per deep page, the first purchase of the page before it: the anchor the panel sends
    /// when its "next" button leads there.
    pub(crate) deep_anchors: Vec<(u32, i64)>,
    /// The last page of the unfiltered search.
    pub(crate) last_page: u64,
    /// The newest entry of the audit trail.
    pub(crate) trail_head: u64,
    /// A purchase a decision in the middle of the trail names (`purchase:42`).
    pub(crate) trail_target: String,
}

impl Targets {
    pub(crate) fn json(&self) -> Value {
        json!({
            "busiest_raffle": self.busiest_raffle,
            "public_raffle": self.public_raffle,
            "public_raffle_sold": self.public_raffle_sold,
            "raffles": self.raffles,
            "raffles_on_sale": self.raffles_on_sale,
            "date": self.date,
            "year": [self.year_from, self.today],
            "trail_head": self.trail_head,
        })
    }
}

/// The raffle with the most numbers sold in a list of raffles.
fn most_sold(raffles: &Value) -> Option<(i64, u64)> {
    raffles
        .as_array()?
        .iter()
        .filter_map(|r| Some((r["id"].as_i64()?, r["ticketsSold"].as_u64()?)))
        .max_by_key(|(_, sold)| *sold)
}

pub(crate) async fn discover(api: &Api, args: &ReadsArgs) -> anyhow::Result<Targets> {
    let all = api.get_json("/api/admin/raffles", true).await?;
    let on_sale = api.get_json("/api/raffles", false).await?;
    let (busiest, _) = most_sold(&all).context("no raffle in the database: seed it first")?;
    let (public_raffle, public_raffle_sold) =
        most_sold(&on_sale).context("no raffle on sale in the database")?;
    // Any buyer with an approved purchase: a lookup searches every raffle (after a load phase,
    // the raffle on sale with most numbers sold may be one of its buyers' raffles, all pending).
    let buyer = api
        .get_json(
            "/api/admin/purchases/search?status=approved&pageSize=1",
            true,
        )
        .await?;
    let first = &buyer["items"][0];
    let today = days::today(args.utc_offset_minutes);
    let mut deep_anchors = Vec::new();
    for &page in args.deep_pages.iter().filter(|&&page| page > 1) {
        let before = api
            .get_json(
                &format!("/api/admin/purchases/search?page={}&pageSize=10", page - 1),
                true,
            )
            .await?;
        if let Some(id) = before["items"][0]["id"].as_i64() {
            deep_anchors.push((page, id));
        }
    }
    let top = api
        .get_json("/api/admin/purchases/search?pageSize=10", true)
        .await?;
    let newest = api.get_json("/api/admin/audit?limit=1", true).await?;
    let trail_head = newest["items"][0]["seq"].as_u64().unwrap_or(0);
    let middle = api
        .get_json(
            &format!(
                "/api/admin/audit?limit=1&action=purchase.decided&before={}",
                trail_head / 2 + 1
            ),
            true,
        )
        .await?;
    Ok(Targets {
        busiest_raffle: args.raffle.unwrap_or(busiest),
        public_raffle,
        public_raffle_sold,
        raffles: all.as_array().map_or(0, Vec::len),
        raffles_on_sale: on_sale.as_array().map_or(0, Vec::len),
        buyer_email: first["customerEmail"]
            .as_str()
            .context("no approved purchase")?
            .to_owned(),
        buyer_phone: first["customerPhone"]
            .as_str()
            .context("the approved purchase has no phone")?
            .to_owned(),
        date: args
            .date
            .clone()
            .unwrap_or_else(|| days::format(today - 30)),
        year_from: days::format(today - 364),
        today: days::format(today),
        deep_anchors,
        last_page: top["totalPages"].as_u64().unwrap_or(1),
        trail_head,
        trail_target: middle["items"][0]["target"]
            .as_str()
            .unwrap_or("purchase:1")
            .to_owned(),
    })
}
