//! The curation planner: what a person asks for ("pre-load these
//! subjects", "enable this topic", "a new topic here") turned into the
//! file to write, the [`Edit`]s, and what the change does to the
//! assistant's view — or a question, or a refusal. The one place both the
//! CLI and the TUI decide what an edit means (`docs/editing.md`, "One
//! planner"); they only ask it and show its answer. Pure: nothing is
//! written here, no topic is walked (the [`Workspace`] comes resolved),
//! and nothing is read but what its [`TokenSource`] and [`Disk`] read.
//!
//! `lists` plans `learned`/`disabled` changes for a set of subjects,
//! `directory` the same for a directory, `topics` topic fields and new
//! topics, `effect` the change in the `<knowledge>` section, `layers` the
//! files an edit may go to.

mod answer;
mod counting;
mod directory;
mod effect;
pub mod layers;
mod list;
mod lists;
mod planned;
mod prune;
#[cfg(test)]
mod tests;
mod topic_id;
mod topics;

use std::path::{Path, PathBuf};

use crate::KnowledgeBase;
use crate::config::TopicField;
use crate::edit::error::EditError;
use crate::edit::ops::{Applied, Edit, FieldValue, apply, apply_declaring};
use crate::topic::TopicError;

pub use answer::{Alternative, AlternativeKind, Refusal};
pub use counting::Counting;
pub use effect::{Confirm, NoTokens, TokenChange, TokenSource, ViewChange};
pub use list::{List, list_edit};
pub use planned::planned;
pub use topic_id::{TopicIdError, check_topic_id, is_valid_topic_id};

/// The `<knowledge>` section's token budget a plan is measured against
/// unless the caller gives another (`check`'s KB112 uses the same).
pub const DEFAULT_BUDGET: usize = 20_000;

/// What the planner is asked about: the loaded workspace with every topic
/// resolved, the file the person chose (`--file`, the TUI's layer picker),
/// if any, the token counts known so far and the section's budget.
///
/// The planner reads nothing else: [`Workspace::new`] resolves every topic
/// (walks its directory) before anything is planned, so [`plan`] itself
/// never walks; token counts come from the [`TokenSource`], and where a
/// new `subjects` value leads from the [`Disk`] given (the real file
/// system unless [`Workspace::disk`] says otherwise).
pub struct Workspace<'a> {
    pub(crate) kb: &'a KnowledgeBase,
    pub(crate) chosen: Option<Chosen>,
    pub(crate) tokens: &'a dyn TokenSource,
    pub(crate) budget: usize,
    pub(crate) disk: &'a dyn Disk,
}

impl<'a> Workspace<'a> {
    /// `kb`, every topic of it resolved now (the walks happen here, on the
    /// caller's thread, never inside [`plan`]); no file chosen, no token
    /// count known, the [`DEFAULT_BUDGET`], the real file system.
    pub fn new(kb: &'a KnowledgeBase) -> Self {
        kb.resolve_all();
        Self::resolved(kb)
    }

    /// `kb` as it is: a topic not resolved yet is planned as one whose
    /// subjects cannot be read (the planner never walks).
    pub(crate) fn resolved(kb: &'a KnowledgeBase) -> Self {
        Self {
            kb,
            chosen: None,
            tokens: &NoTokens,
            budget: DEFAULT_BUDGET,
            disk: &OnDisk,
        }
    }

    /// Edits go to the file the person chose (see [`Chosen`]).
    #[must_use]
    pub fn chosen(mut self, chosen: Chosen) -> Self {
        self.chosen = Some(chosen);
        self
    }

    /// Token counts as far as the caller knows them.
    #[must_use]
    pub fn tokens(mut self, tokens: &'a dyn TokenSource) -> Self {
        self.tokens = tokens;
        self
    }

    /// The section's token budget (a plan crossing it asks first).
    #[must_use]
    pub fn budget(mut self, budget: usize) -> Self {
        self.budget = budget;
        self
    }

