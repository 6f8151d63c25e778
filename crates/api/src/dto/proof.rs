use rifa_app::proof_queue::{BulkOutcome, MAX_QUEUE_PAGE, QueueRequest};
use rifa_domain::exchange::Currency;
use rifa_domain::proof_reading::ReadAmount;
use rifa_domain::proof_signals::{Light, Signal};
use rifa_domain::purchase::PurchaseId;
use rifa_domain::{FieldError, FieldErrors};
use rifa_ports::{ProofCheckState, QueueLight, QueuedProof};

use super::PurchaseDto;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// A request for somewhere to upload the payment proof of a purchase.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadUrlRequest {
    pub filename: String,
    /// The file's type as the browser reports it (`image/png`…); the name decides when absent.
    pub content_type: Option<String>,
    /// The file's size in bytes (required): a file over 5 MB is refused before it travels, and
    /// the upload URL takes exactly this many bytes.
    pub size: Option<u64>,
    pub purchase_id: i64,
    /// The `purchaseToken` of the purchase answer.
    pub purchase_token: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadUrlResponse {
    /// `PUT` the file here (relative to the API, or an absolute object-store URL). Valid for
    /// 15 minutes, once.
    #[serde(rename = "uploadURL")]
    pub upload_url: String,
    /// Headers the `PUT` must carry exactly (the signature covers them).
    pub upload_headers: std::collections::BTreeMap<String, String>,
}

/// Attaches the uploaded file to its purchase. The spec's `paymentProofURL` (the `uploadURL`
/// used) may be sent and is ignored: the server attaches the upload it granted this purchase.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttachProofRequest {
    pub purchase_token: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttachProofResponse {
    pub attached: bool,
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct InvoiceQuery {
    /// The buyer's `purchaseToken`; admins use their bearer token instead.
    pub token: Option<String>,
    /// `html` (default, the printable page) or `pdf`.
    pub format: Option<String>,
    /// `1`: the HTML page prints itself half a second after loading (the invoice window). The
    /// page's own script reads it from its address; the server only checks it.
    pub print: Option<String>,
}

/// What the check of a purchase's proof found.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProofCheckDto {
    /// `none` (no proof attached), `pending`, `done` or `failed`.
    pub status: &'static str,
    /// `green` (amount and reference read and matching, nothing reused or edited), `amber`
    /// (something unread or unusual) or `red` (reused, edited, amount off), once done.
    pub light: Option<&'static str>,
    /// Why, once done: each signal tagged by `kind`.
    pub signals: Vec<SignalDto>,
    /// The text read from the proof (OCR, or a PDF's own), once done.
    pub text: Option<String>,
    pub checked_at: Option<String>,
    /// Why it was given up, when failed.
    pub reason: Option<String>,
}

/// An amount read on a proof.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadAmountDto {
    /// USD, EUR, VES or COP, when a mark named it.
    pub currency: Option<&'static str>,
    #[schema(example = "1234.56")]
    pub value: String,
}

impl From<ReadAmount> for ReadAmountDto {
    fn from(read: ReadAmount) -> Self {
        Self {
            currency: read.currency.map(Currency::code),
            value: read.value.to_string(),
        }
    }
}

/// One thing found about a proof; the panel words each in the reviewer's language.
#[derive(Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum SignalDto {
    /// The very same file is attached to purchase `other`.
    ExactReuse {
        other: i64,
    },
    /// The same picture saved again is attached to purchase `other` (`distance` bits of 256
    /// apart).
    NearReuse {
        other: i64,
        distance: u32,
    },
    /// The reference this proof shows was shown by, or typed with, purchase `other`.
    ReferenceReused {
        other: i64,
    },
    /// The file's metadata names editing software.
    EditedWith {
        software: String,
    },
    /// The metadata dates the file more than an hour after the purchase.
    #[serde(rename_all = "camelCase")]
    DatedAfterPurchase {
        taken_at: String,
    },
    /// The metadata dates the file more than a day before the purchase.
    #[serde(rename_all = "camelCase")]
    DatedBeforePurchase {
        taken_at: String,
    },
    /// The amount read is what the purchase costs in the method's currency.
    AmountMatches {
        read: ReadAmountDto,
    },
    /// Amounts were read, none what the purchase costs (`expected`): the closest.
    AmountDiffers {
        read: ReadAmountDto,
        expected: ReadAmountDto,
    },
    AmountUnread,
    /// The reference read is the one the buyer typed (or ends with it).
    ReferenceMatches {
        reference: String,
    },
    /// A reference was read; the buyer typed none.
    ReferenceRead {
        reference: String,
    },
    /// The reference read is not the one the buyer typed.
    ReferenceDiffers {
        read: String,
        given: String,
    },
    ReferenceUnread,
    /// This server cannot read text from proofs (no OCR installed).
    NoTextReader,
    /// No text could be read from the proof.
    Unreadable,
    /// A PDF whose page is larger than any receipt (millimetres as shown): not rendered, so
    /// not read.
    #[serde(rename_all = "camelCase")]
    PageTooLarge {
        width_mm: u32,
        height_mm: u32,
    },
    /// Reading the proof went past its time or CPU budget (`seconds`): given up, not retried.
    ReadTooSlow {
        seconds: u32,
    },
    /// A reader stopped with an error on this file (malformed, or past its memory budget).
    ReaderFailed,
}

