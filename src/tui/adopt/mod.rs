//! The first-run screen (issue 41): `jp-kb tui` where there is no JP
//! workspace but files other assistants read (`CLAUDE.md`, `AGENTS.md`,
//! rules, skills) shows the plan `jp-kb init` would carry out, lets the
//! person change each file's state, and adopts on Enter (then opens the
//! curator on the new workspace) or opens the demo, as before, on Esc.
//! Its own small loop, before the curator's: `state` (the plan and
//! choices, `update`), `keys` (the table), `view`, `screen` (the loop).
//! The plan, the words and the writing are the core's, as for the CLI.

pub mod keys;
pub mod screen;
pub mod state;
pub mod view;
