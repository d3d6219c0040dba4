//! What a plan does to the assistant's view, before it is carried out:
//! the subjects entering or leaving the `<knowledge>` section, the
//! subjects it newly disables (hidden ones apart), the topics it turns
//! off, the section's token change, and the reasons to confirm first.
//!
//! Computed without writing or re-reading any configuration file: the
//! plan's edits are replayed on each touched topic's effective
//! `learned`/`disabled` entries (with their origins) and the topic is
//! resolved again over the walk it already has. Token counts come from a
//! [`TokenSource`], so the TUI answers from its cache (no file read on
//! the UI thread) and the CLI may count.

use std::fmt;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::KnowledgeBase;
use crate::config::{Origin, TopicField, Valued};
use crate::edit::ops::{Edit, FieldValue};
use crate::plural::{count, thousands};
use crate::subjects::{PatternList, Resolution, disables};
use crate::topic::TopicState;

use super::{Plan, Step};

/// Token counts as far as the caller knows them.
pub trait TokenSource {
    /// The whole `<knowledge>` section's tokens now (`None`: not known).
    fn section(&self) -> Option<usize>;
    /// The section's exact tokens once `steps` are carried out (`None`:
    /// not counted yet). Counted on the planned state (the `planned`
    /// module) with [`crate::section_tokens`].
    fn planned(&self, steps: &[Step]) -> Option<usize>;
}

/// A source that knows no count: plans still list the subjects by name.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTokens;

impl TokenSource for NoTokens {
    fn section(&self) -> Option<usize> {
        None
    }
    fn planned(&self, _: &[Step]) -> Option<usize> {
        None
    }
}

/// The section's token change: exact, or not known yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct TokenChange {
    /// The section's tokens now, when known.
    pub before: Option<usize>,
    /// The section's tokens after the change, once counted.
    pub after: Option<usize>,
}

impl TokenChange {
    /// `+18,649 tok → 41,327 tok, budget 20,000`, or, until both counts
    /// are known, that they are being counted (never a partial figure).
    pub fn line(&self, budget: usize) -> String {
        let (Some(before), Some(after)) = (self.before, self.after) else {
            return format!("counting tokens…, budget {}", thousands(budget));
        };
        let sign = if after < before { "-" } else { "+" };
        format!(
            "{sign}{} tok → {} tok, budget {}",
            thousands(after.abs_diff(before)),
            thousands(after),
            thousands(budget)
        )
    }

    /// Why the change asks first about the budget, if it does: it takes a
    /// section within the budget over it, or, until counted, it could:
    /// `bound` is then a figure the count does not exceed (the section now
    /// and the bytes entering, halved: see `docs/decisions.md`).
    pub fn budget_confirm(
        &self,
        budget: usize,
        entering: bool,
        bound: Option<usize>,
    ) -> Option<Confirm> {
        match (self.before, self.after) {
            (Some(before), _) if before > budget => None,
            (Some(_), Some(after)) => {
                (after > budget).then_some(Confirm::CrossesBudget { after, budget })
            }
            (Some(_), None) => {
                bound
                    .filter(|&bound| bound > budget)
                    .map(|bound| Confirm::MayCrossBudget {
                        bound: Some(bound),
                        budget,
                    })
            }
            (None, _) => entering.then_some(Confirm::MayCrossBudget {
                bound: None,
                budget,
            }),
        }
    }
}

/// What the assistant's view gains and loses. Subjects are named
/// `topic/slug`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ViewChange {
    /// Pre-loaded after, not before.
    pub entering: Vec<String>,
    /// Pre-loaded before, not after.
    pub leaving: Vec<String>,
    /// Newly disabled, not hidden.
    pub disabled: Vec<String>,
    /// Newly disabled hidden subjects (a disabled glob reaches them).
    pub disabled_hidden: Vec<String>,
    /// Subjects a new `disabled` entry reaches that were disabled already.
    pub already_disabled: usize,
    /// Topics the change turns off whole (or whose every subject it
    /// disables).
    pub topics_off: Vec<String>,
    /// Topics left on whose every subject the change disables: they show
    /// nothing, but `enable` is untouched (said apart from `topics_off`).
    pub topics_emptied: Vec<String>,
    /// The section's token counts before and after.
    pub tokens: TokenChange,
    /// Bytes of the subjects entering the section: with the section's
    /// count now, a safe bound on the count after it until that is
    /// counted (see [`TokenChange::budget_confirm`]).
    pub entering_bytes: usize,
}

