//! Adopting, in place, the knowledge a repository already has for other
//! assistants (`jp-kb init`, issue 41): find what Claude Code, Codex,
//! Cursor, Copilot and Windsurf read ([`kinds`], [`find`]), read when each
//! would show it ([`gate`]), plan topics over it ([`plan`]: always-on
//! files pre-loaded, the rest learnable, gated ones as the person
//! chooses), say what the assistant would then see ([`preview`]), and
//! carry it out with links in `.jp/kb/` and one `.jp/kb.toml` ([`text`],
//! [`apply`]). Nothing is copied: an edit of the file is what JP gets.

pub mod apply;
pub mod find;
pub mod gate;
pub mod kinds;
pub mod plan;
pub mod preview;
pub mod text;
pub mod words;
