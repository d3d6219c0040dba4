//! `l`/`d` on a directory: the ways to pre-load or disable what is under
//! it (its glob, or its subjects' exact slugs) and to undo that (remove
//! the entries naming it), each a plan with its cost. A learned glob
//! skips hidden subjects, a disabled one reaches them; a glob that would
//! select nothing new is never offered.

use crate::plural::count;
use crate::subjects::slug::slug_of_rel;
use crate::subjects::{DisableEffect, Resolution};

use super::{
    Alternative, AlternativeKind, Answer, Intent, List, Question, Refusal, Workspace, known_topic,
    plan,
};

/// The subjects under the walked directory `rel` (any state).
pub fn subjects_under(res: &Resolution, rel: &str) -> Vec<usize> {
    let prefix = format!("{rel}/");
    res.subjects()
        .iter()
        .enumerate()
        .filter(|(_, s)| s.rel_path().starts_with(&prefix))
        .map(|(i, _)| i)
        .collect()
}

pub(super) fn toggle(ws: &Workspace<'_>, list: List, topic: &str, rel: &str) -> Answer {
    let state = match known_topic(ws.kb, topic) {
        Ok(s) => s,
        Err(why) => return Answer::Refuse(why),
    };
    let Some(res) = state.resolved().map(AsRef::as_ref) else {
        return Answer::Refuse(Refusal::SubjectsUnreadable {
            topic: topic.to_owned(),
        });
    };
    let rel = rel.trim_end_matches('/');
    let disabled = list == List::Disabled;
    let verb = list.key();
    let under = subjects_under(res, rel);
    // The slug prefix drops the leading `.` of hidden directories: the
    // glob is written in slugs.
    let prefix = slug_of_rel(&format!("{rel}/x"));
    let prefix = prefix.strip_suffix("/x").unwrap_or(&prefix);
    let glob = format!("{prefix}/**");
    let slugs: Vec<String> = under
        .iter()
        .copied()
        .filter(|&i| !res.is_disabled(i) && (disabled || !res.is_learned(i)))
        .map(|i| res.subjects()[i].slug().to_owned())
        .collect();
    let entries = if disabled {
        &res.disabled_entries
    } else {
        &res.learned_patterns
    };
    let glob_effect = if disabled {
        DisableEffect::of_entries(res, std::slice::from_ref(&glob))
            .newly
            .len()
    } else {
        res.selected_by_pattern(&glob)
            .into_iter()
            .filter(|&i| !res.is_learned(i))
            .count()
    };
    let add = |items: Vec<String>| {
        plan(
            ws,
            &Intent::Add {
                list,
                topic: topic.to_owned(),
                entries: items,
            },
        )
    };
    let mut options = Vec::new();
    if !entries.contains(&glob)
        && glob_effect > 0
        && let Answer::Do(p) = add(vec![glob.clone()])
    {
        options.push(Alternative {
            kind: AlternativeKind::DirectoryGlob,
            label: format!("add `{glob}` to {verb}"),
            plan: p,
        });
    }
    if !slugs.is_empty()
        && let Answer::Do(p) = add(slugs.clone())
    {
        options.push(Alternative {
            kind: AlternativeKind::DirectorySlugs,
            label: format!("add the {} one by one", count(slugs.len(), "slug", "slugs")),
            plan: p,
        });
    }
    let under_slugs: Vec<&str> = under.iter().map(|&i| res.subjects()[i].slug()).collect();
    let named: Vec<String> = entries
        .iter()
        .filter(|e| **e == glob || under_slugs.contains(&e.as_str()))
        .cloned()
        .collect();
    if !named.is_empty() {
        // Entries are removed where they are, whatever file was chosen.
        let remove_ws = Workspace {
            chosen: ws.chosen.clone().filter(|c| c.only),
            ..*ws
        };
        match plan(
            &remove_ws,
            &Intent::Remove {
                list,
                topic: topic.to_owned(),
                entries: named.clone(),
            },
        ) {
            Answer::Do(p) => options.push(Alternative {
                kind: AlternativeKind::DirectoryRemove,
                label: format!(
                    "remove {} naming `{rel}/`",
                    count(
                        named.len(),
                        &format!("{verb} entry"),
                        &format!("{verb} entries")
                    )
                ),
                plan: p,
            }),
            Answer::Refuse(why) => return Answer::Refuse(why),
            Answer::Choose(_) | Answer::Nothing(_) => {}
        }
    }
    if options.is_empty() {
        return Answer::Refuse(Refusal::NothingUnder {
            dir: rel.to_owned(),
        });
    }
    let hidden = under.iter().filter(|&&i| res.subjects()[i].hidden).count();
    let mut lines = vec![format!(
        "{} under `{rel}/`.",
        count(under.len(), "subject", "subjects")
    )];
    if disabled {
        let effect = DisableEffect::of_subjects(res, &under);
        lines.push(format!("Either choice {}.", effect.summary()));
    } else if hidden > 0 {
        lines.push(format!(
            "A learned glob skips hidden subjects ({hidden} here); only an exact slug pre-loads one."
        ));
    }
    Answer::Choose(Question {
        globs: Vec::new(),
        title: format!("{verb}: directory `{rel}/`"),
        lines,
        options,
    })
}
