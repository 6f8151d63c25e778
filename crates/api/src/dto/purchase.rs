use actix_multipart::form::MultipartForm;
use actix_multipart::form::text::Text;
use rifa_app::lookup::Verification;
use rifa_app::purchasing::{PurchaseForm, PurchaseReceipt};
use rifa_domain::customer::CustomerInput;
use rifa_domain::purchase::Purchase;
use rifa_domain::ticket::display_number;
use rifa_ports::PurchasePage;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{PriceQuoteDto, instant};

/// A purchase as the admin panel sees it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseDto {
    pub id: i64,
    /// What the buyer quotes: `RF-` and eight characters.
    #[schema(example = "RF-7K3M9Q2X")]
    pub reference: String,
    pub raffle_id: i64,
    pub raffle_title: String,
    pub ticket_numbers: Vec<u32>,
    pub customer_name: String,
    /// ID card or passport number.
    pub customer_id: String,
    pub customer_email: String,
    pub customer_phone: String,
    pub customer_country: String,
    /// The method's name when the purchase was made.
    pub payment_method: String,
    pub payment_method_id: Option<i64>,
    #[schema(example = "26.00")]
    pub total_amount: String,
    pub discount_applied: String,
    /// The total in the method's currency, when it had an exchange rate.
    pub converted_total: Option<ConvertedTotalDto>,
    /// pending, approved, rejected or test.
    pub status: String,
    pub created_at: String,
    pub decided_at: Option<String>,
    /// A link to the payment proof (image or PDF) valid for 10 minutes: relative to the API
    /// (`/api/proofs/…`, also served as `/uploads/…`) or an object-store URL.
    pub payment_proof: Option<String>,
    /// Why the buyer's last proof was refused (`missing`, `too_large`, `wrong_type`), when it
    /// was; only in the single-purchase view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof_problem: Option<&'static str>,
    pub admin_notes: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConvertedTotalDto {
    pub currency: String,
    pub rate: String,
    pub amount: String,
}

fn converted(p: &Purchase) -> Option<ConvertedTotalDto> {
    p.conversion.map(|(currency, rate)| ConvertedTotalDto {
        currency: currency.code().to_owned(),
        rate: rate.to_string(),
        amount: rate.convert(p.total_amount).round_dp(2).to_string(),
    })
}

impl From<Purchase> for PurchaseDto {
    fn from(p: Purchase) -> Self {
        Self {
            converted_total: converted(&p),
            id: p.id,
            reference: p.reference,
            raffle_id: p.raffle_id,
            raffle_title: p.raffle_title,
            ticket_numbers: p.ticket_numbers,
            customer_name: p.customer_name,
            customer_id: p.customer_id_document,
            customer_email: p.customer_email,
            customer_phone: p.customer_phone,
            customer_country: p.customer_country,
            payment_method: p.payment_method,
            payment_method_id: p.payment_method_id,
            total_amount: p.total_amount.to_string(),
            discount_applied: p.discount_applied.to_string(),
            status: p.status.as_str().to_owned(),
            created_at: instant(p.created_at),
            decided_at: p.decided_at.map(instant),
            payment_proof: p.payment_proof,
            proof_problem: None,
            admin_notes: p.admin_notes,
        }
    }
}

/// The purchase as its buyer sees it on the receipt: no ID document, no admin notes.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptPurchaseDto {
    pub id: i64,
    pub reference: String,
    pub raffle_id: i64,
    pub raffle_title: String,
    pub ticket_numbers: Vec<u32>,
    /// The numbers as shown to people (zero-padded to the raffle's width).
    pub ticket_labels: Vec<String>,
    pub customer_name: String,
    pub customer_email: String,
    pub payment_method: String,
    pub total_amount: String,
    pub discount_applied: String,
    pub converted_total: Option<ConvertedTotalDto>,
    pub status: String,
    pub created_at: String,
}

/// The answer to a purchase.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseResponse {
    pub purchase: ReceiptPurchaseDto,
    /// True for an admin's test purchase: nothing was held or will be processed.
    pub test_mode: bool,
    pub ticket_numbers: Vec<u32>,
    pub total_amount: String,
    pub quote: PriceQuoteDto,
    /// The buyer's secret key to this purchase, given out only here: send it back to attach
    /// the payment proof and to read the invoice. `null` for test purchases.
    pub purchase_token: Option<String>,
}

