//! What `jp-kb mcp` serves, as pure functions of a loaded
//! [`KnowledgeBase`](crate::KnowledgeBase): the `learn` tool (definition and
//! calls), the `knowledge` prompt, and subjects as `kb://` resources. The
//! binary's MCP layer only translates these to and from the protocol, so a
//! client sees exactly the texts `jp-kb learn`, `jp-kb prompt` and
//! `jp-kb schema` print.

pub mod instructions;
#[cfg(feature = "config")]
pub mod jp_checkout;
pub mod mime;
pub mod resource;
#[cfg(feature = "search")]
pub mod search;
pub mod tool;
pub mod uri;

pub use instructions::{InstructionsMode, ModeError, instructions, knowledge_menu};
pub use resource::{
    Body, ReadError, ResourceContent, ResourceEntry, list_resources, read_resource,
};
pub use tool::{
    ArgumentError, LEARN_HINTS, LEARN_TITLE, LearnTool, ToolHints, call_learn, learn_tool,
    parse_learn_arguments,
};
pub use uri::{RESOURCE_TEMPLATE, parse_subject_uri, subject_uri};

#[cfg(feature = "config")]
use std::sync::Arc;

use crate::KnowledgeBase;
#[cfg(feature = "config")]
use crate::config::{ConfigError, Environment, LoadOptions};
#[cfg(feature = "config")]
use crate::subjects::WalkCache;

/// The server's name in the `initialize` result.
pub const SERVER_NAME: &str = "jp-kb";

/// The name of the prompt that carries the `<knowledge>` section.
pub const KNOWLEDGE_PROMPT: &str = "knowledge";

/// What the `knowledge` prompt says it is.
pub const KNOWLEDGE_PROMPT_DESCRIPTION: &str = "The <knowledge> section of JP's system prompt: the pre-loaded subjects and the menu of topics to learn (empty when no topic has a subject to show).";

/// Where the server reads its knowledge base from: the process facts and the
/// command line's `--workspace`, `--cfg` and `-k`. Every request loads the
/// knowledge base afresh from these, so an edit on disk is in the next
/// answer; topic directories that did not change are not walked again.
#[cfg(feature = "config")]
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Workspace {
    /// The process facts.
    pub env: Environment,
    /// `--workspace`, `--cfg`, `-k`.
    pub options: LoadOptions,
    walks: Arc<WalkCache>,
    /// Started by JP for a workspace id whose checkout is unknown: the id
    /// and what is missing ([`jp_checkout`]).
    jp_unknown: Option<(String, String)>,
}

#[cfg(feature = "config")]
impl Workspace {
    /// The workspace `options` name in `env`, loaded on every request.
    pub fn new(env: Environment, options: LoadOptions) -> Self {
        Self {
            env,
            options,
            walks: Arc::new(WalkCache::new()),
            jp_unknown: None,
        }
    }

    /// The server JP started for its workspace `id` (the arguments `connect
    /// jp` writes): without `--workspace`, the checkout JP runs for
    /// ([`jp_checkout::checkout_for`]), decided once, when it starts.
    #[must_use]
    pub fn for_jp(mut self, id: &str) -> Self {
        if self.options.workspace.is_none() {
            match jp_checkout::checkout_for(&self.env, id) {
                Ok(found) => self.options.workspace = found,
                Err(reason) => self.jp_unknown = Some((id.to_owned(), reason)),
            }
        }
        self
    }

    fn jp_unknown(&self) -> Result<(), ConfigError> {
        match &self.jp_unknown {
            None => Ok(()),
            Some((id, reason)) => Err(ConfigError::JpCheckoutUnknown {
                id: id.clone(),
                cwd: self.env.cwd.clone(),
                reason: reason.clone(),
            }),
        }
    }

    /// Loads the knowledge base as it is on disk now.
    pub fn load(&self) -> Result<KnowledgeBase, ConfigError> {
        self.jp_unknown()?;
        KnowledgeBase::load_with(&self.env, &self.options, &self.walks)
    }

    /// Whether the knowledge base loads at all, reading only the
    /// configuration (no topic directory is walked).
    ///
    /// # Errors
    /// Why the configuration does not load.
    pub fn config_loads(&self) -> Result<(), ConfigError> {
        self.jp_unknown()?;
        crate::config::load(&self.env, &self.options).map(drop)
    }
}

/// The server instructions and the `knowledge` prompt's text: the
/// `<knowledge>` section exactly as `jp-kb prompt` prints it, without the
/// CLI's final newline; `None` when the section is absent.
pub fn knowledge_text(kb: &KnowledgeBase) -> Option<String> {
    kb.knowledge_section()
}
