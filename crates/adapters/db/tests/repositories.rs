//! The repositories against embedded SQLite and a real PostgreSQL: what the database itself
//! guarantees, whatever the code above it does.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::{DateTime, DurationRound as _, TimeZone as _, Utc};
use rifa_db::Db;
use rifa_domain::audit::{Actor, AuditAction, AuditEntry};
use rifa_domain::branding::Branding;
use rifa_domain::customer::{Customer, CustomerInput};
use rifa_domain::draw::fair::Rule;
use rifa_domain::draw::prize::{PrizeDraft, PrizeSource};
use rifa_domain::email_settings::EmailSettings;
use rifa_domain::exchange::{Currency, ExchangeRateDraft};
use rifa_domain::lookup::LookupKey;
use rifa_domain::money::{Money, TicketPrice};
use rifa_domain::pricing::{self, DiscountTable, DiscountTier};
use rifa_domain::purchase::{
    NewPurchase, PageAnchor, PaymentSnapshot, PurchaseCursor, PurchaseEventKind, PurchaseId,
    PurchaseStatus, SEARCH_COUNT_CAP, Verdict,
};
use rifa_domain::raffle::{PurchaseLimits, RaffleDraft, RaffleId, RaffleStatus};
use rifa_domain::sales::{BuyerKeys, SalesTerms};
use rifa_domain::ticket::{TicketNumber, TicketSelection};
use rifa_domain::{FieldErrors, Lang};
use rifa_ports::{
    AttachOutcome, CreatePurchaseError, DecidePurchaseError, DeleteRaffleError, DrawRepository,
    ExchangeRateRepository as _, ExpiredHold, HoldExpiry, MailKind, MailOutbox, MailStatus,
    MailSubject, PaymentMethodRepository as _, ProofProblem, PurchaseDecision, PurchaseProofs,
    PurchaseQuery, PurchaseRepository, RaffleRepository, RateWriteError, RecipientCaps,
    ReleaseAlerts as _, ReopenError, Reopening, ReplacePrizesError, SettingsRepository,
    UpdateRaffleError, WithheldReason,
};
use rust_decimal::Decimal;
use sea_orm::{ConnectionTrait, Database, DbErr, SqlErr};

/// Ticket numbers as the repositories give them back.
fn numbers(list: &[u32]) -> Vec<TicketNumber> {
    list.iter()
        .copied()
        .map(TicketNumber::from_stored)
        .collect()
}

macro_rules! on_both {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let (url, _dir) = rifa_test_support::sqlite_database();
                super::$name(&url).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(url) = rifa_test_support::postgres_database().await {
                    super::$name(&url).await;
                }
            }
        }
    )+};
}

on_both!(
    writers_that_read_first_queue_behind_each_other_instead_of_failing,
    a_raffle_is_never_on_sale_without_a_prize_even_when_racing,
    the_unique_index_refuses_a_second_hold_of_a_number_but_not_a_released_one,
    a_test_purchase_s_entry_is_written_with_it_and_names_it,
    losing_numbers_writes_nothing_and_names_exactly_those_numbers,
    only_one_of_two_racing_decisions_wins,
    a_raffle_cannot_shrink_below_a_held_number_nor_vanish_with_purchases,
    searches_find_rejected_purchases_by_number_and_lookups_by_phone_digits,
    settings_round_trip_with_the_password_kept_secret,
    purchases_and_decisions_put_their_e_mail_in_the_outbox_in_the_same_transaction,
    a_claimed_e_mail_is_leased_and_failures_are_retried_then_given_up,
    only_the_granted_upload_of_a_pending_purchase_can_be_attached,
    grants_never_attached_are_listed_by_age_and_withdrawn_once,
    a_grant_pending_at_the_upgrade_is_dated_by_the_migration,
    a_second_rate_for_a_pair_is_refused_with_the_first_even_in_a_race,
    duplicate_rates_of_older_databases_are_merged_into_the_newest_by_the_migration,
    confirmations_are_capped_per_recipient_by_clock_hour_and_day,
    the_allowance_check_refuses_a_write_past_the_cap_whatever_runs_above_it,
    due_holds_expire_once_by_the_databases_clock_with_everything_they_imply,
    reopening_holds_the_numbers_again_or_names_those_taken,
    kept_counts_equal_a_full_recount_after_racing_writes,
    a_walk_after_a_cursor_reads_every_match_once_newest_first,
    every_page_is_the_same_read_from_the_top_the_end_or_a_nearby_page,
    counting_a_search_stops_past_its_cap_and_leaves_the_totals_out,
    sqlite_plans_searches_and_expiries_with_their_indexes,
);

/// How many migrations, counted from the newest, undo the one named `*name*`.
fn migrations_from(name: &str) -> u32 {
    use rifa_migration::{Migrator, MigratorTrait};

    let migrations = Migrator::migrations();
    let from_newest = migrations
        .iter()
        .rev()
        .position(|m| m.name().contains(name))
        .unwrap_or_else(|| panic!("no migration named like {name}"));
    u32::try_from(from_newest + 1).unwrap()
}

/// The first page of a raffle's purchases, no other filter.
fn of_raffle(raffle: RaffleId) -> PurchaseQuery {
    PurchaseQuery {
        raffle_id: Some(raffle),
        name_contains: None,
        status: None,
        ticket_numbers: vec![],
        created: None,
        max_id: None,
        page: 1,
        page_size: 10,
        anchor: None,
        count_cap: SEARCH_COUNT_CAP,
    }
}

/// A decision as the core makes it (`rifa_app::review::decision_of`): what the adapter executes.
fn decision(verdict: &Verdict, at: DateTime<Utc>) -> PurchaseDecision {
    PurchaseDecision {
        status: verdict.target(),
        notes: verdict.notes().map(str::to_owned),
        decided_at: at,
        release_numbers: matches!(verdict, Verdict::Reject { .. }),
        mail: match verdict {
            Verdict::Approve { .. } => MailKind::Approved,
            Verdict::Reject { .. } => MailKind::Rejected,
        },
        history: match verdict {
            Verdict::Approve { .. } => PurchaseEventKind::Approved,
            Verdict::Reject { .. } => PurchaseEventKind::Rejected,
        },
        audit: audit_entry(AuditAction::PurchaseDecided, at),
    }
}

/// An entry as the core writes one with an action (what it says is the core's affair).
fn audit_entry(action: AuditAction, at: DateTime<Utc>) -> AuditEntry {
    AuditEntry {
        at,
        actor: Actor {
            admin_id: None,
            username: "tests".into(),
            ip: None,
        },
        action,
        target: None,
        changes: Vec::new(),
    }
}

fn now() -> DateTime<Utc> {
    DateTime::from_timestamp_millis(Utc::now().timestamp_millis()).unwrap()
}

async fn raffle(db: &Db, max_tickets: u32) -> RaffleId {
    let draft = RaffleDraft {
        title: "Rifa".into(),
        description: "Premio".into(),
        image: "/images/raffle-default.jpg".into(),
        price: TicketPrice::new(Money::from_cents(100).unwrap()).unwrap(),
        status: RaffleStatus::Available,
        max_tickets,
        limits: PurchaseLimits::new(Some(1), Some(10)).unwrap(),
        draw_date: None,
        end_date: None,
        sales: SalesTerms::default(),
    };
    db.create_raffle(&draft, &[], now(), &|_, _| {
        audit_entry(AuditAction::RaffleCreated, now())
    })
    .await
    .unwrap()
    .id
}

/// A pending purchase holding its numbers for 30 minutes, by the buyer the phone names (its
/// document and e-mail follow from the phone: one phone, one person).
fn purchase(raffle_id: RaffleId, numbers: &[i64], reference: &str, phone: &str) -> NewPurchase {
    let limits = PurchaseLimits::new(Some(1), Some(10)).unwrap();
    let selection = TicketSelection::new(numbers, 100, limits).unwrap();
    let mut errors = FieldErrors::new();
    let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
    let customer = Customer::parse(
        &CustomerInput {
            name: Some("Ana Pérez".into()),
            id_document: Some(format!("V-{digits}")),
            email: Some(format!("ana{digits}@example.com")),
            phone: Some(phone.into()),
            country: Some("venezuela".into()),
        },
        &mut errors,
    )
    .unwrap();
    let price = TicketPrice::new(Money::from_cents(100).unwrap()).unwrap();
    NewPurchase {
        raffle_id,
        reference: reference.into(),
        quote: pricing::quote(price, selection.count(), limits, &DiscountTable::default()),
        selection,
        customer: customer.clone(),
        payment: PaymentSnapshot {
            method_id: None,
            method_name: "Zelle".into(),
            conversion: None,
        },
        payment_reference: None,
        status: PurchaseStatus::Pending,
        hold_until: Some(now() + chrono::TimeDelta::minutes(30)),
        buyer_keys: BuyerKeys::of(&customer),
        allowance_cap: Some(10),
        confirm_to_buyer: true,
        created_at: now(),
        lang: Lang::En,
        access_digest: Some("d".repeat(64)),
        audit: None,
    }
}

