//! `learned`/`disabled` changes for a set of subjects or entries: one
//! intent, one write per file. Removing an entry that a glob provides
//! asks (remove the glob, or replace it by the other slugs it selects) in
//! both lists: un-disabling through a glob would silently enable every
//! other subject it disables (`docs/editing.md`, "One planner").

use crate::config::{Origin, Valued};
use crate::edit::ops::Edit;
use crate::edit::target::{for_lists, origins_of};
use crate::plural::count;
use crate::subjects::PatternList;
use crate::subjects::pattern::find_exact;
use crate::topic::TopicState;
use crate::unique::push_new;

use super::effect::finish;
use super::{
    Alternative, AlternativeKind, Answer, List, Plan, Question, Refusal, Step, Workspace,
    known_topic, list_edit, push_edit,
};

/// Adds `entries` to the topic's list, in the chosen file or the file
/// that sets the topic's `subjects`; the file declares the topic when it
/// does not (as `jp-kb learned add --file` always did).
pub(super) fn add(ws: &Workspace<'_>, list: List, topic: &str, entries: &[String]) -> Answer {
    match add_unfinished(ws, list, topic, entries) {
        Ok((plan, named)) => finished(ws, plan, &named),
        Err(answer) => *answer,
    }
}

/// [`add`]'s plan before its effect is worked out, and the subjects it
/// names (`topic/slug`); `Err`: the answer instead (a refusal).
pub(super) fn add_unfinished(
    ws: &Workspace<'_>,
    list: List,
    topic: &str,
    entries: &[String],
) -> Result<(Plan, Vec<String>), Box<Answer>> {
    let state = match known_topic(ws.kb, topic) {
        Ok(s) => s,
        Err(why) => return Err(Box::new(Answer::Refuse(why))),
    };
    let entries: Vec<String> = entries
        .iter()
        .map(|e| e.trim().to_owned())
        .filter(|e| !e.is_empty())
        .collect();
    if entries.is_empty() {
        return Err(Box::new(Answer::Refuse(Refusal::NoPattern)));
    }
    let mut notes = Vec::new();
    if let Some(res) = state.resolved().map(AsRef::as_ref) {
        if list == List::Learned {
            // Disabled beats learned: the entry would change nothing.
            for entry in &entries {
                if let Some(i) = find_exact(res.subjects(), entry)
                    && let Some(e) = res.disabled_by.get(i)
                {
                    return Err(Box::new(Answer::Refuse(Refusal::DisabledBeatsLearned {
                        slug: res.subjects()[i].slug().to_owned(),
                        entry: res.disabled_entries[e].clone(),
                    })));
                }
            }
        }
        notes.extend(selecting_nothing(state, list, &entries));
    }
    let (path, reason) = if let Some(c) = &ws.chosen {
        (c.path.clone(), "the file you chose".to_owned())
    } else {
        let t = for_lists(Some(&state.config), ws.kb.root());
        (t.path, t.reason)
    };
    let named = exact_names(state, &entries);
    Ok((
        Plan {
            steps: vec![Step {
                path,
                edits: vec![list_edit(list, topic, entries, true)],
                reason,
                declare: true,
            }],
            notes,
            ..Plan::default()
        },
        named,
    ))
}

/// `topic/slug` of the subjects `entries` name exactly.
fn exact_names(state: &TopicState, entries: &[String]) -> Vec<String> {
    let Some(res) = state.resolved().map(AsRef::as_ref) else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|e| find_exact(res.subjects(), e))
        .map(|i| format!("{}/{}", state.id(), res.subjects()[i].slug()))
        .collect()
}

/// Fills in the plan's effect and confirmations; `named` are the
/// subjects (`topic/slug`) the person named, whose leaving the prompt is
/// what was asked and needs no confirmation.
pub(super) fn finished(ws: &Workspace<'_>, plan: Plan, named: &[String]) -> Answer {
    Answer::Do(with_effect(ws, plan, named))
}

fn with_effect(ws: &Workspace<'_>, mut plan: Plan, named: &[String]) -> Plan {
    finish(ws.kb, ws.tokens, ws.budget, &mut plan, named);
    plan
}

