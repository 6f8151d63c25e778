//! Proof checks in memory, honouring `ProofChecks`' contract: a lease keeps a claimed check
//! from being claimed again until it runs out, and a result for a replaced proof is dropped.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use rifa_domain::proof_signals::{Light, PictureHash};
use rifa_domain::purchase::{PurchaseId, PurchaseStatus};
use rifa_ports::{
    ProofCheckJob, ProofCheckState, ProofChecks, ProofFindings, ProofSubject, QueueLight,
    QueueQuery, QueuedProof,
};

use super::MemoryStore;

struct Check {
    key: String,
    attempts: u32,
    next_attempt_at: DateTime<Utc>,
    lease_until: Option<DateTime<Utc>>,
    fingerprint: Option<[u8; 32]>,
    picture_hash: Option<PictureHash>,
    read_reference: Option<String>,
    state: ProofCheckState,
}

#[derive(Default)]
pub(super) struct CheckState(BTreeMap<PurchaseId, Check>);

impl CheckState {
    pub(super) fn queue(&mut self, purchase: PurchaseId, key: &str, at: DateTime<Utc>) {
        self.0.insert(
            purchase,
            Check {
                key: key.to_owned(),
                attempts: 0,
                next_attempt_at: at,
                lease_until: None,
                fingerprint: None,
                picture_hash: None,
                read_reference: None,
                state: ProofCheckState::Pending,
            },
        );
    }
}

impl MemoryStore {
    /// The attempts a purchase's check took so far.
    pub fn proof_check_attempts(&self, purchase: PurchaseId) -> u32 {
        self.state()
            .proof_checks
            .0
            .get(&purchase)
            .map_or(0, |c| c.attempts)
    }
}

fn current<'a>(
    checks: &'a mut BTreeMap<PurchaseId, Check>,
    job: &ProofCheckJob,
) -> Option<&'a mut Check> {
    checks
        .get_mut(&job.purchase_id)
        .filter(|c| c.key == job.object_key)
}

