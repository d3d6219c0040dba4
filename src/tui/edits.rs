//! What a toggle means for the config files: turns the selected subject,
//! directory or topic and its current state (from the engine's
//! resolution) into a plan of edits, a question, or a refusal. Pure: no
//! file is read or written here.

use std::path::PathBuf;

use super::app::{App, Choice, Plan};
use super::edit_bridge::{Edit, Field, FieldValue};
use super::tree::{self, RowKind};
use crate::config::{Origin, Valued};
use crate::edit::unlearn_via_glob;
use crate::plural::count;
use crate::subjects::{DisableEffect, PatternList, Resolution, is_glob};
use crate::topic::TopicState;

/// What a toggle proposes.
#[derive(Debug, Clone)]
pub enum Proposal {
    Apply(Plan),
    Ask(Choice),
    Refuse(String),
}

/// The TOML files that hold `value` in `values`; an entry from `--cfg`,
/// `-k` or a JSON/YAML layer cannot be changed here.
fn files_holding(values: &[Valued<String>], value: &str) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = Vec::new();
    for v in values.iter().filter(|v| v.value == value) {
        match &v.origin {
            Origin::File { path, .. } if path.extension().is_some_and(|e| e == "toml") => {
                if !files.contains(path) {
                    files.push(path.clone());
                }
            }
            other => {
                return Err(format!(
                    "`{value}` comes from {other}, which jp-kb cannot edit; change it there"
                ));
            }
        }
    }
    Ok(files)
}

fn where_set(app: &App, values: &[Valued<String>], value: &str) -> String {
    let root = app
        .model
        .as_ref()
        .map(|m| m.kb.root().to_path_buf())
        .unwrap_or_default();
    values
        .iter()
        .find(|v| v.value == value)
        .map(|v| v.origin.display_relative(&root))
        .unwrap_or_default()
}

/// Removes `items` from the learned (or disabled) list in every file
/// holding them.
fn removal(state: &TopicState, items: &[String], disabled: bool) -> Result<Plan, String> {
    let values = if disabled {
        &state.config.disabled
    } else {
        &state.config.learned
    };
    let mut plan: Plan = Vec::new();
    for item in items {
        for file in files_holding(values, item)? {
            let edit = if disabled {
                Edit::RemoveDisabled {
                    topic: state.id().to_owned(),
                    slugs: vec![item.clone()],
                }
            } else {
                Edit::RemoveLearned {
                    topic: state.id().to_owned(),
                    patterns: vec![item.clone()],
                }
            };
            match plan.iter_mut().find(|(f, _)| *f == file) {
                Some((_, edits)) => edits.push(edit),
                None => plan.push((file, vec![edit])),
            }
        }
    }
    Ok(plan)
}

fn addition(app: &App, state: &TopicState, items: Vec<String>, disabled: bool) -> Proposal {
    let Some(file) = app.target_for(state) else {
        return Proposal::Refuse("no workspace loaded".into());
    };
    let topic = state.id().to_owned();
    let edit = if disabled {
        Edit::AddDisabled {
            topic,
            slugs: items,
        }
    } else {
        Edit::AddLearned {
            topic,
            patterns: items,
        }
    };
    Proposal::Apply(vec![(file, vec![edit])])
}

fn or_refuse(plan: Result<Plan, String>) -> Result<Plan, Proposal> {
    plan.map_err(Proposal::Refuse)
}

/// `l` on the selection.
pub fn toggle_learned(app: &App) -> Proposal {
    toggle(app, false)
}

/// `d` on the selection.
pub fn toggle_disabled(app: &App) -> Proposal {
    toggle(app, true)
}

fn toggle(app: &App, disabled: bool) -> Proposal {
    let (Some(state), Some(res), Some(row)) =
        (app.topic_state(), app.resolution(), app.selected_row())
    else {
        return Proposal::Refuse("select a subject or a directory first".into());
    };
    let result = match row.kind {
        RowKind::Subject(i) if disabled => subject_disabled(app, state, res, i),
        RowKind::Subject(i) => subject_learned(app, state, res, i),
        RowKind::Dir(dir) => Ok(directory(
            app,
            state,
            res,
            &dir.rel,
            &dir.slug_prefix,
            disabled,
        )),
    };
    result.unwrap_or_else(|p| p)
}

fn subject_learned(
    app: &App,
    state: &TopicState,
    res: &Resolution,
    i: usize,
) -> Result<Proposal, Proposal> {
    let slug = res.subjects()[i].slug().to_owned();
    if let Some(e) = res.disabled_by.get(i) {
        return Err(Proposal::Refuse(format!(
            "`{slug}` is disabled by `{}`: disabled beats learned; press d to enable it first",
            res.disabled_entries[e]
        )));
    }
    let Some(by) = res.learned_by.get(i) else {
        return Ok(addition(app, state, vec![slug], false));
    };
    let pattern = res.learned_patterns[by.pattern].clone();
    let remove = or_refuse(removal(state, std::slice::from_ref(&pattern), false))?;
    if !by.glob {
        return Ok(Proposal::Apply(remove));
    }
    let selected = res.selected_by_pattern(&pattern);
    Ok(glob_fix(
        app, state, &slug, &pattern, &selected, i, remove, false,
    ))
}

