//! The verifiable draw's storage in memory, honouring `DrawRepository`'s contract and the
//! database's triggers: prizes locked by a real purchase or a frozen ledger, the ledger and
//! the draws written once, the messages queued with them.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use rifa_domain::Lang;
use rifa_domain::audit::AuditEntry;
use rifa_domain::draw::fair::Rule;
use rifa_domain::draw::ledger::LedgerEntry;
use rifa_domain::draw::prize::PrizeDraft;
use rifa_domain::id::PrizeId;
use rifa_domain::purchase::{PurchaseId, PurchaseStatus};
use rifa_domain::raffle::{RaffleId, RaffleStatus};
use rifa_ports::{
    Commitment, DrawRepository, FreezeAudit, FreezeError, Holder, LedgerBuilder, MailKind,
    MailSubject, PrizeDelivery, PrizeDraw, PrizeRecord, RecentWinner, RecordDeliveryError,
    RecordDrawError, RecordResultError, RecordedResult, ReplacePrizesError, SoldNumber,
    UndecidedPurchase, Winner,
};

use super::{MemoryStore, State};

#[derive(Default)]
pub(super) struct DrawState {
    prizes: BTreeMap<PrizeId, (RaffleId, u32, PrizeDraft)>,
    pub(super) ledgers: BTreeMap<RaffleId, (Commitment, Vec<LedgerEntry>)>,
    rules: BTreeMap<RaffleId, Rule>,
    results: BTreeMap<(PrizeId, u32), RecordedResult>,
    draws: BTreeMap<PrizeId, (PrizeDraw, Option<PurchaseId>)>,
    deliveries: BTreeMap<PrizeId, PrizeDelivery>,
}

impl DrawState {
    pub(super) fn is_frozen(&self, raffle: RaffleId) -> bool {
        self.ledgers.contains_key(&raffle)
    }
}

impl State {
    pub(super) fn add_prizes(&mut self, raffle: RaffleId, prizes: &[PrizeDraft]) {
        for (prize, position) in prizes.iter().zip(1..) {
            let id = PrizeId::new(self.next_id());
            self.draws
                .prizes
                .insert(id, (raffle, position, prize.clone()));
        }
    }

    pub(super) fn has_prizes(&self, raffle: RaffleId) -> bool {
        self.draws.prizes.values().any(|(r, _, _)| *r == raffle)
    }

    pub(super) fn real_purchase_of(&self, raffle: RaffleId) -> bool {
        self.purchases
            .values()
            .any(|p| p.purchase.raffle_id == raffle && p.purchase.status != PurchaseStatus::Test)
    }

    fn winner(&self, purchase: PurchaseId) -> Option<Winner> {
        self.purchases.get(&purchase).map(|p| Winner {
            purchase_id: purchase,
            reference: p.purchase.reference.clone(),
            customer_name: p.purchase.customer_name.clone(),
            customer_email: p.purchase.customer_email.clone(),
            customer_phone: p.purchase.customer_phone.clone(),
            customer_country: p.purchase.customer_country.clone(),
        })
    }

    fn undecided(&self, raffle: RaffleId, limit: u32) -> Vec<UndecidedPurchase> {
        self.purchases
            .values()
            .filter(|p| {
                p.purchase.raffle_id == raffle && p.purchase.status == PurchaseStatus::Pending
            })
            .take(limit as usize)
            .map(|p| UndecidedPurchase {
                id: p.purchase.id,
                reference: p.purchase.reference.clone(),
                customer_name: p.purchase.customer_name.clone(),
                created_at: p.purchase.created_at,
            })
            .collect()
    }
}

impl DrawRepository for MemoryStore {
    async fn prizes(&self, raffle: RaffleId) -> anyhow::Result<Vec<PrizeRecord>> {
        let state = self.state();
        let mut prizes: Vec<PrizeRecord> = state
            .draws
            .prizes
            .iter()
            .filter(|(_, (r, _, _))| *r == raffle)
            .map(|(id, (_, position, prize))| PrizeRecord {
                id: *id,
                position: *position,
                prize: prize.clone(),
                results: state
                    .draws
                    .results
                    .range((*id, 0)..=(*id, u32::MAX))
                    .map(|(_, r)| r.clone())
                    .collect(),
                draw: state.draws.draws.get(id).map(|(draw, holder)| PrizeDraw {
                    winner: holder.and_then(|h| state.winner(h)),
                    ..draw.clone()
                }),
                delivery: state.draws.deliveries.get(id).cloned(),
            })
            .collect();
        prizes.sort_by_key(|p| p.position);
        Ok(prizes)
    }

