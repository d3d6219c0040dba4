//! `jp-kb usage [TOPIC] [--since DURATION] [--json]` (contract §9): what
//! the assistant actually loaded, per subject of the enabled topics, from
//! the usage ledger `jp-kb mcp` writes; never-loaded subjects included,
//! and the human output ends with what the figures mean.

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::Args;
use jp_kb_core::Environment;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::display::escape_name;
use jp_kb_core::usage::{Report, Row, Tally, ledger_path, time};

use super::output::{CliError, print_human};

#[derive(Debug, Args)]
pub struct UsageArgs {
    /// A topic id (or title): only its subjects.
    pub topic: Option<String>,
    /// The window: loads this recent count (`30d`, `12h`, `2w`, or `all`;
    /// default 30d). With `--stale`: also list subjects not loaded for
    /// this long.
    #[arg(long, value_name = "DURATION")]
    pub since: Option<String>,
    /// Machine-readable output: one object per subject, in `list` order.
    #[arg(long)]
    pub json: bool,
    /// List the subjects worth pruning instead: expired (front matter
    /// `expires`), never loaded, or not loaded for `--since`; with their
    /// tokens and what disabling them all does to the prompt.
    #[arg(long)]
    pub stale: bool,
    /// With `--stale`: disable every subject listed, as one change.
    #[arg(long, requires = "stale")]
    pub disable: bool,
}

/// The window `usage` counts loads in when `--since` is not given.
const DEFAULT_WINDOW: &str = "30d";

/// One subject of `usage --json` (contract §9).
#[derive(serde::Serialize)]
struct SubjectJson<'a> {
    topic: &'a str,
    slug: &'a str,
    state: &'static str,
    loads: u64,
    sessions: u64,
    last: Option<String>,
    clients: Vec<&'a str>,
    tokens: u64,
}

/// `usage` without `--stale` (`usage_stale` has that).
pub fn run(env: &Environment, kb: &KnowledgeBase, args: &UsageArgs) -> Result<ExitCode, CliError> {
    let window = time::parse_duration(args.since.as_deref().unwrap_or(DEFAULT_WINDOW))
        .map_err(CliError::usage)?;
    let now = time::now();
    let since = window.map(|d| now.saturating_sub(d.as_secs()));
    let only = match &args.topic {
        Some(name) => Some(
            kb.resolve_topic(name)
                .map_err(|e| CliError::runtime(e.to_string()))?,
        ),
        None => None,
    };
    let path = env
        .user_data_dir
        .as_ref()
        .map(|data| ledger_path(data, kb.root()));
    let tally = match &path {
        Some(path) => Tally::read(path, since).map_err(|e| {
            CliError::runtime(format!(
                "cannot read the usage ledger {}: {e}",
                path.display()
            ))
        })?,
        None => Tally::default(),
    };
    let report = Report::build(kb, &tally, only);
    if args.json {
        let items: Vec<SubjectJson<'_>> = report.rows.iter().map(subject_json).collect();
        print_json(&items);
        return Ok(ExitCode::SUCCESS);
    }
    let window_text = window.map_or_else(
        || "so far".to_owned(),
        |d| format!("in {}", time::describe(d)),
    );
    let mut out = table(&report, now);
    let loaded = report.rows.iter().filter(|r| r.loads() > 0).count();
    let loads: u64 = report.rows.iter().map(Row::loads).sum();
    let _ = write!(
        out,
        "\n{} of {} subjects loaded {window_text} ({}, {}).",
        loaded,
        report.rows.len(),
        jp_kb_core::internal::plural::count(
            usize::try_from(loads).unwrap_or(usize::MAX),
            "load",
            "loads"
        ),
        jp_kb_core::internal::plural::count(
            usize::try_from(tally.sessions).unwrap_or(usize::MAX),
            "session",
            "sessions"
        ),
    );
    match &path {
        Some(p) => {
            let _ = write!(out, "\nLedger: {}", p.display());
        }
        None => out.push_str("\nNo user data directory: nothing is recorded."),
    }
    if tally.malformed > 0 {
        let _ = write!(out, " ({} unreadable lines skipped)", tally.malformed);
    }
    if tally.is_empty() {
        out.push_str(
            "\nNothing recorded yet: `jp-kb mcp` records what assistants load (unless --no-usage or kb.usage = false).",
        );
    } else {
        for insight in report.insights() {
            let _ = write!(out, "\n- {}", insight.text(&window_text));
        }
    }
    print_human(&out);
    Ok(ExitCode::SUCCESS)
}