impl ViewChange {
    /// Whether the section changes at all.
    pub fn changes_prompt(&self) -> bool {
        !self.entering.is_empty() || !self.leaving.is_empty()
    }

    /// One line per fact, for a dialog: the token line, then the names.
    pub fn lines(&self, budget: usize) -> Vec<String> {
        let mut lines = vec![self.tokens.line(budget)];
        let names = |v: &[String]| {
            const SHOWN: usize = 8;
            let mut s = v.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
            if v.len() > SHOWN {
                let _ = write!(s, " and {} more", v.len() - SHOWN);
            }
            s
        };
        if !self.entering.is_empty() {
            lines.push(format!("enters <knowledge>: {}", names(&self.entering)));
        }
        if !self.leaving.is_empty() {
            lines.push(format!("leaves <knowledge>: {}", names(&self.leaving)));
        }
        let hidden = &self.disabled_hidden;
        if let Some(line) = disables(self.disabled.len(), hidden.len()) {
            // The hidden ones are named: nothing else on screen shows them.
            lines.push(if hidden.is_empty() {
                line
            } else {
                format!("{line}: {}", names(hidden))
            });
        }
        if self.already_disabled > 0 {
            lines.push(format!(
                "{} already disabled",
                count(self.already_disabled, "subject", "subjects")
            ));
        }
        for topic in &self.topics_off {
            lines.push(format!("turns topic `{topic}` off"));
        }
        for topic in &self.topics_emptied {
            lines.push(format!(
                "disables every subject of topic `{topic}` (it stays enabled)"
            ));
        }
        lines
    }
}

/// Why a change asks for confirmation first.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Confirm {
    /// Pre-loaded subjects leave the section.
    RemovesPreloaded(Vec<String>),
    /// A whole topic goes (`enable = false`).
    DisablesTopic(String),
    /// Every subject of a topic gets disabled; the topic stays enabled.
    EmptiesTopic(String),
    /// The section goes over its token budget.
    CrossesBudget {
        /// The section's tokens after the change.
        after: usize,
        /// The budget.
        budget: usize,
    },
    /// Not counted yet, and the section could go over its budget (up to
    /// `bound`, when the section's count now is known).
    MayCrossBudget {
        /// At most this many tokens after the change, when known.
        bound: Option<usize>,
        /// The budget.
        budget: usize,
    },
    /// The first `kb` table goes into a file JP loads (its path, relative
    /// to the workspace root when inside it): today's JP refuses to start
    /// with it (contract §2, check KB120).
    KbInJpFile(PathBuf),
}

impl fmt::Display for Confirm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Confirm::RemovesPreloaded(names) => write!(
                f,
                "removes {} from the prompt",
                count(names.len(), "pre-loaded subject", "pre-loaded subjects")
            ),
            Confirm::DisablesTopic(id) => write!(f, "disables the whole topic `{id}`"),
            // Not "the whole topic": its `enable` is untouched, as the
            // effect line under it says (issue 37 item 5).
            Confirm::EmptiesTopic(id) => write!(f, "disables every subject of topic `{id}`"),
            Confirm::CrossesBudget { after, budget } => write!(
                f,
                "takes the prompt to {} tokens, over the budget of {}",
                thousands(*after),
                thousands(*budget)
            ),
            Confirm::MayCrossBudget { bound, budget } => {
                write!(
                    f,
                    "may take the prompt over the budget of {} tokens (still counting",
                    thousands(*budget)
                )?;
                if let Some(bound) = bound {
                    write!(f, "; up to {} tokens", thousands(*bound))?;
                }
                f.write_str(")")
            }
            Confirm::KbInJpFile(file) => write!(
                f,
                "puts a `kb` table into {}, which JP loads: today's JP refuses to start with it",
                file.display()
            ),
        }
    }
}

