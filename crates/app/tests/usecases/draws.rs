//! The verifiable draw over the fakes (decisions 0020, 0027): the rules locked by the first
//! purchase, the freeze after sales close with every purchase decided, prizes settled in order
//! by the fair rules from a lottery result, its fallback round or a verified drand round, the
//! buyers' and the winner's messages, the claim window and the delivery.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, TimeDelta, Utc};
use rifa_app::draws::{DrawError, LotteryResultInput, Previewed, build_ledger};
use rifa_domain::audit::AuditAction;
use rifa_domain::draw::beacon::{first_round_from, round_time};
use rifa_domain::draw::fair::{Decision, Pool, Reading, Rule, decide};
use rifa_domain::draw::ledger::{bytes_from_hex, hash_from_hex, to_hex};
use rifa_domain::draw::prize::{FREEZE_MARGIN, PrizeInput, PrizeSourceInput};
use rifa_domain::draw::rule::DrawStep;
use rifa_domain::raffle::{Raffle, RaffleDraft, RaffleInput};
use rifa_ports::{MailKind, MailSubject, RaffleRepository, SoldNumber};

use crate::support::system::SALT;
use crate::support::{Harness, RaffleSetup, buyer};

/// drand quicknet's round 657413 as api.drand.sh published it (recorded: no network).
const ROUND: u64 = 657_413;
const SIGNATURE: &str = "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b";
const RANDOMNESS: &str = "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587";

fn lottery(title: &str) -> PrizeInput {
    PrizeInput {
        title: Some(title.into()),
        description: None,
        image: None,
        source: PrizeSourceInput::Lottery {
            lottery_name: Some("Lotería del Táchira".into()),
            draw_date: Some("2025-08-01".into()),
            draw_time: Some("22:10".into()),
            time_zone: None,
            source_url: Some("https://loteria.example/resultados".into()),
            digits: None,
            deadline_hours: None,
        },
    }
}

fn beacon(round: u64) -> PrizeInput {
    PrizeInput {
        title: Some("Bici".into()),
        description: None,
        image: None,
        source: PrizeSourceInput::Beacon { round: Some(round) },
    }
}

/// When the tests' lottery draws: 2025-08-01 22:10 in Caracas.
fn lottery_draws_at() -> DateTime<Utc> {
    "2025-08-02T02:10:00Z".parse().unwrap()
}

/// Moves the clock past the lottery's draw.
fn the_lottery_has_drawn(t: &Harness) {
    t.clock.set(lottery_draws_at() + TimeDelta::hours(1));
}

fn result(text: &str) -> LotteryResultInput {
    LotteryResultInput {
        result: Some(text.into()),
        published_on: Some("2025-08-01".into()),
        official_url: Some("https://loteria.example/resultados/1".into()),
    }
}

/// Ends the raffle's sales by its end date, a minute ago; it stays listed as on sale until it is
/// drawn.
async fn close_sales(t: &Harness, raffle: &Raffle) {
    let ended = rifa_ports::Clock::now(&t.clock) - TimeDelta::minutes(1);
    let draft = RaffleDraft::parse(RaffleInput {
        title: Some(raffle.title.clone()),
        description: Some(raffle.description.clone()),
        price: Some("13.00".parse().unwrap()),
        status: Some("available".into()),
        end_date: Some(ended.to_rfc3339()),
        max_tickets: Some(i64::from(raffle.max_tickets)),
        max_tickets_per_purchase: Some(10),
        ..RaffleInput::default()
    })
    .unwrap();
    t.store
        .update_raffle(raffle.id, &draft, &|_, _| crate::support::test_entry())
        .await
        .unwrap();
}

