//! The adoption plan, pure: from what was found and the person's choices,
//! each file's topic, slug and state (pre-loaded, learnable or skipped),
//! the topics' texts, and what the assistant would then be shown. The
//! CLI prints it, the TUI shows it, and [`super::apply`] carries it out.

use std::collections::{BTreeMap, BTreeSet};

use crate::content::{Content, format_subject};
use crate::subjects::slug::{slug_of_rel, split_extension};

use super::find::{Found, NotAdopted};
use super::gate::Trigger;
use super::kinds::{Kind, TopicKind, link_rel};

/// What a file becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum State {
    /// Pre-loaded into the system prompt (`learned`).
    Learned,
    /// Listed by `learn`, loaded when the assistant asks.
    Learnable,
    /// Left out, by the person's choice.
    Skipped,
}

impl State {
    /// Its name for people.
    pub fn name(self) -> &'static str {
        match self {
            Self::Learned => "pre-loaded",
            Self::Learnable => "learnable",
            Self::Skipped => "skipped",
        }
    }
}

/// The person's choices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choices {
    /// What a file gated by paths or by a directory becomes (`--gated`).
    pub gated: State,
    /// Per file (repository path): what it becomes instead.
    pub files: BTreeMap<String, State>,
}

impl Default for Choices {
    fn default() -> Self {
        Self {
            gated: State::Learnable,
            files: BTreeMap::new(),
        }
    }
}

/// One adopted file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Repository-relative, `/`-separated.
    pub rel: String,
    /// Which assistant's file it is, and of what kind.
    pub kind: Kind,
    /// When that assistant reads it.
    pub trigger: Trigger,
    /// Its own description (front matter), if any.
    pub description: Option<String>,
    /// The file that imports it (`@path`), if any.
    pub imported_by: Option<String>,
    /// The topic it goes to.
    pub topic: TopicKind,
    /// The link's path in the topic directory.
    pub link: String,
    /// Its slug in that topic.
    pub slug: String,
    /// What it becomes.
    pub state: State,
    /// Whether a per-file choice set the state.
    pub chosen: bool,
    /// What the assistant gets for it.
    pub shown: String,
    /// Tokens (`o200k_base`) of [`Self::shown`].
    pub tokens: usize,
}

/// A topic the plan makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedTopic {
    pub kind: TopicKind,
    pub id: &'static str,
    /// Workspace-relative: `.jp/kb/<id>`.
    pub dir: String,
    pub title: &'static str,
    pub introduction: &'static str,
    /// Lists each learnable subject and when it applies.
    pub description: Option<String>,
}

/// The whole plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Only topics that get a pre-loaded or learnable subject.
    pub topics: Vec<PlannedTopic>,
    /// By topic, then slug.
    pub entries: Vec<Entry>,
    /// What was found and is not adopted, and why.
    pub not_adopted: Vec<NotAdopted>,
}

/// A per-file choice names no file the plan found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path} is not among the files found (found: {})", found.join(", "))]
pub struct UnknownFile {
    pub path: String,
    pub found: Vec<String>,
}

/// Where every topic directory of the plan lies, workspace-relative.
pub const TOPICS_DIR: &str = ".jp/kb";

