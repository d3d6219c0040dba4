//! Putting one member into a JSON object of an existing file without
//! touching any other byte (`.mcp.json`'s `mcpServers.kb`): the file is
//! validated with `serde_json` first, then scanned for the byte spans of
//! the objects on the path, and the member is spliced in (or its value
//! replaced). The result is parsed again and must equal the old document
//! plus the member, else nothing is returned.

use std::ops::Range;

use serde_json::{Map, Value};

use super::toml_merge::Merged;

/// One `"key": value` of an object, as byte spans of the text.
struct Member {
    key: String,
    key_start: usize,
    value: Range<usize>,
}

/// An object's `{`…`}` span and its members.
struct Object {
    open: usize,
    close: usize,
    members: Vec<Member>,
}

/// `text` with `path` (object keys, the last one the member) set to
/// `value`; `Ok(None)` when it already holds exactly that value. An empty
/// or all-blank `text` becomes a new pretty-printed document.
///
/// # Errors
/// `text` is not valid JSON (the message gives line and column), or an
/// object on the path is another kind of value.
pub fn set_member(text: &str, path: &[&str], value: &Value) -> Result<Option<String>, String> {
    if text.trim().is_empty() {
        let mut doc = value.clone();
        for key in path.iter().rev() {
            let mut map = Map::new();
            map.insert((*key).to_owned(), doc);
            doc = Value::Object(map);
        }
        let pretty = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
        return Ok(Some(pretty + "\n"));
    }
    let old: Value = serde_json::from_str(text)
        .map_err(|e| format!("line {}, column {}: {e}", e.line(), e.column()))?;
    let mut expected = old.clone();
    let mut cursor = &mut expected;
    for (depth, key) in path.iter().enumerate() {
        let Value::Object(map) = cursor else {
            let at = path[..depth].join(".");
            return Err(format!(
                "`{}` is not an object",
                if at.is_empty() { "the document" } else { &at }
            ));
        };
        if depth + 1 == path.len() {
            if map.get(*key) == Some(value) {
                return Ok(None);
            }
            map.insert((*key).to_owned(), value.clone());
            break;
        }
        cursor = map
            .entry((*key).to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    let new = splice(text, path, value)?;
    let parsed: Value = serde_json::from_str(&new).map_err(|e| e.to_string())?;
    if parsed != expected {
        return Err("internal error: the merged JSON does not mean what was intended".to_owned());
    }
    Ok(Some(new))
}

/// [`set_member`] for an entry jp-kb owns (`mcpServers.kb`): written
/// whole, and the keys it held that `value` does not (`env`, `cwd`) are
/// named in [`Merged::removed`].
///
/// # Errors
/// As [`set_member`].
pub fn set_owned_member(
    text: &str,
    path: &[&str],
    value: &Value,
) -> Result<Option<Merged>, String> {
    let Some(new) = set_member(text, path, value)? else {
        return Ok(None);
    };
    let old: Option<Value> = serde_json::from_str(text).ok();
    let removed = old
        .as_ref()
        .and_then(|doc| path.iter().try_fold(doc, |v, key| v.get(*key)))
        .and_then(Value::as_object)
        .map(|entry| {
            entry
                .keys()
                .filter(|k| value.get(k.as_str()).is_none())
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    Ok(Some(Merged { text: new, removed }))
}

fn splice(text: &str, path: &[&str], value: &Value) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut at = skip_ws(bytes, 0);
    for (depth, key) in path.iter().enumerate() {
        let object = scan_object(text, at)?;
        let last = depth + 1 == path.len();
        let member_indent = member_indent(text, &object, depth + 1);
        match object.members.iter().find(|m| m.key == *key) {
            Some(member) if last => {
                let rendered = render(value, &member_indent)?;
                return Ok(format!(
                    "{}{rendered}{}",
                    &text[..member.value.start],
                    &text[member.value.end..]
                ));
            }
            Some(member) => at = member.value.start,
            None => {
                // Build what is missing from here down as one value.
                let mut rest = value.clone();
                for k in path[depth + 1..].iter().rev() {
                    let mut map = Map::new();
                    map.insert((*k).to_owned(), rest);
                    rest = Value::Object(map);
                }
                let rendered = render(&rest, &member_indent)?;
                let key_json = serde_json::to_string(key).map_err(|e| e.to_string())?;
                let member = format!("{key_json}: {rendered}");
                let close_indent = line_indent(text, object.close);
                return Ok(match object.members.last() {
                    Some(last) => format!(
                        "{},\n{member_indent}{member}{}",
                        &text[..last.value.end],
                        &text[last.value.end..]
                    ),
                    None => format!(
                        "{}\n{member_indent}{member}\n{close_indent}{}",
                        &text[..=object.open],
                        &text[object.close..]
                    ),
                });
            }
        }
    }
    Err("empty member path".to_owned())
}

/// `value` pretty-printed, its continuation lines indented by `indent`.
fn render(value: &Value, indent: &str) -> Result<String, String> {
    let pretty = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    Ok(pretty.replace('\n', &format!("\n{indent}")))
}

/// The indentation members of `object` use: that of the line of its first
/// member when it starts a line, else two spaces per level.
fn member_indent(text: &str, object: &Object, depth: usize) -> String {
    if let Some(first) = object.members.first() {
        let line_start = text[..first.key_start].rfind('\n').map_or(0, |i| i + 1);
        let before = &text[line_start..first.key_start];
        if before.chars().all(|c| c == ' ' || c == '\t') {
            return before.to_owned();
        }
    }
    "  ".repeat(depth)
}

/// The leading whitespace of the line holding byte `at`.
fn line_indent(text: &str, at: usize) -> String {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..at]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

fn skip_ws(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && matches!(bytes[at], b' ' | b'\t' | b'\n' | b'\r') {
        at += 1;
    }
    at
}

/// The object starting at `at` (valid JSON is assumed: it was parsed).
fn scan_object(text: &str, at: usize) -> Result<Object, String> {
    let bytes = text.as_bytes();
    if bytes.get(at) != Some(&b'{') {
        return Err("expected an object".to_owned());
    }
    let mut members = Vec::new();
    let mut i = skip_ws(bytes, at + 1);
    if bytes.get(i) == Some(&b'}') {
        return Ok(Object {
            open: at,
            close: i,
            members,
        });
    }
    loop {
        let key_start = i;
        let key_end = skip_value(bytes, i)?;
        let key: String =
            serde_json::from_str(&text[key_start..key_end]).map_err(|e| e.to_string())?;
        i = skip_ws(bytes, key_end);
        if bytes.get(i) != Some(&b':') {
            return Err("expected `:`".to_owned());
        }
        let value_start = skip_ws(bytes, i + 1);
        let value_end = skip_value(bytes, value_start)?;
        members.push(Member {
            key,
            key_start,
            value: value_start..value_end,
        });
        i = skip_ws(bytes, value_end);
        match bytes.get(i) {
            Some(b',') => i = skip_ws(bytes, i + 1),
            Some(b'}') => {
                return Ok(Object {
                    open: at,
                    close: i,
                    members,
                });
            }
            _ => return Err("expected `,` or `}`".to_owned()),
        }
    }
}

/// The end of the value (string, object, array or literal) at `at`.
fn skip_value(bytes: &[u8], at: usize) -> Result<usize, String> {
    let mut i = at;
    let mut depth = 0usize;
    loop {
        let Some(&b) = bytes.get(i) else {
            return Err("unexpected end of the document".to_owned());
        };
        match b {
            b'"' => {
                i += 1;
                while let Some(&c) = bytes.get(i) {
                    i += 1;
                    match c {
                        b'\\' => i += 1,
                        b'"' => break,
                        _ => {}
                    }
                }
            }
            b'{' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            _ if depth == 0 => {
                // A literal: up to the next delimiter.
                while let Some(&c) = bytes.get(i) {
                    if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    i += 1;
                }
                return Ok(i);
            }
            _ => i += 1,
        }
        if depth == 0 {
            return Ok(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const PATH: [&str; 2] = ["mcpServers", "kb"];

    #[test]
    fn adds_a_server_keeping_every_other_byte() {
        let text = "{\n    \"mcpServers\": {\n        \"other\": {\"command\": \"x\"}\n    },\n    \"x\": 1\n}\n";
        let out = set_member(text, &PATH, &json!({"command": "jp-kb"}))
            .unwrap()
            .unwrap();
        assert_eq!(
            out,
            "{\n    \"mcpServers\": {\n        \"other\": {\"command\": \"x\"},\n        \"kb\": {\n          \"command\": \"jp-kb\"\n        }\n    },\n    \"x\": 1\n}\n"
        );
        assert_eq!(
            set_member(&out, &PATH, &json!({"command": "jp-kb"})).unwrap(),
            None
        );
    }

    #[test]
    fn creates_missing_objects_and_replaces_values() {
        let out = set_member("{}", &PATH, &json!(1)).unwrap().unwrap();
        assert_eq!(out, "{\n  \"mcpServers\": {\n    \"kb\": 1\n  }\n}");
        let out = set_member("{\"a\": [1, \"}\"]}", &PATH, &json!(1))
            .unwrap()
            .unwrap();
        assert_eq!(
            out,
            "{\"a\": [1, \"}\"],\n  \"mcpServers\": {\n    \"kb\": 1\n  }}"
        );
        let out = set_member("{\"mcpServers\": {\"kb\": 2}}", &PATH, &json!(1))
            .unwrap()
            .unwrap();
        assert_eq!(out, "{\"mcpServers\": {\"kb\": 1}}");
        assert_eq!(
            set_member("", &PATH, &json!(1)).unwrap().unwrap(),
            "{\n  \"mcpServers\": {\n    \"kb\": 1\n  }\n}\n"
        );
    }

    #[test]
    fn refuses_what_is_not_json_or_not_an_object() {
        let err = set_member("{\n  \"a\": ,\n}", &PATH, &json!(1)).unwrap_err();
        assert!(err.starts_with("line 2, column"), "{err}");
        assert!(set_member("[]", &PATH, &json!(1)).is_err());
        assert!(set_member("{\"mcpServers\": 3}", &PATH, &json!(1)).is_err());
    }
}
