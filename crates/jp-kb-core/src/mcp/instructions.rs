//! The server instructions (`jp-kb mcp --instructions full|menu|none`) and
//! what the server says when it cannot serve the knowledge base: a missing
//! workspace or a configuration that does not load. Clients show nothing of
//! a server that exits at start-up, so the server starts anyway and puts
//! the reason where the model and the person will see it.

use std::fmt;
use std::str::FromStr;

use crate::KnowledgeBase;
use crate::render::{AvailableTopic, render_menu};

/// Which part of the `<knowledge>` section the server instructions carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum InstructionsMode {
    /// The whole section, exactly as `jp-kb prompt` prints it.
    #[default]
    Full,
    /// Only the topic menu: the AVAILABLE block inside `<knowledge>` tags,
    /// for a client that gets the pre-loaded subjects another way.
    Menu,
    /// No instructions (the section reaches the model another way).
    None,
}

impl InstructionsMode {
    /// Every mode's name, as [`InstructionsMode::name`] spells it.
    pub const NAMES: [&'static str; 3] = ["full", "menu", "none"];

    /// The mode's name (`full`, `menu`, `none`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Full => "full",
            Self::Menu => "menu",
            Self::None => "none",
        }
    }
}

impl fmt::Display for InstructionsMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why `--instructions` was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ModeError {
    /// A mode with no such name.
    #[error("unknown instructions mode `{0}` (expected one of: {names})", names = InstructionsMode::NAMES.join(", "))]
    Unknown(String),
    /// `--instructions` ends the arguments.
    #[error("`--instructions` needs a value")]
    MissingValue,
}

impl FromStr for InstructionsMode {
    type Err = ModeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "full" => Ok(Self::Full),
            "menu" => Ok(Self::Menu),
            "none" => Ok(Self::None),
            other => Err(ModeError::Unknown(other.to_owned())),
        }
    }
}

/// The topic menu of a knowledge base (see [`render_menu`]), or `None`
/// when no topic has an available subject.
pub fn knowledge_menu(kb: &KnowledgeBase) -> Option<String> {
    let available: Vec<AvailableTopic<'_>> = kb
        .enabled_topics()
        .filter(|state| {
            state
                .resolution()
                .is_some_and(crate::subjects::Resolution::has_available)
        })
        .map(|state| AvailableTopic {
            id: state.id(),
            title: state.config.title(),
            introduction: state.config.introduction(),
        })
        .collect();
    render_menu(&available)
}

/// The instructions in a mode, or `None` when there are none to send.
pub fn instructions(kb: &KnowledgeBase, mode: InstructionsMode) -> Option<String> {
    match mode {
        InstructionsMode::Full => kb.knowledge_section(),
        InstructionsMode::Menu => knowledge_menu(kb),
        InstructionsMode::None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_and_print() {
        for name in InstructionsMode::NAMES {
            let mode: InstructionsMode = name.parse().unwrap_or_default();
            assert_eq!(mode.name(), name);
        }
        assert!("all".parse::<InstructionsMode>().is_err());
    }
}