/// Plans the adoption of `found` under `choices`.
///
/// # Errors
/// A per-file choice naming a file that was not found.
pub fn plan(found: &Found, choices: &Choices) -> Result<Plan, UnknownFile> {
    let known: BTreeSet<&str> = found.files.iter().map(|f| f.rel.as_str()).collect();
    if let Some(path) = choices.files.keys().find(|p| !known.contains(p.as_str())) {
        return Err(UnknownFile {
            path: path.clone(),
            found: known.iter().map(|s| (*s).to_owned()).collect(),
        });
    }
    let mut taken: BTreeSet<(TopicKind, String)> = BTreeSet::new();
    let mut entries: Vec<Entry> = Vec::new();
    for file in &found.files {
        let topic = file.kind.topic();
        let (link, slug) = unique_link(&mut taken, topic, &link_rel(&file.kind, &file.rel));
        let default = default_state(&file.gate.trigger, choices.gated);
        let chosen = choices.files.get(&file.rel).copied();
        let extension = split_extension(link.rsplit('/').next().unwrap_or(&link)).1;
        let shown = format_subject(&slug, extension, &Content::Text(file.text.clone()));
        let tokens = jp_kb_tokens::count_tokens(&shown).unwrap_or(0);
        entries.push(Entry {
            rel: file.rel.clone(),
            kind: file.kind.clone(),
            trigger: file.gate.trigger.clone(),
            description: file.gate.description.clone(),
            imported_by: file.imported_by.clone(),
            topic,
            link,
            slug,
            state: chosen.unwrap_or(default),
            chosen: chosen.is_some_and(|c| c != default),
            shown,
            tokens,
        });
    }
    entries.sort_by(|a, b| (a.topic, &a.slug).cmp(&(b.topic, &b.slug)));
    let topics = TopicKind::ALL
        .into_iter()
        .filter(|&kind| {
            entries
                .iter()
                .any(|e| e.topic == kind && e.state != State::Skipped)
        })
        .map(|kind| planned_topic(kind, &entries))
        .collect();
    Ok(Plan {
        topics,
        entries,
        not_adopted: found.not_adopted.clone(),
    })
}

/// Always-on files are pre-loaded, gated ones as the person chose, the
/// rest learnable.
fn default_state(trigger: &Trigger, gated: State) -> State {
    match trigger {
        Trigger::Always => State::Learned,
        t if t.is_gated() => gated,
        _ => State::Learnable,
    }
}

/// The link path and slug, made unique within the topic: a second file
/// with the same slug (`a.md` and `.a.md`, `x.md` and `x.txt`) gets `-2`.
fn unique_link(
    taken: &mut BTreeSet<(TopicKind, String)>,
    topic: TopicKind,
    link: &str,
) -> (String, String) {
    let (dir, name) = link.rsplit_once('/').map_or(("", link), |(d, n)| (d, n));
    let (stem, extension) = split_extension(name);
    for n in 1.. {
        let name = match (n, extension) {
            (1, _) => name.to_owned(),
            (_, Some(ext)) => format!("{stem}-{n}.{ext}"),
            (_, None) => format!("{stem}-{n}"),
        };
        let candidate = if dir.is_empty() {
            name
        } else {
            format!("{dir}/{name}")
        };
        let slug = slug_of_rel(&candidate);
        if taken.insert((topic, slug.clone())) {
            return (candidate, slug);
        }
    }
    unreachable!("some suffix is free")
}

fn planned_topic(kind: TopicKind, entries: &[Entry]) -> PlannedTopic {
    let (title, introduction, lead) = match kind {
        TopicKind::Project => (
            "Project instructions",
            "Instructions for parts of this repository (an AGENTS.md or CLAUDE.md in a \
             directory): learn the one for the directory you work in.",
            "Learn an instruction file when your work matches it:",
        ),
        TopicKind::Rules => (
            "Rules",
            "Rules for some files or tasks of this repository: learn the ones that match \
             your work.",
            "Each rule applies only where it says; learn it when your work matches:",
        ),
        TopicKind::Skills => (
            "Skills",
            "Guides for tasks: learn the one whose description matches your task.",
            "Learn a skill when the task matches its description:",
        ),
    };
    let lines: Vec<String> = entries
        .iter()
        .filter(|e| e.topic == kind && e.state == State::Learnable)
        .map(|e| format!("- `{}`: {}", e.slug, when(e)))
        .collect();
    let description = (!lines.is_empty()).then(|| format!("{lead}\n\n{}", lines.join("\n")));
    PlannedTopic {
        kind,
        id: kind.id(),
        dir: format!("{TOPICS_DIR}/{}", kind.id()),
        title,
        introduction,
        description,
    }
}

