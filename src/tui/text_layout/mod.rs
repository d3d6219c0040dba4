//! The text each preview tab shows and how it wraps into screen rows: a
//! leaf that `update` (a search's matches, paging, what a key scrolls to)
//! and the views (drawing) both use, so neither imports the other. It reads
//! the state and builds `Text`/`Line` values; it draws nothing and changes
//! nothing.

pub mod char_rows;
pub mod client_text;
pub mod config_text;
pub mod help_text;
pub mod markdown;
pub mod tab_text;
pub mod text_window;
pub mod word_rows;
pub mod wrap;