fn subject_disabled(
    app: &App,
    state: &TopicState,
    res: &Resolution,
    i: usize,
) -> Result<Proposal, Proposal> {
    let slug = res.subjects()[i].slug().to_owned();
    let Some(e) = res.disabled_by.get(i) else {
        return Ok(addition(app, state, vec![slug], true));
    };
    let entry = res.disabled_entries[e].clone();
    let remove = or_refuse(removal(state, std::slice::from_ref(&entry), true))?;
    if !is_glob(&entry) {
        return Ok(Proposal::Apply(remove));
    }
    // A disabled glob matches hidden subjects too (contract §1).
    let selected: Vec<usize> = PatternList::new(std::slice::from_ref(&entry))
        .first_match_any(res.subjects())
        .iter()
        .enumerate()
        .filter_map(|(k, m)| m.map(|_| k))
        .collect();
    Ok(glob_fix(
        app, state, &slug, &entry, &selected, i, remove, true,
    ))
}

/// The two fixes for a subject selected by a glob: remove the glob, or
/// replace it by the slugs it selects minus this one.
#[allow(clippy::too_many_arguments)]
fn glob_fix(
    app: &App,
    state: &TopicState,
    slug: &str,
    pattern: &str,
    selected: &[usize],
    me: usize,
    remove: Plan,
    disabled: bool,
) -> Proposal {
    let Some(res) = state.resolution() else {
        return Proposal::Refuse("topic cannot be read".into());
    };
    let list = if disabled { "disabled" } else { "learned" };
    let values = if disabled {
        &state.config.disabled
    } else {
        &state.config.learned
    };
    let others: Vec<String> = selected
        .iter()
        .filter(|&&k| k != me)
        .map(|&k| res.subjects()[k].slug().to_owned())
        .collect();
    let mut note = None;
    let mut replace = remove.clone();
    if disabled {
        // The edit core has no in-place replace for `disabled`: remove the
        // glob and append the slugs, in one write.
        if let (false, Some((_, edits))) = (others.is_empty(), replace.first_mut()) {
            edits.push(Edit::AddDisabled {
                topic: state.id().to_owned(),
                slugs: others.clone(),
            });
        }
    } else if let Some((file, edits)) = replace.first_mut() {
        // The edit core's fix replaces the glob in place, in the first file
        // holding it (other files just drop it).
        let in_file: Vec<String> = values
            .iter()
            .filter(|v| v.origin.path() == Some(file.as_path()))
            .map(|v| v.value.clone())
            .collect();
        let matched: Vec<String> = selected
            .iter()
            .map(|&k| res.subjects()[k].slug().to_owned())
            .collect();
        match unlearn_via_glob(state.id(), &in_file, pattern, &matched, slug) {
            Ok(fix) => {
                if !fix.glob_like.is_empty() {
                    note = Some(format!(
                        "note: {} contain glob characters and may select more than themselves",
                        fix.glob_like.join(", ")
                    ));
                }
                *edits = vec![fix.replace_pattern];
            }
            Err(e) => return Proposal::Refuse(e.to_string()),
        }
    }
    Proposal::Ask(Choice {
        title: format!("`{slug}` is {list} by a glob"),
        lines: vec![
            format!(
                "`{slug}` is {list} by the glob `{pattern}` ({}).",
                where_set(app, values, pattern)
            ),
            format!(
                "That glob selects {}.",
                count(selected.len(), "subject", "subjects")
            ),
        ]
        .into_iter()
        .chain(note)
        .collect(),
        options: vec![
            (
                format!(
                    "remove `{pattern}` from {list} (all {} subjects)",
                    selected.len()
                ),
                remove,
            ),
            (
                format!(
                    "replace `{pattern}` by its {}",
                    count(others.len(), "other slug", "other slugs")
                ),
                replace,
            ),
        ],
    })
}

