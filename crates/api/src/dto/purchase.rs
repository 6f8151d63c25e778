use actix_multipart::form::MultipartForm;
use actix_multipart::form::text::Text;
use rifa_app::links::purchase_page_path;
use rifa_app::lookup::Verification;
use std::str::FromStr;

use rifa_app::purchasing::PurchaseReceipt;
use rifa_domain::customer::{Customer, CustomerInput};
use rifa_domain::money::Money;
use rifa_domain::payment::PaymentMethodId;
use rifa_domain::payment_reference::PaymentReference;
use rifa_domain::purchase::{MethodChoice, Purchase, PurchaseRequest, TicketChoice};
use rifa_domain::raffle::RaffleId;
use rifa_domain::ticket::{TicketNumber, display_number};
use rifa_domain::{FieldError, FieldErrors};
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
    /// pending, approved, rejected, test or expired (no proof before the hold's deadline).
    pub status: String,
    pub created_at: String,
    pub decided_at: Option<String>,
    /// Until when a pending purchase without a proof holds its numbers.
    pub hold_expires_at: Option<String>,
    /// A link to the payment proof (image or PDF) valid for 10 minutes: relative to the API
    /// (`/api/proofs/…`, also served as `/uploads/…`) or an object-store URL.
    pub payment_proof: Option<String>,
    /// The payment reference the buyer typed.
    pub payment_reference: Option<String>,
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

/// Ticket numbers as the API sends them: plain numbers.
pub(crate) fn numbers(tickets: &[TicketNumber]) -> Vec<u32> {
    tickets.iter().map(|n| n.get()).collect()
}

pub(crate) fn converted(p: &Purchase) -> Option<ConvertedTotalDto> {
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
            id: p.id.get(),
            reference: p.reference,
            raffle_id: p.raffle_id.get(),
            raffle_title: p.raffle_title,
            ticket_numbers: numbers(&p.ticket_numbers),
            customer_name: p.customer_name,
            customer_id: p.customer_id_document,
            customer_email: p.customer_email,
            customer_phone: p.customer_phone,
            customer_country: p.customer_country,
            payment_method: p.payment_method,
            payment_method_id: p.payment_method_id.map(PaymentMethodId::get),
            total_amount: p.total_amount.to_string(),
            discount_applied: p.discount_applied.to_string(),
            status: p.status.as_str().to_owned(),
            created_at: instant(p.created_at),
            decided_at: p.decided_at.map(instant),
            hold_expires_at: p.hold_expires_at.map(instant),
            payment_proof: p.payment_proof,
            payment_reference: p.payment_reference,
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
    /// The buyer's secret key to this purchase: send it back to attach the payment proof and
    /// to read the invoice. `null` for test purchases.
    pub purchase_token: Option<String>,
    /// The buyer's private page of the purchase on the site (`/compra/{id}#{token}`, the token
    /// in the fragment); every e-mail links it too. `null` for test purchases.
    pub buyer_page_path: Option<String>,
    /// Until when the numbers are held without a payment proof.
    pub hold_expires_at: Option<String>,
}

