//! The `learn` tool definition (contract §5.5): a constant JSON schema and
//! a description that lists the learnable topics.

use serde_json::{Value, json};
use std::fmt::Write as _;

/// The tool's name: what the `<knowledge>` section tells the assistant
/// to call.
pub const TOOL_NAME: &str = "learn";

/// The first line of the tool description.
pub const TOOL_SUMMARY: &str = "Learn about knowledge base topics and subjects.";

/// The RFD's parameter schema, key order preserved.
pub fn tool_parameters() -> Value {
    json!({
        "type": "object",
        "properties": {
            "topic": {
                "type": "string",
                "description": "The topic ID or title to learn about."
            },
            "subjects": {
                "type": ["string", "array", "null"],
                "description": "Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.",
                "items": { "type": "string" }
            }
        },
        "required": ["topic"],
        "additionalProperties": false
    })
}

/// The description: the summary, then one line per learnable topic
/// (`- id (Title)`, or `- id` without a title).
pub fn tool_description(topics: &[(&str, Option<&str>)]) -> String {
    let mut out = format!("{TOOL_SUMMARY}\n\nTopics:");
    for (id, title) in topics {
        out.push_str("\n- ");
        out.push_str(id);
        if let Some(title) = *title {
            let _ = write!(out, " ({title})");
        }
    }
    out
}

/// The whole definition as a JSON value.
pub fn tool_definition(topics: &[(&str, Option<&str>)]) -> Value {
    json!({
        "name": TOOL_NAME,
        "description": tool_description(topics),
        "parameters": tool_parameters(),
    })
}

/// The definition as pretty JSON (two-space indent), as `jp-kb schema`
/// prints it.
pub fn render_tool_definition(topics: &[(&str, Option<&str>)]) -> String {
    serde_json::to_string_pretty(&tool_definition(topics)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_matches_rfd_layout() {
        let text = serde_json::to_string_pretty(&tool_parameters()).unwrap_or_default();
        let expected = r#"{
  "type": "object",
  "properties": {
    "topic": {
      "type": "string",
      "description": "The topic ID or title to learn about."
    },
    "subjects": {
      "type": [
        "string",
        "array",
        "null"
      ],
      "description": "Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.",
      "items": {
        "type": "string"
      }
    }
  },
  "required": [
    "topic"
  ],
  "additionalProperties": false
}"#;
        assert_eq!(text, expected);
    }

    #[test]
    fn description_lists_topics() {
        assert_eq!(
            tool_description(&[("project", Some("General")), ("skills", None)]),
            "Learn about knowledge base topics and subjects.\n\nTopics:\n- project (General)\n- skills"
        );
    }
}
