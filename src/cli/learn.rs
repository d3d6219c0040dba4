//! `jp-kb learn TOPIC [PATTERN]...`: what the `learn` tool returns
//! (contract §5.2, §5.3). Errors go to stderr with exit status 1.

use std::process::ExitCode;

use clap::Args;
use jp_kb_core::{KnowledgeBase, Outcome};

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
    match kb.learn(&args.topic, patterns) {
        Outcome::Success(text) => {
            print_text(&text);
            Ok(ExitCode::SUCCESS)
        }
        // The tool's own error text, unprefixed: it is what the assistant
        // (and an MCP client) would see.
        Outcome::Error(message) => {
            eprintln!("{message}");
            Ok(ExitCode::from(1))
        }
    }
}
