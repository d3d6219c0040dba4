//! The usage ledger (contract §9): what `jp-kb mcp` actually served, one
//! JSON line per answered request that reads knowledge, so a person can
//! curate from evidence. Never subject text: slugs, patterns, counts.
//!
//! - [`record`]: the line format (a raw record, or a compacted per-day count)
//! - [`place`]: where a workspace's ledger lives (the user's data directory)
//! - [`ledger`]: appending under a lock, with the size bound
//! - [`compact`]: folding old records into per-day counts (`bound`: the
//!   most a ledger may hold)
//! - [`read`]: reading a ledger into per-subject tallies
//! - [`report`]: the tallies beside a knowledge base's subjects, and what
//!   they mean
//! - [`served`]: which subjects a `learn` call serves
//! - [`stale`]: subjects worth pruning (expired, never or long not loaded)
//! - [`recorder`]: the server's background writer (never slows an answer)
//! - [`time`]: UTC days, RFC 3339 and `--since` durations without a
//!   date crate

mod bound;
pub mod compact;
pub mod ledger;
pub mod place;
pub mod read;
pub mod record;
pub mod recorder;
pub mod report;
mod scan;
pub mod served;
#[cfg(feature = "search")]
pub mod stale;
pub mod text;
pub mod time;

pub use compact::Limits;
pub use ledger::{Ledger, LedgerError};
pub use place::{ledger_path, usage_dir};
pub use read::{Tally, Usage};
pub use record::{Entry, Kind};
pub use recorder::{Entries, Recorder, session_id};
pub use report::{Insight, Report, Row, State};
pub use served::{Served, served_by_learn};
