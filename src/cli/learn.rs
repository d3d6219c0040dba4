//! `jp-kb learn TOPIC [PATTERN]...`: what the `learn` tool returns
//! (contract §5.2, §5.3). Errors go to stderr with exit status 1.

use std::process::ExitCode;

use clap::Args;
use jp_kb_core::KnowledgeBase;

use super::output::{CliError, print_text, print_topic_warnings};

#[derive(Debug, Args)]
pub struct LearnArgs {
    /// Topic id, or its title (case-insensitive).
    pub topic: String,
    /// Subjects to load: exact slugs or globs (`*` one level, `**` any depth).
    /// Without any, the topic's listing is printed.
    pub patterns: Vec<String>,
}

pub fn run(kb: &KnowledgeBase, args: &LearnArgs) -> Result<ExitCode, CliError> {
    if let Ok(state) = kb.resolve_topic(&args.topic) {
        print_topic_warnings(kb, state);
    }
    let patterns = (!args.patterns.is_empty()).then_some(args.patterns.as_slice());
    let outcome = kb.learn(&args.topic, patterns);
    if outcome.is_error() {
        // The tool's own error text, unprefixed: it is what the assistant
        // (and an MCP client) would see.
        eprintln!("{}", outcome.text());
        return Ok(ExitCode::from(1));
    }
    print_text(outcome.text());
    Ok(ExitCode::SUCCESS)
}