/// An admin's test purchase of `numbers`, with its trail entry.
fn rehearsal(raffle_id: RaffleId, numbers: &[i64], reference: &str) -> NewPurchase {
    NewPurchase {
        status: PurchaseStatus::Test,
        hold_until: None,
        allowance_cap: None,
        confirm_to_buyer: false,
        access_digest: None,
        audit: Some(audit_entry(AuditAction::TestPurchaseCreated, now())),
        ..purchase(raffle_id, numbers, reference, "04140000000")
    }
}

/// A transaction that reads before it writes (a payment method checks its rate first) while
/// other writers commit: on SQLite a deferred transaction failed at once with "database is
/// locked" (seen as a 500 under CI's load); every write now queues and succeeds.
async fn writers_that_read_first_queue_behind_each_other_instead_of_failing(url: &str) {
    let db = Db::connect(url, 4).await.unwrap();
    let rate = db
        .create_exchange_rate(
            &rate_draft(Currency::Usd, Currency::Ves, "36.5"),
            now(),
            &|_, _| audit_entry(AuditAction::ExchangeRateCreated, now()),
        )
        .await
        .unwrap();
    let draft = rifa_domain::payment::PaymentMethodDraft::parse(
        Some("Pago Móvil"),
        Some("digital"),
        Some(true),
        rifa_domain::payment::Details::default(),
        Some(rate.id),
        (None, None),
    )
    .unwrap();
    let tasks: Vec<_> = (0..16)
        .map(|task| {
            let (db, draft) = (db.clone(), draft.clone());
            tokio::spawn(async move {
                for _ in 0..10 {
                    if task % 2 == 0 {
                        db.create_payment_method(&draft, &|_, _| {
                            audit_entry(AuditAction::PaymentMethodCreated, now())
                        })
                        .await
                        .map(drop)
                        .map_err(|e| format!("{e:?}"))?;
                    } else {
                        rifa_ports::AuditTrail::append_audit(
                            &db,
                            &audit_entry(AuditAction::ExchangeRateCreated, now()),
                        )
                        .await
                        .map_err(|e| format!("{e:?}"))?;
                    }
                }
                Ok::<(), String>(())
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap().unwrap();
    }
    assert_eq!(db.list_payment_methods(false).await.unwrap().len(), 80);
}

async fn a_test_purchase_s_entry_is_written_with_it_and_names_it(url: &str) {
    use rifa_ports::{AuditQuery, AuditTrail as _};

    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    let newest = || AuditQuery {
        before: None,
        actor: None,
        action: Some(AuditAction::TestPurchaseCreated.as_str().into()),
        target: None,
        from: None,
        until: None,
        limit: 10,
    };

    let created = db
        .create_purchase(&rehearsal(raffle, &[7], "RF-T1"), "Rifa")
        .await
        .unwrap();
    let refused = db
        .create_purchase(&rehearsal(raffle, &[8], "RF-T1"), "Rifa")
        .await;

    assert!(matches!(refused, Err(CreatePurchaseError::ReferenceTaken)));
    let entries = db.audit_entries(&newest()).await.unwrap();
    assert_eq!(entries.len(), 1, "the refused purchase left no entry");
    assert_eq!(
        entries[0].entry.target.as_deref(),
        Some(format!("purchase:{}", created.id.get()).as_str())
    );
}

async fn the_unique_index_refuses_a_second_hold_of_a_number_but_not_a_released_one(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    let first = db
        .create_purchase(&purchase(raffle, &[7], "RF-A", "04141234567"), "Rifa")
        .await
        .unwrap();
    let second = db
        .create_purchase(&purchase(raffle, &[8], "RF-B", "04141234567"), "Rifa")
        .await
        .unwrap();

    // Bypass every check above the database: a raw second hold of number 7 must fail.
    let raw = Database::connect(url).await.unwrap();
    let insert = |purchase: i64| {
        format!(
            "INSERT INTO purchase_tickets (purchase_id, raffle_id, number, held) VALUES ({purchase}, {raffle}, 7, true)"
        )
    };
    let refused: DbErr = raw
        .execute_unprepared(&insert(second.id.get()))
        .await
        .unwrap_err();
    assert!(
        matches!(
            refused.sql_err(),
            Some(SqlErr::UniqueConstraintViolation(_))
        ),
        "{refused}"
    );

    db.decide_purchase(
        first.id,
        &decision(
            &Verdict::Reject {
                notes: "sin pago".into(),
            },
            now(),
        ),
    )
    .await
    .unwrap();
    raw.execute_unprepared(&insert(second.id.get()))
        .await
        .unwrap();
    assert_eq!(db.held_numbers(raffle).await.unwrap(), numbers(&[7, 8]));
}

async fn losing_numbers_writes_nothing_and_names_exactly_those_numbers(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    db.create_purchase(&purchase(raffle, &[2, 4, 6], "RF-A", "04141234567"), "Rifa")
        .await
        .unwrap();

    let lost = db
        .create_purchase(
            &purchase(raffle, &[1, 2, 3, 4], "RF-B", "04141234567"),
            "Rifa",
        )
        .await;

    assert!(
        matches!(lost, Err(CreatePurchaseError::NumbersTaken(ref n)) if *n == numbers(&[2, 4])),
        "{lost:?}"
    );
    assert_eq!(db.held_numbers(raffle).await.unwrap(), numbers(&[2, 4, 6]));
    let all = of_raffle(raffle);
    assert_eq!(db.search_purchases(&all).await.unwrap().total, 1);

    let duplicate = db
        .create_purchase(&purchase(raffle, &[50], "RF-A", "04141234567"), "Rifa")
        .await;
    assert!(
        matches!(duplicate, Err(CreatePurchaseError::ReferenceTaken)),
        "{duplicate:?}"
    );
    assert!(
        !db.held_numbers(raffle)
            .await
            .unwrap()
            .contains(&TicketNumber::from_stored(50))
    );
}

fn draft_with_status(status: RaffleStatus) -> RaffleDraft {
    RaffleDraft {
        title: "Rifa".into(),
        description: "Premio".into(),
        image: "/x.jpg".into(),
        price: TicketPrice::new(Money::from_cents(100).unwrap()).unwrap(),
        status,
        max_tickets: 100,
        limits: PurchaseLimits::new(None, None).unwrap(),
        draw_date: None,
        end_date: None,
        sales: SalesTerms::default(),
    }
}

async fn a_raffle_is_never_on_sale_without_a_prize_even_when_racing(url: &str) {
    let db = Db::connect(url, 4).await.unwrap();
    let prize = PrizeDraft {
        title: "Moto".into(),
        description: String::new(),
        image: None,
        source: PrizeSource::Beacon { round: 1_000 },
    };
    let entry = audit_entry(AuditAction::RaffleUpdated, now());
    let record = |_: Option<&_>, _: Option<&_>| entry.clone();
    let on_sale = draft_with_status(RaffleStatus::Available);
    let draft = draft_with_status(RaffleStatus::Inactive);

    let created = db
        .create_raffle(&on_sale, std::slice::from_ref(&prize), now(), &record)
        .await
        .unwrap();
    assert_eq!(created.status, RaffleStatus::Available);
    let stored = db.prizes(created.id).await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!((stored[0].position, &stored[0].prize), (1, &prize));
    let emptied = db
        .replace_prizes(created.id, Rule::AmongSoldV2, &[], &entry)
        .await;
    assert!(
        matches!(emptied, Err(ReplacePrizesError::OnSaleNeedsPrize)),
        "{emptied:?}"
    );
    assert_eq!(db.prizes(created.id).await.unwrap().len(), 1);

    db.update_raffle(created.id, &draft, &record).await.unwrap();
    db.replace_prizes(created.id, Rule::AmongSoldV2, &[], &entry)
        .await
        .unwrap();
    let asked_on_sale = db
        .update_raffle(created.id, &on_sale, &record)
        .await
        .unwrap();
    assert_eq!(asked_on_sale.status, RaffleStatus::Inactive);

    // Publishing and removing the last prize at once: whichever goes first, the raffle never
    // ends up on sale with nothing to draw.
    for _ in 0..8 {
        db.update_raffle(created.id, &draft, &record).await.unwrap();
        db.replace_prizes(
            created.id,
            Rule::AmongSoldV2,
            std::slice::from_ref(&prize),
            &entry,
        )
        .await
        .unwrap();
        let (published, emptied) = tokio::join!(
            db.update_raffle(created.id, &on_sale, &record),
            db.replace_prizes(created.id, Rule::AmongSoldV2, &[], &entry)
        );
        published.unwrap();
        let status = db.get_raffle(created.id).await.unwrap().unwrap().status;
        let prizes = db.prizes(created.id).await.unwrap().len();
        match emptied {
            Ok(()) => assert_eq!((status, prizes), (RaffleStatus::Inactive, 0)),
            Err(ReplacePrizesError::OnSaleNeedsPrize) => {
                assert_eq!((status, prizes), (RaffleStatus::Available, 1));
            }
            Err(e) => panic!("{e:?}"),
        }
    }
}

async fn only_one_of_two_racing_decisions_wins(url: &str) {
    let db = Db::connect(url, 4).await.unwrap();
    let raffle = raffle(&db, 100).await;
    let bought = db
        .create_purchase(&purchase(raffle, &[9], "RF-A", "04141234567"), "Rifa")
        .await
        .unwrap();

    let approve = Verdict::Approve { notes: None };
    let reject = Verdict::Reject {
        notes: "duplicado".into(),
    };
    let (approval, rejection) = (decision(&approve, now()), decision(&reject, now()));
    let (a, b) = tokio::join!(
        db.decide_purchase(bought.id, &approval),
        db.decide_purchase(bought.id, &rejection)
    );

    let outcomes = [a.is_ok(), b.is_ok()];
    assert_eq!(outcomes.iter().filter(|ok| **ok).count(), 1, "{a:?} {b:?}");
    let loser = if a.is_ok() { b } else { a };
    assert!(matches!(loser, Err(DecidePurchaseError::NotPending(_))));
    let stored = db.get_purchase(bought.id).await.unwrap().unwrap();
    assert_eq!(
        db.held_numbers(raffle).await.unwrap().is_empty(),
        stored.status == PurchaseStatus::Rejected
    );
    let missing = db
        .decide_purchase(PurchaseId::new(999_999), &decision(&approve, now()))
        .await;
    assert!(matches!(missing, Err(DecidePurchaseError::NotFound)));
}

async fn a_raffle_cannot_shrink_below_a_held_number_nor_vanish_with_purchases(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let record = |_: Option<&_>, _: Option<&_>| audit_entry(AuditAction::RaffleUpdated, now());
    let mut draft = RaffleDraft {
        title: "Rifa".into(),
        description: "Premio".into(),
        image: "/x.jpg".into(),
        price: TicketPrice::new(Money::from_cents(100).unwrap()).unwrap(),
        status: RaffleStatus::Available,
        max_tickets: 50,
        limits: PurchaseLimits::new(None, None).unwrap(),
        draw_date: None,
        end_date: None,
        sales: SalesTerms::default(),
    };
    // A real purchase fixes the size: it reads the winning number (decision 0025).
    let id = raffle(&db, 100).await;
    db.create_purchase(&purchase(id, &[80], "RF-A", "04141234567"), "Rifa")
        .await
        .unwrap();
    let shrunk = db.update_raffle(id, &draft, &record).await;
    assert!(
        matches!(
            shrunk,
            Err(UpdateRaffleError::BelowHeldNumber { highest_held })
                if highest_held == TicketNumber::from_stored(80)
        ),
        "{shrunk:?}"
    );
    for size in [80, 200] {
        draft.max_tickets = size;
        let moved = db.update_raffle(id, &draft, &record).await;
        assert!(
            matches!(moved, Err(UpdateRaffleError::SizeLocked)),
            "{moved:?}"
        );
    }
    draft.max_tickets = 100;
    assert_eq!(
        db.update_raffle(id, &draft, &record)
            .await
            .unwrap()
            .max_tickets,
        100,
        "the rest of the raffle still changes"
    );
    assert!(matches!(
        db.update_raffle(RaffleId::new(424_242), &draft, &|_, _| audit_entry(
            AuditAction::RaffleUpdated,
            now()
        ))
        .await,
        Err(UpdateRaffleError::NotFound)
    ));
    assert!(matches!(
        db.delete_raffle(id, &|_, _| audit_entry(AuditAction::RaffleDeleted, now()))
            .await,
        Err(DeleteRaffleError::HasPurchases { count: 1 })
    ));
    assert!(db.get_raffle(id).await.unwrap().is_some());
    let empty = raffle(&db, 10).await;
    db.delete_raffle(empty, &|_, _| {
        audit_entry(AuditAction::RaffleDeleted, now())
    })
    .await
    .unwrap();
    assert!(matches!(
        db.delete_raffle(empty, &|_, _| audit_entry(
            AuditAction::RaffleDeleted,
            now()
        ))
        .await,
        Err(DeleteRaffleError::NotFound)
    ));
}

async fn searches_find_rejected_purchases_by_number_and_lookups_by_phone_digits(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    let rejected = db
        .create_purchase(
            &purchase(raffle, &[11, 12], "RF-A", "+58 (414) 123-4567"),
            "Rifa",
        )
        .await
        .unwrap();
    db.decide_purchase(
        rejected.id,
        &decision(&Verdict::Reject { notes: "x".into() }, now()),
    )
    .await
    .unwrap();
    let pending = db
        .create_purchase(
            &purchase(raffle, &[12, 13], "RF-B", "0414 999 8888"),
            "Rifa",
        )
        .await
        .unwrap();

    let query = |wanted: Vec<u32>| PurchaseQuery {
        name_contains: Some("PEREZ".into()),
        ticket_numbers: numbers(&wanted),
        ..of_raffle(raffle)
    };
    let found = db.search_purchases(&query(vec![12])).await.unwrap();
    let ids: Vec<i64> = found.items.iter().map(|p| p.id.get()).collect();
    assert_eq!(
        ids,
        vec![pending.id.get(), rejected.id.get()],
        "newest first, rejected included"
    );
    assert_eq!(found.summary.unwrap().pending_purchases, 1);
    assert_eq!(
        db.search_purchases(&query(vec![99])).await.unwrap().total,
        0
    );

    let by_phone = db
        .purchases_of(&LookupKey::Phone("584141234567".into()), 10)
        .await
        .unwrap();
    assert!(
        by_phone.is_empty(),
        "rejected purchases are not shown to buyers"
    );
    let by_phone = db
        .purchases_of(&LookupKey::Phone("04149998888".into()), 10)
        .await
        .unwrap();
    assert_eq!(by_phone.len(), 1);
    assert_eq!(by_phone[0].ticket_numbers, numbers(&[12, 13]));
}

async fn settings_round_trip_with_the_password_kept_secret(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    assert!(db.branding().await.unwrap().is_none());
    assert!(db.email_settings().await.unwrap().is_none());
    assert!(db.discounts().await.unwrap().is_none());

    // The branding is saved only over the one it was changed from.
    let entry = |_: Option<&Branding>, _: Option<&Branding>| {
        audit_entry(AuditAction::BrandingUpdated, now())
    };
    let first = Branding {
        company_name: "Rifas Uno".into(),
        ..Branding::default()
    };
    let second = Branding {
        company_name: "Rifas Dos".into(),
        ..Branding::default()
    };
    assert!(db.save_branding(&first, None, &entry).await.unwrap());
    assert!(
        !db.save_branding(&second, None, &entry).await.unwrap(),
        "saved over a branding it never read"
    );
    assert_eq!(db.branding().await.unwrap().as_ref(), Some(&first));
    assert!(
        db.save_branding(&second, Some(&first), &entry)
            .await
            .unwrap()
    );
    assert_eq!(db.branding().await.unwrap(), Some(second));

    let settings = EmailSettings {
        host: "smtp.example.com".into(),
        port: 2525,
        user: "mailer".into(),
        password: Some(secrecy::SecretString::from("p4ss")),
        from_email: "rifas@example.com".into(),
    };
    db.save_email_settings(&settings, &|_, _| {
        audit_entry(AuditAction::EmailSettingsUpdated, now())
    })
    .await
    .unwrap();
    db.save_email_settings(&settings, &|_, _| {
        audit_entry(AuditAction::EmailSettingsUpdated, now())
    })
    .await
    .unwrap();
    assert_eq!(db.email_settings().await.unwrap(), Some(settings));

    let tiers = DiscountTable::new(vec![DiscountTier {
        min_tickets: 5,
        percentage: Decimal::new(125, 1),
        label: "5+".into(),
    }])
    .unwrap();
    db.save_discounts(&tiers, &|_, _| {
        audit_entry(AuditAction::DiscountsUpdated, now())
    })
    .await
    .unwrap();
    assert_eq!(db.discounts().await.unwrap(), Some(tiers));
}

async fn purchases_and_decisions_put_their_e_mail_in_the_outbox_in_the_same_transaction(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    let bought = db
        .create_purchase(&purchase(raffle, &[1, 2], "RF-A", "04141234567"), "Rifa")
        .await
        .unwrap();
    // A purchase that loses its numbers writes no e-mail either.
    db.create_purchase(&purchase(raffle, &[2, 3], "RF-B", "04141234567"), "Rifa")
        .await
        .unwrap_err();
    let mut test = purchase(raffle, &[2], "RF-T", "04141234567");
    test.status = PurchaseStatus::Test;
    test.hold_until = None;
    test.allowance_cap = None;
    test.confirm_to_buyer = false;
    db.create_purchase(&test, "Rifa").await.unwrap();

    let queued = db.list_mail(None, 10).await.unwrap();
    assert_eq!(queued.len(), 1, "{queued:?}");
    assert_eq!(queued[0].subject, MailSubject::Purchase(bought.id));
    assert_eq!(queued[0].kind, MailKind::Received);
    assert_eq!(queued[0].status, MailStatus::Pending);
    assert_eq!(queued[0].recipient, bought.customer_email);

    db.decide_purchase(
        bought.id,
        &decision(
            &Verdict::Reject {
                notes: "sin pago".into(),
            },
            now(),
        ),
    )
    .await
    .unwrap();
    let queued = db.list_mail(None, 10).await.unwrap();
    assert_eq!(queued.len(), 2);
    assert_eq!(queued[0].kind, MailKind::Rejected, "newest first");
    let job = db
        .claim_due_mail(now(), now() + chrono::TimeDelta::minutes(5))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        job.lang,
        Lang::En,
        "the buyer's language travels with the message"
    );
}

async fn a_claimed_e_mail_is_leased_and_failures_are_retried_then_given_up(url: &str) {
    // The confirmation is due at once here: the wait for a proof is another test's.
    let db = Db::connect(url, 2)
        .await
        .unwrap()
        .with_received_proof_wait(chrono::TimeDelta::zero());
    let raffle = raffle(&db, 100).await;
    db.create_purchase(&purchase(raffle, &[5], "RF-A", "04141234567"), "Rifa")
        .await
        .unwrap();
    let t0 = now() + chrono::TimeDelta::seconds(1);
    let lease = chrono::TimeDelta::minutes(5);

    let job = db.claim_due_mail(t0, t0 + lease).await.unwrap().unwrap();
    assert_eq!(job.attempts, 1);
    assert!(
        db.claim_due_mail(t0, t0 + lease).await.unwrap().is_none(),
        "a leased message is not handed out twice"
    );
    let after_lease = t0 + lease + chrono::TimeDelta::seconds(1);
    let again = db
        .claim_due_mail(after_lease, after_lease + lease)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (again.id, again.attempts),
        (job.id, 2),
        "a lease that ran out is taken again"
    );

    let retry_at = after_lease + chrono::TimeDelta::seconds(30);
    db.mail_failed(job.id, "connection refused", Some(retry_at))
        .await
        .unwrap();
    assert!(
        db.claim_due_mail(after_lease, after_lease + lease)
            .await
            .unwrap()
            .is_none()
    );
    let record = &db.list_mail(Some(MailStatus::Pending), 10).await.unwrap()[0];
    assert_eq!(record.last_error.as_deref(), Some("connection refused"));

    db.claim_due_mail(retry_at, retry_at + lease)
        .await
        .unwrap()
        .unwrap();
    db.mail_failed(job.id, "still refused", None).await.unwrap();
    assert!(
        db.claim_due_mail(retry_at + lease * 2, retry_at + lease * 3)
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        db.list_mail(Some(MailStatus::Failed), 10)
            .await
            .unwrap()
            .len(),
        1
    );

    assert!(
        db.retry_mail(
            job.id,
            retry_at,
            &audit_entry(AuditAction::MailRetried, retry_at)
        )
        .await
        .unwrap()
    );
    assert!(
        !db.retry_mail(
            job.id,
            retry_at,
            &audit_entry(AuditAction::MailRetried, retry_at)
        )
        .await
        .unwrap(),
        "only failed messages are retried"
    );
    let retried = db
        .claim_due_mail(retry_at, retry_at + lease)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(retried.attempts, 1, "a retry starts the count again");
    db.mail_sent(retried.id, retry_at).await.unwrap();
    let sent = &db.list_mail(Some(MailStatus::Sent), 10).await.unwrap()[0];
    assert_eq!((sent.id, sent.last_error.as_deref()), (job.id, None));
    assert!(
        db.claim_due_mail(retry_at + lease * 9, retry_at + lease * 10)
            .await
            .unwrap()
            .is_none()
    );
}

async fn only_the_granted_upload_of_a_pending_purchase_can_be_attached(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    let bought = db
        .create_purchase(&purchase(raffle, &[5], "RF-A", "04141234567"), "Rifa")
        .await
        .unwrap();
    let access = db.purchase_access(bought.id).await.unwrap().unwrap();
    assert_eq!(access.access_digest, Some("d".repeat(64)));
    assert_eq!((access.lang, access.upload_key), (Lang::En, None));

    assert!(
        db.attach_proof(bought.id, "proofs/1/a.png", now())
            .await
            .unwrap()
            != AttachOutcome::Attached,
        "nothing granted yet"
    );
    assert!(
        db.grant_upload(bought.id, "proofs/1/a.png", 10, now())
            .await
            .unwrap()
    );
    assert!(
        db.grant_upload(bought.id, "proofs/1/b.png", 10, now())
            .await
            .unwrap(),
        "a new grant replaces the old"
    );
    assert!(
        db.attach_proof(bought.id, "proofs/1/a.png", now())
            .await
            .unwrap()
            != AttachOutcome::Attached
    );
    db.refuse_proof(bought.id, "proofs/1/a.png", Some(ProofProblem::WrongType))
        .await
        .unwrap();
    assert_eq!(
        db.purchase_access(bought.id)
            .await
            .unwrap()
            .unwrap()
            .upload_key
            .as_deref(),
        Some("proofs/1/b.png"),
        "refusing a replaced upload leaves the newer grant"
    );
    db.refuse_proof(bought.id, "proofs/1/b.png", Some(ProofProblem::TooLarge))
        .await
        .unwrap();
    assert_eq!(
        db.proof_problem(bought.id).await.unwrap(),
        Some(ProofProblem::TooLarge)
    );
    assert!(
        db.attach_proof(bought.id, "proofs/1/b.png", now())
            .await
            .unwrap()
            != AttachOutcome::Attached,
        "a refusal withdraws the grant"
    );

    assert!(
        db.grant_upload(bought.id, "proofs/1/c.pdf", 10, now())
            .await
            .unwrap()
    );
    assert!(
        db.attach_proof(bought.id, "proofs/1/c.pdf", now())
            .await
            .unwrap()
            == AttachOutcome::Attached
    );
    assert_eq!(db.proof_problem(bought.id).await.unwrap(), None);
    let stored = db.get_purchase(bought.id).await.unwrap().unwrap();
    assert_eq!(stored.payment_proof.as_deref(), Some("proofs/1/c.pdf"));
    assert!(
        db.attach_proof(bought.id, "proofs/1/c.pdf", now())
            .await
            .unwrap()
            != AttachOutcome::Attached,
        "a grant is used once"
    );
    assert!(
        db.grant_upload(bought.id, "proofs/1/e.png", 10, now())
            .await
            .unwrap()
    );
    db.refuse_proof(bought.id, "proofs/1/e.png", None)
        .await
        .unwrap();
    assert_eq!(
        db.proof_problem(bought.id).await.unwrap(),
        None,
        "a refusal without a problem leaves the attached proof standing"
    );

    let access = db.purchase_access(bought.id).await.unwrap().unwrap();
    assert_eq!(access.upload_grants, 4);
    assert!(
        !db.grant_upload(bought.id, "proofs/1/f.png", 4, now())
            .await
            .unwrap(),
        "no grant past the cap"
    );
    assert_eq!(
        db.purchase_access(bought.id)
            .await
            .unwrap()
            .unwrap()
            .upload_grants,
        4
    );

    db.decide_purchase(
        bought.id,
        &decision(&Verdict::Approve { notes: None }, now()),
    )
    .await
    .unwrap();
    assert!(
        !db.grant_upload(bought.id, "proofs/1/d.png", 10, now())
            .await
            .unwrap(),
        "decided purchases are closed"
    );
    assert!(
        db.purchase_access(PurchaseId::new(999_999))
            .await
            .unwrap()
            .is_none()
    );
}

async fn grants_never_attached_are_listed_by_age_and_withdrawn_once(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    let buy = |number: i64, reference: &'static str| {
        let db = &db;
        async move {
            db.create_purchase(
                &purchase(raffle, &[number], reference, "04141234567"),
                "Rifa",
            )
            .await
            .unwrap()
            .id
        }
    };
    let (old, fresh, attached, decided) = (
        buy(1, "RF-OLD").await,
        buy(2, "RF-FRESH").await,
        buy(3, "RF-ATT").await,
        buy(4, "RF-DEC").await,
    );
    let day_ago = now() - chrono::TimeDelta::hours(25);
    let cutoff = now() - chrono::TimeDelta::hours(24);
    assert!(
        db.grant_upload(old, "proofs/old/a.png", 10, day_ago)
            .await
            .unwrap()
    );
    assert!(
        db.grant_upload(fresh, "proofs/fresh/a.png", 10, now())
            .await
            .unwrap()
    );
    assert!(
        db.grant_upload(attached, "proofs/att/a.png", 10, day_ago)
            .await
            .unwrap()
    );
    assert!(
        db.attach_proof(attached, "proofs/att/a.png", now())
            .await
            .unwrap()
            == AttachOutcome::Attached
    );
    assert!(
        db.grant_upload(decided, "proofs/dec/a.png", 10, day_ago)
            .await
            .unwrap()
    );
    db.decide_purchase(
        decided,
        &decision(
            &Verdict::Reject {
                notes: "no payment".into(),
            },
            now(),
        ),
    )
    .await
    .unwrap();

    assert_eq!(
        db.abandoned_uploads(cutoff, 10).await.unwrap(),
        vec![
            (old, "proofs/old/a.png".to_owned()),
            (decided, "proofs/dec/a.png".to_owned()),
        ],
        "old grants, whatever the purchase's status; not a fresh one, not an attached one"
    );
    assert_eq!(
        db.abandoned_uploads(cutoff, 1).await.unwrap(),
        vec![(old, "proofs/old/a.png".to_owned())],
        "at most `limit`, oldest purchase first"
    );

    assert!(
        !db.withdraw_upload(old, "proofs/old/other.png")
            .await
            .unwrap(),
        "only the grant named"
    );
    assert!(db.withdraw_upload(old, "proofs/old/a.png").await.unwrap());
    assert!(
        !db.withdraw_upload(old, "proofs/old/a.png").await.unwrap(),
        "a grant is withdrawn once"
    );
    assert_eq!(
        db.purchase_access(old).await.unwrap().unwrap().upload_key,
        None
    );
    assert!(
        db.attach_proof(old, "proofs/old/a.png", now())
            .await
            .unwrap()
            != AttachOutcome::Attached,
        "a withdrawn grant cannot be attached"
    );
    assert_eq!(
        db.abandoned_uploads(now() + chrono::TimeDelta::hours(1), 10)
            .await
            .unwrap(),
        vec![
            (fresh, "proofs/fresh/a.png".to_owned()),
            (decided, "proofs/dec/a.png".to_owned()),
        ]
    );
}

