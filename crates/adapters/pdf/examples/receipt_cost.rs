//! Size and CPU time of receipts: `cargo run -p rifa-pdf --example receipt_cost [--release]`.
//!
//! Renders each kind of receipt 20 times on one thread and prints its size and the mean time.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use chrono::Utc;
use rifa_domain::Lang;
use rifa_domain::payment::PaymentMethodId;
use rifa_domain::purchase::{Purchase, PurchaseId, PurchaseStatus};
use rifa_domain::raffle::RaffleId;
use rifa_domain::ticket::TicketNumber;
use rifa_pdf::GenPdfReceipts;
use rifa_ports::outbound::{ReceiptContext, ReceiptRenderer as _};

fn purchase(name: &str, numbers: u32) -> Purchase {
    Purchase {
        id: PurchaseId::new(7),
        reference: "RIFA-7Q2K9X".into(),
        raffle_id: RaffleId::new(3),
        raffle_title: "Gran Rifa Navideña: ¡camión 0 km!".into(),
        total_amount: "13.00"
            .parse::<rifa_domain::money::Money>()
            .unwrap()
            .times(numbers),
        ticket_numbers: (1..=numbers)
            .map(|i| TicketNumber::from_stored(i * 19))
            .collect(),
        customer_name: name.into(),
        customer_id_document: "V-12.345.678".into(),
        customer_email: "cliente@example.com".into(),
        customer_phone: "+58 412 555 1234".into(),
        customer_country: "venezuela".into(),
        payment_method: "Pago Móvil".into(),
        payment_method_id: Some(PaymentMethodId::new(2)),
        conversion: None,
        discount_applied: rifa_domain::money::Money::ZERO,
        status: PurchaseStatus::Pending,
        created_at: Utc::now(),
        decided_at: None,
        payment_proof: None,
        admin_notes: None,
        hold_expires_at: None,
        payment_reference: None,
    }
}

fn main() {
    let receipts = GenPdfReceipts::new().unwrap();
    let context = ReceiptContext {
        company_name: "Rifas El Caribeño".into(),
        max_tickets: 99_999,
        lang: Lang::Es,
        generated_at: Utc::now(),
    };
    for (what, purchase) in [
        ("3 numbers, Spanish name", purchase("José Ñúñez Pérez", 3)),
        (
            "3 numbers, Polish + Chinese name",
            purchase("Łukasz Żółć 王芳", 3),
        ),
        (
            "3 numbers, Vietnamese name",
            purchase("Nguyễn Thị Minh Khai", 3),
        ),
        ("3 numbers, Arabic name", purchase("محمد", 3)),
        ("5,000 numbers", purchase("José Ñúñez Pérez", 5_000)),
    ] {
        let runs = 20;
        let started = Instant::now();
        let mut size = 0;
        for _ in 0..runs {
            size = receipts.render(&purchase, &context).unwrap().len();
        }
        let mean = started.elapsed() / runs;
        println!(
            "{what:<34} {:>7} bytes  {:>6.1} ms",
            size,
            mean.as_secs_f64() * 1e3
        );
    }
}
