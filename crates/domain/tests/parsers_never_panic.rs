//! Every parser that takes input answers a value or an error, never a panic, whatever it is fed:
//! arbitrary text, extreme decimals (the 1e27 total that once overflowed), far dates
//! (`-262143-01-01`), huge or negative numbers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use rifa_domain::branding::{Branding, BrandingPatch, HslColor, SiteInfoPatch};
use rifa_domain::calendar;
use rifa_domain::customer::{Customer, CustomerInput, Email, Phone, parse_customer_name};
use rifa_domain::email_settings::{EmailSettings, EmailSettingsInput};
use rifa_domain::exchange::{Currency, ExchangeRateDraft};
use rifa_domain::lookup::LookupKey;
use rifa_domain::money::{Money, Rate, TicketPrice};
use rifa_domain::payment::PaymentMethodDraft;
use rifa_domain::pricing::{DiscountTable, DiscountTier, quote};
use rifa_domain::proof_reading;
use rifa_domain::purchase::{PurchaseStatus, Verdict};
use rifa_domain::raffle::{PurchaseLimits, RaffleDraft, RaffleInput, RaffleStatus};
use rifa_domain::ticket::{TicketNumber, TicketSelection};
use rifa_domain::validation::{self, TextKind};
use rifa_domain::{FieldErrors, admin};
use rust_decimal::Decimal;

/// Any Decimal a client can make a server build: every mantissa and scale the type allows.
fn any_decimal() -> impl Strategy<Value = Decimal> {
    (any::<i128>(), 0..=28_u32).prop_map(|(mantissa, scale)| {
        let bounded = mantissa % 79_228_162_514_264_337_593_543_950_335_i128;
        Decimal::try_from_i128_with_scale(bounded, scale).unwrap_or(Decimal::MAX)
    })
}

/// Text that looks like what a field expects as often as not, plus anything at all.
fn number_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "-?[0-9]{0,40}(\\.[0-9]{0,30})?([eE][-+]?[0-9]{1,3})?",
        any::<String>(),
    ]
}

fn date_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "[-+]?[0-9]{1,7}-[0-9]{1,2}-[0-9]{1,2}",
        "[-+]?[0-9]{4,6}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|[-+][0-9]{2}:[0-9]{2})",
        any::<String>(),
    ]
}