    async fn replace_prizes(
        &self,
        raffle: RaffleId,
        rule: Rule,
        prizes: &[PrizeDraft],
        audit: &AuditEntry,
    ) -> Result<(), ReplacePrizesError> {
        let mut state = self.state();
        if state.real_purchase_of(raffle) || state.draws.is_frozen(raffle) {
            return Err(ReplacePrizesError::RulesLocked);
        }
        let on_sale = state
            .raffles
            .get(&raffle)
            .is_some_and(|r| r.status.is_on_sale());
        if prizes.is_empty() && on_sale {
            return Err(ReplacePrizesError::OnSaleNeedsPrize);
        }
        state.draws.rules.insert(raffle, rule);
        state.draws.prizes.retain(|_, (r, _, _)| *r != raffle);
        state.add_prizes(raffle, prizes);
        state.append_audit(audit);
        Ok(())
    }

    async fn draw_rule(&self, raffle: RaffleId) -> anyhow::Result<Rule> {
        // New raffles are drawn among the sold numbers, as the database's default says.
        Ok(self
            .state()
            .draws
            .rules
            .get(&raffle)
            .copied()
            .unwrap_or(Rule::AmongSoldV2))
    }

    async fn rules_locked(&self, raffle: RaffleId) -> anyhow::Result<bool> {
        Ok(self.state().real_purchase_of(raffle))
    }

    async fn undecided_purchases(
        &self,
        raffle: RaffleId,
        limit: u32,
    ) -> anyhow::Result<Vec<UndecidedPurchase>> {
        Ok(self.state().undecided(raffle, limit))
    }

    async fn freeze_ledger(
        &self,
        raffle: RaffleId,
        salt: [u8; 32],
        frozen_at: DateTime<Utc>,
        build: LedgerBuilder<'_>,
        audit: FreezeAudit<'_>,
    ) -> Result<Commitment, FreezeError> {
        let mut state = self.state();
        if state.draws.is_frozen(raffle) {
            return Err(FreezeError::AlreadyFrozen);
        }
        let pending = state.undecided(raffle, 50);
        if !pending.is_empty() {
            return Err(FreezeError::PurchasesPending(pending));
        }
        let approved: Vec<(PurchaseId, String, Lang)> = state
            .purchases
            .values()
            .filter(|p| {
                p.purchase.raffle_id == raffle
                    && p.purchase.status == PurchaseStatus::Approved
                    && !p.released
            })
            .map(|p| (p.purchase.id, p.purchase.customer_email.clone(), p.lang))
            .collect();
        let sold: Vec<SoldNumber> = state
            .purchases
            .values()
            .filter(|p| approved.iter().any(|(id, _, _)| *id == p.purchase.id))
            .flat_map(|p| {
                p.purchase.ticket_numbers.iter().map(|n| SoldNumber {
                    number: n.get(),
                    reference: p.purchase.reference.clone(),
                })
            })
            .collect();
        if sold.is_empty() {
            return Err(FreezeError::NothingSold);
        }
        let ledger = build(&sold);
        let commitment = Commitment {
            salt,
            root: ledger.root,
            size: u32::try_from(ledger.entries.len()).unwrap(),
            frozen_at,
            max_tickets: state.raffles[&raffle].max_tickets,
            rule: state
                .draws
                .rules
                .get(&raffle)
                .copied()
                .unwrap_or(Rule::AmongSoldV2),
        };
        state
            .draws
            .ledgers
            .insert(raffle, (commitment.clone(), ledger.entries));
        state.append_audit(&audit(&commitment));
        for (id, email, lang) in approved {
            state.enqueue_to(
                MailSubject::Purchase(id),
                MailKind::LedgerFrozen,
                email,
                lang,
                frozen_at,
                None,
            );
        }
        Ok(commitment)
    }

    async fn commitment(&self, raffle: RaffleId) -> anyhow::Result<Option<Commitment>> {
        Ok(self
            .state()
            .draws
            .ledgers
            .get(&raffle)
            .map(|(c, _)| c.clone()))
    }

    async fn raffle_of_prize(&self, prize: PrizeId) -> anyhow::Result<Option<RaffleId>> {
        Ok(self.state().draws.prizes.get(&prize).map(|(r, _, _)| *r))
    }

