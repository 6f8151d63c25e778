use rifa_app::catalog::SavedRaffle;
use rifa_domain::Lang;
use rifa_domain::pricing::PriceQuote;
use rifa_domain::raffle::{Raffle, RaffleInput};
use rifa_ports::Promotion;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::instant;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RaffleDto {
    pub id: i64,
    pub title: String,
    pub description: String,
    pub image: String,
    /// Price of one ticket in USD.
    #[schema(example = "13.00")]
    pub price: String,
    /// available, finished, postponed, inactive or completed.
    pub status: String,
    /// Whether the public can buy it (status available).
    pub active: bool,
    /// Numbers run from 1 to this.
    pub max_tickets: u32,
    /// Numbers held by pending or approved purchases.
    pub tickets_sold: u32,
    pub tickets_available: u32,
    pub min_tickets_per_purchase: Option<u32>,
    pub max_tickets_per_purchase: Option<u32>,
    /// The limits that apply: unset minimum is 1, unset maximum equals the minimum.
    pub purchase_limits: PurchaseLimitsDto,
    pub draw_date: Option<String>,
    pub end_date: Option<String>,
    pub created_at: String,
    /// Minutes a purchase without a payment proof holds its numbers.
    pub hold_minutes: u32,
    pub sales_close_hours_before_draw: u32,
    /// When sales close: the draw date less `salesCloseHoursBeforeDraw`, or the end date when
    /// there is no draw date; `null` when neither is set.
    pub sales_close_at: Option<String>,
    /// Whether the public can buy right now: status available and before `salesCloseAt`.
    pub sales_open: bool,
    /// The server's clock when answering, so countdowns agree with it.
    pub server_time: String,
}

#[derive(Serialize, ToSchema)]
pub struct PurchaseLimitsDto {
    pub min: u32,
    pub max: u32,
}

impl From<Raffle> for RaffleDto {
    fn from(r: Raffle) -> Self {
        let now = chrono::Utc::now();
        Self {
            hold_minutes: r.sales.hold_minutes(),
            sales_close_hours_before_draw: r.sales.close_hours_before_draw(),
            sales_close_at: r.sales_close_at().map(instant),
            sales_open: r.sales_open(now),
            server_time: instant(now),
            id: r.id.get(),
            // Every read that answers a raffle counts its sales.
            tickets_available: r.tickets_available().unwrap_or(r.max_tickets),
            price: r.price.money().to_string(),
            status: r.status.as_str().to_owned(),
            active: r.status.is_on_sale(),
            max_tickets: r.max_tickets,
            tickets_sold: r.tickets_sold.unwrap_or(0),
            min_tickets_per_purchase: r.limits.stored_min(),
            max_tickets_per_purchase: r.limits.stored_max(),
            purchase_limits: PurchaseLimitsDto {
                min: r.limits.min(),
                max: r.limits.max(),
            },
            draw_date: r.draw_date.map(instant),
            end_date: r.end_date.map(instant),
            created_at: instant(r.created_at),
            title: r.title,
            description: r.description,
            image: r.image,
        }
    }
}

/// The spec's ticket list entry: every number listed is available.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketDto {
    /// Equal to the number (tickets have no row of their own until taken).
    pub id: u32,
    pub ticket_number: u32,
    #[schema(example = "available")]
    pub status: &'static str,
}

#[derive(Serialize, ToSchema)]
pub struct PromotionDto {
    pub id: i64,
    pub description: String,
}

