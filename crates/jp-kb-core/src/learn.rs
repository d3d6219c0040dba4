//! The `learn` tool as a pure function of a resolved topic
//! ([`execute_resolved`]): it reads the subject files it returns and
//! nothing else, and does not know who calls it.

use std::fmt::Write as _;
use std::path::Path;

use crate::content::{Root, read_formatted};
use crate::render::learn::render_already_learned;
use crate::render::{render_listing, render_loaded};
use crate::subjects::{PatternList, Resolution};

/// How many available subjects a "nothing selected" error lists: enough to
/// correct a typo, without flooding the context window on a huge topic.
pub const MAX_LISTED_IN_ERROR: usize = 200;

/// The tool result: text for the assistant, or an error the assistant sees
/// as a failed call.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// The answer's text.
    Success(String),
    /// The error's text (a failed tool call).
    Error(String),
}

impl Outcome {
    /// The text, answer or error.
    pub fn text(&self) -> &str {
        match self {
            Outcome::Success(t) | Outcome::Error(t) => t,
        }
    }

    /// Whether it is an error (a failed tool call).
    pub fn is_error(&self) -> bool {
        matches!(self, Outcome::Error(_))
    }
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
