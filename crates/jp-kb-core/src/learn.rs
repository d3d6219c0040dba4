//! The `learn` tool as a pure function of its input (the architecture
//! document's `execute(LearnInput) -> Outcome`): it reads the subject files
//! it returns and nothing else, and does not know who calls it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::content::{Root, read_formatted};
use crate::render::learn::render_already_learned;
use crate::render::{render_listing, render_loaded};
use crate::subjects::{PatternList, Resolution, walk_subjects};

/// How many available subjects a "nothing selected" error lists: enough to
/// correct a typo, without flooding the context window on a huge topic.
pub const MAX_LISTED_IN_ERROR: usize = 200;

/// Everything one `learn` call needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LearnInput {
    /// Canonical workspace root (symlinks leaving it are never read).
    pub workspace_root: PathBuf,
    /// The topic's subjects directory.
    pub subjects_dir: PathBuf,
    pub topic_id: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub disabled: Vec<String>,
    pub learned: Vec<String>,
    /// The tool's `subjects` argument; `None` lists the topic.
    pub subjects: Option<Vec<String>>,
}

/// The tool result: text for the assistant, or an error the assistant sees
/// as a failed call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Success(String),
    Error(String),
}

impl Outcome {
    pub fn text(&self) -> &str {
        match self {
            Outcome::Success(t) | Outcome::Error(t) => t,
        }
    }

    pub fn is_error(&self) -> bool {
        matches!(self, Outcome::Error(_))
    }
}

/// Runs `learn` from scratch: walks the directory, resolves, renders.
pub fn execute(input: &LearnInput) -> Outcome {
    let resolution = Resolution::new(
        walk_subjects(&input.subjects_dir, &input.workspace_root),
        dedup(&input.learned),
        dedup(&input.disabled),
    );
    let name = input
        .title
        .as_deref()
        .filter(|t| !t.is_empty())
        .unwrap_or(&input.topic_id);
    execute_resolved(
        &input.workspace_root,
        &resolution,
        &input.topic_id,
        name,
        input.description.as_deref(),
        input.subjects.as_deref(),
    )
}

fn dedup(items: &[String]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    items
        .iter()
        .filter(|s| seen.insert(s.as_str()))
        .cloned()
        .collect()
}

/// Runs `learn` over an already resolved topic (the CLI, TUI and MCP
/// server reuse their cached resolution). Subjects are read through the
/// guarded open, relative to `root` (the canonical workspace root): the
/// resolution may be older than the files.
pub fn execute_resolved(
    root: &Path,
    resolution: &Resolution,
    topic_id: &str,
    name: &str,
    description: Option<&str>,
    patterns: Option<&[String]>,
) -> Outcome {
    let subjects = resolution.subjects();
    let Some(patterns) = patterns else {
        let available: Vec<&str> = resolution
            .available()
            .into_iter()
            .map(|i| subjects[i].slug())
            .collect();
        let learned: Vec<&str> = resolution
            .learned_sorted()
            .into_iter()
            .map(|i| subjects[i].slug())
            .collect();
        return Outcome::Success(render_listing(name, description, &available, &learned));
    };

    let list = PatternList::new(patterns);
    let matched = list.resolve(subjects, &|i| !resolution.is_disabled(i));
    let (learned, selected): (Vec<usize>, Vec<usize>) = matched
        .into_iter()
        .map(|(i, _)| i)
        .partition(|&i| resolution.is_learned(i));

    if selected.is_empty() {
        if !learned.is_empty() {
            let slugs: Vec<&str> = learned.iter().map(|&i| subjects[i].slug()).collect();
            return Outcome::Success(render_already_learned(&slugs));
        }
        let disabled: Vec<&str> = patterns
            .iter()
            .filter_map(|p| crate::subjects::pattern::find_exact(subjects, p))
            .filter(|&i| resolution.is_disabled(i))
            .map(|i| subjects[i].slug())
            .collect();
        if let Some(slug) = disabled.first() {
            return Outcome::Error(format!(
                "Subject \"{slug}\" of topic \"{topic_id}\" is disabled and cannot be learned."
            ));
        }
        return Outcome::Error(nothing_selected(resolution, topic_id, patterns));
    }

    let single_exact = patterns.len() == 1 && !list.is_glob(0) && selected.len() == 1;
    let root = Root::new(root);
    let loaded: Vec<(&str, String)> = selected
        .iter()
        .map(|&i| {
            let s = &subjects[i];
            (
                s.slug(),
                read_formatted(&root, s.slug(), s.extension(), s.path()),
            )
        })
        .collect();
    Outcome::Success(render_loaded(single_exact, &loaded))
}

fn nothing_selected(resolution: &Resolution, topic_id: &str, patterns: &[String]) -> String {
    let quoted: Vec<String> = patterns.iter().map(|p| format!("\"{p}\"")).collect();
    let mut out = format!(
        "No subject of topic \"{topic_id}\" matches {}. Available subjects:\n",
        if quoted.is_empty() {
            "(no pattern)".to_owned()
        } else {
            quoted.join(", ")
        }
    );
    let available = resolution.available();
    if available.is_empty() {
        out.push_str("(none)");
    } else {
        let lines: Vec<String> = available
            .iter()
            .take(MAX_LISTED_IN_ERROR)
            .map(|&i| format!("- {}", resolution.subjects()[i].slug()))
            .collect();
        out.push_str(&lines.join("\n"));
        if available.len() > MAX_LISTED_IN_ERROR {
            let _ = write!(
                out,
                "\n… and {} more (call `learn` without `subjects` for the full list)",
                available.len() - MAX_LISTED_IN_ERROR
            );
        }
    }
    out
}
