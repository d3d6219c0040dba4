//! The topic forms: what they start with, how they are validated, and the
//! edits a valid form makes. Validation uses the engine's own check of a
//! `subjects` path, so the form refuses exactly what loading would.

use std::path::{Path, PathBuf};

use super::app::{App, Form, FormField, FormKind, Plan};
use super::edit_bridge::{Edit, Field, FieldValue};
use crate::config::{Origin, Valued};
use crate::topic::{TopicError, subjects_dir};

/// The form editing the selected topic's texts.
pub fn edit_topic(app: &App) -> Option<Form> {
    let state = app.topic_state()?;
    let c = &state.config;
    Some(Form {
        kind: FormKind::EditTopic {
            topic: state.id().to_owned(),
        },
        fields: vec![
            FormField::new("Title", c.title().unwrap_or(""), false),
            FormField::new("Introduction", c.introduction().unwrap_or(""), false),
            FormField::new(
                "Description (multi-line)",
                c.description().unwrap_or(""),
                true,
            ),
        ],
        focus: 0,
        error: None,
    })
}

/// The empty new-topic form.
pub fn new_topic() -> Form {
    Form {
        kind: FormKind::NewTopic,
        fields: vec![
            FormField::new("Id", "", false),
            FormField::new(
                "Subjects directory (relative to the workspace root)",
                "",
                false,
            ),
            FormField::new("Title", "", false),
        ],
        focus: 0,
        error: None,
    }
}

fn file_of(app: &App, value: Option<&Valued<String>>, fallback: &Path) -> Result<PathBuf, String> {
    match value.map(|v| &v.origin) {
        None => Ok(fallback.to_path_buf()),
        Some(Origin::File { path, .. }) if path.extension().is_some_and(|e| e == "toml") => {
            Ok(path.clone())
        }
        Some(other) => {
            let _ = app;
            Err(format!(
                "this value comes from {other}, which jp-kb cannot edit"
            ))
        }
    }
}

/// Validates a form and returns its edits (empty: nothing changed).
pub fn submit(app: &App, form: &Form) -> Result<Plan, String> {
    let model = app.model.as_ref().ok_or("no workspace loaded")?;
    let values: Vec<String> = form.fields.iter().map(FormField::value).collect();
    match &form.kind {
        FormKind::EditTopic { topic } => {
            let state = model
                .kb
                .topic(topic)
                .ok_or_else(|| format!("topic `{topic}` no longer exists"))?;
            let fallback = app
                .target_for(state)
                .unwrap_or_else(|| model.default_file.clone());
            let c = &state.config;
            let current = [&c.title, &c.introduction, &c.description];
            let fields = [Field::Title, Field::Introduction, Field::Description];
            let mut plan: Plan = Vec::new();
            for ((field, old), new) in fields.iter().zip(current).zip(&values) {
                let old_text = old.as_ref().map_or("", |v| v.value.as_str());
                if old_text == new {
                    continue;
                }
                if *field != Field::Description && new.contains('\n') {
                    return Err(format!("{} must be a single line", field.key()));
                }
                let file = file_of(app, old.as_ref(), &fallback)?;
                let edit = if new.trim().is_empty() {
                    Edit::UnsetField {
                        topic: topic.clone(),
                        field: *field,
                    }
                } else {
                    Edit::SetField {
                        topic: topic.clone(),
                        field: *field,
                        value: FieldValue::Text(new.clone()),
                    }
                };
                match plan.iter_mut().find(|(f, _)| *f == file) {
                    Some((_, edits)) => edits.push(edit),
                    None => plan.push((file, vec![edit])),
                }
            }
            Ok(plan)
        }
        FormKind::NewTopic => {
            let (id, subjects, title) = (values[0].trim(), values[1].trim(), values[2].trim());
            if id.is_empty() {
                return Err("the id is required".into());
            }
            if !id
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_')
            {
                return Err("the id may only use letters, digits, `-` and `_`".into());
            }
            if model.kb.topic(id).is_some() {
                return Err(format!("topic `{id}` already exists"));
            }
            if subjects.is_empty() {
                return Err("the subjects directory is required".into());
            }
            match subjects_dir(model.kb.root(), Some(subjects)) {
                Ok(_) => {}
                Err(TopicError::NotFound(dir)) => {
                    return Err(format!(
                        "{} does not exist; create it first",
                        model.show(&dir)
                    ));
                }
                Err(e) => return Err(e.to_string()),
            }
            let file = app
                .config
                .target
                .clone()
                .unwrap_or_else(|| model.default_file.clone());
            Ok(vec![(
                file,
                vec![Edit::AddTopic {
                    id: id.to_owned(),
                    subjects: subjects.to_owned(),
                    title: (!title.is_empty()).then(|| title.to_owned()),
                    introduction: None,
                    description: None,
                }],
            )])
        }
    }
}
