//! Today, as the CLI and the TUI judge expiry (`expires` of subjects and
//! facts): the date in `JP_KB_TODAY` (`YYYY-MM-DD`) when it holds one,
//! else the system clock's day (UTC). The variable lets tests, and a
//! person asking "what will have expired by Friday", set the day.

use jp_kb_core::internal::facts::Day;

/// The environment variable that sets today.
pub const TODAY_VAR: &str = "JP_KB_TODAY";

/// Today (see the module's documentation).
pub fn today() -> Day {
    Day::today_or(std::env::var(TODAY_VAR).ok().as_deref())
}