/// When a learnable subject applies, for the assistant: the gate the
/// other assistant would have applied, said in words.
fn when(entry: &Entry) -> String {
    let text = match &entry.trigger {
        Trigger::Files(globs) => format!(
            "when working on files matching {}",
            globs
                .iter()
                .map(|g| format!("`{g}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Trigger::Directory(dir) => format!("for work under `{dir}/`"),
        Trigger::Described(d) => one_line(d),
        Trigger::Manual => "only when the person asks for it by name".into(),
        Trigger::Always => "applies to all work in this repository".into(),
    };
    match (&entry.trigger, &entry.description) {
        (Trigger::Files(_), Some(d)) => format!("{text} ({})", one_line(d)),
        _ => text,
    }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Plan {
    /// The entries of topic `kind` in state `state`, in slug order.
    pub fn entries_in(&self, kind: TopicKind, state: State) -> impl Iterator<Item = &Entry> {
        self.entries
            .iter()
            .filter(move |e| e.topic == kind && e.state == state)
    }

    /// Entries that are adopted (not skipped).
    pub fn adopted(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.state != State::Skipped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::internal::adopt::find::FoundFile;
    use crate::internal::adopt::gate::gate_of;
    use crate::internal::adopt::kinds::classify;

    fn found(files: &[(&str, &str)]) -> Found {
        Found {
            files: files
                .iter()
                .map(|(rel, text)| {
                    let kind = classify(rel).unwrap_or(Kind::Import);
                    FoundFile {
                        rel: (*rel).into(),
                        gate: gate_of(&kind, text),
                        kind,
                        text: (*text).into(),
                        imported_by: None,
                    }
                })
                .collect(),
            not_adopted: Vec::new(),
        }
    }

    fn states(plan: &Plan) -> Vec<(&str, &str, State)> {
        plan.entries
            .iter()
            .map(|e| (e.topic.id(), e.slug.as_str(), e.state))
            .collect()
    }

    #[test]
    fn always_on_files_are_pre_loaded_and_the_rest_learnable() {
        let f = found(&[
            ("CLAUDE.md", "# Claude"),
            ("AGENTS.md", "# Agents"),
            ("api/AGENTS.md", "# Api"),
            (".claude/rules/style.md", "Style"),
            (".claude/rules/web.md", "---\npaths: src/**/*.tsx\n---\nWeb"),
            (
                ".claude/skills/ship/SKILL.md",
                "---\ndescription: Ship it\n---\n",
            ),
        ]);
        let p = plan(&f, &Choices::default()).unwrap();
        assert_eq!(
            states(&p),
            [
                ("project", "AGENTS", State::Learned),
                ("project", "CLAUDE", State::Learned),
                ("project", "api/AGENTS", State::Learnable),
                ("rules", "claude/style", State::Learned),
                ("rules", "claude/web", State::Learnable),
                ("skills", "ship", State::Learnable),
            ]
        );
        let rules = &p.topics[1];
        assert_eq!(
            rules.description.as_deref(),
            Some(
                "Each rule applies only where it says; learn it when your work matches:\n\n\
                 - `claude/web`: when working on files matching `src/**/*.tsx`"
            )
        );
    }

    #[test]
    fn choices_move_gated_files_and_single_files() {
        let f = found(&[
            ("CLAUDE.md", "# Claude"),
            (".claude/rules/web.md", "---\npaths: src/**\n---\nWeb"),
        ]);
        let all = Choices {
            gated: State::Learned,
            files: BTreeMap::new(),
        };
        assert!(
            plan(&f, &all)
                .unwrap()
                .entries
                .iter()
                .all(|e| e.state == State::Learned)
        );
        let one = Choices {
            gated: State::Learnable,
            files: [("CLAUDE.md".to_owned(), State::Skipped)].into(),
        };
        let p = plan(&f, &one).unwrap();
        assert_eq!(p.entries[0].state, State::Skipped);
        assert!(p.entries[0].chosen);
        // Only the rules topic is made.
        assert_eq!(p.topics.len(), 1);
        let bad = Choices {
            gated: State::Learnable,
            files: [("nope.md".to_owned(), State::Skipped)].into(),
        };
        assert!(plan(&f, &bad).is_err());
    }

    #[test]
    fn colliding_slugs_get_a_suffix() {
        let f = found(&[(".claude/rules/.a.md", "x"), (".claude/rules/a.md", "y")]);
        let p = plan(&f, &Choices::default()).unwrap();
        let slugs: Vec<_> = p.entries.iter().map(|e| e.slug.as_str()).collect();
        assert_eq!(slugs, ["claude/a", "claude/a-2"]);
    }
}