fn directory(
    app: &App,
    state: &TopicState,
    res: &Resolution,
    rel: &str,
    prefix: &str,
    disabled: bool,
) -> Proposal {
    let list = if disabled { "disabled" } else { "learned" };
    let under = tree::subjects_under(res, rel);
    let glob = format!("{prefix}/**");
    // Exact slugs reach hidden subjects in both lists, so every subject
    // under the directory not yet in the list's effect is offered.
    let slug_indices: Vec<usize> = under
        .iter()
        .copied()
        .filter(|&i| !res.is_disabled(i) && (disabled || !res.is_learned(i)))
        .collect();
    let slugs: Vec<String> = slug_indices
        .iter()
        .map(|&i| res.subjects()[i].slug().to_owned())
        .collect();
    let mut options = Vec::new();
    let entries = if disabled {
        &res.disabled_entries
    } else {
        &res.learned_patterns
    };
    // What the glob would newly select, by the engine's rules: a learned
    // glob skips hidden subjects, a disabled one reaches them. A glob
    // that selects nothing new is never offered.
    let glob_effect = if disabled {
        DisableEffect::of_entries(res, std::slice::from_ref(&glob)).newly
    } else {
        res.selected_by_pattern(&glob)
            .into_iter()
            .filter(|&i| !res.is_learned(i))
            .collect()
    };
    if !entries.contains(&glob)
        && !glob_effect.is_empty()
        && let Proposal::Apply(plan) = addition(app, state, vec![glob.clone()], disabled)
    {
        options.push((format!("add `{glob}` to {list}"), plan));
    }
    if !slugs.is_empty()
        && let Proposal::Apply(plan) = addition(app, state, slugs.clone(), disabled)
    {
        options.push((
            format!("add the {} one by one", count(slugs.len(), "slug", "slugs")),
            plan,
        ));
    }
    // Entries naming this directory: its glob and exact slugs under it.
    let under_slugs: Vec<&str> = under.iter().map(|&i| res.subjects()[i].slug()).collect();
    let named: Vec<String> = entries
        .iter()
        .filter(|e| **e == glob || under_slugs.contains(&e.as_str()))
        .cloned()
        .collect();
    if !named.is_empty() {
        match removal(state, &named, disabled) {
            Ok(plan) => options.push((
                format!(
                    "remove {} naming `{rel}/`",
                    count(
                        named.len(),
                        &format!("{list} entry"),
                        &format!("{list} entries")
                    )
                ),
                plan,
            )),
            Err(why) => return Proposal::Refuse(why),
        }
    }
    if options.is_empty() {
        return Proposal::Refuse(format!("nothing to change for `{rel}/`"));
    }
    let hidden = under.iter().filter(|&&i| res.subjects()[i].hidden).count();
    let mut lines = vec![format!(
        "{} under `{rel}/`.",
        count(under.len(), "subject", "subjects")
    )];
    if disabled {
        // The glob and the slugs reach the same subjects: all under here.
        let effect = DisableEffect::of_subjects(res, &under);
        lines.push(format!("Either choice {}.", effect.summary()));
    } else if hidden > 0 {
        lines.push(format!(
            "A learned glob skips hidden subjects ({hidden} here); only an exact slug pre-loads one."
        ));
    }
    Proposal::Ask(Choice {
        title: format!("{list}: directory `{rel}/`"),
        lines,
        options,
    })
}

/// `e` on the selected topic.
pub fn toggle_enable(app: &App) -> Proposal {
    let Some(state) = app.topic_state() else {
        return Proposal::Refuse("no topic selected".into());
    };
    let origin_file = state
        .config
        .enable
        .as_ref()
        .map(|v| &v.origin)
        .map(|o| match o {
            Origin::File { path, .. } if path.extension().is_some_and(|e| e == "toml") => {
                Ok(path.clone())
            }
            other => Err(format!(
                "`enable` comes from {other}, which jp-kb cannot edit"
            )),
        })
        .transpose();
    let file = match origin_file {
        Ok(Some(f)) => f,
        Ok(None) => match app.target_for(state) {
            Some(f) => f,
            None => return Proposal::Refuse("no workspace loaded".into()),
        },
        Err(why) => return Proposal::Refuse(why),
    };
    let topic = state.id().to_owned();
    // Enabling is the default: when `file` says `enable = false` and no
    // other file does, removing that line enables the topic and leaves the
    // file as it was before it was disabled (no `enable = true` left over).
    let by_removal = app.model.as_ref().is_some_and(|m| {
        crate::edit::target::enable_by_removal(&m.kb.loaded, &state.config, &file)
    });
    let edit = if by_removal {
        Edit::UnsetField {
            topic,
            field: Field::Enable,
        }
    } else {
        Edit::SetField {
            topic,
            field: Field::Enable,
            value: FieldValue::Bool(!state.enabled()),
        }
    };
    Proposal::Apply(vec![(file, vec![edit])])
}

/// Enter in the pattern tester.
pub fn add_pattern(app: &App, pattern: &str, disabled: bool) -> Proposal {
    let Some(state) = app.topic_state() else {
        return Proposal::Refuse("no topic selected".into());
    };
    if pattern.trim().is_empty() {
        return Proposal::Refuse("type a pattern first".into());
    }
    addition(app, state, vec![pattern.to_owned()], disabled)
}