impl ProofChecks for MemoryStore {
    async fn claim_proof_checks(
        &self,
        limit: u32,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> anyhow::Result<Vec<ProofCheckJob>> {
        let mut state = self.state();
        let mut due: Vec<(&PurchaseId, &mut Check)> = state
            .proof_checks
            .0
            .iter_mut()
            .filter(|(_, c)| {
                c.state == ProofCheckState::Pending
                    && c.next_attempt_at <= now
                    && c.lease_until.is_none_or(|lease| lease <= now)
            })
            .collect();
        // Fewest attempts first, then the longest due, as the port says.
        due.sort_by_key(|(_, c)| (c.attempts, c.next_attempt_at));
        Ok(due
            .into_iter()
            .take(limit as usize)
            .map(|(purchase, c)| {
                c.lease_until = Some(lease_until);
                c.attempts += 1;
                ProofCheckJob {
                    purchase_id: *purchase,
                    object_key: c.key.clone(),
                    attempts: c.attempts,
                }
            })
            .collect())
    }

    async fn purchases_with_fingerprint(
        &self,
        fingerprint: &[u8; 32],
        except: PurchaseId,
    ) -> anyhow::Result<Vec<PurchaseId>> {
        Ok(self
            .state()
            .proof_checks
            .0
            .iter()
            .filter(|(p, c)| **p != except && c.fingerprint.as_ref() == Some(fingerprint))
            .map(|(p, _)| *p)
            .collect())
    }

    async fn purchases_with_similar_picture(
        &self,
        hash: &PictureHash,
        max_distance: u32,
        except: PurchaseId,
    ) -> anyhow::Result<Vec<(PurchaseId, u32)>> {
        Ok(self
            .state()
            .proof_checks
            .0
            .iter()
            .filter(|(p, _)| **p != except)
            .filter_map(|(p, c)| Some((*p, c.picture_hash?.distance(hash))))
            .filter(|(_, distance)| *distance <= max_distance)
            .collect())
    }

    async fn purchases_with_reference(
        &self,
        reference_key: &str,
        except: PurchaseId,
    ) -> anyhow::Result<Vec<PurchaseId>> {
        let state = self.state();
        let mut found: Vec<PurchaseId> = state
            .proof_checks
            .0
            .iter()
            .filter(|(p, c)| **p != except && c.read_reference.as_deref() == Some(reference_key))
            .map(|(p, _)| *p)
            .chain(
                state
                    .purchases
                    .iter()
                    .filter(|(p, s)| {
                        **p != except && s.payment_reference_key.as_deref() == Some(reference_key)
                    })
                    .map(|(p, _)| *p),
            )
            .collect();
        found.sort_unstable();
        found.dedup();
        Ok(found)
    }

    async fn proof_subject(&self, purchase: PurchaseId) -> anyhow::Result<Option<ProofSubject>> {
        Ok(self.state().purchases.get(&purchase).map(|s| ProofSubject {
            created_at: s.purchase.created_at,
            total_amount: s.purchase.total_amount,
            conversion: s.purchase.conversion,
            payment_reference: s.purchase.payment_reference.clone(),
        }))
    }

    async fn record_proof_check(
        &self,
        job: &ProofCheckJob,
        findings: &ProofFindings,
        at: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        if let Some(check) = current(&mut self.state().proof_checks.0, job) {
            check.fingerprint = Some(findings.fingerprint);
            check.picture_hash = findings.picture_hash;
            check.read_reference.clone_from(&findings.read_reference);
            check.lease_until = None;
            check.state = ProofCheckState::Done {
                light: findings.light,
                signals: findings.signals.clone(),
                text: findings.text.clone(),
                checked_at: at,
            };
        }
        Ok(())
    }

    async fn proof_check_failed(
        &self,
        job: &ProofCheckJob,
        reason: &str,
        retry_at: Option<DateTime<Utc>>,
    ) -> anyhow::Result<()> {
        if let Some(check) = current(&mut self.state().proof_checks.0, job) {
            check.lease_until = None;
            match retry_at {
                Some(at) => check.next_attempt_at = at,
                None => {
                    check.state = ProofCheckState::Failed {
                        reason: reason.to_owned(),
                    }
                }
            }
        }
        Ok(())
    }

    async fn proof_queue(&self, query: &QueueQuery) -> anyhow::Result<Vec<QueuedProof>> {
        let state = self.state();
        let mut queued: Vec<QueuedProof> = state
            .proof_checks
            .0
            .iter()
            .filter_map(|(id, check)| {
                let stored = state.purchases.get(id)?;
                let (light, signals) = match &check.state {
                    ProofCheckState::Done { light, signals, .. } => (Some(*light), signals.clone()),
                    _ => (None, Vec::new()),
                };
                let wanted = match query.light {
                    None => true,
                    Some(QueueLight::Checked(wanted)) => light == Some(wanted),
                    Some(QueueLight::Unchecked) => light.is_none(),
                };
                (stored.purchase.status == PurchaseStatus::Pending && wanted).then(|| QueuedProof {
                    purchase: stored.purchase.clone(),
                    light,
                    signals,
                })
            })
            .collect();
        queued.sort_by_key(|q| (q.purchase.created_at, q.purchase.id));
        if !query.oldest_first {
            queued.reverse();
        }
        let past = |q: &QueuedProof| {
            query.after.is_none_or(|after| {
                let key = (q.purchase.created_at, q.purchase.id);
                let after = (after.created_at, after.id);
                if query.oldest_first {
                    key > after
                } else {
                    key < after
                }
            })
        };
        Ok(queued
            .into_iter()
            .filter(past)
            .take(query.limit as usize)
            .collect())
    }

    async fn lights_of(
        &self,
        purchases: &[PurchaseId],
    ) -> anyhow::Result<Vec<(PurchaseId, Light)>> {
        let state = self.state();
        Ok(purchases
            .iter()
            .filter_map(|id| match &state.proof_checks.0.get(id)?.state {
                ProofCheckState::Done { light, .. } => Some((*id, *light)),
                _ => None,
            })
            .collect())
    }

    async fn proof_check(&self, purchase: PurchaseId) -> anyhow::Result<Option<ProofCheckState>> {
        Ok(self
            .state()
            .proof_checks
            .0
            .get(&purchase)
            .map(|c| c.state.clone()))
    }
}
