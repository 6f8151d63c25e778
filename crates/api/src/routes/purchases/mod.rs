pub mod decide;
pub mod export;
pub mod get;
pub mod list;
pub mod proof_check;
pub mod proof_queue;
pub mod reopen;
pub mod search;
pub mod stats;
pub mod stats_daily;

use chrono::{DateTime, Duration, NaiveTime, Utc};
use rifa_domain::calendar;
use rifa_domain::purchase::{
    PageAnchor, PurchaseId, PurchaseQuery, PurchaseStatus, SEARCH_COUNT_CAP,
};
use rifa_domain::raffle::RaffleId;
use rifa_domain::ticket::TicketNumber;
use rifa_domain::validation::TextKind;
use rifa_domain::{FieldError, FieldErrors};

use rifa_app::review::MAX_PAGE_SIZE;

use rifa_domain::purchase::Purchase;

use crate::AppState;
use crate::dto::PurchaseSearchParams;
use crate::error::ApiError;

/// Far beyond any real list, small enough that the offset never overflows.
const MAX_PAGE: u32 = 1_000_000;

/// The admin's day `date` (`YYYY-MM-DD`) as a UTC range, given their offset from UTC.
pub fn day_range(
    date: &str,
    utc_offset_minutes: Option<i32>,
    errors: &mut FieldErrors,
) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
    let offset = utc_offset_minutes.unwrap_or(0);
    if !(-14 * 60..=14 * 60).contains(&offset) {
        errors.add(
            "utcOffsetMinutes",
            FieldError::OutOfRange {
                min: "-840".into(),
                max: "840".into(),
            },
        );
        return None;
    }
    let day = errors.check("date", calendar::parse_day(date))?;
    // The day is bounded, so these cannot overflow; checked all the same, as any input is.
    let from = day
        .and_time(NaiveTime::MIN)
        .and_utc()
        .checked_sub_signed(Duration::minutes(i64::from(offset)));
    let range = from.and_then(|from| Some((from, from.checked_add_signed(Duration::days(1))?)));
    if range.is_none() {
        errors.add("date", FieldError::InvalidDate);
    }
    range
}

/// Reads the filters; the page defaults to 1 of 10.
pub fn parse_query(params: &PurchaseSearchParams) -> Result<PurchaseQuery, FieldErrors> {
    let mut errors = FieldErrors::new();
    let status = params
        .status
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "all")
        .and_then(|s| errors.check("status", PurchaseStatus::parse(s)));
    let mut ticket_numbers = Vec::new();
    for part in params
        .tickets
        .as_deref()
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        match part.parse::<u32>() {
            Ok(n) if ticket_numbers.len() < 500 => ticket_numbers.push(TicketNumber::searched(n)),
            Ok(_) => {
                errors.add("tickets", FieldError::TooLong { max: 500 });
                break;
            }
            Err(_) => {
                errors.add("tickets", FieldError::NotANumber);
                break;
            }
        }
    }
    let created = params
        .date
        .as_deref()
        .filter(|d| !d.trim().is_empty())
        .and_then(|d| day_range(d, params.utc_offset_minutes, &mut errors));
    let name_contains = params
        .name
        .as_deref()
        .map(|n| {
            errors.check(
                "name",
                rifa_domain::validation::free_text(n, TextKind::SingleLine, 120),
            )
        })
        .and_then(|n| n.filter(|n| !n.is_empty()));
    let mut bounded = |field: &'static str, value: Option<u32>, default: u32, max: u32| match value
    {
        None => default,
        Some(v) if (1..=max).contains(&v) => v,
        Some(_) => {
            errors.add(
                field,
                FieldError::OutOfRange {
                    min: "1".into(),
                    max: max.to_string(),
                },
            );
            default
        }
    };
    let page = bounded("page", params.page, 1, MAX_PAGE);
    let page_size = bounded("pageSize", params.page_size, 10, MAX_PAGE_SIZE);
    let anchor_page = params
        .anchor_page
        .map(|page| bounded("anchorPage", Some(page), 1, MAX_PAGE));
    let anchor = match (params.anchor_id, anchor_page) {
        (Some(id), Some(page)) => Some(PageAnchor {
            first_id: PurchaseId::new(id),
            page,
        }),
        (None, None) => None,
        (Some(_), None) => {
            errors.add("anchorPage", FieldError::Required);
            None
        }
        (None, Some(_)) => {
            errors.add("anchorId", FieldError::Required);
            None
        }
    };
    errors.into_result()?;
    Ok(PurchaseQuery {
        raffle_id: params.raffle_id.map(RaffleId::new),
        name_contains,
        status,
        ticket_numbers,
        created,
        max_id: params.max_id.map(PurchaseId::new),
        page,
        page_size,
        anchor,
        count_cap: SEARCH_COUNT_CAP,
    })
}

/// Replaces each purchase's stored proof key with a short-lived link an admin's browser can
/// open (the key itself is of no use outside the server).
pub async fn with_proof_links(
    state: &AppState,
    purchases: &mut [Purchase],
) -> Result<(), ApiError> {
    for purchase in purchases {
        purchase.payment_proof = state.proofs.proof_link(purchase).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_in_caracas_starts_at_four_utc() {
        let mut errors = FieldErrors::new();
        let (from, to) = day_range("2025-07-26", Some(-240), &mut errors).unwrap_or_default();
        assert_eq!(from.to_rfc3339(), "2025-07-26T04:00:00+00:00");
        assert_eq!(to.to_rfc3339(), "2025-07-27T04:00:00+00:00");
        assert!(day_range("26/07/2025", None, &mut errors).is_none());
        assert!(day_range("2025-07-26", Some(2000), &mut errors).is_none());
        assert_eq!(errors.iter().count(), 2);
    }

    #[test]
    fn filters_are_parsed_and_bad_ones_named() {
        let params = PurchaseSearchParams {
            status: Some("pending".into()),
            tickets: Some(" 7, 42 ,".into()),
            name: Some("  ana ".into()),
            ..PurchaseSearchParams::default()
        };
        let query = parse_query(&params).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(query.status, Some(PurchaseStatus::Pending));
        assert_eq!(query.ticket_numbers, [7, 42].map(TicketNumber::searched));
        assert_eq!(query.name_contains.as_deref(), Some("ana"));
        assert_eq!((query.page, query.page_size), (1, 10));

        let all = PurchaseSearchParams {
            status: Some("all".into()),
            ..PurchaseSearchParams::default()
        };
        assert_eq!(parse_query(&all).map(|q| q.status), Ok(None));

        let bad = PurchaseSearchParams {
            status: Some("paid".into()),
            tickets: Some("7,x".into()),
            ..PurchaseSearchParams::default()
        };
        let errors = parse_query(&bad).err().unwrap_or_default();
        let fields: Vec<_> = errors.iter().map(|(f, _)| f.as_ref()).collect();
        assert_eq!(fields, ["status", "tickets"]);
    }
}