/// Fills in `plan.effect` and `plan.confirm` from its steps. Pre-loaded
/// subjects leaving ask for confirmation unless every one of them is in
/// `named` (the person named them: that is what was asked).
pub(super) fn finish(
    kb: &KnowledgeBase,
    tokens: &dyn TokenSource,
    budget: usize,
    plan: &mut Plan,
    named: &[String],
) {
    let mut effect = ViewChange::default();
    let mut ids: Vec<&str> = Vec::new();
    for edit in plan.steps.iter().flat_map(|s| &s.edits) {
        if let Some(id) = topic_of(edit)
            && !ids.contains(&id)
        {
            ids.push(id);
        }
    }
    let mut entering_bytes = 0;
    for id in ids {
        if let Some(state) = kb.topic(id) {
            entering_bytes += topic_effect(kb, state, &plan.steps, &mut effect);
        }
    }
    let before = tokens.section();
    effect.tokens = TokenChange {
        before,
        after: tokens.planned(&plan.steps),
    };
    effect.entering_bytes = entering_bytes;
    let bound = before.map(|n| n.saturating_add(entering_bytes / 2));
    let mut confirm = Vec::new();
    if effect.leaving.iter().any(|l| !named.contains(l)) {
        confirm.push(Confirm::RemovesPreloaded(effect.leaving.clone()));
    }
    confirm.extend(
        effect
            .topics_off
            .iter()
            .cloned()
            .map(Confirm::DisablesTopic),
    );
    confirm.extend(
        effect
            .topics_emptied
            .iter()
            .cloned()
            .map(Confirm::EmptiesTopic),
    );
    confirm.extend(
        effect
            .tokens
            .budget_confirm(budget, !effect.entering.is_empty(), bound),
    );
    plan.effect = effect;
    plan.confirm = confirm;
}

pub(super) fn topic_of(edit: &Edit) -> Option<&str> {
    match edit {
        Edit::AddLearned { topic, .. }
        | Edit::RemoveLearned { topic, .. }
        | Edit::ReplaceLearned { topic, .. }
        | Edit::AddDisabled { topic, .. }
        | Edit::RemoveDisabled { topic, .. }
        | Edit::SetField { topic, .. }
        | Edit::UnsetField { topic, .. }
        | Edit::RemoveTopic { topic } => Some(topic),
        Edit::AddTopic { .. } | Edit::WholeFile { .. } => None,
    }
}

/// A topic's lists and switch after the plan's edits.
pub(super) struct After {
    pub(super) learned: Vec<Valued<String>>,
    pub(super) disabled: Vec<Valued<String>>,
    pub(super) enabled: bool,
    /// `disabled` entries the plan adds (for the "already disabled" count).
    added_disabled: Vec<String>,
}

pub(super) fn replay(kb: &KnowledgeBase, state: &TopicState, steps: &[Step]) -> After {
    let mut after = After {
        learned: state.config.learned.clone(),
        disabled: state.config.disabled.clone(),
        enabled: state.enabled(),
        added_disabled: Vec::new(),
    };
    let id = state.id();
    for step in steps {
        let path = step.path.as_path();
        for edit in step.edits.iter().filter(|e| topic_of(e) == Some(id)) {
            match edit {
                Edit::AddLearned { patterns, .. } => add(&mut after.learned, path, patterns),
                Edit::RemoveLearned { patterns, .. } => remove(&mut after.learned, path, patterns),
                Edit::ReplaceLearned { pattern, with, .. } => {
                    replace(&mut after.learned, path, pattern, with);
                }
                Edit::AddDisabled { slugs, .. } => {
                    add(&mut after.disabled, path, slugs);
                    after.added_disabled.extend(slugs.iter().cloned());
                }
                Edit::RemoveDisabled { slugs, .. } => remove(&mut after.disabled, path, slugs),
                Edit::SetField {
                    field: TopicField::Enable,
                    value: FieldValue::Bool(on),
                    ..
                } => after.enabled = *on,
                Edit::UnsetField {
                    field: TopicField::Enable,
                    ..
                } => after.enabled = !disabled_elsewhere(kb, id, path),
                Edit::RemoveTopic { .. } => after.enabled = false,
                _ => {}
            }
        }
    }
    after
}

/// Whether a loaded layer other than `file` sets `enable = false`.
fn disabled_elsewhere(kb: &KnowledgeBase, id: &str, file: &Path) -> bool {
    kb.loaded.files.iter().any(|f| {
        f.path != file
            && f.partial
                .topics
                .get(id)
                .and_then(|t| t.enable.as_ref())
                .is_some_and(|v| !v.value)
    })
}

fn in_file(v: &Valued<String>, path: &Path) -> bool {
    v.origin.editable_file() == Some(path)
}

fn add(items: &mut Vec<Valued<String>>, path: &Path, values: &[String]) {
    for value in values {
        if !items.iter().any(|v| v.value == *value && in_file(v, path)) {
            items.push(Valued::new(
                value.clone(),
                Origin::File {
                    path: PathBuf::from(path),
                    line: None,
                },
            ));
        }
    }
}

