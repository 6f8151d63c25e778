//! Raffles: their statuses, per-purchase limits and the validated form an operator submits.

use chrono::{DateTime, Utc};

use crate::calendar;
use crate::money::TicketPrice;
use crate::sales::SalesTerms;
use crate::ticket::MAX_TICKETS_PER_RAFFLE;
use crate::validation::{self, FieldError, FieldErrors, TextKind};

pub use crate::id::RaffleId;

/// The image shown when an operator leaves it empty; the frontend ships this file.
pub const DEFAULT_RAFFLE_IMAGE: &str = "/images/raffle-default.jpg";
pub const DEFAULT_MAX_TICKETS: u32 = 9_999;
pub const TITLE_MAX: usize = 200;
pub const DESCRIPTION_MAX: usize = 5_000;
pub const URL_MAX: usize = 2_048;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RaffleStatus {
    /// On sale and listed publicly ("Activo" in the admin form).
    Available,
    Finished,
    Postponed,
    Inactive,
    Completed,
}

impl RaffleStatus {
    pub const ALL: [Self; 5] = [
        Self::Available,
        Self::Finished,
        Self::Postponed,
        Self::Inactive,
        Self::Completed,
    ];

    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Available => "available",
            Self::Finished => "finished",
            Self::Postponed => "postponed",
            Self::Inactive => "inactive",
            Self::Completed => "completed",
        }
    }

    /// # Errors
    /// `UnknownOption` listing the statuses.
    pub fn parse(raw: &str) -> Result<Self, FieldError> {
        Self::ALL
            .into_iter()
            .find(|s| s.as_str() == raw.trim())
            .ok_or_else(|| FieldError::UnknownOption {
                allowed: Self::ALL.map(Self::as_str).to_vec(),
            })
    }

    /// Only available raffles are sold to the public.
    #[must_use]
    pub fn is_on_sale(self) -> bool {
        self == Self::Available
    }

    /// Inactive raffles are drafts: nobody but an admin may open them. Finished or postponed
    /// ones stay readable so a shared link explains why it cannot be bought.
    #[must_use]
    pub fn is_publicly_visible(self) -> bool {
        self != Self::Inactive
    }
}

/// How many tickets one purchase must and may hold.
///
/// The raffle stores both limits as optional; when unset, the minimum is 1 and the maximum
/// equals the minimum, matching the picker's "1 each" default (SPEC §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PurchaseLimits {
    min: Option<u32>,
    max: Option<u32>,
}

impl PurchaseLimits {
    /// # Errors
    /// `OutOfRange` for a zero limit, `MinAboveMax` when both are set and crossed.
    pub fn new(min: Option<u32>, max: Option<u32>) -> Result<Self, FieldError> {
        let range = || FieldError::OutOfRange {
            min: "1".into(),
            max: MAX_TICKETS_PER_RAFFLE.to_string(),
        };
        for limit in [min, max].into_iter().flatten() {
            if !(1..=MAX_TICKETS_PER_RAFFLE).contains(&limit) {
                return Err(range());
            }
        }
        if let (Some(lo), Some(hi)) = (min, max)
            && lo > hi
        {
            return Err(FieldError::MinAboveMax);
        }
        Ok(Self { min, max })
    }

    #[must_use]
    pub fn min(self) -> u32 {
        self.min.unwrap_or(1)
    }

    #[must_use]
    pub fn max(self) -> u32 {
        self.max.unwrap_or_else(|| self.min())
    }

    #[must_use]
    pub fn stored_min(self) -> Option<u32> {
        self.min
    }

    #[must_use]
    pub fn stored_max(self) -> Option<u32> {
        self.max
    }
}

/// A raffle as stored, with the count of numbers currently held by purchases.
#[derive(Debug, Clone, PartialEq)]
pub struct Raffle {
    pub id: RaffleId,
    pub title: String,
    pub description: String,
    pub image: String,
    pub price: TicketPrice,
    pub status: RaffleStatus,
    pub max_tickets: u32,
    pub limits: PurchaseLimits,
    pub draw_date: Option<DateTime<Utc>>,
    pub end_date: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub sales: SalesTerms,
    /// Numbers held by pending or approved purchases; `None` when the read did not count them
    /// (reads that only need the raffle's terms skip the count, which grows with sales).
    pub tickets_sold: Option<u32>,
}

impl Raffle {
    /// When the public can no longer buy, whatever the status says.
    #[must_use]
    pub fn sales_close_at(&self) -> Option<DateTime<Utc>> {
        self.sales.closes_at(self.draw_date, self.end_date)
    }

    /// Whether the public can buy at `now`: on sale, and before sales close.
    #[must_use]
    pub fn sales_open(&self, now: DateTime<Utc>) -> bool {
        self.status.is_on_sale() && self.sales_close_at().is_none_or(|close| now < close)
    }

    #[must_use]
    pub fn tickets_available(&self) -> Option<u32> {
        self.tickets_sold
            .map(|sold| self.max_tickets.saturating_sub(sold))
    }
}

