//! The most a ledger may hold, and what is said of one that holds more
//! (then it is not one jp-kb wrote: appends compact below it).

use jp_kb_fs::human_size;

/// A ledger never grows past this; one already larger is neither read
/// nor written.
pub const MAX_LEDGER_BYTES: u64 = 64 << 20;

/// What is said of a ledger of `bytes` over the bound `max`.
pub fn too_large(bytes: u64, max: u64) -> String {
    format!(
        "the ledger is {}, larger than the {} a ledger may hold (jp-kb compacts its own \
         below that), so it is not read or written: move it away, and a new one is started",
        human_size(bytes),
        human_size(max)
    )
}
