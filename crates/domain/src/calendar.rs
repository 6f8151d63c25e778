//! Calendar days and instants as typed by people, bounded to years the product can store and
//! compute with: chrono reads `-262143-01-01` happily, and a day that far out overflows the first
//! `+ Duration` or the database's timestamp type.

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};

use crate::validation::FieldError;

/// The first day accepted anywhere: the Unix epoch, before any sale the product can have made.
pub const FIRST_DAY: NaiveDate = day(1970, 1, 1);
/// The last day accepted: the last one of four-digit years, as RFC 3339 writes them.
pub const LAST_DAY: NaiveDate = day(9999, 12, 31);

/// Evaluated at compile time: a wrong constant fails the build.
const fn day(year: i32, month: u32, day: u32) -> NaiveDate {
    match NaiveDate::from_ymd_opt(year, month, day) {
        Some(date) => date,
        None => panic!("not a date"),
    }
}

fn out_of_range() -> FieldError {
    FieldError::OutOfRange {
        min: FIRST_DAY.format("%Y-%m-%d").to_string(),
        max: LAST_DAY.format("%Y-%m-%d").to_string(),
    }
}

fn within_bounds(day: NaiveDate) -> Result<NaiveDate, FieldError> {
    if (FIRST_DAY..=LAST_DAY).contains(&day) {
        Ok(day)
    } else {
        Err(out_of_range())
    }
}

/// A `YYYY-MM-DD` day between [`FIRST_DAY`] and [`LAST_DAY`].
///
/// # Errors
/// `InvalidDate` when it is not a date, `OutOfRange` outside the bounds.
pub fn parse_day(raw: &str) -> Result<NaiveDate, FieldError> {
    NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d")
        .map_err(|_| FieldError::InvalidDate)
        .and_then(within_bounds)
}

/// An RFC 3339 instant, or a `YYYY-MM-DD` day (its midnight UTC), on a day within the bounds.
///
/// # Errors
/// `InvalidDate` for anything else, `OutOfRange` outside the bounds.
pub fn parse_instant(raw: &str) -> Result<DateTime<Utc>, FieldError> {
    let raw = raw.trim();
    match DateTime::parse_from_rfc3339(raw) {
        Ok(instant) => {
            let instant = instant.with_timezone(&Utc);
            within_bounds(instant.date_naive()).map(|_| instant)
        }
        Err(_) => parse_day(raw).map(|day| day.and_time(NaiveTime::MIN).and_utc()),
    }
}

/// Accepts what [`parse_instant`] does and returns 23:59:59.999 UTC of that (UTC) day.
///
/// # Errors
/// As [`parse_instant`].
pub fn end_of_day_utc(raw: &str) -> Result<DateTime<Utc>, FieldError> {
    let day = parse_instant(raw)?.date_naive();
    let end = NaiveTime::from_hms_milli_opt(23, 59, 59, 999).ok_or(FieldError::InvalidDate)?;
    Ok(day.and_time(end).and_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_beyond_the_bounds_are_out_of_range_not_invalid() {
        assert_eq!(
            parse_day(" 2025-07-26 "),
            Ok(NaiveDate::from_ymd_opt(2025, 7, 26).unwrap_or_default())
        );
        for far in [
            "-262143-01-01",
            "+262142-12-31",
            "1969-12-31",
            "+10000-01-01",
        ] {
            assert_eq!(parse_day(far), Err(out_of_range()), "{far}");
        }
        assert_eq!(parse_day("26/07/2025"), Err(FieldError::InvalidDate));
    }

    #[test]
    fn instants_take_both_forms_within_the_bounds() {
        let midnight = parse_instant("2025-08-15").map(|d| d.to_rfc3339());
        assert_eq!(midnight.as_deref(), Ok("2025-08-15T00:00:00+00:00"));
        let shifted = parse_instant("2025-08-15T01:00:00+02:00").map(|d| d.to_rfc3339());
        assert_eq!(shifted.as_deref(), Ok("2025-08-14T23:00:00+00:00"));
        assert_eq!(parse_instant("0001-01-01T00:00:00Z"), Err(out_of_range()));
        assert_eq!(parse_instant("-262143-01-01"), Err(out_of_range()));
        assert_eq!(parse_instant("mañana"), Err(FieldError::InvalidDate));
    }

    #[test]
    fn the_draw_date_becomes_the_end_of_its_utc_day() {
        let expected = "2025-08-15T23:59:59.999Z";
        for raw in [
            "2025-08-15",
            "2025-08-15T10:00:00Z",
            "2025-08-15T23:59:59.999Z",
        ] {
            let got =
                end_of_day_utc(raw).map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Millis, true));
            assert_eq!(got.as_deref(), Ok(expected), "{raw}");
        }
        assert_eq!(end_of_day_utc("15/08/2025"), Err(FieldError::InvalidDate));
        assert_eq!(
            end_of_day_utc("9999-12-31T23:59:59-14:00"),
            Err(out_of_range())
        );
    }
}
