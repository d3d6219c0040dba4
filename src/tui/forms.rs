//! The topic forms and what they start with. What a submitted form means
//! (and what it refuses) is the planner's decision: `plans::submit`.

use super::app::{App, Form, FormField, FormKind};
use jp_kb_core::internal::config::TopicField;

/// A metadata field's label on the topic form.
fn label(field: TopicField) -> &'static str {
    match field {
        TopicField::Title => "Title",
        TopicField::Introduction => "Introduction",
        TopicField::Description => "Description (multi-line)",
        _ => field.key(),
    }
}

/// The form editing the selected topic's texts.
pub fn edit_topic(app: &App) -> Option<Form> {
    let state = app.topic_state()?;
    let c = &state.config;
    Some(Form {
        kind: FormKind::EditTopic {
            topic: state.id().to_owned(),
        },
        // One form field per metadata field, in its order: `plans::submit`
        // reads them back by position.
        fields: TopicField::METADATA
            .into_iter()
            .map(|field| {
                let value = c.text(field).map_or("", |v| v.value.as_str());
                FormField::new(label(field), value, field == TopicField::Description)
            })
            .collect(),
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