/// Entries that select no subject are written anyway (the files may come
/// later) but never silently.
fn selecting_nothing(state: &TopicState, list: List, entries: &[String]) -> Vec<String> {
    let Some(r) = state.resolved().map(AsRef::as_ref) else {
        return Vec::new();
    };
    let patterns = PatternList::new(entries);
    let subjects = r.subjects();
    let hits: Vec<bool> = match list {
        List::Learned => patterns
            .select_per_pattern(subjects, &|_| true)
            .iter()
            .map(|h| !h.is_empty())
            .collect(),
        List::Disabled => {
            let firsts = patterns.first_match_any(subjects);
            (0..entries.len())
                .map(|p| firsts.contains(&Some(p)))
                .collect()
        }
    };
    entries
        .iter()
        .zip(hits)
        .filter(|(_, hit)| !hit)
        .map(|(e, _)| format!("`{e}` selects no subject of topic `{}` (yet)", state.id()))
        .collect()
}

/// A glob entry that provides some of the named subjects.
struct ViaGlob {
    entry: String,
    /// Subjects it selects (learned: not disabled; disabled: any).
    selects: Vec<usize>,
}

/// Removes `values` (entries, or slugs of subjects an entry selects).
pub(super) fn remove(ws: &Workspace<'_>, list: List, topic: &str, values: &[String]) -> Answer {
    let state = match known_topic(ws.kb, topic) {
        Ok(s) => s,
        Err(why) => return Answer::Refuse(why),
    };
    if let Some(chosen) = ws.chosen.as_ref().filter(|c| c.only) {
        // `--file`: exactly these entries, from that file only.
        let plan = Plan {
            steps: vec![Step {
                path: chosen.path.clone(),
                edits: vec![list_edit(list, topic, values.to_vec(), false)],
                reason: "the file you chose".into(),
                declare: false,
            }],
            ..Plan::default()
        };
        return finished(ws, plan, &[]);
    }
    let items: &[Valued<String>] = state.config.list(list.field());
    let key = format!("kb.topic.{topic}.{}", list.key());
    let Named {
        exact,
        globs,
        subjects: named,
        nothing,
    } = classify(state, list, items, values, &key);
    let mut asked = exact_names(state, values);
    if let Some(res) = state.resolved().map(AsRef::as_ref) {
        asked.extend(
            named
                .iter()
                .map(|&i| format!("{topic}/{}", res.subjects()[i].slug())),
        );
    }
    if exact.is_empty() && globs.is_empty() {
        return Answer::Nothing(nothing.join("; "));
    }
    let mut base = Plan {
        notes: nothing,
        ..Plan::default()
    };
    for entry in &exact {
        if let Err(why) = remove_everywhere(ws, state, list, items, entry, &mut base) {
            return Answer::Refuse(why);
        }
    }
    if globs.is_empty() {
        return finished(ws, base, &asked);
    }
    let mut drop = base.clone();
    let mut expand = base;
    for glob in &globs {
        if let Err(why) = remove_everywhere(ws, state, list, items, &glob.entry, &mut drop) {
            return Answer::Refuse(why);
        }
        if let Err(why) = replace_glob(ws, state, list, items, glob, &named, &mut expand) {
            return Answer::Refuse(why);
        }
    }
    ask_about_globs(
        ws,
        state,
        list,
        items,
        &globs,
        &named,
        (
            with_effect(ws, drop, &asked),
            with_effect(ws, expand, &asked),
        ),
    )
}