async fn a_grant_pending_at_the_upgrade_is_dated_by_the_migration(url: &str) {
    use rifa_migration::{Migrator, MigratorTrait};

    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    let pending = db
        .create_purchase(&purchase(raffle, &[1], "RF-UP", "04141234567"), "Rifa")
        .await
        .unwrap()
        .id;
    db.create_purchase(&purchase(raffle, &[2], "RF-NONE", "04141234567"), "Rifa")
        .await
        .unwrap();
    let month_ago = now() - chrono::TimeDelta::days(30);
    assert!(
        db.grant_upload(pending, "proofs/up/a.png", 10, month_ago)
            .await
            .unwrap()
    );

    // Back to before the column existed, and forward again.
    let conn = Database::connect(url).await.unwrap();
    Migrator::down(&conn, Some(migrations_from("upload_granted_at")))
        .await
        .unwrap();
    Migrator::up(&conn, None).await.unwrap();

    assert_eq!(
        db.abandoned_uploads(now() - chrono::TimeDelta::hours(1), 10)
            .await
            .unwrap(),
        vec![],
        "a grant pending at the upgrade is dated then, so it gets its full day"
    );
    assert_eq!(
        db.abandoned_uploads(now() + chrono::TimeDelta::hours(1), 10)
            .await
            .unwrap(),
        vec![(pending, "proofs/up/a.png".to_owned())],
        "only purchases with a grant are dated"
    );
}