impl From<Promotion> for PromotionDto {
    fn from(p: Promotion) -> Self {
        Self {
            id: p.id,
            description: p.description,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppliedDiscountDto {
    pub label: String,
    pub percentage: String,
}

/// SPEC §3 "Price calculation result".
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PriceQuoteDto {
    pub ticket_count: u32,
    /// The raffle's own price per ticket.
    pub base_price: String,
    pub subtotal: String,
    pub discount: String,
    pub discount_percentage: String,
    pub total: String,
    pub applied_discount: Option<AppliedDiscountDto>,
    pub meets_minimum: bool,
}

impl From<PriceQuote> for PriceQuoteDto {
    fn from(q: PriceQuote) -> Self {
        Self {
            ticket_count: q.ticket_count,
            base_price: q.base_price.to_string(),
            subtotal: q.subtotal.to_string(),
            discount: q.discount.to_string(),
            discount_percentage: q.discount_percentage.normalize().to_string(),
            total: q.total.to_string(),
            applied_discount: q.applied_discount.map(|d| AppliedDiscountDto {
                label: d.label,
                percentage: d.percentage.normalize().to_string(),
            }),
            meets_minimum: q.meets_minimum,
        }
    }
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct QuoteParams {
    /// How many tickets.
    #[param(minimum = 0, maximum = 99999)]
    pub count: u32,
}

/// A raffle as an admin creates or edits it. Text is trimmed; an empty image becomes the
/// default one; the draw date (a day or an instant) is stored as 23:59:59.999 UTC of its day.
#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase")]
pub struct RaffleRequest {
    pub title: Option<String>,
    pub description: Option<String>,
    pub image: Option<String>,
    /// USD, at least 0.01, two decimals at most (a number or a decimal string).
    #[schema(value_type = Option<f64>, example = 13)]
    pub price: Option<rust_decimal::Decimal>,
    /// Defaults to available.
    pub status: Option<String>,
    /// 1 to 99999; defaults to 9999.
    pub max_tickets: Option<i64>,
    pub max_tickets_per_purchase: Option<i64>,
    pub min_tickets_per_purchase: Option<i64>,
    #[schema(example = "2025-08-15")]
    pub draw_date: Option<String>,
    pub end_date: Option<String>,
    /// Minutes a purchase without a payment proof holds its numbers: 1 to 10080; defaults to
    /// 30.
    pub hold_minutes: Option<i64>,
    /// Sales close this many hours before the draw date: 0 to 720; defaults to 0.
    pub sales_close_hours_before_draw: Option<i64>,
}

impl From<RaffleRequest> for RaffleInput {
    fn from(r: RaffleRequest) -> Self {
        Self {
            title: r.title,
            description: r.description,
            image: r.image,
            price: r.price,
            status: r.status,
            max_tickets: r.max_tickets,
            min_tickets_per_purchase: r.min_tickets_per_purchase,
            max_tickets_per_purchase: r.max_tickets_per_purchase,
            draw_date: r.draw_date,
            end_date: r.end_date,
            hold_minutes: r.hold_minutes,
            sales_close_hours_before_draw: r.sales_close_hours_before_draw,
        }
    }
}

/// A new raffle: its fields and, optionally, its prizes in the order they are drawn (the
/// form's first prize). Without a prize a raffle asked to be on sale is saved unpublished.
#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase")]
pub struct CreateRaffleRequest {
    #[serde(flatten)]
    pub raffle: RaffleRequest,
    /// Needs the draws permission besides the catalogue's.
    pub prizes: Option<Vec<super::PrizeRequest>>,
}

/// A raffle as saved. `keptUnpublished` is present when it was asked to be on sale but has no
/// prize yet: it was saved inactive, and the message says what to add.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SavedRaffleDto {
    #[serde(flatten)]
    pub raffle: RaffleDto,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_unpublished: Option<NoticeDto>,
}

/// Something the answer wants the admin to know: a stable code and its words in the request's
/// language.
#[derive(Serialize, ToSchema)]
pub struct NoticeDto {
    pub code: String,
    pub message: String,
}

impl SavedRaffleDto {
    #[must_use]
    pub fn new(saved: SavedRaffle, lang: Lang) -> Self {
        const HELD_BACK: &str = "raffle_kept_unpublished_without_prize";
        Self {
            kept_unpublished: saved.held_back_without_prizes.then(|| NoticeDto {
                code: HELD_BACK.to_owned(),
                message: rifa_text::text(HELD_BACK, lang),
            }),
            raffle: saved.raffle.into(),
        }
    }
}
