//! Checking a published draw from its data alone: what the verification page and
//! `rifa-api verify-draw` do, so a third party needs nothing from the operator but the JSON.

use std::collections::BTreeSet;

use super::beacon::verify_quicknet;
use super::fair::Rule;
use super::ledger::{Hash, LedgerEntry, MerkleTree, leaf_hash, purchase_tag, verify_inclusion};
use super::prize::PrizeSource;
use super::rule::{DrawInput, DrawStep};
use super::settle::{ChainLink, Settlement, SourceState, settle_prize};

/// A drawn (or frozen, not yet drawn) raffle as published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedDraw {
    pub max_tickets: u32,
    /// The rule frozen with the ledger.
    pub rule: Rule,
    pub salt: Vec<u8>,
    /// The root published when the ledger was frozen.
    pub root: Hash,
    /// How many entries the commitment published: an inclusion proof alone does not fix it.
    pub size: u32,
    /// Sorted by number.
    pub entries: Vec<LedgerEntry>,
    /// In the order they are drawn.
    pub prizes: Vec<PublishedPrize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedPrize {
    pub position: u32,
    /// The prize's own source, as announced before the first sale: its chain follows from it.
    pub source: PrizeSource,
    /// What each source of the chain gave.
    pub results: Vec<PublishedResult>,
    /// The winning number the operator published.
    pub winner: Option<u32>,
}

/// What source `source` of a prize's chain gave; a round comes with drand's signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedResult {
    pub source: u32,
    pub input: DrawInput,
    pub signature: Option<Vec<u8>>,
}

/// What a check found, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The ledger's entries are not in increasing order of number (or repeat one) at `index`.
    NotSorted {
        index: usize,
    },
    /// A number the raffle does not have.
    NotInRaffle {
        number: u32,
    },
    /// The commitment published another count of entries than the list has.
    SizeDiffers {
        published: u32,
        entries: usize,
    },
    /// The root computed from the entries is the published one.
    RootMatches {
        size: usize,
    },
    RootDiffers {
        computed: Hash,
    },
    /// The prize's result gives the published winner, by these steps.
    WinnerConfirmed {
        position: u32,
        winner: Option<u32>,
        steps: Vec<DrawStep>,
    },
    /// The prize's result gives another winner than the published one.
    WinnerDiffers {
        position: u32,
        published: Option<u32>,
        computed: Option<u32>,
        steps: Vec<DrawStep>,
    },
    /// The result could not be read as the rule reads results.
    ResultUnreadable {
        position: u32,
    },
    /// Not drawn yet.
    NotDrawn {
        position: u32,
    },
    /// The beacon round's signature does not verify, or its randomness is not the one used.
    BeaconInvalid {
        position: u32,
    },
    /// The prize was drawn from another drand round than the one announced.
    BeaconRoundDiffers {
        position: u32,
        announced: u64,
        used: u64,
    },
}

impl Finding {
    /// Whether this finding means the published draw does not hold.
    #[must_use]
    pub fn is_problem(&self) -> bool {
        matches!(
            self,
            Self::NotSorted { .. }
                | Self::NotInRaffle { .. }
                | Self::SizeDiffers { .. }
                | Self::RootDiffers { .. }
                | Self::WinnerDiffers { .. }
                | Self::ResultUnreadable { .. }
                | Self::BeaconInvalid { .. }
                | Self::BeaconRoundDiffers { .. }
        )
    }
}

/// A round's result is the round the chain announced at that place, signed by drand, with
/// the randomness used.
fn beacon_findings(
    position: u32,
    announced: Option<&PrizeSource>,
    result: &PublishedResult,
    round: u64,
    randomness: &Hash,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let announced_round = match announced {
        Some(PrizeSource::Beacon { round }) => *round,
        _ => 0,
    };
    if announced_round != round {
        findings.push(Finding::BeaconRoundDiffers {
            position,
            announced: announced_round,
            used: round,
        });
    }
    let verified = result
        .signature
        .as_deref()
        .and_then(|signature| verify_quicknet(round, signature).ok());
    if verified.as_ref() != Some(randomness) {
        findings.push(Finding::BeaconInvalid { position });
    }
    findings
}