    /// Where new `subjects` values are looked up (a test's own disk).
    #[must_use]
    pub fn disk(mut self, disk: &'a dyn Disk) -> Self {
        self.disk = disk;
        self
    }
}

/// The planner's one look at the file system, given to it: where a new
/// `subjects` value leads (a missing directory is accepted with a note; one
/// leading out of the workspace is refused).
pub trait Disk {
    /// The directory `subjects` names under `root`, or why it cannot be
    /// used (the rules of [`crate::topic::subjects_dir`]).
    ///
    /// # Errors
    /// [`TopicError`], as a topic with that value would show it.
    fn subjects_dir(&self, root: &Path, subjects: &str) -> Result<PathBuf, TopicError>;
}

/// The real file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct OnDisk;

impl Disk for OnDisk {
    fn subjects_dir(&self, root: &Path, subjects: &str) -> Result<PathBuf, TopicError> {
        crate::topic::subjects_dir(root, Some(subjects))
    }
}

/// A file the person chose for edits.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Chosen {
    /// The file.
    pub path: PathBuf,
    /// Every edit goes there, removals included (the CLI's `--file`).
    /// Otherwise only additions and new keys go there, and a removal goes
    /// to the files holding the entry (the TUI's picker).
    pub only: bool,
}

impl Chosen {
    /// Every edit goes to `path`, removals included (the CLI's `--file`).
    pub fn every_edit(path: PathBuf) -> Self {
        Self { path, only: true }
    }

    /// Additions and new keys go to `path`; a removal goes to the files
    /// holding the entry (the TUI's layer picker).
    pub fn additions(path: PathBuf) -> Self {
        Self { path, only: false }
    }
}

/// What a person asks for. `entries` are subjects' slugs, or patterns;
/// a set is one intent: one write per file, one undo step.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Intent {
    /// Pre-load (`learned`) or disable (`disabled`) these.
    Add {
        /// `learned` or `disabled`.
        list: List,
        /// The topic's id (or title).
        topic: String,
        /// Slugs or patterns to add.
        entries: Vec<String>,
    },
    /// Stop pre-loading / disabling these: each is an entry, or the slug
    /// of a subject some entry selects.
    Remove {
        /// `learned` or `disabled`.
        list: List,
        /// The topic's id (or title).
        topic: String,
        /// Entries, or slugs of subjects an entry selects.
        entries: Vec<String>,
    },
    /// `l`/`d` on a directory (relative path as walked, `.`s kept).
    Directory {
        /// `learned` or `disabled`.
        list: List,
        /// The topic's id (or title).
        topic: String,
        /// The directory, relative to the topic's `subjects`.
        dir: String,
    },
    /// Turn the whole topic on or off.
    Enable {
        /// The topic's id (or title).
        topic: String,
        /// On (`true`) or off.
        enable: bool,
    },
    /// Set (`Some`) or unset (`None`) fields; an empty text unsets.
    /// Several fields are one step (the TUI's topic form).
    Fields {
        /// The topic's id (or title).
        topic: String,
        /// Each field with its new value (`None`: unset).
        fields: Vec<(TopicField, Option<FieldValue>)>,
    },
    /// Declare a new topic.
    NewTopic {
        /// The new topic's id.
        id: String,
        /// Its `subjects` directory, relative to the workspace root.
        subjects: String,
        /// Its `title`, if any.
        title: Option<String>,
        /// Its `introduction`, if any.
        introduction: Option<String>,
        /// Its `description`, if any.
        description: Option<String>,
    },
    /// Remove a topic from every TOML file declaring it (or the chosen one).
    RemoveTopic {
        /// The topic's id (or title).
        topic: String,
    },
    /// Disable these subjects, of any topics, in one step (pruning:
    /// `jp-kb usage --stale --disable`, the curator's prune view).
    DisableSubjects {
        /// `(topic, slug)` of each.
        subjects: Vec<(String, String)>,
    },
}