fn rate_draft(from: Currency, to: Currency, rate: &str) -> ExchangeRateDraft {
    ExchangeRateDraft {
        from,
        to,
        rate: rate.parse().unwrap(),
    }
}

async fn a_second_rate_for_a_pair_is_refused_with_the_first_even_in_a_race(url: &str) {
    let db = Db::connect(url, 4).await.unwrap();
    let first = db
        .create_exchange_rate(
            &rate_draft(Currency::Usd, Currency::Cop, "4000"),
            now(),
            &|_, _| audit_entry(AuditAction::ExchangeRateCreated, now()),
        )
        .await
        .unwrap();

    let second = db
        .create_exchange_rate(
            &rate_draft(Currency::Usd, Currency::Cop, "4100"),
            now(),
            &|_, _| audit_entry(AuditAction::ExchangeRateCreated, now()),
        )
        .await;
    assert!(
        matches!(&second, Err(RateWriteError::PairTaken(held)) if *held == first),
        "{second:?}"
    );
    let ves = db
        .create_exchange_rate(
            &rate_draft(Currency::Usd, Currency::Ves, "36.5"),
            now(),
            &|_, _| audit_entry(AuditAction::ExchangeRateCreated, now()),
        )
        .await
        .unwrap();
    let into_taken = db
        .update_exchange_rate(
            ves.id,
            &rate_draft(Currency::Usd, Currency::Cop, "1"),
            now(),
            &|_, _| audit_entry(AuditAction::ExchangeRateUpdated, now()),
        )
        .await;
    assert!(
        matches!(&into_taken, Err(RateWriteError::PairTaken(held)) if held.id == first.id),
        "{into_taken:?}"
    );
    let same_pair = db
        .update_exchange_rate(
            ves.id,
            &rate_draft(Currency::Usd, Currency::Ves, "37"),
            now(),
            &|_, _| audit_entry(AuditAction::ExchangeRateUpdated, now()),
        )
        .await
        .unwrap();
    assert_eq!(same_pair.rate.to_string(), "37");

    // Racing creates of fresh pairs: each pair ends with exactly one rate.
    for (from, to) in [
        (Currency::Eur, Currency::Ves),
        (Currency::Eur, Currency::Cop),
    ] {
        let (one, two) = (rate_draft(from, to, "1"), rate_draft(from, to, "2"));
        let (a, b) = tokio::join!(
            db.create_exchange_rate(&one, now(), &|_, _| audit_entry(
                AuditAction::ExchangeRateCreated,
                now()
            )),
            db.create_exchange_rate(&two, now(), &|_, _| audit_entry(
                AuditAction::ExchangeRateCreated,
                now()
            )),
        );
        let (won, lost) = match (a, b) {
            (Ok(won), Err(lost)) | (Err(lost), Ok(won)) => (won, lost),
            other => panic!("exactly one create must win: {other:?}"),
        };
        assert!(
            matches!(&lost, RateWriteError::PairTaken(held) if *held == won),
            "{lost:?}"
        );
    }
    assert_eq!(db.list_exchange_rates().await.unwrap().len(), 4);
}

