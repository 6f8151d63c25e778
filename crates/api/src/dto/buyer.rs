use rifa_app::buyer::BuyerView;
use rifa_domain::FieldErrors;
use rifa_domain::customer::Email;
use rifa_domain::purchase::PurchaseEvent;
use rifa_domain::ticket::display_number;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{ConvertedTotalDto, converted, instant, numbers};
use crate::error::ApiError;

/// A purchase as its buyer follows it on their own page.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BuyerPurchaseViewDto {
    pub purchase: BuyerPurchaseDto,
    pub raffle: BuyerRaffleDto,
    /// Oldest first.
    pub history: Vec<PurchaseEventDto>,
    /// The server's clock, so the page's countdown agrees with it.
    pub server_time: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BuyerPurchaseDto {
    pub id: i64,
    pub reference: String,
    /// pending, approved, rejected or expired.
    pub status: String,
    pub ticket_numbers: Vec<u32>,
    /// The numbers as shown to people (zero-padded to the raffle's width).
    pub ticket_labels: Vec<String>,
    pub total_amount: String,
    pub discount_applied: String,
    /// The total in the method's currency at the rate locked at purchase.
    pub converted_total: Option<ConvertedTotalDto>,
    pub payment_method: String,
    pub customer_name: String,
    pub customer_email: String,
    pub created_at: String,
    /// Until when the numbers are held without a proof (pending purchases without one).
    pub hold_expires_at: Option<String>,
    pub proof_attached: bool,
    /// Why the last proof sent was refused (`missing`, `too_large`, `wrong_type`), while none
    /// is attached.
    pub proof_problem: Option<&'static str>,
    /// The organiser's note on the decision.
    pub admin_notes: Option<String>,
    /// Whether a proof can be sent now (the upload flow: `POST /api/upload-url`, then
    /// `PUT /api/purchases/{id}/payment-proof`).
    pub can_upload_proof: bool,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BuyerRaffleDto {
    pub id: i64,
    pub title: String,
    pub image: String,
    pub draw_date: Option<String>,
    pub max_tickets: u32,
}

/// One entry of a purchase's history.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseEventDto {
    /// received, proof_attached, approved, rejected, expired or reopened.
    pub kind: &'static str,
    pub at: String,
    /// The organiser's note of a decision.
    pub note: Option<String>,
}

impl From<PurchaseEvent> for PurchaseEventDto {
    fn from(e: PurchaseEvent) -> Self {
        Self {
            kind: e.kind.as_str(),
            at: instant(e.at),
            note: e.note,
        }
    }
}

impl From<BuyerView> for BuyerPurchaseViewDto {
    fn from(view: BuyerView) -> Self {
        let p = view.purchase;
        let max_tickets = view.raffle.max_tickets;
        Self {
            purchase: BuyerPurchaseDto {
                converted_total: converted(&p),
                ticket_numbers: numbers(&p.ticket_numbers),
                ticket_labels: p
                    .ticket_numbers
                    .iter()
                    .map(|n| display_number(*n, max_tickets))
                    .collect(),
                id: p.id.get(),
                reference: p.reference,
                status: p.status.as_str().to_owned(),
                total_amount: p.total_amount.to_string(),
                discount_applied: p.discount_applied.to_string(),
                payment_method: p.payment_method,
                customer_name: p.customer_name,
                customer_email: p.customer_email,
                created_at: instant(p.created_at),
                hold_expires_at: p.hold_expires_at.map(instant),
                proof_attached: p.payment_proof.is_some(),
                proof_problem: view.proof_problem.map(|problem| problem.as_str()),
                admin_notes: p.admin_notes,
                can_upload_proof: view.can_upload_proof,
            },
            raffle: BuyerRaffleDto {
                id: view.raffle.id.get(),
                title: view.raffle.title.clone(),
                image: view.raffle.image.clone(),
                draw_date: view.raffle.draw_date.map(instant),
                max_tickets,
            },
            history: view.history.into_iter().map(Into::into).collect(),
            server_time: instant(view.now),
        }
    }
}

/// An e-mail to tell when numbers of the raffle come back on sale.
#[derive(Deserialize, ToSchema)]
pub struct ReleaseAlertRequest {
    pub email: Option<String>,
}

impl ReleaseAlertRequest {
    /// # Errors
    /// 422 naming `email` when it is missing or not one plain mailbox.
    pub fn parse(&self) -> Result<Email, ApiError> {
        Email::parse(self.email.as_deref().unwrap_or_default())
            .map_err(|e| ApiError::validation(&FieldErrors::single("email", e)))
    }
}

#[derive(Serialize, ToSchema)]
pub struct ReleaseAlertResponse {
    pub subscribed: bool,
}