impl From<Signal> for SignalDto {
    fn from(signal: Signal) -> Self {
        match signal {
            Signal::ExactReuse { other } => Self::ExactReuse { other: other.get() },
            Signal::NearReuse { other, distance } => Self::NearReuse {
                other: other.get(),
                distance,
            },
            Signal::ReferenceReused { other } => Self::ReferenceReused { other: other.get() },
            Signal::EditedWith { software } => Self::EditedWith { software },
            Signal::DatedAfterPurchase { taken_at } => Self::DatedAfterPurchase {
                taken_at: super::instant(taken_at),
            },
            Signal::DatedBeforePurchase { taken_at } => Self::DatedBeforePurchase {
                taken_at: super::instant(taken_at),
            },
            Signal::AmountMatches { read } => Self::AmountMatches { read: read.into() },
            Signal::AmountDiffers { read, expected } => Self::AmountDiffers {
                read: read.into(),
                expected: expected.into(),
            },
            Signal::AmountUnread => Self::AmountUnread,
            Signal::ReferenceMatches { reference } => Self::ReferenceMatches { reference },
            Signal::ReferenceRead { reference } => Self::ReferenceRead { reference },
            Signal::ReferenceDiffers { read, given } => Self::ReferenceDiffers { read, given },
            Signal::ReferenceUnread => Self::ReferenceUnread,
            Signal::NoTextReader => Self::NoTextReader,
            Signal::Unreadable => Self::Unreadable,
            Signal::PageTooLarge {
                width_mm,
                height_mm,
            } => Self::PageTooLarge {
                width_mm,
                height_mm,
            },
            Signal::ReadTooSlow { seconds } => Self::ReadTooSlow { seconds },
            Signal::ReaderFailed => Self::ReaderFailed,
        }
    }
}

impl From<Option<ProofCheckState>> for ProofCheckDto {
    fn from(check: Option<ProofCheckState>) -> Self {
        let empty = |status| Self {
            status,
            light: None,
            signals: Vec::new(),
            text: None,
            checked_at: None,
            reason: None,
        };
        match check {
            None => empty("none"),
            Some(ProofCheckState::Pending) => empty("pending"),
            Some(ProofCheckState::Failed { reason }) => Self {
                reason: Some(reason),
                ..empty("failed")
            },
            Some(ProofCheckState::Done {
                light,
                signals,
                text,
                checked_at,
            }) => Self {
                light: Some(light.as_str()),
                signals: signals.into_iter().map(SignalDto::from).collect(),
                text,
                checked_at: Some(super::instant(checked_at)),
                ..empty("done")
            },
        }
    }
}

/// A page of the reviewer's queue.
#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct ProofQueueParams {
    /// `green`, `amber`, `red` or `unchecked` (the check is pending or was given up); all when
    /// absent.
    pub light: Option<String>,
    /// `oldest` (default: the order to clear a queue in) or `newest`.
    pub order: Option<String>,
    /// The id of the last purchase of the page the panel has: the next page starts after it.
    pub after: Option<i64>,
    /// 1 to 100; 50 when absent.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