async fn duplicate_rates_of_older_databases_are_merged_into_the_newest_by_the_migration(url: &str) {
    use rifa_migration::{Migrator, MigratorTrait};

    drop(Db::connect(url, 1).await.unwrap());
    let conn = Database::connect(url).await.unwrap();
    Migrator::down(&conn, Some(migrations_from("one_exchange_rate_per_pair")))
        .await
        .unwrap();
    // As an older version could leave them: two USD→VES rates, the later one set last.
    for sql in [
        "INSERT INTO exchange_rates (id, from_currency, to_currency, rate, updated_at) VALUES \
         (1, 'USD', 'VES', '36.5', '2026-01-01T00:00:00+00:00'), \
         (2, 'USD', 'VES', '40', '2026-03-01T00:00:00+00:00'), \
         (3, 'USD', 'COP', '4000', '2026-01-01T00:00:00+00:00')",
        "INSERT INTO payment_methods (id, name, kind, active, details, exchange_rate_id) VALUES \
         (1, 'Pago Móvil', 'digital', TRUE, '[]', 1), \
         (2, 'Nequi', 'digital', TRUE, '[]', 3), \
         (3, 'Zelle', 'digital', TRUE, '[]', NULL)",
    ] {
        conn.execute_unprepared(sql).await.unwrap();
    }

    Migrator::up(&conn, None).await.unwrap();

    let db = Db::connect(url, 2).await.unwrap();
    let rates = db.list_exchange_rates().await.unwrap();
    let kept: Vec<(i64, String)> = rates
        .iter()
        .map(|r| (r.id.get(), r.rate.to_string()))
        .collect();
    assert_eq!(kept, vec![(2, "40".to_owned()), (3, "4000".to_owned())]);
    let methods = db.list_payment_methods(false).await.unwrap();
    let linked: Vec<(&str, Option<i64>)> = methods
        .iter()
        .map(|m| {
            (
                m.name.as_str(),
                m.exchange_rate.as_ref().map(|r| r.id.get()),
            )
        })
        .collect();
    assert!(linked.contains(&("Pago Móvil", Some(2))), "{linked:?}");
    assert!(linked.contains(&("Nequi", Some(3))), "{linked:?}");
    assert!(linked.contains(&("Zelle", None)), "{linked:?}");
    let again = db
        .create_exchange_rate(
            &rate_draft(Currency::Usd, Currency::Ves, "41"),
            now(),
            &|_, _| audit_entry(AuditAction::ExchangeRateCreated, now()),
        )
        .await;
    assert!(
        matches!(again, Err(RateWriteError::PairTaken(_))),
        "{again:?}"
    );
}

