//! Calendar days as knowledge carries them (`expires: "2026-04-13"`,
//! `last_updated: "2026-04-13T09:30:00Z"`): ISO-8601 dates, or timestamps
//! whose date part is what ageing compares. A few lines of civil-calendar
//! arithmetic (Howard Hinnant's `days_from_civil`), as the usage ledger's
//! own days, rather than a date crate in the core.

use std::fmt;

/// A day: days since 1970-01-01 (negative before it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(i64);

impl Day {
    /// The day `secs` seconds after the Unix epoch falls on (UTC).
    pub fn from_unix(secs: u64) -> Self {
        Self(i64::try_from(secs / 86_400).unwrap_or(i64::MAX))
    }

    /// Today, by the system clock (UTC). Callers that must be testable
    /// take the day as an argument; the front ends read `JP_KB_TODAY`
    /// first ([`Day::today_or`]).
    pub fn today() -> Self {
        Self::from_unix(crate::usage::time::now())
    }

    /// `override_text` when it is a date (the front ends pass the
    /// `JP_KB_TODAY` environment variable), else [`Day::today`].
    pub fn today_or(override_text: Option<&str>) -> Self {
        override_text
            .and_then(Day::parse)
            .unwrap_or_else(Day::today)
    }

    /// The day of `year-month-day`, `None` when it is no calendar day.
    pub fn from_civil(year: i64, month: u32, day: u32) -> Option<Self> {
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return None;
        }
        let y = if month <= 2 { year - 1 } else { year };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some(Self(era * 146_097 + doe - 719_468))
    }

    /// `(year, month, day)`: Hinnant's `civil_from_days`.
    pub fn civil(self) -> (i64, u32, u32) {
        let z = self.0 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = doy - (153 * mp + 2) / 5 + 1;
        let m = if mp < 10 { mp + 3 } else { mp - 9 };
        let y = yoe + era * 400 + i64::from(m <= 2);
        (
            y,
            u32::try_from(m).unwrap_or(1),
            u32::try_from(d).unwrap_or(1),
        )
    }

    /// Days from `self` to `later` (negative when `later` is earlier).
    pub fn days_until(self, later: Day) -> i64 {
        later.0 - self.0
    }

    /// Parses an ISO-8601 calendar date, `YYYY-MM-DD`, optionally followed
    /// by a time (`T` or a space, `HH:MM`, optional `:SS` and fraction,
    /// optional `Z` or `±HH:MM`): the day is the date part as written.
    /// `None` for anything else (`2026-4-1`, `2026-02-30`, `April 2026`).
    pub fn parse(text: &str) -> Option<Self> {
        let bytes = text.as_bytes();
        // ASCII only: every slice below is then on a character boundary.
        if !text.is_ascii() || bytes.len() < 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return None;
        }
        let year = digits(&text[0..4])?;
        let month = digits(&text[5..7])?;
        let day = digits(&text[8..10])?;
        let rest = &text[10..];
        if !rest.is_empty() {
            let time = rest.strip_prefix(['T', 't', ' '])?;
            valid_time(time)?;
        }
        Self::from_civil(i64::from(year), u32::from(month), u32::from(day))
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.civil();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The number `text` spells in ASCII digits only (no sign, no space).
fn digits(text: &str) -> Option<u16> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `HH:MM[:SS[.fff]][Z|±HH:MM|±HHMM]`.
fn valid_time(text: &str) -> Option<()> {
    let (clock, zone) = match text.find(['Z', 'z', '+', '-']) {
        Some(at) => text.split_at(at),
        None => (text, ""),
    };
    let mut parts = clock.split(':');
    let hour = two_digits(parts.next()?)?;
    let minute = two_digits(parts.next()?)?;
    if let Some(seconds) = parts.next() {
        let (whole, fraction) = seconds.split_once(['.', ',']).unwrap_or((seconds, "0"));
        let second = two_digits(whole)?;
        if second > 60 || fraction.is_empty() || !fraction.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
    }
    if parts.next().is_some() || hour > 23 || minute > 59 {
        return None;
    }
    match zone {
        "" | "Z" | "z" => Some(()),
        _ => {
            let offset = &zone[1..];
            let (h, m) = match offset.split_once(':') {
                Some(hm) => hm,
                None if offset.len() == 4 => offset.split_at(2),
                None => return None,
            };
            (two_digits(h)? <= 23 && two_digits(m)? <= 59).then_some(())
        }
    }
}

fn two_digits(text: &str) -> Option<u16> {
    (text.len() == 2).then(|| digits(text)).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_dates_and_timestamps() {
        let day = Day::parse("2026-04-13").unwrap();
        assert_eq!(day.to_string(), "2026-04-13");
        assert_eq!(Day::parse("2026-04-13T09:30:00Z"), Some(day));
        assert_eq!(Day::parse("2026-04-13T09:30:00.123+02:00"), Some(day));
        assert_eq!(Day::parse("2026-04-13 23:59"), Some(day));
        assert_eq!(Day::parse("2026-04-13T09:30-0500"), Some(day));
        assert_eq!(Day::parse("1970-01-01"), Some(Day(0)));
        assert_eq!(Day::parse("1969-12-31"), Some(Day(-1)));
        assert_eq!(
            Day::parse("2000-02-29").map(super::Day::civil),
            Some((2000, 2, 29))
        );
        for bad in [
            "",
            "2026-4-13",
            "2026-02-30",
            "1900-02-29",
            "2026-13-01",
            "2026-00-10",
            "April 2026",
            "2026/04/13",
            "2026-04-13T25:00",
            "2026-04-13T09",
            "2026-04-13x",
            "+026-04-13",
            "2026-04-13T09:30:00+2",
            "2026-04-13T09:30+é1",
            "é026-04-13",
        ] {
            assert_eq!(Day::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn round_trips_the_calendar() {
        for n in [-800_000, -1, 0, 59, 60, 11_016, 20_000, 2_932_896] {
            let (y, m, d) = Day(n).civil();
            assert_eq!(Day::from_civil(y, m, d), Some(Day(n)), "{n}");
        }
        assert_eq!(Day::from_unix(1_776_038_400).to_string(), "2026-04-13");
        assert_eq!(Day(10).days_until(Day(3)), -7);
        assert_eq!(Day::today_or(Some("2030-01-02")).to_string(), "2030-01-02");
        assert_eq!(Day::today_or(Some("soon")), Day::today());
    }
}
