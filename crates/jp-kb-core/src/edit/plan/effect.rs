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
use crate::subjects::{PatternList, Resolution};
use crate::topic::TopicState;

use super::{Plan, Step};

/// Token counts as far as the caller knows them.
pub trait TokenSource {
    /// The whole `<knowledge>` section's tokens now (`None`: not known).
    fn section(&self) -> Option<usize>;
    /// The tokens subject `index` of `topic` adds to the section when it
    /// is pre-loaded (`None`: not counted yet).
    fn subject(&self, topic: &TopicState, index: usize) -> Option<usize>;
}

/// A source that knows no count: plans still list the subjects by name.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTokens;

impl TokenSource for NoTokens {
    fn section(&self) -> Option<usize> {
        None
    }
    fn subject(&self, _: &TopicState, _: usize) -> Option<usize> {
        None
    }
}

/// The section's token change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TokenChange {
    /// The section's tokens now, when known.
    pub before: Option<usize>,
    /// Tokens of the subjects entering minus those leaving (counted ones).
    pub delta: i64,
    /// Entering or leaving subjects whose tokens are not counted yet.
    pub uncounted: usize,
}

impl TokenChange {
    /// The section's tokens after the change, when known. The topic
    /// headings a first or last subject adds or removes are not counted:
    /// they are a few tokens (see `docs/editing.md`).
    pub fn after(&self) -> Option<usize> {
        let before = i64::try_from(self.before?).ok()?;
        usize::try_from((before + self.delta).max(0)).ok()
    }

    /// `+18,649 tok → 41,327 tok, budget 20,000`.
    pub fn line(&self, budget: usize) -> String {
        let sign = if self.delta < 0 { "-" } else { "+" };
        let mut out = format!(
            "{sign}{} tok",
            thousands(usize::try_from(self.delta.unsigned_abs()).unwrap_or(usize::MAX))
        );
        if self.uncounted > 0 {
            let _ = write!(
                out,
                " (+{} not counted yet)",
                count(self.uncounted, "subject", "subjects")
            );
        }
        match self.after() {
            Some(after) => {
                let _ = write!(out, " → {} tok", thousands(after));
            }
            None => out.push_str(" → ? tok"),
        }
        let _ = write!(out, ", budget {}", thousands(budget));
        out
    }
}

/// What the assistant's view gains and loses. Subjects are named
/// `topic/slug`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
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
    pub tokens: TokenChange,
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
        match (self.disabled.len(), hidden.len()) {
            (0, 0) => {}
            (n, 0) => lines.push(format!("disables {}", count(n, "subject", "subjects"))),
            (0, h) => lines.push(format!(
                "disables {}: {}",
                count(h, "hidden subject", "hidden subjects"),
                names(hidden)
            )),
            (n, h) => lines.push(format!(
                "disables {} and {}: {}",
                count(n, "subject", "subjects"),
                count(h, "hidden one", "hidden ones"),
                names(hidden)
            )),
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
        lines
    }
}

/// Why a change asks for confirmation first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirm {
    /// Pre-loaded subjects leave the section.
    RemovesPreloaded(Vec<String>),
    /// A whole topic goes.
    DisablesTopic(String),
    /// The section goes over its token budget.
    CrossesBudget { after: usize, budget: usize },
    /// The first `kb` table goes into a file JP loads (shown path): today's
    /// JP refuses to start with it (contract §2, check KB120).
    KbInJpFile(String),
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
            Confirm::CrossesBudget { after, budget } => write!(
                f,
                "takes the prompt to {} tokens, over the budget of {}",
                thousands(*after),
                thousands(*budget)
            ),
            Confirm::KbInJpFile(file) => write!(
                f,
                "puts a `kb` table into {file}, which JP loads: today's JP refuses to start with it (`jp-kb migrate` moves it to a kb.toml)"
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
    let mut effect = ViewChange {
        tokens: TokenChange {
            before: tokens.section(),
            ..TokenChange::default()
        },
        ..ViewChange::default()
    };
    let mut ids: Vec<&str> = Vec::new();
    for edit in plan.steps.iter().flat_map(|s| &s.edits) {
        if let Some(id) = topic_of(edit)
            && !ids.contains(&id)
        {
            ids.push(id);
        }
    }
    for id in ids {
        if let Some(state) = kb.topic(id) {
            topic_effect(kb, state, &plan.steps, tokens, &mut effect);
        }
    }
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
    if let (Some(before), Some(after)) = (effect.tokens.before, effect.tokens.after())
        && before <= budget
        && after > budget
    {
        confirm.push(Confirm::CrossesBudget { after, budget });
    }
    plan.effect = effect;
    plan.confirm = confirm;
}

fn topic_of(edit: &Edit) -> Option<&str> {
    match edit {
        Edit::AddLearned { topic, .. }
        | Edit::RemoveLearned { topic, .. }
        | Edit::ReplaceLearned { topic, .. }
        | Edit::AddDisabled { topic, .. }
        | Edit::RemoveDisabled { topic, .. }
        | Edit::SetField { topic, .. }
        | Edit::UnsetField { topic, .. }
        | Edit::RemoveTopic { topic } => Some(topic),
        Edit::AddTopic { .. } => None,
    }
}

/// A topic's lists and switch after the plan's edits.
struct After {
    learned: Vec<Valued<String>>,
    disabled: Vec<Valued<String>>,
    enabled: bool,
    /// `disabled` entries the plan adds (for the "already disabled" count).
    added_disabled: Vec<String>,
}

fn replay(kb: &KnowledgeBase, state: &TopicState, steps: &[Step]) -> After {
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

fn dedup(items: &[Valued<String>]) -> Vec<String> {
    crate::unique::keep_first(items.iter().map(|v| v.value.clone()))
}

fn topic_effect(
    kb: &KnowledgeBase,
    state: &TopicState,
    steps: &[Step],
    tokens: &dyn TokenSource,
    effect: &mut ViewChange,
) {
    let after = replay(kb, state, steps);
    let (learned, disabled) = (dedup(&after.learned), dedup(&after.disabled));
    let Some(before) = state.shared_resolution() else {
        if state.enabled() && !after.enabled {
            effect.topics_off.push(state.id().to_owned());
        }
        return;
    };
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
            match tokens.subject(state, i) {
                Some(n) => {
                    let n = i64::try_from(n).unwrap_or(i64::MAX);
                    effect.tokens.delta += if post { n } else { -n };
                }
                None => effect.tokens.uncounted += 1,
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
    if was_on && (!after.enabled || (any_before && !any_left)) {
        effect.topics_off.push(id.to_owned());
    }
}