impl From<PurchaseReceipt> for PurchaseResponse {
    fn from(receipt: PurchaseReceipt) -> Self {
        let max_tickets = receipt.max_tickets;
        let p = receipt.purchase;
        Self {
            purchase_token: receipt.access_key,
            test_mode: receipt.test_mode,
            ticket_numbers: p.ticket_numbers.clone(),
            total_amount: p.total_amount.to_string(),
            quote: receipt.quote.into(),
            purchase: ReceiptPurchaseDto {
                converted_total: converted(&p),
                ticket_labels: p
                    .ticket_numbers
                    .iter()
                    .map(|n| display_number(*n, max_tickets))
                    .collect(),
                id: p.id,
                reference: p.reference,
                raffle_id: p.raffle_id,
                raffle_title: p.raffle_title,
                ticket_numbers: p.ticket_numbers,
                customer_name: p.customer_name,
                customer_email: p.customer_email,
                payment_method: p.payment_method,
                total_amount: p.total_amount.to_string(),
                discount_applied: p.discount_applied.to_string(),
                status: p.status.as_str().to_owned(),
                created_at: instant(p.created_at),
            },
        }
    }
}

/// The purchase form (multipart). Unknown fields are ignored.
#[derive(MultipartForm)]
pub struct PurchaseMultipart {
    #[multipart(rename = "customerName")]
    customer_name: Option<Text<String>>,
    #[multipart(rename = "customerId")]
    customer_id: Option<Text<String>>,
    #[multipart(rename = "customerEmail")]
    customer_email: Option<Text<String>>,
    #[multipart(rename = "customerPhone")]
    customer_phone: Option<Text<String>>,
    #[multipart(rename = "customerCountry")]
    customer_country: Option<Text<String>>,
    #[multipart(rename = "paymentMethod")]
    payment_method: Option<Text<String>>,
    #[multipart(rename = "raffleId")]
    raffle_id: Option<Text<String>>,
    #[multipart(rename = "ticketNumbers")]
    ticket_numbers: Option<Text<String>>,
    #[multipart(rename = "totalAmount")]
    total_amount: Option<Text<String>>,
    #[multipart(rename = "discountApplied")]
    discount_applied: Option<Text<String>>,
    #[multipart(rename = "acceptTerms")]
    accept_terms: Option<Text<String>>,
}

impl From<PurchaseMultipart> for PurchaseForm {
    fn from(m: PurchaseMultipart) -> Self {
        let text = |t: Option<Text<String>>| t.map(Text::into_inner);
        Self {
            customer: CustomerInput {
                name: text(m.customer_name),
                id_document: text(m.customer_id),
                email: text(m.customer_email),
                phone: text(m.customer_phone),
                country: text(m.customer_country),
            },
            payment_method: text(m.payment_method),
            raffle_id: text(m.raffle_id),
            ticket_numbers: text(m.ticket_numbers),
            total_amount: text(m.total_amount),
            discount_applied: text(m.discount_applied),
            accept_terms: text(m.accept_terms),
        }
    }
}