fn any_text() -> impl Strategy<Value = Option<String>> {
    proptest::option::of(prop_oneof![
        any::<String>(),
        "[ -~]{0,40}",
        "(https?:)?[/\\\\]{0,3}[a-z.]{0,20}[/\\\\\"'<> ]{0,3}[a-z.]{0,10}",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn money_parses_any_text_or_decimal_without_panicking(raw in number_like(), value in any_decimal()) {
        let _ = raw.parse::<Money>();
        let _ = Money::from_decimal(value);
        let _ = TicketPrice::from_decimal(value);
        let _ = Rate::new(value);
        let _ = raw.parse::<Rate>();
        if let Ok(money) = raw.parse::<Money>() {
            prop_assert_eq!(money.to_string().parse::<Money>(), Ok(money));
        }
    }

    #[test]
    fn money_arithmetic_saturates_instead_of_overflowing(
        cents in any::<i64>(),
        count in any::<u32>(),
        percent in any_decimal(),
        rate in any_decimal(),
    ) {
        if let Ok(money) = Money::from_cents(cents) {
            let _ = money.times(count).percent(percent);
            let _ = money.saturating_sub(money.times(count));
            if let Ok(rate) = Rate::new(rate) {
                let _ = rate.convert(money.times(count));
            }
        }
    }

    #[test]
    fn ticket_lists_and_limits_never_panic(
        numbers in proptest::collection::vec(any::<i64>(), 0..64),
        max_tickets in any::<u32>(),
        min in proptest::option::of(any::<u32>()),
        max in proptest::option::of(any::<u32>()),
        number in any::<u32>(),
    ) {
        let _ = TicketNumber::new(number, max_tickets);
        if let Ok(limits) = PurchaseLimits::new(min, max) {
            let _ = TicketSelection::new(&numbers, max_tickets, limits);
        }
    }

    #[test]
    fn dates_far_and_near_parse_or_fail_without_panicking(raw in date_like()) {
        let _ = calendar::parse_day(&raw);
        let _ = calendar::parse_instant(&raw);
        let _ = calendar::end_of_day_utc(&raw);
        if let Ok(day) = calendar::parse_day(&raw) {
            prop_assert!((calendar::FIRST_DAY..=calendar::LAST_DAY).contains(&day));
        }
    }

    #[test]
    fn a_raffle_form_of_anything_parses_or_names_its_fields(
        title in any_text(),
        description in any_text(),
        image in any_text(),
        price in proptest::option::of(any_decimal()),
        status in any_text(),
        sizes in (any::<Option<i64>>(), any::<Option<i64>>(), any::<Option<i64>>()),
        draw_date in proptest::option::of(date_like()),
        end_date in proptest::option::of(date_like()),
        sales in (any::<Option<i64>>(), any::<Option<i64>>()),
    ) {
        let (max_tickets, min_tickets_per_purchase, max_tickets_per_purchase) = sizes;
        let (hold_minutes, sales_close_hours_before_draw) = sales;
        let _ = RaffleDraft::parse(RaffleInput {
            title,
            description,
            image,
            price,
            status,
            max_tickets,
            min_tickets_per_purchase,
            max_tickets_per_purchase,
            draw_date,
            end_date,
            hold_minutes,
            sales_close_hours_before_draw,
        });
    }

    #[test]
    fn buyer_details_of_anything_parse_or_name_their_fields(
        name in any_text(),
        id_document in any_text(),
        email in any_text(),
        phone in any_text(),
        country in any_text(),
    ) {
        let _ = parse_customer_name(name.as_deref().unwrap_or(""));
        let _ = Email::parse(email.as_deref().unwrap_or(""));
        let _ = Phone::parse(phone.as_deref().unwrap_or(""));
        let _ = LookupKey::parse(email.as_deref(), phone.as_deref());
        let mut errors = FieldErrors::new();
        let input = CustomerInput { name, id_document, email, phone, country };
        if let Some(customer) = Customer::parse(&input, &mut errors) {
            prop_assert!(errors.is_empty());
            prop_assert!(!validation::has_control_chars(&customer.name));
        }
        for (_, error) in errors.iter() {
            prop_assert!(!error.code().is_empty());
        }
    }

    /// OCR text is whatever the picture held: marks, digits and letters of any script mixed.
    #[test]
    fn reading_a_proofs_text_never_panics(
        raw in prop_oneof![
            any::<String>(),
            "([€$°ºñÉ]|Bs\\.?|USDT|Monto|Referencia|Nov|[0-9]{1,4}|[./,: -]|\\n){0,40}",
        ],
        expected in any_decimal(),
    ) {
        let read = proof_reading::read_proof(&raw);
        for currency in Currency::ALL {
            let _ = proof_reading::check_amount(&read, currency, expected);
        }
    }

    #[test]
    fn shared_text_checks_never_panic(raw in any::<String>(), min in 0..300_usize, max in 0..300_usize) {
        for kind in [TextKind::SingleLine, TextKind::MultiLine] {
            let _ = validation::free_text(&raw, kind, max);
            let _ = validation::required_text(&raw, kind, min, max);
        }
        if let Ok(url) = validation::web_url(&raw, max) {
            prop_assert!(!url.contains(['\\', '"', '\'']));
        }
        if let Ok(line) = validation::required_text(&raw, TextKind::SingleLine, 0, usize::MAX) {
            prop_assert!(!line.contains(['\r', '\n', '\t']));
        }
    }

    #[test]
    fn settings_forms_of_anything_parse_or_name_their_fields(
        texts in proptest::collection::vec(any_text(), 8),
        port in any::<Option<i64>>(),
        percentage in any_decimal(),
        min_tickets in any::<u32>(),
        rate in proptest::option::of(any_decimal()),
        details in proptest::collection::vec((any::<String>(), any::<String>()), 0..24),
        exchange_rate_id in any::<Option<i64>>(),
    ) {
        let t = |i: usize| texts[i].clone();
        let _ = HslColor::parse(t(0).as_deref().unwrap_or(""));
        let _ = Branding::default().apply(BrandingPatch {
            primary_color: t(0),
            secondary_color: t(1),
            accent_color: t(2),
            danger_color: t(3),
            success_color: t(4),
            company_name: t(5),
            description: t(6),
            logo_url: t(7),
            site: SiteInfoPatch {
                contact_email: t(0),
                contact_phone: t(1),
                whatsapp_url: t(2),
                facebook_url: t(3),
                instagram_url: t(4),
                tiktok_url: t(5),
                whatsapp_channel_url: t(6),
                lottery_results_url: t(7),
                video_urls: Some(texts.iter().flatten().cloned().collect()),
                participants: port,
                prizes: t(1),
                countries: exchange_rate_id,
                raffles_page_prizes: t(2),
                raffles_page_participants: port.map(i64::wrapping_neg),
                raffles_page_winners: exchange_rate_id,
            },
        });
        let _ = EmailSettings::default().apply(EmailSettingsInput {
            host: t(0),
            port,
            user: t(1),
            password: t(2),
            clear_password: port.is_some(),
            from_email: t(3),
        });
        let _ = Currency::parse(t(4).as_deref().unwrap_or(""));
        let _ = ExchangeRateDraft::parse(t(4).as_deref(), t(5).as_deref(), rate);
        let _ = PaymentMethodDraft::parse(t(5).as_deref(), t(6).as_deref(), None, details, exchange_rate_id.map(rifa_domain::exchange::ExchangeRateId::new), (None, port));
        let _ = rifa_domain::payment_reference::PaymentReference::parse(t(7).as_deref().unwrap_or(""));
        if let Ok(table) = DiscountTable::new(vec![DiscountTier {
            min_tickets,
            percentage,
            label: t(7).unwrap_or_default(),
        }]) && let (Ok(price), Ok(limits)) = (
            TicketPrice::new(Money::from_cents(100_000_000).unwrap_or_default()),
            PurchaseLimits::new(None, None),
        ) {
            let _ = quote(price, min_tickets, limits, &table);
        }
    }

    #[test]
    fn statuses_verdicts_and_usernames_never_panic(
        raw in any::<String>(),
        notes in proptest::option::of(any::<String>()),
    ) {
        let _ = PurchaseStatus::parse(&raw);
        let _ = RaffleStatus::parse(&raw);
        let _ = Verdict::parse(&raw, notes.as_deref());
        let _ = admin::parse_username(&raw);
    }
}

proptest! {
    // The estimator is the slowest parser here; fewer cases still cover its input space.
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn new_passwords_are_judged_without_panicking(raw in any::<String>(), username in "[a-z.]{3,20}") {
        let _ = admin::check_new_password(&raw, &username);
    }
}
