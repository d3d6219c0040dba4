//! YAML front-matter of Markdown subjects (`---` … `---` at the top), for
//! the curator's eyes and for search. The assistant still gets the file as
//! it is: nothing here changes what `learn` or `prompt` print.

use serde_json::Value;

/// How many leading bytes a caller needs to read to find front-matter:
/// a block longer than this is not looked for (it would be a document,
/// not a header).
pub const MAX_FRONTMATTER_BYTES: usize = 64 * 1024;

/// The front-matter block of `text`: its YAML and the byte offset where the
/// rest of the document starts. `None` when the text does not open with a
/// `---` line or the block is not closed by a `---` (or `...`) line.
pub fn split(text: &str) -> Option<(&str, usize)> {
    let text_start = text.strip_prefix('\u{feff}').map_or(0, |_| 3);
    let rest = &text[text_start..];
    let first_end = rest.find('\n')?;
    if rest[..first_end].trim_end_matches('\r') != "---" {
        return None;
    }
    let yaml_start = text_start + first_end + 1;
    let mut at = yaml_start;
    for line in text[yaml_start..].split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if bare == "---" || bare == "..." {
            return Some((&text[yaml_start..at], at + line.len()));
        }
        at += line.len();
        if at - yaml_start > MAX_FRONTMATTER_BYTES {
            return None;
        }
    }
    None
}

/// The parsed front-matter of a Markdown text: `None` without a block;
/// `Some(Err(why))` when the block is not valid YAML (with its line).
pub fn parse(text: &str) -> Option<Result<Value, String>> {
    let (yaml, _) = split(text)?;
    if yaml.trim().is_empty() {
        return Some(Ok(Value::Object(serde_json::Map::new())));
    }
    // One blank line first, for the `---` line: the parser's line numbers
    // (in its message too) are then the file's.
    let padded = format!("\n{yaml}");
    Some(
        serde_norway::from_str::<Value>(&padded).map_err(|e| match e.location() {
            Some(at) => format!("line {}: {e}", at.line()),
            None => e.to_string(),
        }),
    )
}

/// True when a subject with this extension is Markdown.
pub fn is_markdown(extension: Option<&str>) -> bool {
    extension.is_some_and(|e| e.eq_ignore_ascii_case("md") || e.eq_ignore_ascii_case("markdown"))
}

/// The searchable text of the fields people put in front-matter (`name`,
/// `title`, `description`, `tags`), space-separated.
pub fn searchable_fields(value: &Value) -> String {
    scalar_text(value, &["name", "title", "description", "tags"])
}

/// The scalars of the fields `keys`, space-separated (lists flattened).
pub fn scalar_text(value: &Value, keys: &[&str]) -> String {
    let mut out = String::new();
    for key in keys {
        push_scalars(value.get(*key), &mut out);
    }
    out
}

fn push_scalars(value: Option<&Value>, out: &mut String) {
    match value {
        Some(Value::String(s)) => {
            out.push_str(s);
            out.push(' ');
        }
        Some(Value::Array(items)) => items.iter().for_each(|v| push_scalars(Some(v), out)),
        Some(v @ (Value::Number(_) | Value::Bool(_))) => {
            out.push_str(&v.to_string());
            out.push(' ');
        }
        _ => {}
    }
}

/// One line per top-level key (`key: value`, lists joined by `, `), for a
/// preview header; values are cut at `width` characters.
pub fn summary_lines(value: &Value, width: usize) -> Vec<String> {
    let Value::Object(map) = value else {
        return Vec::new();
    };
    map.iter()
        .map(|(key, v)| {
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Array(items) => items
                    .iter()
                    .map(|i| match i {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                other => other.to_string(),
            };
            let line = format!("{key}: {}", text.replace(['\n', '\r'], " "));
            match line.char_indices().nth(width) {
                Some((cut, _)) => format!("{}…", &line[..cut]),
                None => line,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn splits_and_parses_a_block() {
        let text = "---\nname: rust-style\ntags: [rust, lint]\n---\n# Body\n";
        let (yaml, body) = split(text).unwrap();
        assert_eq!(yaml, "name: rust-style\ntags: [rust, lint]\n");
        assert_eq!(&text[body..], "# Body\n");
        assert_eq!(
            parse(text).unwrap().unwrap(),
            json!({"name": "rust-style", "tags": ["rust", "lint"]})
        );
        assert_eq!(
            searchable_fields(&parse(text).unwrap().unwrap()),
            "rust-style rust lint "
        );
    }

    #[test]
    fn no_block_unclosed_block_and_bad_yaml() {
        assert!(parse("# Title\n---\n").is_none());
        assert!(parse("---\nname: x\n").is_none());
        assert!(parse("--- \nx").is_none());
        let err = parse("---\nname: [unclosed\n---\n").unwrap().unwrap_err();
        assert!(err.starts_with("line "), "{err}");
        assert_eq!(parse("---\r\n---\r\nx").unwrap().unwrap(), json!({}));
    }

    #[test]
    fn summary_lines_are_cut() {
        let v = json!({"description": "a\nlong text", "tags": ["a", 1]});
        assert_eq!(summary_lines(&v, 12), ["description:…", "tags: a, 1"]);
    }
}