/// The edits of one file, carried out as one write.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Step {
    /// The file.
    pub path: PathBuf,
    /// Its edits, applied in order.
    pub edits: Vec<Edit>,
    /// Why this file (shown to the person).
    pub reason: String,
    /// An addition to a topic the file does not declare declares it
    /// there (the way the user-workspace file holds personal pre-loads).
    pub declare: bool,
}

impl Step {
    /// A step applying `edits` to the file at `path`, in order; `reason`
    /// says why this file (shown to the person).
    pub fn new(path: PathBuf, edits: Vec<Edit>, reason: impl Into<String>) -> Self {
        Self {
            path,
            edits,
            reason: reason.into(),
            declare: false,
        }
    }

    /// A step replacing the whole file at `path` by `text` when it still
    /// holds `expected` (`None`: missing): how `connect` and `sync` write
    /// client files through [`crate::edit::apply`].
    pub fn whole_file(
        path: PathBuf,
        expected: Option<String>,
        text: String,
        reason: String,
        summary: String,
    ) -> Self {
        Self {
            path,
            edits: vec![Edit::WholeFile {
                expected,
                text,
                summary,
            }],
            reason,
            declare: false,
        }
    }

    /// The edits applied in order, as one change with the summaries
    /// joined (the journal records it as one undo step).
    ///
    /// # Errors
    /// The first edit that fails.
    pub fn apply(&self, source: &str) -> Result<Applied, EditError> {
        let mut current = source.to_owned();
        let mut summaries = Vec::new();
        let mut changed = false;
        for edit in &self.edits {
            let applied = if self.declare {
                apply_declaring(&current, edit)?
            } else {
                apply(&current, edit)?
            };
            changed |= applied.changed;
            summaries.push(applied.summary);
            current = applied.text;
        }
        Ok(Applied {
            text: current,
            changed,
            summary: summaries.join("; "),
        })
    }
}

/// A change ready to be carried out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Plan {
    /// The files to write and their edits, in order.
    pub steps: Vec<Step>,
    /// What the assistant's view gains and loses.
    pub effect: ViewChange,
    /// Why a person should confirm first (empty: no need).
    pub confirm: Vec<Confirm>,
    /// Warnings to show with it (a pattern selecting nothing yet, a
    /// directory that does not exist yet, a `--cfg` copy that stays).
    pub notes: Vec<String>,
}

impl Plan {
    /// A plan writing `steps` in order, and nothing more: no effect on the
    /// assistant's view worked out, nothing to confirm, no notes (edits a
    /// caller made itself, carried out by [`crate::edit::apply`]).
    pub fn new(steps: Vec<Step>) -> Self {
        Self {
            steps,
            ..Self::default()
        }
    }

    /// The files the plan writes, in order.
    pub fn files(&self) -> Vec<&Path> {
        self.steps.iter().map(|s| s.path.as_path()).collect()
    }

    /// Takes the section's count after the plan, counted since it was
    /// made: the token line becomes exact, and the budget question is
    /// asked on it (the one on a bound goes).
    pub fn counted(&mut self, after: usize, budget: usize) {
        self.settle(self.effect.tokens.before, Some(after), budget);
    }

    /// The section's count now (`before`) and after the plan (`after`),
    /// as far as known since the plan was made: each known figure is
    /// kept, and once the count now is known the budget question is asked
    /// again, exactly when the count after is known too, else on the
    /// planner's bound (a plan made before the section was counted would
    /// otherwise keep saying "still counting").
    pub fn settle(&mut self, before: Option<usize>, after: Option<usize>, budget: usize) {
        let tokens = &mut self.effect.tokens;
        tokens.before = tokens.before.or(before);
        if after.is_some() {
            tokens.after = after;
        }
        let Some(now) = tokens.before else {
            return;
        };
        // Known now, not counted after: the bound the planner would have
        // used had the section been counted when it planned.
        let bound = now.saturating_add(self.effect.entering_bytes / 2);
        self.confirm.retain(|c| {
            !matches!(
                c,
                Confirm::CrossesBudget { .. } | Confirm::MayCrossBudget { .. }
            )
        });
        let entering = !self.effect.entering.is_empty();
        self.confirm.extend(
            self.effect
                .tokens
                .budget_confirm(budget, entering, Some(bound)),
        );
    }
}