/// The question for subjects a glob provides: remove the glob(s), or
/// replace them by their other slugs.
fn ask_about_globs(
    ws: &Workspace<'_>,
    state: &TopicState,
    list: List,
    items: &[Valued<String>],
    globs: &[ViaGlob],
    named: &[usize],
    (drop, expand): (Plan, Plan),
) -> Answer {
    let Some(res) = state.resolved().map(AsRef::as_ref) else {
        return Answer::Refuse(Refusal::SubjectsUnreadable {
            topic: state.id().to_owned(),
        });
    };
    let verb = list.key();
    let mut lines = Vec::new();
    for glob in globs {
        let origin = items
            .iter()
            .find(|v| v.value == glob.entry)
            .map(|v| v.origin.display_relative(ws.kb.root()))
            .unwrap_or_default();
        let mine: Vec<&str> = named
            .iter()
            .filter(|i| glob.selects.contains(i))
            .map(|&i| res.subjects()[i].slug())
            .collect();
        lines.push(format!(
            "`{}` {} {verb} through the glob `{}` ({origin}), not by an entry of its own; the glob selects {}.",
            mine.join("`, `"),
            if mine.len() == 1 { "is" } else { "are" },
            glob.entry,
            count(glob.selects.len(), "subject", "subjects")
        ));
    }
    let slugs: Vec<&str> = named.iter().map(|&i| res.subjects()[i].slug()).collect();
    let patterns: Vec<&str> = globs.iter().map(|g| g.entry.as_str()).collect();
    let others: usize = globs
        .iter()
        .flat_map(|g| &g.selects)
        .filter(|k| !named.contains(k))
        .count();
    let mut options = vec![Alternative {
        kind: AlternativeKind::RemoveGlob,
        label: format!(
            "remove `{}` from {verb} (every subject it selects)",
            patterns.join("`, `")
        ),
        plan: drop,
    }];
    // The globs select nothing but the named subjects: replacing them by
    // their other slugs would replace them by nothing. Only the removal
    // is offered (and still asked: a glob also reaches files added later).
    if others > 0 {
        options.push(Alternative {
            kind: AlternativeKind::ExpandGlob,
            label: format!(
                "replace `{}` by its {}",
                patterns.join("`, `"),
                count(others, "other slug", "other slugs")
            ),
            plan: expand,
        });
    }
    Answer::Choose(Question {
        globs: patterns.iter().map(|p| (*p).to_owned()).collect(),
        title: format!(
            "`{}` {} {verb} by a glob",
            slugs.join("`, `"),
            if slugs.len() == 1 { "is" } else { "are" }
        ),
        lines,
        options,
    })
}

/// What the named values are: entries to remove outright, globs that
/// provide named subjects, the named subjects, and what names nothing.
struct Named {
    exact: Vec<String>,
    globs: Vec<ViaGlob>,
    subjects: Vec<usize>,
    nothing: Vec<String>,
}

fn classify(
    state: &TopicState,
    list: List,
    items: &[Valued<String>],
    values: &[String],
    key: &str,
) -> Named {
    let mut exact: Vec<String> = Vec::new();
    let mut globs: Vec<ViaGlob> = Vec::new();
    let mut named: Vec<usize> = Vec::new();
    let mut nothing: Vec<String> = Vec::new();
    let res = state.resolved().map(AsRef::as_ref);
    for value in values {
        if items.iter().any(|v| v.value == *value) {
            push_new(&mut exact, value.clone());
            continue;
        }
        let Some(res) = res else {
            nothing.push(format!("`{value}` is not in {key}"));
            continue;
        };
        let Some(i) = find_exact(res.subjects(), value) else {
            nothing.push(format!("`{value}` is not in {key} and names no subject"));
            continue;
        };
        let slug = res.subjects()[i].slug();
        let by = match list {
            List::Learned => res.learned_by.get(i).map(|b| b.pattern),
            List::Disabled => res.disabled_by.get(i),
        };
        let Some(e) = by else {
            let state_word = list.key();
            nothing.push(format!("subject `{slug}` is not {state_word}"));
            continue;
        };
        let (entries, glob) = match list {
            List::Learned => (
                &res.learned_patterns,
                res.learned_by.get(i).is_some_and(|b| b.glob),
            ),
            List::Disabled => (
                &res.disabled_entries,
                PatternList::new(&res.disabled_entries).is_glob(e),
            ),
        };
        let entry = entries[e].clone();
        named.push(i);
        if !glob {
            push_new(&mut exact, entry);
        } else if !globs.iter().any(|g| g.entry == entry) {
            let one = std::slice::from_ref(&entry);
            let selects = match list {
                List::Learned => PatternList::new(one)
                    .select_per_pattern(res.subjects(), &|k| !res.is_disabled(k))
                    .into_iter()
                    .flatten()
                    .collect(),
                List::Disabled => PatternList::new(one)
                    .first_match_any(res.subjects())
                    .iter()
                    .enumerate()
                    .filter_map(|(k, m)| m.map(|_| k))
                    .collect(),
            };
            globs.push(ViaGlob { entry, selects });
        }
    }
    Named {
        exact,
        globs,
        subjects: named,
        nothing,
    }
}

