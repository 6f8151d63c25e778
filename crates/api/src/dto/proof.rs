use rifa_ports::ProofCheckState;
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
    /// `green`, `amber` or `red`, once done.
    pub light: Option<&'static str>,
    /// Each tagged by `kind` (`exactReuse` with `other`, `unreadable`, …), once done.
    #[schema(value_type = Vec<Object>)]
    pub signals: Vec<serde_json::Value>,
    pub checked_at: Option<String>,
    /// Why it was given up, when failed.
    pub reason: Option<String>,
}

impl From<Option<ProofCheckState>> for ProofCheckDto {
    fn from(check: Option<ProofCheckState>) -> Self {
        let empty = |status| Self {
            status,
            light: None,
            signals: Vec::new(),
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
                checked_at,
            }) => Self {
                light: Some(light.as_str()),
                signals: signals
                    .iter()
                    .filter_map(|s| serde_json::to_value(s).ok())
                    .collect(),
                checked_at: Some(super::instant(checked_at)),
                ..empty("done")
            },
        }
    }
}