/// The prize's chain as the rules fix it, with what each source gave: a source with no result
/// before one that has a result lapsed (only a lottery can).
fn links_of(draw: &PublishedDraw, prize: &PublishedPrize) -> (Vec<PrizeSource>, Vec<ChainLink>) {
    let chain = match draw.rule {
        Rule::UpwardV1 => vec![prize.source.clone()],
        Rule::NumberV2 | Rule::AmongSoldV2 => prize.source.chain(),
    };
    let last_given = prize.results.iter().map(|r| r.source).max();
    let links = chain
        .iter()
        .enumerate()
        .map(|(index, source)| {
            let given = prize
                .results
                .iter()
                .find(|r| usize::try_from(r.source).ok() == Some(index));
            let later_given = last_given.is_some_and(|l| usize::try_from(l).ok() > Some(index));
            let state = match (given, source.deadline()) {
                (Some(result), _) => SourceState::Recorded(result.input.clone()),
                (None, Some(deadline)) if later_given => SourceState::Lapsed { deadline },
                (None, _) => SourceState::Awaited,
            };
            ChainLink {
                digits: source.digits_read(draw.rule, draw.max_tickets),
                state,
            }
        })
        .collect();
    (chain, links)
}

/// Recomputes the root from the entries and every drawn prize's winner from its results.
#[must_use]
pub fn check(draw: &PublishedDraw) -> Vec<Finding> {
    let mut findings = Vec::new();
    if let Some(index) = draw
        .entries
        .windows(2)
        .position(|pair| pair[0].number >= pair[1].number)
    {
        findings.push(Finding::NotSorted { index: index + 1 });
    }
    findings.extend(
        draw.entries
            .iter()
            .filter(|entry| !(1..=draw.max_tickets).contains(&entry.number))
            .map(|entry| Finding::NotInRaffle {
                number: entry.number,
            }),
    );
    if usize::try_from(draw.size).ok() != Some(draw.entries.len()) {
        findings.push(Finding::SizeDiffers {
            published: draw.size,
            entries: draw.entries.len(),
        });
    }
    let computed = MerkleTree::over(&draw.entries).root();
    findings.push(if computed == draw.root {
        Finding::RootMatches {
            size: draw.entries.len(),
        }
    } else {
        Finding::RootDiffers { computed }
    });

    let sold: BTreeSet<u32> = draw.entries.iter().map(|entry| entry.number).collect();
    // Each prize is drawn knowing the earlier prizes' winners, as computed here; once a prize
    // waits for a source, the ones after it wait too (nobody knows who is in play for them).
    let mut won = BTreeSet::new();
    let mut waiting = false;
    for prize in &draw.prizes {
        let position = prize.position;
        let (chain, links) = links_of(draw, prize);
        for result in &prize.results {
            if let DrawInput::Beacon { round, randomness } = &result.input {
                let announced = usize::try_from(result.source)
                    .ok()
                    .and_then(|i| chain.get(i));
                findings.extend(beacon_findings(
                    position, announced, result, *round, randomness,
                ));
            }
        }
        let settled = if waiting {
            Ok(Settlement::Awaiting {
                source: 0,
                steps: Vec::new(),
            })
        } else {
            settle_prize(draw.rule, draw.max_tickets, &sold, &won, &links)
        };
        waiting |= !matches!(settled, Ok(Settlement::Decided { .. }));
        match settled {
            Err(_) => findings.push(Finding::ResultUnreadable { position }),
            Ok(Settlement::Awaiting { steps, .. }) => findings.push(match prize.winner {
                None => Finding::NotDrawn { position },
                Some(_) => Finding::WinnerDiffers {
                    position,
                    published: prize.winner,
                    computed: None,
                    steps,
                },
            }),
            Ok(Settlement::Decided { winner, steps, .. }) => {
                won.extend(winner);
                findings.push(if winner == prize.winner {
                    Finding::WinnerConfirmed {
                        position,
                        winner,
                        steps,
                    }
                } else {
                    Finding::WinnerDiffers {
                        position,
                        published: prize.winner,
                        computed: winner,
                        steps,
                    }
                });
            }
        }
    }
    findings
}