/// Several ways to do what was asked; the person picks one.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Question {
    /// The question, in one line.
    pub title: String,
    /// The glob entries the question is about (for the CLI's commands).
    pub globs: Vec<String>,
    /// What the person should know to choose.
    pub lines: Vec<String>,
    /// The options, each with its kind and plan.
    pub options: Vec<Alternative>,
}

/// The planner's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Answer {
    /// Carry this plan out (after its confirmations, if any).
    Do(Plan),
    /// Several ways to do it: the person picks one.
    Choose(Question),
    /// Nothing to change; the message says why (not an error).
    Nothing(String),
    /// Cannot be done, and why.
    Refuse(Refusal),
}

/// Plans `intent` in `ws`.
pub fn plan(ws: &Workspace<'_>, intent: &Intent) -> Answer {
    let answer = match intent {
        Intent::Add {
            list,
            topic,
            entries,
        } => lists::add(ws, *list, topic, entries),
        Intent::Remove {
            list,
            topic,
            entries,
        } => lists::remove(ws, *list, topic, entries),
        Intent::Directory { list, topic, dir } => directory::toggle(ws, *list, topic, dir),
        Intent::Enable { topic, enable } => topics::enable(ws, topic, *enable),
        Intent::Fields { topic, fields } => topics::fields(ws, topic, fields),
        Intent::NewTopic { .. } => topics::new_topic(ws, intent),
        Intent::RemoveTopic { topic } => topics::remove(ws, topic),
        Intent::DisableSubjects { subjects } => prune::disable_subjects(ws, subjects),
    };
    guard_jp_files(ws.kb, answer)
}

/// A plan that puts the first `kb` table into a file JP loads breaks
/// today's JP: it asks first ([`Confirm::KbInJpFile`]; a front end that
/// carries plans out without asking says it, with its own way to move
/// the table). Files that already hold topics are KB120's business, not
/// each edit's. A JP with the knowledge base inside reads those tables:
/// nothing to ask.
fn guard_jp_files(kb: &KnowledgeBase, answer: Answer) -> Answer {
    if kb.loaded.jp.reads_kb() {
        return answer;
    }
    let guard = |mut plan: Plan| {
        for step in &plan.steps {
            if layers::jp_loads(&kb.loaded, &step.path)
                && !layers::holds_topics(&kb.loaded, &step.path)
            {
                plan.confirm
                    .push(Confirm::KbInJpFile(kb.display_path(&step.path)));
            }
        }
        plan
    };
    match answer {
        Answer::Do(plan) => Answer::Do(guard(plan)),
        Answer::Choose(mut q) => {
            q.options = q
                .options
                .into_iter()
                .map(|a| Alternative {
                    plan: guard(a.plan),
                    ..a
                })
                .collect();
            Answer::Choose(q)
        }
        other => other,
    }
}

/// Appends `edit` to the step of `path` (a new step when there is none):
/// the edits of one file stay one write.
fn push_edit(steps: &mut Vec<Step>, path: &Path, edit: Edit, reason: &str, declare: bool) {
    match steps.iter_mut().find(|s| s.path == path) {
        Some(step) => {
            step.edits.push(edit);
            step.declare |= declare;
        }
        None => steps.push(Step {
            path: path.to_path_buf(),
            edits: vec![edit],
            reason: reason.to_owned(),
            declare,
        }),
    }
}

/// The topic `id`, or a refusal naming the valid ones.
fn known_topic<'a>(
    kb: &'a KnowledgeBase,
    id: &str,
) -> Result<&'a crate::topic::TopicState, Refusal> {
    kb.topic(id).ok_or_else(|| Refusal::UnknownTopic {
        topic: id.to_owned(),
        known: kb.topics.iter().map(|t| t.id().to_owned()).collect(),
    })
}
