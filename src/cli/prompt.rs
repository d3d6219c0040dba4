//! `jp-kb prompt`: the `<knowledge>` section (contract §5.1), or with
//! `--client NAME` what that client's model receives of jp-kb's texts,
//! channel by channel (contract §8).

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use clap::Args;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::clients::{
    Arrival, Client, Profile, Setup, arrivals, not_needed, profile, read_setup,
};
use serde_json::json;

use super::output::{CliError, human_bytes, print_text, print_topic_warnings};

#[derive(Debug, Args)]
pub struct PromptArgs {
    /// Also print the section's size in bytes and tokens (`o200k_base`) on stderr.
    #[arg(long)]
    pub stats: bool,
    /// Show what this client's model receives, as its configuration in
    /// the workspace sets it up: each channel's text as it arrives, cut and
    /// marked where the client cuts it.
    #[arg(long, value_name = "NAME", value_parser = super::connect::client_names())]
    pub client: Option<String>,
    /// With --client: a JSON array of {"channel", "text", "cut"}.
    #[arg(long, requires = "client")]
    pub json: bool,
}

pub fn run(kb: &KnowledgeBase, args: &PromptArgs) -> Result<ExitCode, CliError> {
    for state in kb.enabled_topics() {
        print_topic_warnings(kb, state);
    }
    if let Some(client) = &args.client {
        return run_client(kb, client, args.json);
    }
    let section = kb.knowledge_section();
    if let Some(text) = &section {
        print_text(text);
    }
    if args.stats {
        let text = section.as_deref().unwrap_or("");
        let tokens = jp_kb_core::internal::tokens::count_tokens(text)
            .map_or_else(|| "?".to_owned(), |n| n.to_string());
        eprintln!(
            "knowledge section: {} bytes ({}), {tokens} tokens ({})",
            text.len(),
            human_bytes(text.len() as u64),
            jp_kb_core::internal::tokens::TOKENIZER
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The client's profile and setup in this workspace, with the notes about
/// the setup printed on stderr.
pub fn client_arrivals(
    kb: &KnowledgeBase,
    client: &str,
) -> Result<(Profile, Vec<Arrival>), CliError> {
    let profile = profile(client).map_err(CliError::usage)?;
    let setup = read_setup(kb.root(), &profile).map_err(CliError::runtime)?;
    match Client::named(client).ok().and_then(|c| not_needed(c, kb)) {
        // Its setup files are not what it sends.
        Some(why) => eprintln!("note: {why}"),
        None => print_setup_notes(&profile, &setup),
    }
    let list = arrivals(kb, &profile, &setup);
    Ok((profile, list))
}

fn print_setup_notes(profile: &Profile, setup: &Setup) {
    for note in setup.notes(profile) {
        eprintln!("{}", jp_kb::hints::setup_note(&note));
    }
}

fn run_client(kb: &KnowledgeBase, client: &str, as_json: bool) -> Result<ExitCode, CliError> {
    let (profile, list) = client_arrivals(kb, client)?;
    if as_json {
        let value: Vec<_> = list
            .iter()
            .map(|a| json!({"channel": a.channel.id(), "text": a.text, "cut": a.cut}))
            .collect();
        let text = serde_json::to_string_pretty(&value)
            .map_err(|e| CliError::runtime(format!("cannot write JSON: {e}")))?;
        print_text(&text);
        return Ok(ExitCode::SUCCESS);
    }
    if list.is_empty() {
        eprintln!(
            "nothing of jp-kb reaches the model of {}",
            profile.display_name()
        );
    }
    // A header line per channel, then the text exactly as it arrives.
    let mut out = String::new();
    for arrival in &list {
        let _ = writeln!(
            out,
            "==> {} ({}): {} <==",
            arrival.channel.label(),
            profile.display_name(),
            arrival.note
        );
        if !arrival.text.is_empty() {
            out.push_str(&arrival.text);
            if !arrival.text.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
    Ok(ExitCode::SUCCESS)
}