/// For `jp-kb check`: a note on stderr naming the pre-loaded subjects
/// that `learn` was asked for in the last 30 days (the assistant did not
/// notice them in its system prompt?). Cheap when there is no ledger (one
/// `stat`); silent on any error: it is a hint, never a finding.
pub fn check_note(env: &Environment, options: &jp_kb_core::LoadOptions) {
    let Some(data) = &env.user_data_dir else {
        return;
    };
    let Ok(root) =
        jp_kb_core::internal::config::workspace::resolve_root(env, options.workspace.as_deref())
    else {
        return;
    };
    let path = ledger_path(data, &root);
    if !path.is_file() {
        return;
    }
    let Ok(kb) = KnowledgeBase::load(env, options) else {
        return;
    };
    let since = time::now().saturating_sub(30 * 86_400);
    let Ok(tally) = Tally::read(&path, Some(since)) else {
        return;
    };
    let asked: Vec<String> = Report::build(&kb, &tally, None)
        .rows
        .iter()
        .filter(|r| r.state == jp_kb_core::usage::State::Learned)
        .filter(|r| r.usage.is_some_and(|u| u.asked_while_preloaded > 0))
        .map(|r| format!("{}/{}", escape_name(r.topic), escape_name(r.slug)))
        .collect();
    if asked.is_empty() {
        return;
    }
    eprintln!(
        "note: `learn` was asked in the last 30 days for pre-loaded {}: {} (the assistant may not notice them in its system prompt; `jp-kb usage` has the figures)",
        if asked.len() == 1 {
            "subject"
        } else {
            "subjects"
        },
        asked.join(", ")
    );
}

fn subject_json<'a>(row: &Row<'a>) -> SubjectJson<'a> {
    SubjectJson {
        topic: row.topic,
        slug: row.slug,
        state: row.state.as_str(),
        loads: row.loads(),
        sessions: row.usage.map_or(0, |u| u.sessions),
        last: row.usage.and_then(|u| u.last).map(time::rfc3339),
        clients: row
            .usage
            .map(|u| u.clients.iter().map(String::as_str).collect())
            .unwrap_or_default(),
        tokens: row.usage.map_or(0, |u| u.tokens),
    }
}

/// The table: one line per subject; the topic column only when several
/// topics are shown.
fn table(report: &Report<'_>, now: u64) -> String {
    let many = report
        .rows
        .first()
        .is_some_and(|f| report.rows.iter().any(|r| r.topic != f.topic));
    let names: Vec<String> = report
        .rows
        .iter()
        .map(|r| {
            if many {
                format!("{}/{}", escape_name(r.topic), escape_name(r.slug))
            } else {
                escape_name(r.slug).into_owned()
            }
        })
        .collect();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(7);
    let mut out = format!(
        "{:<width$}  {:<9}  {:>5}  {:>8}  {:>6}  {:>7}  CLIENTS\n",
        "SUBJECT", "STATE", "LOADS", "SESSIONS", "LAST", "TOKENS"
    );
    for (row, name) in report.rows.iter().zip(&names) {
        let (loads, sessions, last, tokens, clients) = match row.usage {
            Some(u) if u.loads > 0 => (
                u.loads.to_string(),
                u.sessions.to_string(),
                u.last.map_or_else(String::new, |t| time::ago(t, now)),
                u.tokens.to_string(),
                u.clients
                    .iter()
                    .map(|c| escape_name(c).into_owned())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            _ => (
                "·".into(),
                "·".into(),
                "never".into(),
                "·".into(),
                String::new(),
            ),
        };
        let _ = writeln!(
            out,
            "{name:<width$}  {:<9}  {loads:>5}  {sessions:>8}  {last:>6}  {tokens:>7}  {clients}",
            row.state.as_str(),
        );
    }
    out
}

pub(super) fn print_json<T: serde::Serialize>(value: &T) {
    use std::io::Write as _;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut serializer = serde_json::Serializer::with_formatter(
        &mut out,
        jp_kb_core::display::SafeJsonFormatter::pretty(),
    );
    let _ = value.serialize(&mut serializer);
    let _ = out.write_all(b"\n");
    let _ = out.flush();
}