/// Removes `entry` from every TOML file holding it. An entry held only by
/// `--cfg`, `-k` or a JSON/YAML layer is refused; one held by a file and
/// by an argument too is removed from the file, with a note that the
/// argument still applies to this run (`docs/editing.md`).
fn remove_everywhere(
    ws: &Workspace<'_>,
    state: &TopicState,
    list: List,
    items: &[Valued<String>],
    entry: &str,
    plan: &mut Plan,
) -> Result<(), Refusal> {
    let (files, others) = origins_of(items, entry);
    let others: Vec<Origin> = others.iter().map(|o| o.relative_to(ws.kb.root())).collect();
    let shown: Vec<String> = others.iter().map(ToString::to_string).collect();
    if files.is_empty() {
        return Err(Refusal::NotEditable {
            topic: state.id().to_owned(),
            list,
            entry: entry.to_owned(),
            origins: others,
        });
    }
    if !others.is_empty() {
        plan.notes.push(format!(
            "`{entry}` also comes from {}: removed from the file, it still applies while that is given",
            shown.join(", ")
        ));
    }
    for path in files {
        push_edit(
            &mut plan.steps,
            &path,
            list_edit(list, state.id(), vec![entry.to_owned()], false),
            "the file that holds the entry",
            false,
        );
    }
    Ok(())
}

/// Replaces a glob by the slugs it selects minus the named subjects: in
/// place for `learned` (in the first file holding it; other files just
/// drop it), as a removal and an addition for `disabled`.
fn replace_glob(
    ws: &Workspace<'_>,
    state: &TopicState,
    list: List,
    items: &[Valued<String>],
    glob: &ViaGlob,
    named: &[usize],
    plan: &mut Plan,
) -> Result<(), Refusal> {
    let Some(res) = state.resolved().map(AsRef::as_ref) else {
        return Err(Refusal::SubjectsUnreadable {
            topic: state.id().to_owned(),
        });
    };
    let (files, _) = origins_of(items, &glob.entry);
    let Some(first) = files.first() else {
        return remove_everywhere(ws, state, list, items, &glob.entry, plan);
    };
    let in_first: Vec<String> = items
        .iter()
        .filter(|v| v.origin.path() == Some(first.as_path()))
        .map(|v| v.value.clone())
        .collect();
    let others: Vec<String> = glob
        .selects
        .iter()
        .filter(|k| !named.contains(k))
        .map(|&k| res.subjects()[k].slug().to_owned())
        .filter(|s| *s != glob.entry && !in_first.contains(s))
        .collect();
    let glob_like: Vec<&String> = others
        .iter()
        .filter(|s| crate::subjects::is_glob(s))
        .collect();
    if !glob_like.is_empty() {
        plan.notes.push(format!(
            "{} contain glob characters and may select more than themselves",
            glob_like
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let id = state.id().to_owned();
    let reason = "the file that holds the glob";
    match list {
        List::Learned => push_edit(
            &mut plan.steps,
            first,
            Edit::ReplaceLearned {
                topic: id.clone(),
                pattern: glob.entry.clone(),
                with: others,
            },
            reason,
            false,
        ),
        List::Disabled => {
            push_edit(
                &mut plan.steps,
                first,
                list_edit(list, &id, vec![glob.entry.clone()], false),
                reason,
                false,
            );
            if !others.is_empty() {
                push_edit(
                    &mut plan.steps,
                    first,
                    list_edit(list, &id, others, true),
                    reason,
                    false,
                );
            }
        }
    }
    for path in files.iter().skip(1) {
        push_edit(
            &mut plan.steps,
            path,
            list_edit(list, &id, vec![glob.entry.clone()], false),
            reason,
            false,
        );
    }
    Ok(())
}