/// The numbers of the purchase with `reference` in the ledger, each with whether its inclusion
/// proof leads to the published root (a buyer's own check).
#[must_use]
pub fn numbers_of(draw: &PublishedDraw, reference: &str) -> Vec<(u32, bool)> {
    let tag = purchase_tag(&draw.salt, reference);
    let tree = MerkleTree::over(&draw.entries);
    let size = u64::try_from(draw.entries.len()).unwrap_or(u64::MAX);
    draw.entries
        .iter()
        .enumerate()
        .filter(|(_, entry)| entry.tag == tag)
        .map(|(index, entry)| {
            let proven = tree.inclusion_proof(index).is_some_and(|proof| {
                verify_inclusion(
                    &leaf_hash(entry),
                    u64::try_from(index).unwrap_or(u64::MAX),
                    size,
                    &proof,
                    &draw.root,
                )
            });
            (entry.number, proven)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SALT: &[u8] = b"sal de la rifa 17";

    fn lottery_prize(position: u32, result: Option<&str>, winner: Option<u32>) -> PublishedPrize {
        PublishedPrize {
            position,
            source: PrizeSource::Lottery {
                lottery_name: "Lotería".into(),
                draw_date: chrono::NaiveDate::from_ymd_opt(2030, 1, 15).expect("day"),
                draw_time: chrono::NaiveTime::MIN,
                time_zone: super::super::prize::DEFAULT_TIME_ZONE,
                source_url: "https://l.example".into(),
                digits: None,
                deadline_hours: 24,
            },
            results: result
                .map(|result| PublishedResult {
                    source: 0,
                    input: DrawInput::Lottery {
                        result: result.into(),
                    },
                    signature: None,
                })
                .into_iter()
                .collect(),
            winner,
        }
    }

    /// A 9,999-number raffle: RF-ANA holds 46 and 5678, RF-LUIS 50, RF-EVA 9000.
    fn published() -> PublishedDraw {
        let mut entries: Vec<LedgerEntry> = [
            (46, "RF-ANA"),
            (50, "RF-LUIS"),
            (5_678, "RF-ANA"),
            (9_000, "RF-EVA"),
        ]
        .into_iter()
        .map(|(number, reference)| LedgerEntry {
            number,
            tag: purchase_tag(SALT, reference),
        })
        .collect();
        entries.sort();
        let root = MerkleTree::over(&entries).root();
        PublishedDraw {
            max_tickets: 9_999,
            rule: Rule::UpwardV1,
            salt: SALT.to_vec(),
            root,
            size: 4,
            entries,
            prizes: vec![
                lottery_prize(1, Some("3 875 678"), Some(5_678)),
                lottery_prize(2, Some("5678"), Some(9_000)),
                lottery_prize(3, None, None),
            ],
        }
    }

    #[test]
    fn an_honest_draw_checks_out_prize_by_prize() {
        let findings = check(&published());

        assert!(findings.iter().all(|f| !f.is_problem()), "{findings:#?}");
        assert_eq!(findings[0], Finding::RootMatches { size: 4 });
        assert!(matches!(
            &findings[2],
            Finding::WinnerConfirmed { position: 2, winner: Some(9_000), steps }
                if steps.contains(&DrawStep::AlreadyWon { number: 5_678, next: 9_000 })
        ));
        assert_eq!(findings[3], Finding::NotDrawn { position: 3 });
    }

    /// Prize 3 drawn from drand round 657413 (recorded), announced as `announced`.
    fn drawn_from_the_beacon(announced: u64, signature: Vec<u8>) -> PublishedDraw {
        let mut draw = published();
        let randomness = super::super::ledger::hash_from_hex(
            "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587",
        )
        .expect("hex");
        let input = DrawInput::Beacon {
            round: 657_413,
            randomness,
        };
        let sold = draw.entries.iter().map(|e| e.number).collect();
        let won = [5_678, 9_000].into_iter().collect();
        let winner = super::super::rule::apply(&input, draw.max_tickets, &sold, &won)
            .expect("applies")
            .winner;
        draw.prizes[2] = PublishedPrize {
            position: 3,
            source: PrizeSource::Beacon { round: announced },
            results: vec![PublishedResult {
                source: 0,
                input,
                signature: Some(signature),
            }],
            winner,
        };
        draw
    }

    fn recorded_signature() -> Vec<u8> {
        super::super::ledger::bytes_from_hex("b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b").expect("hex")
    }

    #[test]
    fn a_beacon_prize_is_checked_against_the_announced_round_and_drands_signature() {
        let honest = check(&drawn_from_the_beacon(657_413, recorded_signature()));
        assert!(honest.iter().all(|f| !f.is_problem()), "{honest:#?}");
        assert!(matches!(
            honest.last(),
            Some(Finding::WinnerConfirmed { position: 3, .. })
        ));

        let later_round = check(&drawn_from_the_beacon(657_400, recorded_signature()));
        assert!(later_round.contains(&Finding::BeaconRoundDiffers {
            position: 3,
            announced: 657_400,
            used: 657_413
        }));
        let mut forged = recorded_signature();
        forged[0] ^= 0x01;
        assert!(
            check(&drawn_from_the_beacon(657_413, forged))
                .contains(&Finding::BeaconInvalid { position: 3 })
        );
    }

    #[test]
    fn under_the_fair_rules_a_lapsed_lottery_passes_to_the_round_its_rules_fix() {
        let mut draw = published();
        draw.rule = Rule::AmongSoldV2;
        let PrizeSource::Beacon { round } = draw.prizes[0].source.chain()[1] else {
            panic!("a lottery is followed by a round")
        };
        // The recorded round is not the one the rules fix: caught, whatever it decides.
        let recorded_round = 657_413;
        let randomness = super::super::ledger::hash_from_hex(
            "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587",
        )
        .expect("hex");
        draw.prizes[0].results = vec![PublishedResult {
            source: 1,
            input: DrawInput::Beacon {
                round: recorded_round,
                randomness,
            },
            signature: Some(recorded_signature()),
        }];
        draw.prizes.truncate(1);
        let findings = check(&draw);
        assert!(findings.contains(&Finding::BeaconRoundDiffers {
            position: 1,
            announced: round,
            used: recorded_round
        }));
        let Some(Finding::WinnerConfirmed { steps, .. } | Finding::WinnerDiffers { steps, .. }) =
            findings.last()
        else {
            panic!("{findings:#?}")
        };
        assert!(matches!(steps[0], DrawStep::SourceLapsed { source: 0, .. }));
        // Among 4 sold: the lottery's 5678 mod 4 = 2, the third, 5678.
        draw.prizes[0].results = vec![PublishedResult {
            source: 0,
            input: DrawInput::Lottery {
                result: "5678".into(),
            },
            signature: None,
        }];
        draw.prizes[0].winner = Some(5_678);
        assert!(check(&draw).iter().all(|f| !f.is_problem()));
    }

    #[test]
    fn a_ledger_changed_after_the_commitment_is_caught() {
        let mut added = published();
        added.entries.push(LedgerEntry {
            number: 9_500,
            tag: purchase_tag(SALT, "RF-LATE"),
        });
        let mut reassigned = published();
        reassigned.entries[1].tag = purchase_tag(SALT, "RF-FRIEND");

        for tampered in [added, reassigned] {
            let findings = check(&tampered);
            assert!(
                findings
                    .iter()
                    .any(|f| matches!(f, Finding::RootDiffers { .. })),
                "{findings:#?}"
            );
        }
    }

    #[test]
    fn a_winner_the_rule_does_not_give_is_caught() {
        let mut draw = published();
        draw.prizes[0].winner = Some(50);

        let findings = check(&draw);

        assert!(findings.contains(&Finding::RootMatches { size: 4 }));
        assert!(matches!(
            findings[1],
            Finding::WinnerDiffers {
                position: 1,
                published: Some(50),
                computed: Some(5_678),
                ..
            }
        ));
    }

    #[test]
    fn a_prize_waiting_for_its_round_keeps_the_later_ones_waiting() {
        let mut draw = published();
        draw.rule = Rule::NumberV2;
        // 0047 is unsold: the first prize waits for its round; the second's result names a
        // sold number, but who is in play for it is not known yet.
        draw.prizes[0].results[0].input = DrawInput::Lottery {
            result: "0047".into(),
        };
        draw.prizes[0].winner = None;
        draw.prizes[1].winner = None;
        let findings = check(&draw);
        assert!(findings.iter().all(|f| !f.is_problem()), "{findings:#?}");
        assert!(findings.contains(&Finding::NotDrawn { position: 2 }));
        draw.prizes[1].winner = Some(5_678);
        assert!(check(&draw).iter().any(|f| matches!(
            f,
            Finding::WinnerDiffers {
                position: 2,
                computed: None,
                ..
            }
        )));
    }

    #[test]
    fn a_size_other_than_the_list_s_is_a_problem() {
        let mut draw = published();
        draw.size = 5;
        assert!(check(&draw).contains(&Finding::SizeDiffers {
            published: 5,
            entries: 4
        }));
    }

    #[test]
    fn an_unsorted_ledger_or_a_foreign_number_is_a_problem() {
        let mut draw = published();
        draw.entries.swap(0, 1);
        draw.entries.push(LedgerEntry {
            number: 12_000,
            tag: [0; 32],
        });

        let findings = check(&draw);

        assert!(findings.contains(&Finding::NotSorted { index: 1 }));
        assert!(findings.contains(&Finding::NotInRaffle { number: 12_000 }));
    }

    #[test]
    fn a_buyer_finds_their_numbers_proven_by_their_reference_alone() {
        let draw = published();

        assert_eq!(numbers_of(&draw, "rf-ana"), [(46, true), (5_678, true)]);
        assert_eq!(numbers_of(&draw, "RF-NOBODY"), []);
        let mut forged = draw.clone();
        forged.root[0] ^= 1;
        assert_eq!(numbers_of(&forged, "RF-ANA"), [(46, false), (5_678, false)]);
    }
}