fn remove(items: &mut Vec<Valued<String>>, path: &Path, values: &[String]) {
    items.retain(|v| !(in_file(v, path) && values.contains(&v.value)));
}

fn replace(items: &mut Vec<Valued<String>>, path: &Path, pattern: &str, with: &[String]) {
    let Some(at) = items
        .iter()
        .position(|v| v.value == pattern && in_file(v, path))
    else {
        return;
    };
    let origin = items[at].origin.clone();
    let new: Vec<Valued<String>> = with
        .iter()
        .filter(|w| !items.iter().any(|v| v.value == **w && in_file(v, path)))
        .map(|w| Valued::new(w.clone(), origin.clone()))
        .collect();
    items.splice(at..=at, new);
    remove(items, path, &[pattern.to_owned()]);
}

pub(super) fn dedup(items: &[Valued<String>]) -> Vec<String> {
    crate::unique::keep_first(items.iter().map(|v| v.value.clone()))
}

/// Adds what the steps do to `state` to `effect`; returns the bytes the
/// section may gain (entering subjects with their wrappers, and the
/// topic's heading and menu line), for the budget bound.
fn topic_effect(
    kb: &KnowledgeBase,
    state: &TopicState,
    steps: &[Step],
    effect: &mut ViewChange,
) -> usize {
    let after = replay(kb, state, steps);
    let (learned, disabled) = (dedup(&after.learned), dedup(&after.disabled));
    let Some(before) = state.resolved() else {
        if state.enabled() && !after.enabled {
            effect.topics_off.push(state.id().to_owned());
        }
        return 0;
    };
    let mut gains = 0;
    let lists_changed = learned != before.learned_patterns || disabled != before.disabled_entries;
    let resolved: Arc<Resolution> = if lists_changed {
        Arc::new(Resolution::new(
            Arc::clone(&before.walk),
            learned,
            disabled.clone(),
        ))
    } else {
        Arc::clone(before)
    };
    let id = state.id();
    let name = |i: usize| format!("{id}/{}", before.subjects()[i].slug());
    let was_on = state.enabled();
    let mut any_left = false;
    let mut any_before = false;
    for i in 0..before.subjects().len() {
        let (pre, post) = (
            was_on && before.is_learned(i),
            after.enabled && resolved.is_learned(i),
        );
        if pre != post {
            if post {
                let s = &before.subjects()[i];
                let bytes = usize::try_from(s.bytes.min(crate::content::MAX_SUBJECT_BYTES));
                gains += bytes.unwrap_or(usize::MAX) + s.slug().len() + WRAPPER_BYTES;
            }
            if post {
                effect.entering.push(name(i));
            } else {
                effect.leaving.push(name(i));
            }
        }
        any_before |= !before.is_disabled(i);
        any_left |= !resolved.is_disabled(i);
        if !before.is_disabled(i) && resolved.is_disabled(i) {
            if before.subjects()[i].hidden {
                effect.disabled_hidden.push(name(i));
            } else {
                effect.disabled.push(name(i));
            }
        }
    }
    if !after.added_disabled.is_empty() {
        // Reached by a new entry but disabled by an older one already.
        let reached = PatternList::new(&after.added_disabled).first_match_any(before.subjects());
        effect.already_disabled += reached
            .iter()
            .enumerate()
            .filter(|(i, m)| m.is_some() && before.is_disabled(*i))
            .count();
    }
    if was_on && !after.enabled {
        effect.topics_off.push(id.to_owned());
    } else if was_on && any_before && !any_left {
        effect.topics_emptied.push(id.to_owned());
    }
    if gains > 0 || (!was_on && after.enabled) {
        // The topic's block or menu line may appear.
        let c = &state.config;
        gains += [c.title(), c.introduction(), c.description()]
            .iter()
            .flatten()
            .map(|t| t.len())
            .sum::<usize>()
            + id.len()
            + HEADING_BYTES;
    }
    gains
}

/// More than a subject's wrapper and separators take
/// (`<subject "…">\n…\n</subject>\n\n`, a code fence for a non-markdown
/// file).
const WRAPPER_BYTES: usize = 64;

/// More than the pre-load header and a topic's `<topic …>` lines take.
const HEADING_BYTES: usize = 256;