async fn confirmations_are_capped_per_recipient_by_clock_hour_and_day(url: &str) {
    let caps = RecipientCaps {
        per_hour: 1,
        per_day: 2,
    };
    let db = Db::connect(url, 2).await.unwrap().with_mail_caps(caps);
    let raffle = raffle(&db, 100).await;
    let buy = async |number: i64, day: u32, hour: u32, minute: u32| {
        let mut new = purchase(raffle, &[number], &format!("RF-{number}"), "04141234567");
        new.created_at = Utc
            .with_ymd_and_hms(2026, 11, day, hour, minute, 0)
            .unwrap();
        db.create_purchase(&new, "Rifa").await
    };

    buy(1, 24, 10, 5).await.unwrap();
    buy(2, 24, 10, 59).await.unwrap();
    // A purchase that loses its numbers writes no e-mail and counts nothing.
    buy(1, 24, 11, 0).await.unwrap_err();
    buy(3, 24, 11, 0).await.unwrap();
    buy(4, 24, 12, 0).await.unwrap();
    buy(5, 25, 9, 0).await.unwrap();

    let mut outbox = db.list_mail(None, 10).await.unwrap();
    outbox.reverse();
    let seen: Vec<_> = outbox.iter().map(|m| (m.status, m.withheld)).collect();
    assert_eq!(
        seen,
        [
            (MailStatus::Pending, None),
            (MailStatus::Withheld, Some(WithheldReason::HourlyCap)),
            (MailStatus::Pending, None),
            (MailStatus::Withheld, Some(WithheldReason::DailyCap)),
            (MailStatus::Pending, None),
        ]
    );
    // Withheld messages are never claimed for delivery; a retry puts one in line.
    let withheld = outbox[1].id;
    assert!(
        db.retry_mail(
            withheld,
            now(),
            &audit_entry(AuditAction::MailRetried, now())
        )
        .await
        .unwrap()
    );
    let retried = db.list_mail(None, 10).await.unwrap();
    let retried = retried.iter().find(|m| m.id == withheld).unwrap();
    assert_eq!(
        (retried.status, retried.withheld),
        (MailStatus::Pending, None)
    );
}

/// The span names and fields opened while it is the default subscriber.
#[derive(Clone, Default)]
struct Spans(std::sync::Arc<std::sync::Mutex<Vec<String>>>);

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Spans {
    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        _: &tracing::span::Id,
        _: tracing_subscriber::layer::Context<'_, S>,
    ) {
        struct Fields(String);
        impl tracing::field::Visit for Fields {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                self.0 += &format!(" {}={value:?}", field.name());
            }
        }
        let mut fields = Fields(attrs.metadata().name().to_owned());
        attrs.record(&mut fields);
        self.0.lock().unwrap().push(fields.0);
    }
}

/// Each repository call runs in a span named for it, carrying the ids it was given (and never
/// what a customer typed), so a slow query in the logs names itself and its request.
#[tokio::test]
async fn a_repository_call_opens_a_span_named_for_it_with_its_ids() {
    use tracing_subscriber::layer::SubscriberExt as _;

    let (url, _dir) = rifa_test_support::sqlite_database();
    let db = Db::connect(&url, 2).await.unwrap();
    let spans = Spans::default();
    let _default =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(spans.clone()));

    assert!(db.get_raffle(RaffleId::new(42)).await.unwrap().is_none());

    let opened = spans.0.lock().unwrap().clone();
    let ours: Vec<&String> = opened.iter().filter(|s| s.starts_with("db.")).collect();
    assert_eq!(ours, ["db.get_raffle raffle.id=42"]);
}

/// The `buyer_allowance` check is the guarantee: a write past the cap fails in the database.
async fn the_allowance_check_refuses_a_write_past_the_cap_whatever_runs_above_it(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    let mut first = purchase(raffle, &[1, 2], "RF-A", "04141234567");
    first.allowance_cap = Some(3);
    db.create_purchase(&first, "Rifa").await.unwrap();
    let mut second = purchase(raffle, &[3, 4], "RF-B", "04141234567");
    second.allowance_cap = Some(3);

    let refused = db.create_purchase(&second, "Rifa").await;

    assert!(
        matches!(
            refused,
            Err(CreatePurchaseError::AllowanceExceeded { cap: 3, used: 2 })
        ),
        "{refused:?}"
    );
    assert_eq!(db.held_numbers(raffle).await.unwrap(), numbers(&[1, 2]));
    let raw = Database::connect(url).await.unwrap();
    let bypass = raw
        .execute_unprepared(&format!(
            "UPDATE buyer_allowance SET tickets = 4 WHERE raffle_id = {raffle}"
        ))
        .await;
    assert!(bypass.is_err(), "the check refuses it: {bypass:?}");
}

async fn due_holds_expire_once_by_the_databases_clock_with_everything_they_imply(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    let other_raffle = self::raffle(&db, 100).await;
    let mut due = purchase(raffle, &[1, 2], "RF-DUE", "04141111111");
    due.hold_until = Some(now() - chrono::TimeDelta::seconds(1));
    let due = db.create_purchase(&due, "Rifa").await.unwrap();
    let mut later = purchase(raffle, &[3], "RF-LATER", "04142222222");
    later.hold_until = Some(now() + chrono::TimeDelta::minutes(5));
    db.create_purchase(&later, "Rifa").await.unwrap();
    let mut elsewhere = purchase(other_raffle, &[1], "RF-ELSE", "04143333333");
    elsewhere.hold_until = Some(now() - chrono::TimeDelta::seconds(1));
    db.create_purchase(&elsewhere, "Rifa").await.unwrap();
    db.add_release_alert(raffle, "wait@example.com", Lang::Es, now())
        .await
        .unwrap();
    let expiry = |raffle| HoldExpiry {
        limit: 10,
        raffle,
        buyer_mail: Some(MailKind::Expired),
        alert_mail: Some(MailKind::NumbersReleased),
    };

    let first = db.expire_due_holds(&expiry(Some(raffle))).await.unwrap();
    let again = db.expire_due_holds(&expiry(Some(raffle))).await.unwrap();

    assert_eq!(
        first,
        [ExpiredHold {
            purchase_id: due.id,
            raffle_id: raffle
        }]
    );
    assert!(again.is_empty(), "nothing expires twice");
    let stored = db.get_purchase(due.id).await.unwrap().unwrap();
    assert_eq!(stored.status, PurchaseStatus::Expired);
    assert_eq!(stored.hold_expires_at, None);
    assert_eq!(db.held_numbers(raffle).await.unwrap(), numbers(&[3]));
    let kinds: Vec<_> = db
        .purchase_history(due.id)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.kind)
        .collect();
    assert_eq!(
        kinds,
        [PurchaseEventKind::Received, PurchaseEventKind::Expired]
    );
    let mail = db.list_mail(None, 50).await.unwrap();
    let expired: Vec<_> = mail
        .iter()
        .filter(|m| m.kind == MailKind::Expired)
        .collect();
    assert_eq!(expired.len(), 1);
    assert_eq!(expired[0].subject, MailSubject::Purchase(due.id));
    let alerts: Vec<_> = mail
        .iter()
        .filter(|m| m.kind == MailKind::NumbersReleased)
        .collect();
    assert_eq!(alerts.len(), 1);
    assert_eq!(alerts[0].subject, MailSubject::Raffle(raffle));
    assert_eq!(alerts[0].recipient, "wait@example.com");
    let summary = db.hold_summary(raffle).await.unwrap();
    assert_eq!(summary.pending_tickets, 1);
    assert_eq!(summary.next_release_at, later.hold_until);
    // The other raffle's due hold waits for a sweep of every raffle.
    assert_eq!(db.expire_due_holds(&expiry(None)).await.unwrap().len(), 1);
    // Its allowance was given back: the same buyer may buy two again.
    let mut back = purchase(raffle, &[1, 2], "RF-BACK", "04141111111");
    back.allowance_cap = Some(2);
    db.create_purchase(&back, "Rifa").await.unwrap();
}

async fn reopening_holds_the_numbers_again_or_names_those_taken(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    let mut lapsed = purchase(raffle, &[4, 5], "RF-LAPSED", "04141111111");
    lapsed.hold_until = Some(now() - chrono::TimeDelta::seconds(1));
    let lapsed = db.create_purchase(&lapsed, "Rifa").await.unwrap();
    let mut lost = purchase(raffle, &[7, 8], "RF-LOST", "04142222222");
    lost.hold_until = Some(now() - chrono::TimeDelta::seconds(1));
    let lost = db.create_purchase(&lost, "Rifa").await.unwrap();
    db.expire_due_holds(&HoldExpiry {
        limit: 10,
        raffle: None,
        buyer_mail: None,
        alert_mail: None,
    })
    .await
    .unwrap();
    db.create_purchase(&purchase(raffle, &[8], "RF-QUICK", "04143333333"), "Rifa")
        .await
        .unwrap();
    let reopening = Reopening {
        at: now(),
        hold_until: now() + chrono::TimeDelta::minutes(30),
        allowance_cap: 10,
        mail: None,
        audit: audit_entry(AuditAction::PurchaseReopened, now()),
    };

    let reopened = db.reopen_purchase(lapsed.id, &reopening).await.unwrap();
    let refused = db.reopen_purchase(lost.id, &reopening).await;
    let twice = db.reopen_purchase(lapsed.id, &reopening).await;

    assert_eq!(reopened.status, PurchaseStatus::Pending);
    assert_eq!(reopened.hold_expires_at, Some(reopening.hold_until));
    assert!(
        matches!(refused, Err(ReopenError::NumbersTaken(ref n)) if *n == numbers(&[8])),
        "{refused:?}"
    );
    assert!(
        matches!(twice, Err(ReopenError::NotExpired(PurchaseStatus::Pending))),
        "{twice:?}"
    );
    assert_eq!(
        db.get_purchase(lost.id).await.unwrap().unwrap().status,
        PurchaseStatus::Expired
    );
    assert_eq!(db.held_numbers(raffle).await.unwrap(), numbers(&[4, 5, 8]));
}

