//! The `learn` tool over MCP: its definition (the one `jp-kb schema`
//! prints) and its calls (the text `jp-kb learn` prints).

use serde_json::{Map, Value};

use crate::KnowledgeBase;
use crate::learn::Outcome;
use crate::render::{tool_description, tool_parameters};

pub use crate::learn_arguments::{
    ArgumentError, MAX_PATTERN_BYTES, MAX_PATTERNS, MAX_TOPIC_BYTES, clip_to, parse_learn_arguments,
};

/// The tool's name.
pub const LEARN: &str = crate::render::TOOL_NAME;

/// The tool's human-readable title (MCP `title`, shown by clients in
/// approval prompts and tool lists).
pub const LEARN_TITLE: &str = "Learn from the knowledge base";

/// The MCP behaviour hints of `learn`: it only reads the knowledge base
/// (files under the workspace), the same call gives the same answer, and it
/// reaches nothing outside. Codex runs a tool under `codex exec`'s default
/// policy only when it says it is read-only; without hints it asks for an
/// approval nobody can give there (`../shared/clients/README.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "the four boolean hints MCP defines"
)]
#[non_exhaustive]
pub struct ToolHints {
    /// `readOnlyHint`.
    pub read_only: bool,
    /// `destructiveHint`.
    pub destructive: bool,
    /// `idempotentHint`.
    pub idempotent: bool,
    /// `openWorldHint`.
    pub open_world: bool,
}

/// The hints `learn` carries.
pub const LEARN_HINTS: ToolHints = ToolHints {
    read_only: true,
    destructive: false,
    idempotent: true,
    open_world: false,
};

/// The `learn` tool as MCP lists it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LearnTool {
    /// The tool's name (`learn`).
    pub name: &'static str,
    /// Its human title.
    pub title: &'static str,
    /// Its annotations.
    pub hints: ToolHints,
    /// The dynamic description: the summary and the learnable topics.
    pub description: String,
    /// The RFD's JSON schema, exactly `jp-kb schema`'s `parameters`.
    pub input_schema: Map<String, Value>,
}

/// The tool definition, or `None` when no topic has a learnable subject
/// (the tool is not registered then, as `jp-kb schema` says).
pub fn learn_tool(kb: &KnowledgeBase) -> Option<LearnTool> {
    let topics = kb.learnable_topics();
    if topics.is_empty() {
        return None;
    }
    let Value::Object(input_schema) = tool_parameters() else {
        return None;
    };
    Some(LearnTool {
        name: LEARN,
        title: LEARN_TITLE,
        hints: LEARN_HINTS,
        description: tool_description(&topics),
        input_schema,
    })
}

/// The tool listed while the knowledge base cannot be loaded (contract
/// §8, degraded start): the same name, title, hints and schema, its
/// description `why` (what is wrong and how to fix it, as the instructions
/// say). A client calls only listed tools and JP ignores instructions, so
/// without it a person would never learn why the knowledge is missing.
pub fn unavailable_tool(why: &str) -> Option<LearnTool> {
    let Value::Object(input_schema) = tool_parameters() else {
        return None;
    };
    Some(LearnTool {
        name: LEARN,
        title: LEARN_TITLE,
        hints: LEARN_HINTS,
        description: why.to_owned(),
        input_schema,
    })
}

/// Runs a `learn` call: the text (or error) `jp-kb learn` prints for the
/// same arguments, without its final newline
/// ([`KnowledgeBase::call_learn`]).
pub fn call_learn(kb: &KnowledgeBase, arguments: Option<&Map<String, Value>>) -> Outcome {
    kb.call_learn(arguments)
}