/// The purchase form's fields, for the documentation (sent as `multipart/form-data`).
#[derive(ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct PurchaseFormSchema {
    /// At least 2 characters.
    customer_name: String,
    /// ID card or passport, at least 5 characters.
    customer_id: String,
    customer_email: String,
    /// At least 10 digits.
    customer_phone: String,
    /// venezuela, colombia, mexico, argentina, peru, ecuador, estados-unidos or other.
    customer_country: String,
    /// The method's id (or its name).
    payment_method: String,
    raffle_id: Option<String>,
    /// A JSON array of numbers, e.g. `[7, 42]`.
    #[schema(example = "[7, 42]")]
    ticket_numbers: String,
    /// What the client computed; it must match the server's price or nothing is written.
    #[schema(example = "26.00")]
    total_amount: String,
    discount_applied: Option<String>,
    accept_terms: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct VerifyRequest {
    pub email: Option<String>,
    pub phone: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerificationDto {
    /// Masked: first name and initial.
    pub customer_name: String,
    /// In full when looked up by e-mail, masked otherwise.
    pub customer_email: String,
    /// In full when looked up by phone, masked otherwise.
    pub customer_phone: String,
    pub raffles: Vec<VerifiedEntryDto>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifiedRaffleDto {
    pub id: i64,
    pub title: String,
    /// Cut at 100 characters.
    pub description: String,
    pub price: String,
    pub draw_date: Option<String>,
    pub max_tickets: u32,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifiedPurchaseDto {
    pub reference: String,
    pub total_amount: String,
    pub payment_method: String,
    pub status: String,
    pub created_at: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifiedEntryDto {
    pub raffle: VerifiedRaffleDto,
    pub tickets: Vec<u32>,
    pub purchase: VerifiedPurchaseDto,
}

impl From<Verification> for VerificationDto {
    fn from(v: Verification) -> Self {
        Self {
            customer_name: v.customer_name,
            customer_email: v.customer_email,
            customer_phone: v.customer_phone,
            raffles: v
                .entries
                .into_iter()
                .map(|(raffle, purchase)| VerifiedEntryDto {
                    raffle: VerifiedRaffleDto {
                        id: raffle.id,
                        description: raffle.description.chars().take(100).collect(),
                        title: raffle.title,
                        price: raffle.price.money().to_string(),
                        draw_date: raffle.draw_date.map(instant),
                        max_tickets: raffle.max_tickets,
                    },
                    tickets: purchase.ticket_numbers,
                    purchase: VerifiedPurchaseDto {
                        reference: purchase.reference,
                        total_amount: purchase.total_amount.to_string(),
                        payment_method: purchase.payment_method,
                        status: purchase.status.as_str().to_owned(),
                        created_at: instant(purchase.created_at),
                    },
                })
                .collect(),
        }
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecisionRequest {
    /// approved or rejected.
    pub status: String,
    /// Required to reject.
    pub admin_notes: Option<String>,
}

/// Filters and page of the admin purchase list (all optional).
#[derive(Deserialize, IntoParams, Default)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct PurchaseSearchParams {
    pub raffle_id: Option<i64>,
    /// Part of the customer's name, any case.
    pub name: Option<String>,
    /// pending, approved, rejected or test.
    pub status: Option<String>,
    /// Comma-separated numbers: purchases holding any of them.
    #[param(example = "7,42")]
    pub tickets: Option<String>,
    /// A day, `YYYY-MM-DD`, in the admin's time zone (see `utcOffsetMinutes`).
    pub date: Option<String>,
    /// The admin's offset from UTC in minutes (Caracas: -240). Defaults to 0.
    pub utc_offset_minutes: Option<i32>,
    /// Only purchases with an id up to this one. An export passes the highest id of its first
    /// page, so purchases arriving while it pages neither shift nor repeat rows.
    pub max_id: Option<i64>,
    /// 1-based; defaults to 1.
    #[param(minimum = 1, maximum = 1000000)]
    pub page: Option<u32>,
    /// 1 to 100; defaults to 10.
    #[param(minimum = 1, maximum = 100)]
    pub page_size: Option<u32>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseSummaryDto {
    /// Tickets of approved purchases matching the filters.
    pub tickets_sold: u64,
    /// Approved totals matching the filters, USD.
    pub total_revenue: String,
    pub pending_purchases: u64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PurchasePageDto {
    pub items: Vec<PurchaseDto>,
    /// Purchases matching the filters, across all pages.
    pub total: u64,
    pub page: u32,
    pub page_size: u32,
    pub total_pages: u64,
    pub summary: PurchaseSummaryDto,
}

impl PurchasePageDto {
    pub fn new(page: PurchasePage, number: u32, size: u32) -> Self {
        Self {
            total_pages: page.total.div_ceil(u64::from(size.max(1))),
            total: page.total,
            page: number,
            page_size: size,
            summary: PurchaseSummaryDto {
                tickets_sold: page.summary.tickets_sold,
                total_revenue: page.summary.total_revenue.to_string(),
                pending_purchases: page.summary.pending_purchases,
            },
            items: page.items.into_iter().map(PurchaseDto::from).collect(),
        }
    }
}
