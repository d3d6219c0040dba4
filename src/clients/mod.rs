//! Real assistants (clients) and what each receives of jp-kb's texts.

pub mod arrival;
pub mod findings;
pub mod profile;
pub mod setup;
