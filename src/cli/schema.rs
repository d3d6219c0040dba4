//! `jp-kb schema`: the `learn` tool definition (contract §5.5).

use std::process::ExitCode;

use jp_kb_core::KnowledgeBase;

use super::output::{CliError, print_text};

pub fn run(kb: &KnowledgeBase) -> Result<ExitCode, CliError> {
    match kb.tool_definition() {
        Some(json) => print_text(&json),
        None => eprintln!(
            "note: no enabled topic has a subject available to learn, so the `learn` tool is not registered"
        ),
    }
    Ok(ExitCode::SUCCESS)
}