/// A raffle of `max_tickets` drawn by `rule` (`None`: the default) with `prizes`, Ana holding
/// `ana` and Luis `luis`, both approved.
async fn sold(
    t: &Harness,
    max_tickets: u32,
    rule: Option<&str>,
    prizes: &[PrizeInput],
    ana: &[u32],
    luis: &[u32],
) -> Raffle {
    let raffle = t
        .raffle(RaffleSetup {
            max_tickets,
            ..RaffleSetup::default()
        })
        .await;
    t.draws()
        .set_prizes(raffle.id, rule, prizes, &crate::support::reviewer())
        .await
        .unwrap();
    let zelle = t.method("Zelle").await;
    for (numbers, who) in [
        (ana, buyer("Ana Ruiz", "ana@correo.com", "0414-123-4567")),
        (
            luis,
            buyer("Luis Pérez", "luis@correo.com", "0414-765-4321"),
        ),
    ] {
        let bought = t.buy_as(&raffle, &zelle, numbers, who).await;
        t.review()
            .decide_purchase(
                bought.purchase.id,
                "approved",
                None,
                &crate::support::reviewer(),
            )
            .await
            .unwrap();
    }
    raffle
}

#[tokio::test]
async fn the_ledger_is_frozen_after_sales_close_with_every_purchase_decided() {
    let t = Harness::new();
    let raffle = t.raffle(RaffleSetup::default()).await;
    t.draws()
        .set_prizes(
            raffle.id,
            None,
            &[lottery("Moto")],
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    assert!(matches!(
        t.draws()
            .freeze(raffle.id, &crate::support::reviewer())
            .await,
        Err(DrawError::SalesStillOpen { closes_at: None })
    ));

    let zelle = t.method("Zelle").await;
    let ana = t.buy(&raffle, &zelle, &[5, 46]).await;
    t.review()
        .decide_purchase(
            ana.purchase.id,
            "approved",
            None,
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let luis = t
        .buy_as(
            &raffle,
            &zelle,
            &[50],
            buyer("Luis Pérez", "luis@correo.com", "0414-765-4321"),
        )
        .await;
    assert!(matches!(
        t.draws()
            .set_prizes(
                raffle.id,
                None,
                &[lottery("Otra")],
                &crate::support::reviewer()
            )
            .await,
        Err(DrawError::RulesLocked)
    ));

    close_sales(&t, &raffle).await;
    match t
        .draws()
        .freeze(raffle.id, &crate::support::reviewer())
        .await
    {
        Err(DrawError::PurchasesPending(pending)) => {
            assert_eq!(pending.len(), 1);
            assert_eq!(pending[0].id, luis.purchase.id);
        }
        other => panic!("expected the pending purchase, got {other:?}"),
    }
    t.review()
        .decide_purchase(
            luis.purchase.id,
            "approved",
            None,
            &crate::support::reviewer(),
        )
        .await
        .unwrap();

    let frozen = t
        .draws()
        .freeze(raffle.id, &crate::support::reviewer())
        .await
        .unwrap();
    let commitment = frozen.commitment.expect("frozen");
    let expected = build_ledger(
        &SALT,
        &[
            SoldNumber {
                number: 50,
                reference: luis.purchase.reference.clone(),
            },
            SoldNumber {
                number: 5,
                reference: ana.purchase.reference.clone(),
            },
            SoldNumber {
                number: 46,
                reference: ana.purchase.reference.clone(),
            },
        ],
    );
    assert_eq!(commitment.root, expected.root);
    assert_eq!(commitment.size, 3);
    assert!(frozen.rules_locked && frozen.pending.is_empty());
    // The trail holds the root the freeze published, and nothing for the refusals before it.
    let trail = t.store.trail();
    let last = &trail.last().expect("the freeze's entry").entry;
    assert_eq!(last.action, AuditAction::DrawLedgerFrozen);
    assert_eq!(last.actor, crate::support::reviewer());
    assert_eq!(
        last.changes[0].after.as_deref(),
        Some(to_hex(&commitment.root).as_str())
    );
    assert_eq!(
        trail
            .iter()
            .filter(|c| c.entry.action == AuditAction::DrawPrizesSet)
            .count(),
        1,
        "the refused change of prizes left no entry"
    );
    assert!(matches!(
        t.draws()
            .freeze(raffle.id, &crate::support::reviewer())
            .await,
        Err(DrawError::AlreadyFrozen)
    ));

    // Every approved buyer is told, with the proof of each of their numbers.
    let mut queued: Vec<_> = t
        .store
        .mail()
        .iter()
        .filter(|m| m.kind == MailKind::LedgerFrozen)
        .filter_map(|m| match m.subject {
            MailSubject::Purchase(id) => Some(id),
            _ => None,
        })
        .collect();
    queued.sort();
    assert_eq!(queued, [ana.purchase.id, luis.purchase.id]);
    t.mail().deliver_due_mail(20).await.unwrap();
    let to_ana = t
        .mailer
        .sent()
        .into_iter()
        .find(|m| m.subject.starts_with("ledger_frozen") && m.to == "ana@correo.com")
        .expect("sent to Ana");
    assert!(to_ana.text_body.contains(&to_hex(&commitment.root)));
    assert!(
        to_ana.text_body.contains("5@0:2 46@1:2"),
        "{}",
        to_ana.text_body
    );
    assert!(to_ana.text_body.contains(&format!(
        "/sorteo/{}/verificacion?lang=es&ref={}",
        raffle.id, ana.purchase.reference
    )));
}

/// The drand round a lottery prize of these tests passes to: the first published ten minutes
/// after its deadline, a day after the draw.
fn fallback_round() -> u64 {
    first_round_from(lottery_draws_at() + TimeDelta::hours(24) + FREEZE_MARGIN)
}

#[tokio::test]
async fn results_settle_the_prizes_in_order_and_a_number_wins_once() {
    let t = Harness::new();
    let raffle = sold(
        &t,
        100,
        Some("rifa-number-v2"),
        &[lottery("Moto"), lottery("TV")],
        &[46],
        &[50],
    )
    .await;
    let prizes = t.draws().admin_draw(raffle.id).await.unwrap().prizes;
    let (first, second) = (prizes[0].id, prizes[1].id);
    assert!(matches!(
        t.draws()
            .draw_from_lottery(
                raffle.id,
                first,
                &result("1046"),
                &crate::support::reviewer()
            )
            .await,
        Err(DrawError::NotFrozen)
    ));
    close_sales(&t, &raffle).await;
    t.draws()
        .freeze(raffle.id, &crate::support::reviewer())
        .await
        .unwrap();
    // The Táchira draws at 22:10 in Caracas on 2025-08-01: no result exists before.
    assert!(matches!(
        t.draws()
            .draw_from_lottery(raffle.id, first, &result("1046"), &crate::support::reviewer())
            .await,
        Err(DrawError::SourceNotDrawnYet { draws_at, local })
            if draws_at == lottery_draws_at() && local == "2025-08-01 22:10"
    ));
    the_lottery_has_drawn(&t);

    // The second prize's result may come first: it waits for the first prize's winner.
    let view = t
        .draws()
        .draw_from_lottery(
            raffle.id,
            second,
            &result("046"),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    assert!(view.prizes[1].draw.is_none() && view.prizes[1].results.len() == 1);
    assert_eq!(view.awaiting, Some((first, 0)));
    // A lottery prize's round is its fallback's: a signature of another round is refused.
    assert!(matches!(
        t.draws()
            .draw_from_beacon(raffle.id, first, Some(SIGNATURE), &crate::support::reviewer())
            .await,
        Err(DrawError::BeaconSignatureInvalid { round }) if round == fallback_round()
    ));
    // What "1046" would decide is shown first, and storing nothing: the first prize to Ana's
    // 46, and the second waiting for its round (its "046" names a number that won).
    let preview = t
        .draws()
        .preview_lottery(raffle.id, first, &result("1046"))
        .await
        .unwrap();
    assert_eq!(
        preview
            .iter()
            .map(|p| (p.position, p.outcome.clone()))
            .collect::<Vec<_>>(),
        [
            (
                1,
                Previewed::Winner {
                    number: 46,
                    public_name: "Ana R.".into()
                }
            ),
            (2, Previewed::Awaiting { source: 1 })
        ]
    );
    let untouched = t.draws().admin_draw(raffle.id).await.unwrap();
    assert!(untouched.prizes[0].results.is_empty() && untouched.prizes[0].draw.is_none());
    // 100 numbers: the last 3 digits, "046", a sold number: it wins the first prize. The
    // second prize's "046" names a number that already won: its fallback round decides.
    let drawn = t
        .draws()
        .draw_from_lottery(
            raffle.id,
            first,
            &result("1046"),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    assert_eq!(
        drawn.prizes[0].draw.as_ref().unwrap().winning_number,
        Some(46)
    );
    assert!(drawn.prizes[1].draw.is_none());
    assert_eq!(drawn.awaiting, Some((second, 1)));
    assert!(matches!(
        t.draws()
            .draw_from_lottery(raffle.id, first, &result("50"), &crate::support::reviewer())
            .await,
        Err(DrawError::AlreadyDrawn)
    ));
    assert!(matches!(
        t.draws()
            .draw_from_lottery(
                raffle.id,
                second,
                &result("050"),
                &crate::support::reviewer()
            )
            .await,
        Err(DrawError::ResultAlreadyRecorded)
    ));
    let trail = t.store.trail();
    let actions: Vec<AuditAction> = trail.iter().map(|c| c.entry.action).collect();
    assert_eq!(
        actions[actions.len() - 3..],
        [
            AuditAction::DrawResultRecorded,
            AuditAction::DrawResultRecorded,
            AuditAction::DrawPrizeDrawn
        ]
    );
    assert_eq!(t.draws().recent_winners().await.unwrap().len(), 1);
    assert_eq!(
        t.store
            .mail()
            .iter()
            .filter(|m| m.kind == MailKind::PrizeWon)
            .count(),
        1
    );
}

#[tokio::test]
async fn a_lottery_with_no_result_by_its_deadline_passes_to_its_round() {
    let t = Harness::new();
    let raffle = sold(&t, 100, None, &[lottery("Moto")], &[46], &[50]).await;
    close_sales(&t, &raffle).await;
    t.draws()
        .freeze(raffle.id, &crate::support::reviewer())
        .await
        .unwrap();
    let prize = t.draws().admin_draw(raffle.id).await.unwrap().prizes[0].id;
    let deadline = lottery_draws_at() + TimeDelta::hours(24);
    t.clock.set(deadline);
    assert_eq!(
        t.draws().admin_draw(raffle.id).await.unwrap().awaiting,
        Some((prize, 0)),
        "up to the deadline itself the lottery's result is awaited"
    );
    t.clock.set(deadline + TimeDelta::seconds(1));
    assert_eq!(
        t.draws().admin_draw(raffle.id).await.unwrap().awaiting,
        Some((prize, 1))
    );
    assert!(matches!(
        t.draws()
            .draw_from_lottery(raffle.id, prize, &result("1046"), &crate::support::reviewer())
            .await,
        Err(DrawError::SourceDeadlinePassed { deadline: d, round, local })
            if d == deadline && round == fallback_round() && local == "2025-08-02 22:10"
    ));
    // The round is fetched as the rules fixed it: the relay's answer is verified for that
    // round (the recorded signature is another round's, so it is refused).
    assert!(matches!(
        t.draws()
            .draw_from_beacon(raffle.id, prize, None, &crate::support::reviewer())
            .await,
        Err(DrawError::BeaconRoundNotYet { round, .. }) if round == fallback_round()
    ));
    t.clock.set(round_time(fallback_round()));
    t.beacon
        .record(fallback_round(), bytes_from_hex(SIGNATURE).unwrap());
    assert!(matches!(
        t.draws()
            .draw_from_beacon(raffle.id, prize, None, &crate::support::reviewer())
            .await,
        Err(DrawError::BeaconSignatureInvalid { round }) if round == fallback_round()
    ));
}

#[tokio::test]
async fn through_the_draw_every_sold_number_wins_for_as_many_results_under_both_rules() {
    // Nine numbers, one digit read; 2, 3 and 7 sold. Every result 0–9 is tried on its own raffle.
    for (rule, each, passed) in [("rifa-among-sold-v2", 3, 1), ("rifa-number-v2", 1, 7)] {
        let mut wins = BTreeMap::<u32, u32>::new();
        let mut to_the_round = 0;
        for digit in 0..10 {
            let t = Harness::new();
            let raffle = sold(&t, 9, Some(rule), &[lottery("Moto")], &[2, 3], &[7]).await;
            close_sales(&t, &raffle).await;
            t.draws()
                .freeze(raffle.id, &crate::support::reviewer())
                .await
                .unwrap();
            the_lottery_has_drawn(&t);
            let prize = t.draws().admin_draw(raffle.id).await.unwrap().prizes[0].id;
            let view = t
                .draws()
                .draw_from_lottery(
                    raffle.id,
                    prize,
                    &result(&digit.to_string()),
                    &crate::support::reviewer(),
                )
                .await
                .unwrap();
            match &view.prizes[0].draw {
                Some(draw) => *wins.entry(draw.winning_number.unwrap()).or_default() += 1,
                None => {
                    assert_eq!(view.awaiting, Some((prize, 1)));
                    to_the_round += 1;
                }
            }
        }
        assert_eq!(
            wins,
            BTreeMap::from([(2, each), (3, each), (7, each)]),
            "{rule}"
        );
        assert_eq!(to_the_round, passed, "{rule}");
    }
}

#[tokio::test]
async fn a_beacon_prize_is_drawn_from_its_round_among_the_sold_numbers() {
    let t = Harness::new();
    let published = round_time(ROUND);
    t.clock.set(published - TimeDelta::days(3));
    let raffle = sold(&t, 9_999, None, &[beacon(ROUND)], &[46, 5_678], &[9_000]).await;
    close_sales(&t, &raffle).await;
    t.draws()
        .freeze(raffle.id, &crate::support::reviewer())
        .await
        .unwrap();
    let prize = t.draws().admin_draw(raffle.id).await.unwrap().prizes[0].id;

    assert!(matches!(
        t.draws().draw_from_beacon(raffle.id, prize, None, &crate::support::reviewer()).await,
        Err(DrawError::BeaconRoundNotYet { round: ROUND, at }) if at == published
    ));
    t.clock.set(published + TimeDelta::minutes(1));
    assert!(matches!(
        t.draws()
            .draw_from_beacon(raffle.id, prize, None, &crate::support::reviewer())
            .await,
        Err(DrawError::BeaconUnavailable(_))
    ));
    let mut forged = SIGNATURE.to_owned();
    forged.replace_range(0..2, "b8");
    assert!(matches!(
        t.draws()
            .draw_from_beacon(raffle.id, prize, Some(&forged), &crate::support::reviewer())
            .await,
        Err(DrawError::BeaconSignatureInvalid { round: ROUND })
    ));

    t.beacon.record(ROUND, bytes_from_hex(SIGNATURE).unwrap());
    let drawn = t
        .draws()
        .draw_from_beacon(raffle.id, prize, None, &crate::support::reviewer())
        .await
        .unwrap();
    let draw = drawn.prizes[0].draw.as_ref().unwrap();
    let pool = Pool::new([46, 5_678, 9_000].into_iter().collect(), BTreeSet::new());
    let reading = Reading::Beacon {
        randomness: hash_from_hex(RANDOMNESS).unwrap(),
    };
    let (Decision::Winner(expected), _) = decide(Rule::AmongSoldV2, &reading, 9_999, &pool) else {
        panic!("a round always decides")
    };
    assert_eq!(draw.winning_number, Some(expected));
    assert!(matches!(
        draw.steps[0],
        DrawStep::BeaconRandomness { round: ROUND, .. }
    ));

    // The winner's message carries the certificate.
    t.mail().deliver_due_mail(20).await.unwrap();
    let won = t
        .mailer
        .sent()
        .into_iter()
        .find(|m| m.subject.starts_with("prize_won"))
        .expect("the winner's message");
    let certificate = String::from_utf8(won.attachments[0].bytes.clone()).unwrap();
    assert!(
        certificate.contains(&format!("won by {:?}", Some(expected))),
        "{certificate}"
    );
    let public = t
        .draws()
        .certificate(raffle.id, prize, rifa_domain::Lang::En)
        .await
        .unwrap();
    assert!(String::from_utf8(public).unwrap().contains("En"));
}

#[tokio::test]
async fn a_round_published_before_the_freeze_is_refused() {
    let t = Harness::new();
    t.clock.set(round_time(ROUND) + TimeDelta::hours(1));
    let raffle = sold(&t, 100, None, &[lottery("Moto"), beacon(ROUND)], &[1], &[2]).await;
    close_sales(&t, &raffle).await;
    assert!(matches!(
        t.draws()
            .freeze(raffle.id, &crate::support::reviewer())
            .await,
        Err(DrawError::BeaconRoundTooEarly {
            position: 2,
            round: ROUND
        })
    ));
}

#[tokio::test]
async fn a_prize_is_delivered_once_within_its_claim_window() {
    let t = Harness::new();
    let raffle = sold(
        &t,
        100,
        Some("rifa-number-v2"),
        &[lottery("Moto")],
        &[7],
        &[8],
    )
    .await;
    close_sales(&t, &raffle).await;
    t.draws()
        .freeze(raffle.id, &crate::support::reviewer())
        .await
        .unwrap();
    let prize = t.draws().admin_draw(raffle.id).await.unwrap().prizes[0].id;
    assert!(matches!(
        t.draws()
            .mark_delivered(raffle.id, prize, None, &crate::support::reviewer())
            .await,
        Err(DrawError::NotDrawn)
    ));
    the_lottery_has_drawn(&t);
    t.draws()
        .draw_from_lottery(
            raffle.id,
            prize,
            &result("007"),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    // Its only prize drawn, the raffle is finished: it leaves the raffles on sale.
    let finished = t.draws().admin_draw(raffle.id).await.unwrap().raffle;
    assert_eq!(finished.status, rifa_domain::raffle::RaffleStatus::Finished);
    let last = t.store.trail().last().unwrap().entry.clone();
    assert_eq!(last.action, AuditAction::DrawPrizeDrawn);
    assert!(
        last.changes.iter().any(|c| c.field == "status"
            && c.before.as_deref() == Some("available")
            && c.after.as_deref() == Some("finished")),
        "{last:?}"
    );
    t.clock.advance(TimeDelta::days(3));
    assert!(matches!(
        t.draws()
            .mark_delivered(
                raffle.id,
                prize,
                Some("javascript:alert(1)"),
                &crate::support::reviewer()
            )
            .await,
        Err(DrawError::Invalid(_))
    ));
    let delivered = t
        .draws()
        .mark_delivered(
            raffle.id,
            prize,
            Some("https://cdn.example/entrega.jpg"),
            &crate::support::reviewer(),
        )
        .await
        .unwrap();
    let delivery = delivered.prizes[0].delivery.as_ref().unwrap();
    let now: DateTime<Utc> = rifa_ports::Clock::now(&t.clock);
    assert_eq!(delivery.delivered_at, now);
    assert_eq!(
        delivery.photo.as_deref(),
        Some("https://cdn.example/entrega.jpg")
    );
    assert!(matches!(
        t.draws()
            .mark_delivered(raffle.id, prize, None, &crate::support::reviewer())
            .await,
        Err(DrawError::AlreadyDelivered)
    ));
}

#[tokio::test]
async fn a_lottery_that_drew_before_the_freeze_cannot_be_frozen_on() {
    let t = Harness::new();
    let raffle = sold(&t, 100, None, &[lottery("Moto")], &[7], &[8]).await;
    close_sales(&t, &raffle).await;
    // The raffle was left unfrozen past its lottery's draw, or within its margin.
    t.clock.set(lottery_draws_at() - TimeDelta::minutes(5));
    assert!(matches!(
        t.draws()
            .freeze(raffle.id, &crate::support::reviewer())
            .await,
        Err(DrawError::SourceDrawsBeforeFreeze { position: 1, draws_at, .. })
            if draws_at == lottery_draws_at()
    ));
    assert!(
        t.draws()
            .admin_draw(raffle.id)
            .await
            .unwrap()
            .commitment
            .is_none()
    );
}
