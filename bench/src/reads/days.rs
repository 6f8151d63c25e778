//! Calendar days as the panel sends them (`YYYY-MM-DD` in the admin's time zone), without a
//! date library: the bench needs "today" and "n days ago", nothing more.

use std::time::{SystemTime, UNIX_EPOCH};

/// Days since 1970-01-01 of the admin's "today", `utc_offset_minutes` from UTC.
pub(crate) fn today(utc_offset_minutes: i32) -> i64 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
    (now + i64::from(utc_offset_minutes) * 60).div_euclid(86_400)
}

/// `YYYY-MM-DD` of a day number (Howard Hinnant's `civil_from_days`).
pub(crate) fn format(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::format;

    #[test]
    fn known_days() {
        assert_eq!(format(0), "1970-01-01");
        assert_eq!(format(11_016), "2000-02-29");
        assert_eq!(format(20_454), "2026-01-01");
        assert_eq!(format(-1), "1969-12-31");
    }
}
