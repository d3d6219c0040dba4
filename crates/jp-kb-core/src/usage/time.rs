//! UTC times as the ledger keeps them (seconds since the Unix epoch), the
//! day a time falls on, RFC 3339, and `--since` durations. A handful of
//! lines of civil-calendar arithmetic instead of a date crate in the core.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

const DAY: u64 = 86_400;

/// Seconds since the epoch, now (0 on a clock before 1970).
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The day number (days since 1970-01-01) of `t`.
pub fn day_number(t: u64) -> u64 {
    t / DAY
}

/// `(year, month, day)` of a day number: Howard Hinnant's
/// `civil_from_days`, for days on or after the epoch.
fn civil(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

/// `YYYY-MM-DD` of `t`, in UTC.
pub fn day(t: u64) -> String {
    let (y, m, d) = civil(day_number(t));
    format!("{y:04}-{m:02}-{d:02}")
}

/// `YYYY-MM-DDTHH:MM:SSZ` of `t` (RFC 3339, UTC).
pub fn rfc3339(t: u64) -> String {
    let s = t % DAY;
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        day(t),
        s / 3600,
        s % 3600 / 60,
        s % 60
    )
}

/// How long ago `t` was, shortly: `5m`, `3h`, `12d`.
pub fn ago(t: u64, now: u64) -> String {
    let d = now.saturating_sub(t);
    match d {
        0..60 => "now".to_owned(),
        60..3600 => format!("{}m", d / 60),
        3600..DAY => format!("{}h", d / 3600),
        _ => format!("{}d", d / DAY),
    }
}

/// A `--since` value that is not a duration (the text given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a duration: write a number and a unit (s, m, h, d, w), like 30d or 12h, or `all`"
)]
pub struct NotADuration(pub String);

/// Parses a `--since` duration: a number and a unit (`s`, `m`, `h`, `d`,
/// `w`), like `30d` or `12h`; `all` for no limit (`None`).
///
/// # Errors
/// [`NotADuration`].
pub fn parse_duration(text: &str) -> Result<Option<Duration>, NotADuration> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("all") {
        return Ok(None);
    }
    let bad = || NotADuration(text.to_owned());
    let split = text.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let (n, unit) = text.split_at(split);
    let n: u64 = n.parse().map_err(|_| bad())?;
    let secs = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => DAY,
        "w" => 7 * DAY,
        _ => return Err(bad()),
    };
    Ok(Some(Duration::from_secs(n.saturating_mul(secs))))
}

/// A duration as the human output says it: `30 days`, `12 hours`.
pub fn describe(d: Duration) -> String {
    let s = d.as_secs();
    let (n, unit) = if s >= DAY && s.is_multiple_of(DAY) {
        (s / DAY, "day")
    } else if s >= 3600 && s.is_multiple_of(3600) {
        (s / 3600, "hour")
    } else if s >= 60 && s.is_multiple_of(60) {
        (s / 60, "minute")
    } else {
        (s, "second")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_798_761_599), "2026-12-31T23:59:59Z");
        assert_eq!(day(1_709_251_199), "2024-02-29");
    }

    #[test]
    fn durations() {
        assert_eq!(
            parse_duration("30d"),
            Ok(Some(Duration::from_secs(30 * DAY)))
        );
        assert_eq!(parse_duration("12h"), Ok(Some(Duration::from_secs(43_200))));
        assert_eq!(parse_duration("all"), Ok(None));
        for bad in ["", "d", "30", "30y", "-1d", "1.5d"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert_eq!(describe(Duration::from_secs(30 * DAY)), "30 days");
        assert_eq!(describe(Duration::from_secs(3600)), "1 hour");
    }
}