/// The fields an operator submits to create or update a raffle, before validation.
#[derive(Debug, Clone, Default)]
pub struct RaffleInput {
    pub title: Option<String>,
    pub description: Option<String>,
    pub image: Option<String>,
    pub price: Option<rust_decimal::Decimal>,
    pub status: Option<String>,
    pub max_tickets: Option<i64>,
    pub min_tickets_per_purchase: Option<i64>,
    pub max_tickets_per_purchase: Option<i64>,
    pub draw_date: Option<String>,
    pub end_date: Option<String>,
    /// Minutes a purchase without a proof holds its numbers (default 30).
    pub hold_minutes: Option<i64>,
    /// Sales close this many hours before the draw (default 0: at the draw).
    pub sales_close_hours_before_draw: Option<i64>,
}

/// A raffle's editable fields, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct RaffleDraft {
    pub title: String,
    pub description: String,
    pub image: String,
    pub price: TicketPrice,
    pub status: RaffleStatus,
    pub max_tickets: u32,
    pub limits: PurchaseLimits,
    pub draw_date: Option<DateTime<Utc>>,
    pub end_date: Option<DateTime<Utc>>,
    pub sales: SalesTerms,
}

impl RaffleDraft {
    /// A raffle is never on sale without what its draw needs: asked to go on sale with no
    /// prize, it is kept a draft (inactive). Whether it was is `true` in the answer.
    #[must_use]
    pub fn held_back_without_prizes(mut self, has_prizes: bool) -> (Self, bool) {
        let held_back = self.status.is_on_sale() && !has_prizes;
        if held_back {
            self.status = RaffleStatus::Inactive;
        }
        (self, held_back)
    }

    /// Applies the spec's rules: trimmed text, default image, status and size, draw date moved to
    /// the end of its day in UTC, limits within the raffle.
    ///
    /// # Errors
    /// Every field that failed, each with its message.
    pub fn parse(input: RaffleInput) -> Result<Self, FieldErrors> {
        let mut errors = FieldErrors::new();
        let title = errors.check(
            "title",
            validation::required_text(
                input.title.as_deref().unwrap_or(""),
                TextKind::SingleLine,
                1,
                TITLE_MAX,
            ),
        );
        let description = errors.check(
            "description",
            validation::required_text(
                input.description.as_deref().unwrap_or(""),
                TextKind::MultiLine,
                1,
                DESCRIPTION_MAX,
            ),
        );
        let image = match input.image.as_deref().map(str::trim) {
            None | Some("") => Some(DEFAULT_RAFFLE_IMAGE.to_owned()),
            Some(raw) => errors.check("image", validation::web_url(raw, URL_MAX)),
        };
        let price = errors.check(
            "price",
            input
                .price
                .ok_or(FieldError::Required)
                .and_then(TicketPrice::from_decimal),
        );
        let status = errors.check(
            "status",
            input
                .status
                .as_deref()
                .map_or(Ok(RaffleStatus::Available), RaffleStatus::parse),
        );
        let max_tickets = errors.check(
            "maxTickets",
            count_in_range(
                input
                    .max_tickets
                    .unwrap_or(i64::from(crate::raffle::DEFAULT_MAX_TICKETS)),
            ),
        );
        let min = errors.check(
            "minTicketsPerPurchase",
            optional_count(input.min_tickets_per_purchase),
        );
        let max = errors.check(
            "maxTicketsPerPurchase",
            optional_count(input.max_tickets_per_purchase),
        );
        let limits = match (min, max) {
            (Some(min), Some(max)) => {
                let limits = PurchaseLimits::new(min, max);
                let within_raffle = match (&limits, max_tickets) {
                    (Ok(l), Some(total)) => l.min() <= total,
                    _ => true,
                };
                match limits {
                    Ok(_) if !within_raffle => {
                        errors.add(
                            "minTicketsPerPurchase",
                            FieldError::OutOfRange {
                                min: "1".into(),
                                max: max_tickets.unwrap_or(1).to_string(),
                            },
                        );
                        None
                    }
                    other => errors.check("minTicketsPerPurchase", other),
                }
            }
            _ => None,
        };
        let draw_date = errors.check(
            "drawDate",
            input
                .draw_date
                .as_deref()
                .map(calendar::end_of_day_utc)
                .transpose(),
        );
        let end_date = errors.check(
            "endDate",
            input
                .end_date
                .as_deref()
                .map(calendar::parse_instant)
                .transpose(),
        );
        let hold_minutes = errors.check(
            "holdMinutes",
            SalesTerms::hold_minutes_from(input.hold_minutes),
        );
        let close_hours = errors.check(
            "salesCloseHoursBeforeDraw",
            SalesTerms::close_hours_from(input.sales_close_hours_before_draw),
        );

        errors.into_result()?;
        match (
            title,
            description,
            image,
            price,
            status,
            max_tickets,
            limits,
            draw_date,
            end_date,
            hold_minutes,
            close_hours,
        ) {
            (
                Some(title),
                Some(description),
                Some(image),
                Some(price),
                Some(status),
                Some(max_tickets),
                Some(limits),
                Some(draw_date),
                Some(end_date),
                Some(hold_minutes),
                Some(close_hours),
            ) => Ok(Self {
                title,
                description,
                image,
                price,
                status,
                max_tickets,
                limits,
                draw_date,
                end_date,
                sales: SalesTerms::stored(hold_minutes, close_hours),
            }),
            _ => Err(FieldErrors::single("title", FieldError::Required)),
        }
    }
}