/// Rows where the counts the triggers keep and a recount from the purchases disagree.
const DRIFT: &str = "SELECT COUNT(*) AS drift FROM (\
    SELECT * FROM (SELECT raffle_id, SUM(sold) AS n FROM raffle_sold_counts \
        GROUP BY raffle_id HAVING SUM(sold) <> 0 \
      EXCEPT SELECT raffle_id, COUNT(*) FROM purchase_tickets WHERE held GROUP BY raffle_id) AS a \
    UNION ALL \
    SELECT * FROM (SELECT raffle_id, COUNT(*) FROM purchase_tickets WHERE held GROUP BY raffle_id \
      EXCEPT SELECT raffle_id, SUM(sold) FROM raffle_sold_counts GROUP BY raffle_id) AS b \
    UNION ALL \
    SELECT raffle_id, 0 FROM (SELECT raffle_id, status, SUM(purchases) AS p, SUM(tickets) AS t, \
        SUM(revenue_cents) AS r FROM purchase_totals GROUP BY raffle_id, status \
        HAVING SUM(purchases) <> 0 OR SUM(tickets) <> 0 OR SUM(revenue_cents) <> 0 \
      EXCEPT SELECT raffle_id, status, COUNT(*), SUM(ticket_count), SUM(total_cents) \
        FROM purchases GROUP BY raffle_id, status) AS c \
    UNION ALL \
    SELECT raffle_id, 0 FROM (SELECT raffle_id, status, COUNT(*), SUM(ticket_count), \
        SUM(total_cents) FROM purchases GROUP BY raffle_id, status \
      EXCEPT SELECT raffle_id, status, SUM(purchases), SUM(tickets), SUM(revenue_cents) \
        FROM purchase_totals GROUP BY raffle_id, status) AS d) AS drifted";

/// Hours where the sales the triggers keep per hour and a recount disagree; `{hour}` is the
/// backend's hour of `created_at`.
const HOURLY_DRIFT: &str = "SELECT COUNT(*) AS drift FROM (\
    SELECT * FROM (SELECT hour, SUM(purchases) AS p, SUM(pending) AS w, SUM(tickets) AS t, \
        SUM(revenue_cents) AS r FROM purchase_hours GROUP BY hour \
        HAVING SUM(purchases) <> 0 OR SUM(pending) <> 0 OR SUM(tickets) <> 0 \
        OR SUM(revenue_cents) <> 0 \
      EXCEPT SELECT * FROM recount) AS a \
    UNION ALL \
    SELECT * FROM (SELECT * FROM recount EXCEPT SELECT hour, SUM(purchases), SUM(pending), \
        SUM(tickets), SUM(revenue_cents) FROM purchase_hours GROUP BY hour) AS b) AS drifted";

const HOURLY_RECOUNT: &str = "WITH recount AS (SELECT {hour} AS hour, COUNT(*) AS p, \
    SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS w, \
    SUM(CASE WHEN status = 'approved' THEN ticket_count ELSE 0 END) AS t, \
    SUM(CASE WHEN status = 'approved' THEN total_cents ELSE 0 END) AS r \
    FROM purchases WHERE status <> 'test' GROUP BY 1) ";

async fn drift(url: &str) -> i64 {
    let raw = Database::connect(url).await.unwrap();
    let backend = raw.get_database_backend();
    let hour = match backend {
        sea_orm::DatabaseBackend::Sqlite => "CAST(strftime('%s', created_at) AS INTEGER) / 3600",
        _ => "CAST(floor(extract(epoch FROM created_at) / 3600) AS BIGINT)",
    };
    let hourly = HOURLY_RECOUNT.replace("{hour}", hour) + HOURLY_DRIFT;
    let mut drift = 0;
    for sql in [DRIFT.to_owned(), hourly] {
        let row = raw
            .query_one_raw(sea_orm::Statement::from_string(backend, sql))
            .await
            .unwrap()
            .unwrap();
        drift += row.try_get::<i64>("", "drift").unwrap();
    }
    drift
}