    async fn ledger_entries(&self, raffle: RaffleId) -> anyhow::Result<Vec<LedgerEntry>> {
        Ok(self
            .state()
            .draws
            .ledgers
            .get(&raffle)
            .map(|(_, entries)| entries.clone())
            .unwrap_or_default())
    }

    async fn holder_of(&self, raffle: RaffleId, number: u32) -> anyhow::Result<Option<Holder>> {
        Ok(self
            .state()
            .purchases
            .values()
            .find(|p| {
                p.purchase.raffle_id == raffle
                    && p.purchase.status == PurchaseStatus::Approved
                    && !p.released
                    && p.purchase.ticket_numbers.iter().any(|n| n.get() == number)
            })
            .map(|p| Holder {
                purchase: p.purchase.id,
                customer_name: p.purchase.customer_name.clone(),
            }))
    }

    async fn record_result(
        &self,
        _raffle: RaffleId,
        prize: PrizeId,
        result: &RecordedResult,
        audit: &AuditEntry,
    ) -> Result<(), RecordResultError> {
        let mut state = self.state();
        if state.draws.results.contains_key(&(prize, result.source)) {
            return Err(RecordResultError::AlreadyRecorded);
        }
        state
            .draws
            .results
            .insert((prize, result.source), result.clone());
        state.append_audit(audit);
        Ok(())
    }

    async fn record_draw(
        &self,
        raffle: RaffleId,
        prize: PrizeId,
        draw: &PrizeDraw,
        winner_purchase: Option<PurchaseId>,
        finishes_raffle: bool,
        audit: &AuditEntry,
    ) -> Result<(), RecordDrawError> {
        let mut state = self.state();
        let number_won_already = draw.winning_number.is_some()
            && state.draws.draws.iter().any(|(id, (d, _))| {
                state
                    .draws
                    .prizes
                    .get(id)
                    .is_some_and(|(r, _, _)| *r == raffle)
                    && d.winning_number == draw.winning_number
            });
        if state.draws.draws.contains_key(&prize) || number_won_already {
            return Err(RecordDrawError::AlreadyDrawn);
        }
        state
            .draws
            .draws
            .insert(prize, (draw.clone(), winner_purchase));
        if let Some(winner) = winner_purchase.and_then(|id| state.purchases.get(&id)) {
            let (email, lang) = (winner.purchase.customer_email.clone(), winner.lang);
            state.enqueue_to(
                MailSubject::Prize(prize),
                MailKind::PrizeWon,
                email,
                lang,
                draw.drawn_at,
                None,
            );
        }
        if finishes_raffle && let Some(row) = state.raffles.get_mut(&raffle) {
            row.status = RaffleStatus::Finished;
        }
        state.append_audit(audit);
        Ok(())
    }

    async fn record_delivery(
        &self,
        prize: PrizeId,
        delivery: &PrizeDelivery,
        audit: &AuditEntry,
    ) -> Result<(), RecordDeliveryError> {
        let mut state = self.state();
        if state.draws.deliveries.contains_key(&prize) {
            return Err(RecordDeliveryError::AlreadyDelivered);
        }
        state.draws.deliveries.insert(prize, delivery.clone());
        state.append_audit(audit);
        Ok(())
    }

    async fn recent_winners(&self, limit: u32) -> anyhow::Result<Vec<RecentWinner>> {
        let state = self.state();
        let mut winners: Vec<RecentWinner> = state
            .draws
            .draws
            .iter()
            .filter_map(|(id, (draw, holder))| {
                let (raffle_id, position, prize) = state.draws.prizes.get(id)?;
                let raffle = state.raffles.get(raffle_id)?;
                let winner = state.winner((*holder)?)?;
                let number = draw.winning_number?;
                (raffle.status != RaffleStatus::Inactive).then(|| RecentWinner {
                    raffle_id: *raffle_id,
                    raffle_title: raffle.title.clone(),
                    max_tickets: raffle.max_tickets,
                    prize_title: prize.title.clone(),
                    position: *position,
                    number,
                    customer_name: winner.customer_name,
                    customer_country: winner.customer_country,
                    drawn_at: draw.drawn_at,
                })
            })
            .collect();
        winners.sort_by(|a, b| {
            b.drawn_at
                .cmp(&a.drawn_at)
                .then(a.position.cmp(&b.position))
        });
        winners.truncate(limit as usize);
        Ok(winners)
    }
}
