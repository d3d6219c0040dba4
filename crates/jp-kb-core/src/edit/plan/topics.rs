//! Topic-level intents: enable/disable, fields, a new topic, removal.
//! The rules for a new topic's `subjects` directory live here and those
//! for its id in [`super::topic_id`], so `topic add` and the TUI's form
//! accept and refuse the same things (`docs/editing.md`, "One planner").

use std::path::PathBuf;

use crate::config::{Origin, TopicField};
use crate::edit::ops::{Edit, FieldValue};
use crate::edit::target::{enable_by_removal, for_field, for_new_topic};
use crate::topic::TopicError;

use super::lists::finished;
use super::topic_id::check_topic_id;
use super::{Answer, Intent, Plan, Refusal, Step, Workspace, known_topic, push_edit};

/// Checks a new `subjects` value: an absolute or escaping path is
/// refused; a directory that does not exist yet is accepted with a note
/// (the topic shows that error until it is created).
fn check_subjects(
    ws: &Workspace<'_>,
    subjects: &str,
    notes: &mut Vec<String>,
) -> Result<(), Refusal> {
    if subjects.trim().is_empty() {
        return Err(Refusal::SubjectsRequired);
    }
    match ws.disk.subjects_dir(ws.kb.root(), subjects) {
        Ok(_) => Ok(()),
        Err(TopicError::NotFound(dir)) => {
            notes.push(format!(
                "the subjects directory `{}` does not exist yet; create it and add files",
                ws.kb.display_path(&dir).display()
            ));
            Ok(())
        }
        Err(e) => Err(Refusal::Subjects(e)),
    }
}

pub(super) fn enable(ws: &Workspace<'_>, topic: &str, on: bool) -> Answer {
    let state = match known_topic(ws.kb, topic) {
        Ok(s) => s,
        Err(why) => return Answer::Refuse(why),
    };
    let file = ws.chosen.as_ref().map_or_else(
        || for_field(Some(&state.config), TopicField::Enable, ws.kb.root()).path,
        |c| c.path.clone(),
    );
    // Enabled is the default: removing the `enable = false` this file
    // holds leaves it as it was before (no `enable = true` left over).
    let by_removal = on && enable_by_removal(&ws.kb.loaded, &state.config, &file);
    let value = (!by_removal).then_some(FieldValue::Bool(on));
    fields(ws, topic, &[(TopicField::Enable, value)])
}

pub(super) fn fields(
    ws: &Workspace<'_>,
    topic: &str,
    changes: &[(TopicField, Option<FieldValue>)],
) -> Answer {
    let state = match known_topic(ws.kb, topic) {
        Ok(s) => s,
        Err(why) => return Answer::Refuse(why),
    };
    let mut plan = Plan::default();
    for (field, value) in changes {
        let value = match value {
            Some(FieldValue::Text(t)) if t.trim().is_empty() => None,
            other => other.clone(),
        };
        if let Some(FieldValue::Text(text)) = &value {
            if matches!(field, TopicField::Title | TopicField::Introduction) && text.contains('\n')
            {
                return Answer::Refuse(Refusal::MultiLine { field: *field });
            }
            if *field == TopicField::Subjects
                && let Err(why) = check_subjects(ws, text, &mut plan.notes)
            {
                return Answer::Refuse(why);
            }
        }
        let target = for_field(Some(&state.config), *field, ws.kb.root());
        let (path, reason) = match &ws.chosen {
            Some(c) => (c.path.clone(), "the file you chose".to_owned()),
            None => (target.path, target.reason),
        };
        if let Some(origin) = set_by_argument(state, *field) {
            plan.notes.push(format!(
                "`{}` is also set by {origin}: the file's value applies once that is no longer given",
                field.key()
            ));
        }
        let edit = match value.clone() {
            Some(value) => Edit::SetField {
                topic: topic.to_owned(),
                field: *field,
                value,
            },
            None => Edit::UnsetField {
                topic: topic.to_owned(),
                field: *field,
            },
        };
        push_edit(&mut plan.steps, &path, edit, &reason, value.is_some());
    }
    if plan.steps.is_empty() {
        return Answer::Nothing("no field to change".into());
    }
    finished(ws, plan, &[])
}

/// The origin of `field` when it is not a file jp-kb can edit.
fn set_by_argument(state: &crate::topic::TopicState, field: TopicField) -> Option<String> {
    match state.config.scalar_origin(field)? {
        Origin::File { .. } => None,
        other => Some(other.to_string()),
    }
}

pub(super) fn new_topic(ws: &Workspace<'_>, intent: &Intent) -> Answer {
    let Intent::NewTopic {
        id,
        subjects,
        title,
        introduction,
        description,
    } = intent
    else {
        return Answer::Nothing("not a new topic".into());
    };
    let id = id.trim();
    if let Err(why) = check_topic_id(id) {
        return Answer::Refuse(Refusal::InvalidTopicId(why));
    }
    if let Some(existing) = ws.kb.topic(id) {
        return Answer::Refuse(Refusal::TopicExists {
            topic: id.to_owned(),
            declared: existing.config.origin.relative_to(ws.kb.root()),
        });
    }
    let subjects = subjects.trim();
    let mut notes = Vec::new();
    if let Err(why) = check_subjects(ws, subjects, &mut notes) {
        return Answer::Refuse(why);
    }
    let text = |v: &Option<String>| v.as_ref().filter(|t| !t.trim().is_empty()).cloned();
    let (path, reason) = if let Some(c) = &ws.chosen {
        (c.path.clone(), "the file you chose".to_owned())
    } else {
        let t = for_new_topic(&ws.kb.loaded);
        (t.path, t.reason)
    };
    finished(
        ws,
        Plan {
            steps: vec![Step {
                path,
                edits: vec![Edit::AddTopic {
                    id: id.to_owned(),
                    subjects: subjects.to_owned(),
                    title: text(title),
                    introduction: text(introduction),
                    description: text(description),
                }],
                reason,
                declare: false,
            }],
            notes,
            ..Plan::default()
        },
        &[],
    )
}

pub(super) fn remove(ws: &Workspace<'_>, topic: &str) -> Answer {
    let files: Vec<PathBuf> = if let Some(c) = ws.chosen.as_ref().filter(|c| c.only) {
        vec![c.path.clone()]
    } else {
        let mut files: Vec<PathBuf> = Vec::new();
        for file in &ws.kb.loaded.files {
            let origin = Origin::File {
                path: file.path.clone(),
                line: None,
            };
            if file.partial.topics.contains_key(topic)
                && origin.editable_file().is_some()
                && !files.contains(&file.path)
            {
                files.push(file.path.clone());
            }
        }
        files
    };
    if files.is_empty() {
        return Answer::Nothing(format!("no TOML file declares topic `{topic}`"));
    }
    let mut plan = Plan::default();
    for path in files {
        push_edit(
            &mut plan.steps,
            &path,
            Edit::RemoveTopic {
                topic: topic.to_owned(),
            },
            "a file that declares the topic",
            false,
        );
    }
    finished(ws, plan, &[])
}