/// Purchases racing for overlapping numbers, decisions, the sweeper and reopenings all at once;
/// then the kept counts must equal a recount, and the panel's totals read from them must equal
/// the same totals counted row by row.
async fn kept_counts_equal_a_full_recount_after_racing_writes(url: &str) {
    let db = Db::connect(url, 8).await.unwrap();
    let raffles = [raffle(&db, 100).await, raffle(&db, 100).await];
    let sweeps = {
        let db = db.clone();
        tokio::spawn(async move {
            let mut expired = Vec::new();
            for _ in 0..40 {
                let sweep = HoldExpiry {
                    limit: 5,
                    raffle: None,
                    buyer_mail: Some(MailKind::Expired),
                    alert_mail: None,
                };
                expired.extend(db.expire_due_holds(&sweep).await.unwrap());
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
            expired
        })
    };
    let buyers: Vec<_> = (0..48_i64)
        .map(|i| {
            let db = db.clone();
            let raffle = raffles[usize::try_from(i % 2).unwrap()];
            tokio::spawn(async move {
                // Neighbours in a raffle want one number in common, and the keepers (neither
                // rejected nor expired) need more than the fifteen there are: some must lose.
                let j = i / 2;
                let picks = [j % 15 + 1, (j + 1) % 15 + 1, 31 + i];
                let mut new = purchase(raffle, &picks, &format!("RF-{i}"), &format!("0414{i:07}"));
                if i % 3 == 0 {
                    new.hold_until = Some(now() - chrono::TimeDelta::seconds(1));
                }
                let Ok(bought) = db.create_purchase(&new, "Rifa").await else {
                    return false;
                };
                let verdict = match i % 4 {
                    1 => Some(Verdict::Approve { notes: None }),
                    2 => Some(Verdict::Reject {
                        notes: "sin pago".into(),
                    }),
                    _ => None,
                };
                if let Some(verdict) = verdict {
                    // A purchase the sweeper already expired is no longer pending: that race is
                    // part of the test.
                    let _ = db
                        .decide_purchase(bought.id, &decision(&verdict, now()))
                        .await;
                }
                true
            })
        })
        .collect();
    let mut bought = 0;
    for buyer in buyers {
        bought += usize::from(buyer.await.unwrap());
    }
    let mut expired = sweeps.await.unwrap();
    // The racers' numbers may all be sold again by now: one expired purchase whose numbers
    // nobody else wants makes sure at least one reopening succeeds among the racing ones.
    let mut lapsed = purchase(raffles[0], &[95, 96], "RF-LAPSED", "04149990000");
    lapsed.hold_until = Some(now() - chrono::TimeDelta::seconds(1));
    db.create_purchase(&lapsed, "Rifa").await.unwrap();
    let sweep = HoldExpiry {
        limit: 100,
        raffle: Some(raffles[0]),
        buyer_mail: Some(MailKind::Expired),
        alert_mail: None,
    };
    expired.splice(0..0, db.expire_due_holds(&sweep).await.unwrap());
    let reopening = Reopening {
        at: now(),
        hold_until: now() + chrono::TimeDelta::minutes(30),
        allowance_cap: 10,
        mail: None,
        audit: audit_entry(AuditAction::PurchaseReopened, now()),
    };
    let reopened = reopen_half(&db, &expired, &reopening).await;

    assert!(
        bought > 10 && bought < 48,
        "some purchases lost a number: {bought}"
    );
    assert!(!expired.is_empty() && reopened > 0, "{expired:?}");
    assert_eq!(
        drift(url).await,
        0,
        "the kept counts drifted from a recount"
    );
    for raffle in raffles {
        let held = db.held_numbers(raffle).await.unwrap().len();
        let shown = db.get_raffle(raffle).await.unwrap().unwrap().tickets_sold;
        assert_eq!(shown, Some(u32::try_from(held).unwrap()));
        for status in [
            None,
            Some(PurchaseStatus::Pending),
            Some(PurchaseStatus::Approved),
        ] {
            let kept = PurchaseQuery {
                status,
                ..of_raffle(raffle)
            };
            // A filter the kept counts do not know makes the adapter count row by row.
            let counted = PurchaseQuery {
                max_id: Some(PurchaseId::new(i64::MAX)),
                ..kept.clone()
            };
            let (kept, counted) = (
                db.search_purchases(&kept).await.unwrap(),
                db.search_purchases(&counted).await.unwrap(),
            );
            assert!(kept.summary.is_some());
            assert_eq!((kept.total, kept.summary), (counted.total, counted.summary));
        }
    }
    // Whole hours read the hourly counts; a period off the hour counts the purchases.
    let hour = now().duration_trunc(chrono::TimeDelta::hours(1)).unwrap();
    let (from, to) = (
        hour - chrono::TimeDelta::days(1),
        hour + chrono::TimeDelta::days(1),
    );
    let off_the_hour = chrono::TimeDelta::seconds(1);
    let everything = db.dashboard_stats(None).await.unwrap();
    for period in [(from, to), (from + off_the_hour, to)] {
        assert_eq!(db.dashboard_stats(Some(period)).await.unwrap(), everything);
    }
    let by_hours = db.daily_sales(from, to, -240).await.unwrap();
    let by_rows = db.daily_sales(from + off_the_hour, to, -240).await.unwrap();
    assert_eq!(by_hours, by_rows);
    assert_eq!(
        by_hours.iter().map(|day| day.tickets_sold).sum::<u64>(),
        everything.tickets_sold
    );

    // A deleted raffle takes its counts with it.
    let gone = raffle(&db, 100).await;
    let mut test = purchase(gone, &[1], "RF-TEST", "04149999999");
    test.status = PurchaseStatus::Test;
    db.create_purchase(&test, "Rifa").await.unwrap();
    db.delete_raffle(gone, &|_, _| audit_entry(AuditAction::RaffleDeleted, now()))
        .await
        .unwrap();
    let raw = Database::connect(url).await.unwrap();
    let left = raw
        .query_one_raw(sea_orm::Statement::from_string(
            raw.get_database_backend(),
            format!(
                "SELECT (SELECT COUNT(*) FROM raffle_sold_counts WHERE raffle_id = {0}) \
                 + (SELECT COUNT(*) FROM purchase_totals WHERE raffle_id = {0}) AS n",
                gone.get()
            ),
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get::<i64>("", "n")
        .unwrap();
    assert_eq!(left, 0);
    assert_eq!(drift(url).await, 0);
}

/// Reopens half the expired purchases, each racing the others for its numbers.
async fn reopen_half(db: &Db, expired: &[ExpiredHold], reopening: &Reopening) -> usize {
    let tries = expired.iter().step_by(2).map(|hold| {
        let db = db.clone();
        let (id, reopening) = (hold.purchase_id, reopening.clone());
        tokio::spawn(async move { db.reopen_purchase(id, &reopening).await.is_ok() })
    });
    let mut reopened = 0;
    for attempt in tries.collect::<Vec<_>>() {
        reopened += usize::from(attempt.await.unwrap());
    }
    reopened
}

/// Keyset batches, ties on the time broken by the id, filters applied: the export's reads.
async fn a_walk_after_a_cursor_reads_every_match_once_newest_first(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    let other = self::raffle(&db, 100).await;
    let at = now();
    let mut bought = Vec::new();
    for (n, seconds) in [(1, 0), (2, 5), (3, 5), (4, 5), (5, 9)] {
        let mut new = purchase(raffle, &[n], &format!("RF-W{n}"), &format!("0414000000{n}"));
        new.created_at = at + chrono::TimeDelta::seconds(seconds);
        bought.push(db.create_purchase(&new, "Rifa").await.unwrap().id);
    }
    db.create_purchase(&purchase(other, &[1], "RF-OTHER", "04149999999"), "Rifa")
        .await
        .unwrap();
    let query = of_raffle(raffle);

    let mut walked = Vec::new();
    let mut after = None;
    loop {
        let batch = db.purchases_after(&query, after, 2).await.unwrap();
        let Some(last) = batch.last() else { break };
        after = Some(PurchaseCursor::after(last));
        walked.extend(batch.iter().map(|p| p.id));
    }

    // Newest first; among the three of the same second, the highest id first.
    let expected = [bought[4], bought[3], bought[2], bought[1], bought[0]];
    assert_eq!(walked, expected);
}

/// A page is read from the newest purchase, from the oldest (the pages near the end) or from
/// the page the panel shows (its anchor); whichever is used, it holds the same rows.
async fn every_page_is_the_same_read_from_the_top_the_end_or_a_nearby_page(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    let at = now();
    let mut bought = Vec::new();
    for (n, seconds) in [(1, 0), (2, 5), (3, 5), (4, 5), (5, 9), (6, 9), (7, 12)] {
        let mut new = purchase(raffle, &[n], &format!("RF-P{n}"), &format!("0414100000{n}"));
        new.created_at = at + chrono::TimeDelta::seconds(seconds);
        bought.push(db.create_purchase(&new, "Rifa").await.unwrap().id);
    }
    // Newest first; ties by the highest id.
    let newest_first = [6, 5, 4, 3, 2, 1, 0].map(|i| bought[i]);
    let page_of = |page: usize| -> Vec<PurchaseId> {
        newest_first
            .iter()
            .copied()
            .skip((page - 1) * 2)
            .take(2)
            .collect()
    };
    let mut anchors = vec![
        None,
        Some(PageAnchor {
            first_id: PurchaseId::new(i64::MAX),
            page: 2,
        }),
    ];
    for page in 1..=4 {
        anchors.push(Some(PageAnchor {
            first_id: page_of(page)[0],
            page: u32::try_from(page).unwrap(),
        }));
    }

    for anchor in anchors {
        for page in 1..=5 {
            let query = PurchaseQuery {
                page: u32::try_from(page).unwrap(),
                page_size: 2,
                anchor,
                ..of_raffle(raffle)
            };
            let found = db.search_purchases(&query).await.unwrap();
            let ids: Vec<_> = found.items.iter().map(|p| p.id).collect();
            assert_eq!(ids, page_of(page), "page {page} from {anchor:?}");
            assert_eq!(found.total, 7);
        }
    }
}

/// Past its cap a search's count is only a floor: no totals, and the page still read from the
/// top (the end is unknown); at the cap it is counted in full.
async fn counting_a_search_stops_past_its_cap_and_leaves_the_totals_out(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let raffle = raffle(&db, 100).await;
    for n in 1..=4 {
        db.create_purchase(
            &purchase(raffle, &[n], &format!("RF-C{n}"), &format!("0414200000{n}")),
            "Rifa",
        )
        .await
        .unwrap();
    }
    // A name filter is one the kept counts do not know: the adapter counts the rows.
    let by_name = |cap: u64, page: u32| PurchaseQuery {
        name_contains: Some("pérez".into()),
        page,
        page_size: 3,
        count_cap: cap,
        ..of_raffle(raffle)
    };

    let capped = db.search_purchases(&by_name(3, 1)).await.unwrap();
    let last_capped = db.search_purchases(&by_name(3, 2)).await.unwrap();
    let counted = db.search_purchases(&by_name(4, 1)).await.unwrap();

    assert_eq!((capped.total, capped.summary), (3, None));
    assert_eq!(capped.items.len(), 3);
    assert_eq!(
        last_capped.items.len(),
        1,
        "the page past the floor still holds the oldest"
    );
    assert_eq!(counted.total, 4);
    assert_eq!(counted.summary.unwrap().pending_purchases, 4);
    // The kept counts answer a raffle's totals whatever the cap: they cost nothing to read.
    let kept = db
        .search_purchases(&PurchaseQuery {
            count_cap: 1,
            ..of_raffle(raffle)
        })
        .await
        .unwrap();
    assert_eq!(
        (kept.total, kept.summary.map(|s| s.pending_purchases)),
        (4, Some(4))
    );
}

/// SQLite plans with statistics gathered at start: a search by raffle, status and name walks
/// the raffle's purchases, not every pending one; an expiry finds a purchase's e-mails by its
/// index, not by reading the outbox. (On PostgreSQL only the search's answer is checked: its
/// planner reads tables this small whole whatever the indexes.)
async fn sqlite_plans_searches_and_expiries_with_their_indexes(url: &str) {
    let db = Db::connect(url, 2).await.unwrap();
    let (busy, quiet) = (raffle(&db, 100).await, raffle(&db, 100).await);
    for n in 1..=40 {
        let raffle = if n == 1 { quiet } else { busy };
        db.create_purchase(
            &purchase(
                raffle,
                &[n % 100 + 1],
                &format!("RF-S{n}"),
                &format!("041430000{n:02}"),
            ),
            "Rifa",
        )
        .await
        .unwrap();
    }
    db.refresh_planner_statistics().await.unwrap();
    let query = PurchaseQuery {
        status: Some(PurchaseStatus::Pending),
        name_contains: Some("ana".into()),
        ..of_raffle(quiet)
    };
    assert_eq!(db.search_purchases(&query).await.unwrap().total, 1);

    let raw = Database::connect(url).await.unwrap();
    if raw.get_database_backend() != sea_orm::DatabaseBackend::Sqlite {
        return;
    }
    let mut plans = Vec::new();
    for sql in [
        format!(
            "SELECT id FROM purchases WHERE raffle_id = {} AND status = 'pending' \
             AND customer_name_folded LIKE '%ana%'",
            quiet.get()
        ),
        "SELECT withheld_reason FROM mail_outbox WHERE purchase_id = 1 AND kind = 'received'"
            .to_owned(),
    ] {
        let steps: Vec<String> = raw
            .query_all_raw(sea_orm::Statement::from_string(
                sea_orm::DatabaseBackend::Sqlite,
                format!("EXPLAIN QUERY PLAN {sql}"),
            ))
            .await
            .unwrap()
            .iter()
            .map(|row| row.try_get::<String>("", "detail").unwrap())
            .collect();
        plans.push(steps.join(" | "));
    }
    assert!(
        plans[0].contains("ix_purchases_raffle_created"),
        "{plans:?}"
    );
    assert!(plans[1].contains("ix_mail_outbox_purchase"), "{plans:?}");
}
