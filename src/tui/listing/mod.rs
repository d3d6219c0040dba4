//! The start before the first load arrives (issue 26 item 7): the
//! selected topic's subjects from a listing of its directory (no `stat`
//! of a file, see `jp_kb_core::subjects::Listing`), drawn as
//! rows while the walk reads sizes and times; and the keys pressed
//! meanwhile, kept in order and applied once the load arrives, so that
//! none is lost and none acts on the listing (`docs/decisions.md`, "The
//! first frame before the walk").

pub mod keys;
pub mod state;
