//! Disabling subjects of several topics as one plan (pruning): each
//! topic's slugs go where `disabled add` would put them, the edits of one
//! file stay one write, and the whole is one undo step. Pre-loaded
//! subjects leaving the section were named, so they ask nothing; a topic
//! the change empties still asks.

use super::lists::{add_unfinished, finished};
use super::{Answer, List, Plan, Workspace, push_edit};

pub(super) fn disable_subjects(ws: &Workspace<'_>, subjects: &[(String, String)]) -> Answer {
    if subjects.is_empty() {
        return Answer::Nothing("no subject to disable".to_owned());
    }
    // Topics in the order first named, each with its slugs.
    let mut by_topic: Vec<(&str, Vec<String>)> = Vec::new();
    for (topic, slug) in subjects {
        match by_topic.iter_mut().find(|(t, _)| t == topic) {
            Some((_, slugs)) => {
                if !slugs.contains(slug) {
                    slugs.push(slug.clone());
                }
            }
            None => by_topic.push((topic, vec![slug.clone()])),
        }
    }
    let mut plan = Plan::default();
    let mut named = Vec::new();
    for (topic, slugs) in by_topic {
        let (part, part_named) = match add_unfinished(ws, List::Disabled, topic, &slugs) {
            Ok(done) => done,
            Err(answer) => return *answer,
        };
        for step in part.steps {
            for edit in step.edits {
                push_edit(
                    &mut plan.steps,
                    &step.path,
                    edit,
                    &step.reason,
                    step.declare,
                );
            }
        }
        plan.notes.extend(part.notes);
        named.extend(part_named);
    }
    finished(ws, plan, &named)
}
