//! Demo data for a first run on the embedded database, so a newcomer sees a living product:
//! raffles of different sizes and statuses, a payment method of each type, exchange rates, and
//! a few purchases in every state. Loaded only into an empty database (see `RIFA_DEMO_DATA`).

use std::sync::atomic::{AtomicI64, Ordering};

use anyhow::{Context, anyhow};
use chrono::{DateTime, Duration, Utc};
use rifa_app::draws::LotteryResultInput;
use rifa_app::payments::PaymentMethodInput;
use rifa_app::purchasing::PurchaseMode;
use rifa_domain::FieldErrors;
use rifa_domain::Lang;
use rifa_domain::audit::Actor;
use rifa_domain::customer::{Customer, CustomerInput};
use rifa_domain::draw::prize::{PrizeInput, PrizeSourceInput};
use rifa_domain::exchange::{Currency, ExchangeRateDraft};
use rifa_domain::money::Money;
use rifa_domain::purchase::{MethodChoice, PurchaseRequest, TicketChoice};
use rifa_domain::raffle::RaffleInput;
use rifa_ports::Clock;
use rust_decimal::Decimal;

use rifa_db::Db;

use crate::AppState;

struct DemoRaffle {
    title: &'static str,
    description: &'static str,
    price_cents: i64,
    max_tickets: i64,
    limits: (Option<i64>, Option<i64>),
    status: &'static str,
    days_to_draw: i64,
    promotions: &'static [&'static str],
}

const RAFFLES: [DemoRaffle; 6] = [
    DemoRaffle {
        title: "iPhone 16 Pro Max 256 GB",
        description: "Gana un iPhone 16 Pro Max nuevo, sellado y con garantía. El sorteo se realiza con los resultados de la Lotería del Táchira.",
        price_cents: 1_300,
        max_tickets: 9_999,
        limits: (Some(2), Some(50)),
        status: "available",
        days_to_draw: 12,
        promotions: &[
            "Compra 10 boletos y participa en un sorteo extra de US$ 100",
            "Los primeros 100 compradores reciben un forro de regalo",
        ],
    },
    DemoRaffle {
        title: "Moto Yamaha DT 175 0 km",
        description: "Una moto Yamaha DT 175 del año, papeles al día y traspaso incluido. Números del 00001 al 99999.",
        price_cents: 200,
        max_tickets: 99_999,
        limits: (Some(5), Some(500)),
        status: "available",
        days_to_draw: 30,
        promotions: &["Doble oportunidad: el número invertido también gana un premio de US$ 50"],
    },
    DemoRaffle {
        title: "Bono en efectivo de US$ 500",
        description: "US$ 500 directo a tu cuenta, Zelle o Binance. Sorteo rápido de 999 números.",
        price_cents: 500,
        max_tickets: 999,
        limits: (Some(1), Some(20)),
        status: "available",
        days_to_draw: 3,
        promotions: &[],
    },
    DemoRaffle {
        title: "Camioneta Toyota 4Runner",
        description: "Sorteo finalizado. ¡Felicidades al ganador del número 4821!",
        price_cents: 2_000,
        max_tickets: 9_999,
        limits: (Some(1), Some(100)),
        status: "finished",
        days_to_draw: -5,
        promotions: &[],
    },
    DemoRaffle {
        title: "Viaje para dos a Isla Margarita",
        description: "Cinco días y cuatro noches todo incluido. Pospuesto hasta nuevo aviso.",
        price_cents: 1_000,
        max_tickets: 4_999,
        limits: (Some(1), Some(30)),
        status: "postponed",
        days_to_draw: 45,
        promotions: &[],
    },
    DemoRaffle {
        title: "PlayStation 5 Slim (borrador)",
        description: "Borrador: aún no publicado.",
        price_cents: 300,
        max_tickets: 2_000,
        limits: (None, None),
        status: "inactive",
        days_to_draw: 60,
        promotions: &[],
    },
];