impl ProofQueueParams {
    /// # Errors
    /// Each bad field.
    pub fn parse(&self) -> Result<QueueRequest, FieldErrors> {
        let mut errors = FieldErrors::new();
        let light = match self.light.as_deref().map(str::trim) {
            None | Some("") => None,
            Some("unchecked") => Some(QueueLight::Unchecked),
            Some(raw) => errors
                .check(
                    "light",
                    Light::parse(raw).ok_or(FieldError::UnknownOption {
                        allowed: vec!["green", "amber", "red", "unchecked"],
                    }),
                )
                .map(QueueLight::Checked),
        };
        let oldest_first = match self.order.as_deref().map(str::trim) {
            None | Some("" | "oldest") => true,
            Some("newest") => false,
            Some(_) => {
                errors.add(
                    "order",
                    FieldError::UnknownOption {
                        allowed: vec!["oldest", "newest"],
                    },
                );
                true
            }
        };
        let limit = errors.check(
            "limit",
            u32::try_from(self.limit.unwrap_or(50))
                .ok()
                .filter(|limit| (1..=MAX_QUEUE_PAGE).contains(limit))
                .ok_or(FieldError::OutOfRange {
                    min: "1".into(),
                    max: MAX_QUEUE_PAGE.to_string(),
                }),
        );
        errors.into_result()?;
        Ok(QueueRequest {
            light,
            oldest_first,
            after: self.after.map(PurchaseId::new),
            limit: limit.unwrap_or(50),
        })
    }
}

/// A purchase waiting for review, with what its proof's check found.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueuedProofDto {
    pub purchase: PurchaseDto,
    /// `green`, `amber` or `red`; `null` while the check is pending or when it was given up.
    pub light: Option<&'static str>,
    pub signals: Vec<SignalDto>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProofQueueDto {
    pub items: Vec<QueuedProofDto>,
    /// Pass as `after` for the next page; `null` on the last page.
    pub next_after: Option<i64>,
}

impl ProofQueueDto {
    pub fn new(items: Vec<QueuedProof>, limit: u32) -> Self {
        let next_after = (items.len() >= limit.clamp(1, MAX_QUEUE_PAGE) as usize)
            .then(|| items.last().map(|q| q.purchase.id.get()))
            .flatten();
        Self {
            items: items
                .into_iter()
                .map(|q| QueuedProofDto {
                    purchase: q.purchase.into(),
                    light: q.light.map(Light::as_str),
                    signals: q.signals.into_iter().map(SignalDto::from).collect(),
                })
                .collect(),
            next_after,
        }
    }
}

/// One decision for many purchases: approve the green ones, or reject the red ones with one
/// note.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkDecisionRequest {
    /// 1 to 100 purchase ids.
    #[schema(min_items = 1, max_items = 100)]
    pub ids: Vec<i64>,
    /// approved or rejected.
    pub status: String,
    /// Required to reject; sent to every buyer rejected.
    pub admin_notes: Option<String>,
}

/// What the bulk decision did with one purchase.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkResultDto {
    pub id: i64,
    /// `decided`; `notEligible` (its proof's light is not the decision's: green to approve, red
    /// to reject); `notPending` (decided meanwhile); `notFound`.
    pub outcome: &'static str,
    /// The purchase's status after the decision, or as found when not pending.
    pub status: Option<&'static str>,
    /// The light found, when not eligible.
    pub light: Option<&'static str>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkDecisionDto {
    pub results: Vec<BulkResultDto>,
    /// How many were decided (each buyer gets their e-mail).
    pub decided: u32,
}

impl From<Vec<(PurchaseId, BulkOutcome)>> for BulkDecisionDto {
    fn from(outcomes: Vec<(PurchaseId, BulkOutcome)>) -> Self {
        let results: Vec<BulkResultDto> = outcomes
            .into_iter()
            .map(|(id, outcome)| {
                let (outcome, status, light) = match outcome {
                    BulkOutcome::Decided(p) => ("decided", Some(p.status.as_str()), None),
                    BulkOutcome::NotEligible { light } => {
                        ("notEligible", None, light.map(Light::as_str))
                    }
                    BulkOutcome::NotPending(status) => ("notPending", Some(status.as_str()), None),
                    BulkOutcome::NotFound => ("notFound", None, None),
                };
                BulkResultDto {
                    id: id.get(),
                    outcome,
                    status,
                    light,
                }
            })
            .collect();
        Self {
            decided: u32::try_from(results.iter().filter(|r| r.outcome == "decided").count())
                .unwrap_or(u32::MAX),
            results,
        }
    }
}
