//! The `seed` command: a year of purchases for the scale benchmarks (issue 20).
//!
//! Payment methods and exchange rates are created through the API (their details are the
//! API's to validate and store); everything else is written by the SQL this prints, to be run
//! with `psql -f` or `sqlite3` on the database the API migrated, while the API is stopped (it
//! caches raffles and availability). `bench/scale.sh` does all of that.

mod dialect;
mod names;
mod sql;
mod trail;

use std::io::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context;
use serde_json::{Value, json};

use crate::cli::{Cli, SeedArgs};
use crate::client::Api;

pub(crate) use dialect::Dialect;
use rifa_domain::audit::ChainHead;
use rifa_domain::draw::ledger::hash_from_hex;
use sql::{Method, Plan};
use trail::Trail;

async fn exchange_rate(api: &Api, to: &str, rate: &str) -> anyhow::Result<(i64, String)> {
    let answer = api
        .admin_post(
            "/api/admin/exchange-rates",
            &json!({"fromCurrency": "USD", "toCurrency": to, "rate": rate}),
        )
        .await?;
    Ok((
        answer["id"].as_i64().context("exchange rate without id")?,
        answer["rate"]
            .as_str()
            .context("exchange rate without rate")?
            .to_owned(),
    ))
}

async fn method(
    api: &Api,
    name: &str,
    kind: &str,
    details: Value,
    rate: Option<(i64, String, &str)>,
    weight: usize,
) -> anyhow::Result<Method> {
    let answer = api
        .admin_post(
            "/api/admin/payment-methods",
            &json!({
                "name": name,
                "type": kind,
                "details": details,
                "exchangeRateId": rate.as_ref().map(|(id, _, _)| *id),
            }),
        )
        .await?;
    Ok(Method {
        id: answer["id"].as_i64().context("payment method without id")?,
        name: name.to_owned(),
        conversion: rate.map(|(_, rate, currency)| (currency.to_owned(), rate)),
        weight,
    })
}

/// The methods a Venezuelan operator offers, in the shares buyers use them.
async fn methods(api: &Api) -> anyhow::Result<Vec<Method>> {
    let (ves, ves_rate) = exchange_rate(api, "VES", "36.5012").await?;
    let (cop, cop_rate) = exchange_rate(api, "COP", "4100").await?;
    Ok(vec![
        method(
            api,
            "Pago Móvil",
            "mobile_payment",
            json!({"banco": "Banesco (0134)", "telefono": "0414-555-1234", "cedula": "V-12.345.678"}),
            Some((ves, ves_rate, "VES")),
            5,
        )
        .await?,
        method(
            api,
            "Zelle",
            "zelle",
            json!({"email": "pagos@rifa.example", "titular": "Rifa LLC"}),
            None,
            2,
        )
        .await?,
        method(
            api,
            "Binance Pay",
            "binance",
            json!({"payId": "123456789", "email": "binance@rifa.example"}),
            None,
            2,
        )
        .await?,
        method(
            api,
            "Bancolombia",
            "bank",
            json!({"bankName": "Bancolombia", "accountNumber": "123-456789-01", "accountType": "ahorro"}),
            Some((cop, cop_rate, "COP")),
            1,
        )
        .await?,
    ])
}

/// Creates the payment methods and prints the seeding SQL on stdout.
pub(crate) async fn seed(cli: &Cli, args: &SeedArgs) -> anyhow::Result<bool> {
    let now = match args.now {
        Some(now) => now,
        None => i64::try_from(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .context("the clock is before 1970")?
                .as_secs(),
        )?,
    };
    let mut plan = Plan {
        dialect: args.dialect,
        purchases: args.purchases,
        raffles: args.raffles,
        on_sale: args.on_sale.unwrap_or((args.raffles / 10).max(1)),
        tickets: args.tickets,
        days: args.days,
        now,
        methods: Vec::new(),
        outbox: !args.no_outbox,
    };
    // Sizes are checked before anything is created in the API.
    plan.check()?;
    let api = Api::connect(cli, 1).await?;
    plan.methods = methods(&api).await?;
    eprintln!(
        "rifa-bench: seeding {} purchases over {} raffles of {} numbers ({} on sale), {} days",
        plan.purchases, plan.raffles, plan.tickets, plan.on_sale, plan.days
    );
    let mut out = std::io::stdout().lock();
    out.write_all(plan.script().as_bytes())?;
    if !args.no_trail {
        trail(&api, &plan).await?.write(args.dialect, &mut out)?;
    }
    out.flush()?;
    Ok(true)
}

/// Decisions for 84 in 100 purchases (the seed decides 82) and sign-ins, after the API's head:
/// the trail must not be written to through the API until the script has run.
async fn trail(api: &Api, plan: &Plan) -> anyhow::Result<Trail> {
    let head = api.get_json("/api/admin/audit/verification", true).await?;
    let after = ChainHead {
        seq: head["headSeq"].as_u64().context("no headSeq")?,
        hash: head["headHash"]
            .as_str()
            .and_then(hash_from_hex)
            .context("no headHash")?,
    };
    Ok(Trail {
        after,
        entries: plan.purchases * 84 / 100,
        purchases: plan.purchases,
        from: plan.start(),
        until: plan.now,
    })
}
