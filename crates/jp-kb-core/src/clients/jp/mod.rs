//! What jp-kb knows of JP beyond its profile (`assets/clients/jp.toml`):
//! JP's own files and habits, read in JP's source (4c1c39f1) and seen with
//! real JP (`tests/it/jp_real*.rs`). The one place for them: a newer JP,
//! or a JP built with the knowledge base inside, is an edit here (and of
//! [`crate::config::jp_user_dir`], JP's per-user directory, which the
//! configuration loader needs too).
//!
//! - [`machine`]: the one part of JP's setup that is this machine's, the
//!   server entry in JP's user-workspace layer, which every checkout of a
//!   workspace id shares; and JP's `.jp/.id`, which `connect` writes as
//!   JP would when JP has not yet.
//! - [`setup`]: what else in JP's layers keeps JP from getting what
//!   `connect` set up, each with its fix.
//! - [`copy`]: the copy of the section JP read when it started a server,
//!   before the server rewrote a stale one; what the server says then.
//! - [`conversations`]: JP's conversations that keep an older section
//!   (JP keeps a conversation's configuration for good).

pub mod conversations;
pub mod copy;
pub mod machine;
pub mod setup;