fn details(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

/// A demo rate from US dollars.
fn usd_to(to: Currency, rate: Decimal) -> anyhow::Result<ExchangeRateDraft> {
    ExchangeRateDraft::parse(Some(Currency::Usd.code()), Some(to.code()), Some(rate))
        .map_err(|e| anyhow!("demo rate {rate}: {e:?}"))
}

/// The system's time, except while the seeding turns it back: the finished demo raffle was
/// frozen before its lottery drew and drawn after, days ago, as the draw's rules demand.
#[derive(Default)]
pub struct SeedingClock {
    /// Milliseconds since the epoch the clock is held at; 0 is the system's time.
    held_at: AtomicI64,
}

impl SeedingClock {
    fn hold_at(&self, at: DateTime<Utc>) {
        self.held_at.store(at.timestamp_millis(), Ordering::Relaxed);
    }

    fn release(&self) {
        self.held_at.store(0, Ordering::Relaxed);
    }
}

impl Clock for SeedingClock {
    fn now(&self) -> DateTime<Utc> {
        match self.held_at.load(Ordering::Relaxed) {
            0 => Utc::now(),
            held => DateTime::from_timestamp_millis(held).unwrap_or_else(Utc::now),
        }
    }
}

/// Loads the demo data.
///
/// # Errors
/// When any record is refused (a bug in this data) or storage fails.
pub async fn load(state: &AppState, db: &Db, clock: &SeedingClock) -> anyhow::Result<()> {
    let ves = state
        .payments
        .create_exchange_rate(usd_to(Currency::Ves, Decimal::new(365_012, 4))?, &seeder())
        .await
        .map_err(|e| anyhow!("{e:?}"))?;
    let cop = state
        .payments
        .create_exchange_rate(usd_to(Currency::Cop, Decimal::new(4_100, 0))?, &seeder())
        .await
        .map_err(|e| anyhow!("{e:?}"))?;
    state
        .payments
        .create_exchange_rate(usd_to(Currency::Eur, Decimal::new(92, 2))?, &seeder())
        .await
        .map_err(|e| anyhow!("{e:?}"))?;

    let methods = [
        (
            "Pago Móvil",
            "mobile_payment",
            details(&[
                ("banco", "Banesco (0134)"),
                ("telefono", "0414-555-1234"),
                ("cedula", "V-12.345.678"),
            ]),
            Some(ves.id),
        ),
        (
            "Zelle",
            "zelle",
            details(&[("email", "pagos@rifa.example"), ("titular", "Rifa LLC")]),
            None,
        ),
        (
            "Binance Pay",
            "binance",
            details(&[("payId", "123456789"), ("email", "binance@rifa.example")]),
            None,
        ),
        (
            "Transferencia Banesco",
            "bank",
            details(&[
                ("bankName", "Banesco"),
                ("accountNumber", "0134-0000-00-0000000000"),
                ("accountType", "corriente"),
            ]),
            Some(ves.id),
        ),
        (
            "Bancolombia",
            "bank",
            details(&[
                ("bankName", "Bancolombia"),
                ("accountNumber", "000-000000-00"),
                ("accountType", "ahorro"),
            ]),
            Some(cop.id),
        ),
        (
            "USDT (TRC20)",
            "crypto",
            details(&[
                ("walletAddress", "TXk9demo4q7rZbEw1pYdemoWalletAddr"),
                ("network", "tron"),
            ]),
            None,
        ),
        (
            "PayPal",
            "digital",
            details(&[("email", "paypal@rifa.example")]),
            None,
        ),
    ];
    let mut method_ids = Vec::new();
    for (name, kind, details, exchange_rate_id) in methods {
        let method = state
            .payments
            .create_payment_method(
                PaymentMethodInput {
                    name: Some(name.into()),
                    kind: Some(kind.into()),
                    active: Some(true),
                    details,
                    exchange_rate_id,
                    reference_required: None,
                    reference_min_length: None,
                },
                &seeder(),
            )
            .await
            .map_err(|e| anyhow!("demo payment method {name}: {e:?}"))?;
        method_ids.push(method.id);
    }

    let mut raffle_ids = Vec::new();
    let draw_day = |days: i64| {
        (Utc::now() + Duration::days(days))
            .format("%Y-%m-%d")
            .to_string()
    };
    // A raffle of the past is made, sold and decided while the clock is held three days before
    // its draw; its prize follows the lottery of that day.
    let on_sale_at = |demo: &DemoRaffle| {
        (demo.days_to_draw < 1).then(|| Utc::now() + Duration::days(demo.days_to_draw - 3))
    };
    for demo in &RAFFLES {
        let draw = draw_day(demo.days_to_draw);
        if let Some(at) = on_sale_at(demo) {
            clock.hold_at(at);
        }
        let raffle = state
            .catalog
            .create_raffle(
                RaffleInput {
                    title: Some(demo.title.into()),
                    description: Some(demo.description.into()),
                    image: None,
                    price: Some(Decimal::new(demo.price_cents, 2)),
                    // Created on sale so the demo purchases below can be made; the status is set after.
                    status: Some("available".into()),
                    max_tickets: Some(demo.max_tickets),
                    min_tickets_per_purchase: demo.limits.0,
                    max_tickets_per_purchase: demo.limits.1,
                    draw_date: Some(draw.clone()),
                    end_date: None,
                    hold_minutes: None,
                    sales_close_hours_before_draw: None,
                },
                // Every raffle publishes its prize and the lottery draw it is decided by.
                &[demo_prize(demo, &draw)],
                &seeder(),
            )
            .await
            .map_err(|e| anyhow!("demo raffle {}: {e:?}", demo.title))?
            .raffle;
        clock.release();
        for promotion in demo.promotions {
            db.add_promotion(raffle.id.get(), promotion).await?;
        }
        raffle_ids.push(raffle.id);
    }

    let buyers = [
        (
            "María González",
            "V-18123456",
            "maria.gonzalez@example.com",
            "+58 414 555 0101",
            "venezuela",
        ),
        (
            "José Rodríguez",
            "V-20987654",
            "jose.rodriguez@example.com",
            "+58 424 555 0202",
            "venezuela",
        ),
        (
            "Ana Martínez",
            "CC-1012345678",
            "ana.martinez@example.com",
            "+57 300 555 0303",
            "colombia",
        ),
        (
            "Carlos Pérez",
            "P-AB123456",
            "carlos.perez@example.com",
            "+1 305 555 0404",
            "estados-unidos",
        ),
        (
            "Lucía Fernández",
            "DNI-30111222",
            "lucia.fernandez@example.com",
            "+54 911 5555 0505",
            "argentina",
        ),
    ];
    let mut made = Vec::new();
    for (i, (raffle_index, numbers)) in [
        (0, &[7, 77][..]),
        (0, &[1234, 4321, 1111]),
        (1, &[1, 2, 3, 4, 5]),
        (2, &[13]),
        (0, &[500, 501]),
        (1, &[99999, 50000, 12345, 54321, 11111]),
        (3, &[4821]),
        (2, &[21, 22]),
    ]
    .into_iter()
    .enumerate()
    {
        let (name, id, email, phone, country) = buyers[i % buyers.len()];
        let raffle_id = raffle_ids[raffle_index];
        if let Some(at) = on_sale_at(&RAFFLES[raffle_index]) {
            clock.hold_at(at + Duration::hours(1));
        }
        let raffle = state
            .catalog
            .raffle(raffle_id, rifa_app::catalog::Viewer::Admin)
            .await
            .map_err(|e| anyhow!("{e:?}"))?;
        let count = u32::try_from(numbers.len()).unwrap_or(1);
        let total = raffle.price.money().times(count);
        let receipt = state
            .purchasing
            .purchase(
                raffle_id,
                demo_request(
                    &CustomerInput {
                        name: Some(name.into()),
                        id_document: Some(id.into()),
                        email: Some(email.into()),
                        phone: Some(phone.into()),
                        country: Some(country.into()),
                    },
                    MethodChoice::Id(method_ids[i % method_ids.len()]),
                    numbers,
                    total,
                ),
                PurchaseMode::Public,
                if i % 3 == 2 { Lang::En } else { Lang::Es },
            )
            .await
            .map_err(|e| anyhow!("demo purchase {i}: {e:?}"))?;
        clock.release();
        made.push(receipt.purchase.id);
    }
    // A realistic mix: most approved, one rejected (its numbers return to sale), the rest pending.
    for (i, id) in made.iter().enumerate() {
        let result = match i % 4 {
            0 | 1 => {
                state
                    .review
                    .decide_purchase(*id, "approved", Some("Pago verificado"), &seeder())
                    .await
            }
            2 if i == 2 => {
                state
                    .review
                    .decide_purchase(
                        *id,
                        "rejected",
                        Some("El comprobante no corresponde al monto"),
                        &seeder(),
                    )
                    .await
            }
            _ => continue,
        };
        result.map_err(|e| anyhow!("demo decision: {e:?}"))?;
    }
    // The finished raffle's one purchase is approved: it is the winner below.
    if let Some(at) = on_sale_at(&RAFFLES[3]) {
        clock.hold_at(at + Duration::hours(2));
    }
    state
        .review
        .decide_purchase(made[6], "approved", Some("Pago verificado"), &seeder())
        .await
        .map_err(|e| anyhow!("demo decision: {e:?}"))?;
    clock.release();
    for (demo, id) in RAFFLES.iter().zip(&raffle_ids) {
        if demo.status != "available" || demo.days_to_draw < 1 {
            let raffle = state
                .catalog
                .raffle(*id, rifa_app::catalog::Viewer::Admin)
                .await
                .map_err(|e| anyhow!("{e:?}"))?;
            state
                .catalog
                .update_raffle(
                    *id,
                    RaffleInput {
                        title: Some(raffle.title),
                        description: Some(raffle.description),
                        image: Some(raffle.image),
                        price: Some(raffle.price.money().as_decimal()),
                        status: Some(demo.status.into()),
                        max_tickets: Some(i64::from(raffle.max_tickets)),
                        min_tickets_per_purchase: raffle.limits.stored_min().map(i64::from),
                        max_tickets_per_purchase: raffle.limits.stored_max().map(i64::from),
                        draw_date: Some(draw_day(demo.days_to_draw)),
                        end_date: None,
                        hold_minutes: Some(i64::from(raffle.sales.hold_minutes())),
                        sales_close_hours_before_draw: Some(i64::from(
                            raffle.sales.close_hours_before_draw(),
                        )),
                    },
                    &seeder(),
                )
                .await
                .map_err(|e| anyhow!("demo status {}: {e:?}", demo.title))
                .context("failed to set a demo raffle's status")?;
        }
    }
    // The finished raffle was frozen before its lottery drew, and drawn after.
    let finished = raffle_ids[3];
    let finished_day = draw_day(RAFFLES[3].days_to_draw);
    let lottery_draws_at = state
        .draws
        .admin_draw(finished)
        .await
        .map_err(|e| anyhow!("demo finished prize: {e:?}"))?
        .prizes
        .first()
        .context("the demo prize")?
        .prize
        .source
        .draws_at();
    clock.hold_at(lottery_draws_at - Duration::hours(1));
    let frozen = state.draws.freeze(finished, &seeder()).await;
    clock.hold_at(lottery_draws_at + Duration::hours(1));
    let drawn = match frozen {
        Ok(frozen) => {
            let prize = frozen.prizes.first().context("the demo prize")?.id;
            state
                .draws
                .draw_from_lottery(
                    finished,
                    prize,
                    &LotteryResultInput {
                        result: Some("18-4821".into()),
                        published_on: Some(finished_day),
                        official_url: Some("https://loteria.example/resultados".into()),
                    },
                    &seeder(),
                )
                .await
                .map_err(|e| anyhow!("demo draw: {e:?}"))
        }
        Err(e) => Err(anyhow!("demo freeze: {e:?}")),
    };
    clock.release();
    drawn.map(drop)
}

/// Who the trail names for what the demo data did: the seeding, not a person.
fn seeder() -> Actor {
    Actor {
        admin_id: None,
        username: "demo".to_owned(),
        ip: None,
    }
}

/// A demo raffle's prize: its title, drawn from the Lotería del Táchira on its draw day.
fn demo_prize(demo: &DemoRaffle, draw_day: &str) -> PrizeInput {
    PrizeInput {
        title: Some(demo.title.into()),
        description: None,
        image: None,
        source: PrizeSourceInput::Lottery {
            lottery_name: Some("Lotería del Táchira".into()),
            draw_date: Some(draw_day.into()),
            // The Táchira draws at night, after a raffle's sales close that day.
            draw_time: Some("22:10".into()),
            time_zone: None,
            source_url: Some("https://loteria.example/resultados".into()),
            digits: None,
            deadline_hours: None,
        },
    }
}

/// A demo buyer's request, parsed as the edge parses a form.
fn demo_request(
    customer: &CustomerInput,
    payment_method: MethodChoice,
    numbers: &[i64],
    total: Money,
) -> Result<PurchaseRequest, FieldErrors> {
    let mut errors = FieldErrors::new();
    let customer = Customer::parse(customer, &mut errors).ok_or(errors)?;
    Ok(PurchaseRequest {
        customer,
        payment_method,
        tickets: TicketChoice::Numbers(numbers.to_vec()),
        total_amount: total,
        discount_applied: Money::ZERO,
        payment_reference: None,
    })
}