fn count_in_range(raw: i64) -> Result<u32, FieldError> {
    u32::try_from(raw)
        .ok()
        .filter(|n| (1..=MAX_TICKETS_PER_RAFFLE).contains(n))
        .ok_or_else(|| FieldError::OutOfRange {
            min: "1".into(),
            max: MAX_TICKETS_PER_RAFFLE.to_string(),
        })
}

fn optional_count(raw: Option<i64>) -> Result<Option<u32>, FieldError> {
    raw.map(count_in_range).transpose()
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    use super::*;

    fn input() -> RaffleInput {
        RaffleInput {
            title: Some("  Moto 0km  ".into()),
            description: Some(" Una moto nueva ".into()),
            price: Some(Decimal::new(1300, 2)),
            ..RaffleInput::default()
        }
    }

    #[test]
    fn a_minimal_raffle_gets_the_spec_defaults() {
        let draft = RaffleDraft::parse(input()).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(draft.title, "Moto 0km");
        assert_eq!(draft.description, "Una moto nueva");
        assert_eq!(draft.image, DEFAULT_RAFFLE_IMAGE);
        assert_eq!(draft.status, RaffleStatus::Available);
        assert_eq!(draft.max_tickets, 9_999);
        assert_eq!((draft.limits.min(), draft.limits.max()), (1, 1));
        assert_eq!(draft.draw_date, None);
        assert_eq!(draft.sales, SalesTerms::default());
    }

    #[test]
    fn sales_close_by_status_or_by_the_clock() {
        let draft = RaffleDraft::parse(RaffleInput {
            draw_date: Some("2026-12-24".into()),
            sales_close_hours_before_draw: Some(2),
            hold_minutes: Some(15),
            ..input()
        })
        .unwrap_or_else(|e| panic!("{e:?}"));
        let raffle = Raffle {
            id: RaffleId::new(1),
            title: draft.title,
            description: draft.description,
            image: draft.image,
            price: draft.price,
            status: RaffleStatus::Available,
            max_tickets: draft.max_tickets,
            limits: draft.limits,
            draw_date: draft.draw_date,
            end_date: draft.end_date,
            created_at: DateTime::<Utc>::UNIX_EPOCH,
            sales: draft.sales,
            tickets_sold: None,
        };
        let close = raffle.sales_close_at().unwrap_or_default();
        assert_eq!(close.to_rfc3339(), "2026-12-24T21:59:59.999+00:00");
        assert!(raffle.sales_open(close - chrono::Duration::seconds(1)));
        assert!(!raffle.sales_open(close));
        let postponed = Raffle {
            status: RaffleStatus::Postponed,
            ..raffle
        };
        assert!(!postponed.sales_open(close - chrono::Duration::days(1)));
    }

    #[test]
    fn every_bad_field_is_reported_at_once() {
        let bad = RaffleInput {
            title: Some("   ".into()),
            description: None,
            price: Some(Decimal::ZERO),
            status: Some("open".into()),
            max_tickets: Some(100_000),
            image: Some("javascript:alert(1)".into()),
            draw_date: Some("mañana".into()),
            ..RaffleInput::default()
        };
        let errors = RaffleDraft::parse(bad).err().unwrap_or_default();
        let fields: Vec<_> = errors.iter().map(|(f, _)| f.as_ref()).collect();
        assert_eq!(
            fields,
            [
                "title",
                "description",
                "image",
                "price",
                "status",
                "maxTickets",
                "drawDate"
            ]
        );
    }

    #[test]
    fn limits_default_to_one_each_and_cannot_cross() {
        let table = [
            ((None, None), Ok((1, 1))),
            ((Some(2), None), Ok((2, 2))),
            ((None, Some(10)), Ok((1, 10))),
            ((Some(2), Some(10)), Ok((2, 10))),
            ((Some(5), Some(2)), Err(FieldError::MinAboveMax)),
        ];
        for ((min, max), expected) in table {
            assert_eq!(
                PurchaseLimits::new(min, max).map(|l| (l.min(), l.max())),
                expected
            );
        }
        let too_big_min = RaffleInput {
            max_tickets: Some(10),
            min_tickets_per_purchase: Some(11),
            ..input()
        };
        assert!(RaffleDraft::parse(too_big_min).is_err());
    }

    #[test]
    fn statuses_round_trip_and_unknown_ones_are_refused() {
        for status in RaffleStatus::ALL {
            assert_eq!(RaffleStatus::parse(status.as_str()), Ok(status));
        }
        assert!(RaffleStatus::parse("open").is_err());
        assert!(RaffleStatus::Finished.is_publicly_visible());
        assert!(!RaffleStatus::Inactive.is_publicly_visible());
        assert!(!RaffleStatus::Postponed.is_on_sale());
    }
}
