//! The topic forms and what they start with. What a submitted form means
//! (and what it refuses) is the planner's decision: `plans::submit`.

use ratatui_textarea::TextArea;

use jp_kb_core::edit::plan::TopicField;
use jp_kb_core::subjects::TopicState;

/// Which form is open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormKind {
    EditTopic { topic: String },
    NewTopic,
}

/// One text field of a form.
#[derive(Debug, Clone)]
pub struct FormField {
    pub label: &'static str,
    pub input: TextArea<'static>,
    pub multiline: bool,
}

impl FormField {
    pub fn new(label: &'static str, value: &str, multiline: bool) -> Self {
        let lines = if value.is_empty() {
            vec![String::new()]
        } else {
            value.lines().map(str::to_owned).collect()
        };
        let mut input = TextArea::new(lines);
        input.move_cursor(ratatui_textarea::CursorMove::Bottom);
        input.move_cursor(ratatui_textarea::CursorMove::End);
        Self {
            label,
            input,
            multiline,
        }
    }

    pub fn value(&self) -> String {
        self.input.lines().join("\n")
    }
}

/// A form dialog with validation.
#[derive(Debug, Clone)]
pub struct Form {
    pub kind: FormKind,
    pub fields: Vec<FormField>,
    pub focus: usize,
    pub error: Option<String>,
}

/// A metadata field's label on the topic form.
fn label(field: TopicField) -> &'static str {
    match field {
        TopicField::Title => "Title",
        TopicField::Introduction => "Introduction",
        TopicField::Description => "Description (multi-line)",
        _ => field.key(),
    }
}

/// The form editing `state`'s texts.
pub fn edit_topic(state: &TopicState) -> Form {
    let c = &state.config;
    Form {
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
    }
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
