//! `jp-kb prompt`: the `<knowledge>` section (contract §5.1).

use std::process::ExitCode;

use clap::Args;
use jp_kb::KnowledgeBase;

use super::output::{CliError, human_bytes, print_text, print_topic_warnings};

#[derive(Debug, Args)]
pub struct PromptArgs {
    /// Also print the section's size in bytes and tokens (`o200k_base`) on stderr.
    #[arg(long)]
    pub stats: bool,
}

pub fn run(kb: &KnowledgeBase, args: &PromptArgs) -> Result<ExitCode, CliError> {
    for state in kb.enabled_topics() {
        print_topic_warnings(kb, state);
    }
    let section = kb.knowledge_section();
    if let Some(text) = &section {
        print_text(text);
    }
    if args.stats {
        let text = section.as_deref().unwrap_or("");
        let tokens =
            jp_kb::tokens::count_tokens(text).map_or_else(|| "?".to_owned(), |n| n.to_string());
        eprintln!(
            "knowledge section: {} bytes ({}), {tokens} tokens ({})",
            text.len(),
            human_bytes(text.len() as u64),
            jp_kb::tokens::TOKENIZER
        );
    }
    Ok(ExitCode::SUCCESS)
}
