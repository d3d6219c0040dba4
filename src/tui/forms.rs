//! The topic forms and what they start with. What a submitted form means
//! (and what it refuses) is the planner's decision: `plans::submit`.

use super::app::{App, Form, FormField, FormKind};

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