impl From<PurchaseReceipt> for PurchaseResponse {
    fn from(receipt: PurchaseReceipt) -> Self {
        let max_tickets = receipt.max_tickets;
        let p = receipt.purchase;
        Self {
            buyer_page_path: receipt
                .access_key
                .as_deref()
                .map(|key| purchase_page_path(p.id, key)),
            hold_expires_at: p.hold_expires_at.map(instant),
            purchase_token: receipt.access_key,
            test_mode: receipt.test_mode,
            ticket_numbers: numbers(&p.ticket_numbers),
            total_amount: p.total_amount.to_string(),
            quote: receipt.quote.into(),
            purchase: ReceiptPurchaseDto {
                converted_total: converted(&p),
                ticket_labels: p
                    .ticket_numbers
                    .iter()
                    .map(|n| display_number(*n, max_tickets))
                    .collect(),
                id: p.id.get(),
                reference: p.reference,
                raffle_id: p.raffle_id.get(),
                raffle_title: p.raffle_title,
                ticket_numbers: numbers(&p.ticket_numbers),
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
    #[multipart(rename = "randomCount")]
    random_count: Option<Text<String>>,
    #[multipart(rename = "totalAmount")]
    total_amount: Option<Text<String>>,
    #[multipart(rename = "discountApplied")]
    discount_applied: Option<Text<String>>,
    #[multipart(rename = "acceptTerms")]
    accept_terms: Option<Text<String>>,
    #[multipart(rename = "paymentReference")]
    payment_reference: Option<Text<String>>,
}

impl PurchaseMultipart {
    /// The form as a domain request for the raffle at `raffle` (the path's), with every field
    /// that is wrong on its own reported at once. What depends on the raffle (numbers in range,
    /// limits, the method on offer, the price) is the use case's to check.
    ///
    /// # Errors
    /// Every bad field, with the spec's messages.
    pub fn parse(self, raffle: RaffleId) -> Result<PurchaseRequest, FieldErrors> {
        let text = |t: Option<Text<String>>| t.map(Text::into_inner);
        let mut errors = FieldErrors::new();
        if let Some(sent) = text(self.raffle_id)
            && !sent.trim().is_empty()
            && sent.trim().parse::<i64>().ok() != Some(raffle.get())
        {
            let only = raffle.to_string();
            errors.add(
                "raffleId",
                FieldError::OutOfRange {
                    min: only.clone(),
                    max: only,
                },
            );
        }
        let tickets = ticket_choice(
            text(self.ticket_numbers).as_deref(),
            text(self.random_count).as_deref(),
            &mut errors,
        );
        let customer = Customer::parse(
            &CustomerInput {
                name: text(self.customer_name),
                id_document: text(self.customer_id),
                email: text(self.customer_email),
                phone: text(self.customer_phone),
                country: text(self.customer_country),
            },
            &mut errors,
        );
        let payment_method = errors.check(
            "paymentMethod",
            method_choice(text(self.payment_method).as_deref()),
        );
        if !accepted(text(self.accept_terms).as_deref()) {
            errors.add("acceptTerms", FieldError::TermsNotAccepted);
        }
        let payment_reference = errors
            .check(
                "paymentReference",
                PaymentReference::parse(text(self.payment_reference).as_deref().unwrap_or("")),
            )
            .flatten();
        let total_amount = errors.check(
            "totalAmount",
            text(self.total_amount)
                .as_deref()
                .ok_or(FieldError::Required)
                .and_then(Money::from_str),
        );
        let discount_applied = match text(self.discount_applied)
            .as_deref()
            .map(str::trim)
            .filter(|d| !d.is_empty())
        {
            Some(raw) => errors.check("discountApplied", Money::from_str(raw)),
            None => Some(Money::ZERO),
        };
        match (
            customer,
            payment_method,
            tickets,
            total_amount,
            discount_applied,
        ) {
            (
                Some(customer),
                Some(payment_method),
                Some(tickets),
                Some(total_amount),
                Some(discount_applied),
            ) if errors.is_empty() => Ok(PurchaseRequest {
                customer,
                payment_method,
                tickets,
                total_amount,
                discount_applied,
                payment_reference,
            }),
            _ => Err(errors),
        }
    }
}

/// The numbers the buyer chose, or how many random ones they asked for: one or the other.
fn ticket_choice(
    numbers: Option<&str>,
    random_count: Option<&str>,
    errors: &mut FieldErrors,
) -> Option<TicketChoice> {
    let blank = |raw: Option<&str>| raw.map(str::trim).is_none_or(str::is_empty);
    let Some(random_count) = random_count.map(str::trim).filter(|r| !r.is_empty()) else {
        return errors
            .check("ticketNumbers", parse_numbers(numbers))
            .map(TicketChoice::Numbers);
    };
    if !blank(numbers) && numbers.map(str::trim) != Some("[]") {
        errors.add("randomCount", FieldError::NumbersAndRandomCount);
        return None;
    }
    // Past a u32 is past every raffle's limit: the use case names the limit.
    let count = random_count
        .parse::<u64>()
        .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
        .map_err(|_| FieldError::NotANumber);
    errors.check("randomCount", count).map(TicketChoice::Random)
}

/// Multipart sends the numbers as a JSON array; digit strings are taken too.
fn parse_numbers(raw: Option<&str>) -> Result<Vec<i64>, FieldError> {
    let raw = raw
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .ok_or(FieldError::TicketsEmpty)?;
    let values: Vec<serde_json::Value> =
        serde_json::from_str(raw).map_err(|_| FieldError::NotANumber)?;
    let numbers = values
        .iter()
        .map(|v| match v {
            serde_json::Value::Number(n) => n.as_i64().ok_or(FieldError::NotANumber),
            serde_json::Value::String(s) => {
                s.trim().parse::<i64>().map_err(|_| FieldError::NotANumber)
            }
            _ => Err(FieldError::NotANumber),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if numbers.is_empty() {
        return Err(FieldError::TicketsEmpty);
    }
    Ok(numbers)
}

/// The method's id or, for older clients, its name.
fn method_choice(raw: Option<&str>) -> Result<MethodChoice, FieldError> {
    let wanted = raw
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .ok_or(FieldError::PaymentMethodRequired)?;
    Ok(wanted.parse::<i64>().map_or_else(
        |_| MethodChoice::Name(wanted.to_owned()),
        |id| MethodChoice::Id(PaymentMethodId::new(id)),
    ))
}

/// A missing checkbox counts as accepted (older clients never sent it); a sent one must say yes.
fn accepted(raw: Option<&str>) -> bool {
    raw.is_none_or(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "true" | "on" | "1" | "yes"
        )
    })
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
    /// A JSON array of numbers, e.g. `[7, 42]`. Leave it out (or `[]`) to send `randomCount`.
    #[schema(example = "[7, 42]")]
    ticket_numbers: Option<String>,
    /// Instead of `ticketNumbers`: how many numbers the server should draw at random among
    /// those still free when the purchase is written (409 `too_few_left` when fewer remain).
    /// The numbers drawn come back in the answer.
    #[schema(example = "3")]
    random_count: Option<String>,
    /// What the client computed; it must match the server's price or nothing is written.
    #[schema(example = "26.00")]
    total_amount: String,
    discount_applied: Option<String>,
    accept_terms: Option<String>,
    /// The bank's reference for the payment (letters, digits, spaces and `- . / # _`, up to
    /// 40). Required, with a minimum length, when the method says so; one already paying for a
    /// live purchase with the same method is refused (409 `payment_reference_used`).
    #[schema(example = "012345678901")]
    payment_reference: Option<String>,
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
                        id: raffle.id.get(),
                        description: raffle.description.chars().take(100).collect(),
                        title: raffle.title,
                        price: raffle.price.money().to_string(),
                        draw_date: raffle.draw_date.map(instant),
                        max_tickets: raffle.max_tickets,
                    },
                    tickets: numbers(&purchase.ticket_numbers),
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
#[serde(rename_all = "camelCase", deny_unknown_fields)]
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
    /// The id of the first purchase of a page the panel shows (`anchorPage`), with the same
    /// filters and page size: pages near it are read from there, so the next page of page
    /// 50,000 costs what page 2 does. Ignored when the purchase no longer exists.
    pub anchor_id: Option<i64>,
    /// The page `anchorId` starts; required with it.
    #[param(minimum = 1, maximum = 1000000)]
    pub anchor_page: Option<u32>,
}

/// The filters of an export: the search's, without its page.
#[derive(Deserialize, IntoParams, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct PurchaseExportParams {
    pub raffle_id: Option<i64>,
    /// Part of the customer's name, any case.
    pub name: Option<String>,
    /// pending, approved, rejected, test or expired.
    pub status: Option<String>,
    /// Comma-separated numbers: purchases holding any of them.
    #[param(example = "7,42")]
    pub tickets: Option<String>,
    /// A day, `YYYY-MM-DD`, in the admin's time zone (see `utcOffsetMinutes`).
    pub date: Option<String>,
    /// The admin's offset from UTC in minutes (Caracas: -240). Defaults to 0.
    pub utc_offset_minutes: Option<i32>,
}

impl PurchaseExportParams {
    /// The same filters as a search, to be read by the search's own parser.
    #[must_use]
    pub fn as_search(&self) -> PurchaseSearchParams {
        PurchaseSearchParams {
            raffle_id: self.raffle_id,
            name: self.name.clone(),
            status: self.status.clone(),
            tickets: self.tickets.clone(),
            date: self.date.clone(),
            utc_offset_minutes: self.utc_offset_minutes,
            ..PurchaseSearchParams::default()
        }
    }
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
    /// Purchases matching the filters, across all pages; when `totalCapped`, only a floor.
    pub total: u64,
    pub page: u32,
    pub page_size: u32,
    pub total_pages: u64,
    /// More than 10,000 purchases match a name, numbers or a day: counting stopped there,
    /// `total` is 10,000 and `summary` is null. Searches by raffle and status alone are always
    /// counted in full.
    pub total_capped: bool,
    pub summary: Option<PurchaseSummaryDto>,
}

impl PurchasePageDto {
    pub fn new(page: PurchasePage, number: u32, size: u32) -> Self {
        Self {
            total_pages: page.total.div_ceil(u64::from(size.max(1))),
            total: page.total,
            page: number,
            page_size: size,
            total_capped: page.summary.is_none(),
            summary: page.summary.map(|summary| PurchaseSummaryDto {
                tickets_sold: summary.tickets_sold,
                total_revenue: summary.total_revenue.to_string(),
                pending_purchases: summary.pending_purchases,
            }),
            items: page.items.into_iter().map(PurchaseDto::from).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rifa_ports::PurchaseSummary;

    #[test]
    fn ticket_numbers_come_as_a_json_array_of_numbers_or_digit_strings() {
        assert_eq!(parse_numbers(Some("[3, \"7\", 12]")), Ok(vec![3, 7, 12]));
        assert_eq!(parse_numbers(Some("[-3]")), Ok(vec![-3]));
        assert_eq!(parse_numbers(Some("[]")), Err(FieldError::TicketsEmpty));
        assert_eq!(parse_numbers(None), Err(FieldError::TicketsEmpty));
        for bad in ["3,7", "{\"a\":1}", "[1.5]", "[\"x\"]", "[null]", "[1e99]"] {
            assert_eq!(
                parse_numbers(Some(bad)),
                Err(FieldError::NotANumber),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_page_whose_count_stopped_says_so_and_has_no_summary() {
        let capped = PurchasePage {
            items: vec![],
            total: 10_000,
            summary: None,
        };
        let json = serde_json::to_value(PurchasePageDto::new(capped, 3, 10)).unwrap();
        assert_eq!(json["totalCapped"], true);
        assert!(json["summary"].is_null());
        assert_eq!(
            (json["total"].clone(), json["totalPages"].clone()),
            (10_000.into(), 1_000.into())
        );
        let counted = PurchasePage {
            items: vec![],
            total: 2,
            summary: Some(PurchaseSummary::default()),
        };
        let json = serde_json::to_value(PurchasePageDto::new(counted, 1, 10)).unwrap();
        assert_eq!(json["totalCapped"], false);
        assert_eq!(json["summary"]["totalRevenue"], "0.00");
    }

    #[test]
    fn terms_count_as_accepted_unless_sent_as_refused() {
        for yes in [None, Some("true"), Some("on"), Some("1")] {
            assert!(accepted(yes));
        }
        for no in [Some("false"), Some("0"), Some("")] {
            assert!(!accepted(no));
        }
    }

    fn form(fields: &[(&str, &str)]) -> PurchaseMultipart {
        let field = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| Text((*v).to_owned()))
        };
        PurchaseMultipart {
            customer_name: field("customerName"),
            customer_id: field("customerId"),
            customer_email: field("customerEmail"),
            customer_phone: field("customerPhone"),
            customer_country: field("customerCountry"),
            payment_method: field("paymentMethod"),
            raffle_id: field("raffleId"),
            ticket_numbers: field("ticketNumbers"),
            random_count: field("randomCount"),
            total_amount: field("totalAmount"),
            discount_applied: field("discountApplied"),
            accept_terms: field("acceptTerms"),
            payment_reference: field("paymentReference"),
        }
    }

    const GOOD: [(&str, &str); 9] = [
        ("customerName", "Ana Ruiz"),
        ("customerId", "V12345678"),
        ("customerEmail", "Ana@Correo.com"),
        ("customerPhone", "0414-123-4567"),
        ("customerCountry", "venezuela"),
        ("paymentMethod", "3"),
        ("ticketNumbers", "[7, \"42\"]"),
        ("totalAmount", "26.00"),
        ("acceptTerms", "on"),
    ];

    #[test]
    fn a_good_form_becomes_the_domains_request() {
        let request = form(&GOOD).parse(RaffleId::new(5)).unwrap();

        assert_eq!(request.customer.email.as_str(), "ana@correo.com");
        assert_eq!(request.customer.phone.digits(), "04141234567");
        assert_eq!(
            request.payment_method,
            MethodChoice::Id(PaymentMethodId::new(3))
        );
        assert_eq!(request.tickets, TicketChoice::Numbers(vec![7, 42]));
        assert_eq!(request.total_amount.to_string(), "26.00");
        assert_eq!(request.discount_applied, Money::ZERO);
    }

    #[test]
    fn every_field_wrong_on_its_own_is_reported_at_once() {
        let bad = form(&[
            ("customerName", "A"),
            ("customerEmail", "no-es-un-email"),
            ("raffleId", "6"),
            ("ticketNumbers", "[1.5]"),
            ("totalAmount", "doce"),
            ("discountApplied", "x"),
            ("acceptTerms", "false"),
        ]);

        let errors = bad.parse(RaffleId::new(5)).unwrap_err();

        let mut named: Vec<_> = errors.iter().map(|(field, _)| field.as_ref()).collect();
        named.sort_unstable();
        assert_eq!(
            named,
            [
                "acceptTerms",
                "customerCountry",
                "customerEmail",
                "customerId",
                "customerName",
                "customerPhone",
                "discountApplied",
                "paymentMethod",
                "raffleId",
                "ticketNumbers",
                "totalAmount",
            ]
        );
    }

    #[test]
    fn a_random_count_replaces_the_numbers_and_never_comes_with_them() {
        let with = |numbers: Option<&'static str>, count: &'static str| {
            let mut fields: Vec<_> = GOOD
                .iter()
                .filter(|(k, _)| *k != "ticketNumbers")
                .copied()
                .collect();
            fields.extend(numbers.map(|n| ("ticketNumbers", n)));
            fields.push(("randomCount", count));
            form(&fields).parse(RaffleId::new(5))
        };

        assert_eq!(with(None, " 3 ").unwrap().tickets, TicketChoice::Random(3));
        assert_eq!(
            with(Some("[]"), "2").unwrap().tickets,
            TicketChoice::Random(2)
        );
        assert_eq!(
            with(None, "99999999999").unwrap().tickets,
            TicketChoice::Random(u32::MAX),
            "past every limit, for the use case to name the limit"
        );
        let refused = |numbers, count| {
            with(numbers, count)
                .unwrap_err()
                .iter()
                .map(|(field, error)| (field.to_string(), error.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            refused(Some("[7]"), "2"),
            [("randomCount".to_owned(), FieldError::NumbersAndRandomCount)]
        );
        for not_a_count in ["tres", "-1", "2.5"] {
            assert_eq!(
                refused(None, not_a_count),
                [("randomCount".to_owned(), FieldError::NotANumber)],
                "{not_a_count}"
            );
        }
    }

    #[test]
    fn the_raffle_the_form_names_must_be_the_paths() {
        let mut fields = GOOD.to_vec();
        fields.push(("raffleId", "5"));
        assert!(form(&fields).parse(RaffleId::new(5)).is_ok());
        for other in ["6", "abc"] {
            let mut fields = GOOD.to_vec();
            fields.push(("raffleId", other));
            let errors = form(&fields).parse(RaffleId::new(5)).unwrap_err();
            assert_eq!(
                errors
                    .iter()
                    .map(|(field, error)| (field.as_ref(), error))
                    .collect::<Vec<_>>(),
                [(
                    "raffleId",
                    &FieldError::OutOfRange {
                        min: "5".into(),
                        max: "5".into()
                    }
                )],
                "{other}"
            );
        }
    }

    #[test]
    fn a_method_is_named_by_id_or_by_name() {
        assert_eq!(
            method_choice(Some(" 7 ")),
            Ok(MethodChoice::Id(PaymentMethodId::new(7)))
        );
        assert_eq!(
            method_choice(Some("Zelle")),
            Ok(MethodChoice::Name("Zelle".into()))
        );
        assert_eq!(
            method_choice(Some("  ")),
            Err(FieldError::PaymentMethodRequired)
        );
    }
}
