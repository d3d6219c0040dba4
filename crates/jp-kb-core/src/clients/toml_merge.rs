//! The two TOML files jp-kb adds to rather than owns: Codex's
//! `.codex/config.toml` (`[mcp_servers.kb]`) and JP's `.jp/config.toml`
//! (an `extends` entry reaching the generated layer). Both keep every
//! other byte: a missing table is appended as text; a value that must
//! change is changed through `toml_edit`, which re-emits untouched items
//! as they were.

use std::fmt::Write as _;

use globset::GlobBuilder;
use toml_edit::{Array, DocumentMut, Item, Value};

fn parse(text: &str) -> Result<DocumentMut, String> {
    text.parse::<DocumentMut>()
        .map_err(|e| e.to_string().trim_end().to_owned())
}

fn strings(value: Option<&Item>) -> Option<Vec<&str>> {
    value?
        .as_array()?
        .iter()
        .map(Value::as_str)
        .collect::<Option<Vec<_>>>()
}

/// Does `doc` hold `[mcp_servers.kb]` with `command` and `args`?
fn codex_entry_is(doc: &DocumentMut, command: &str, args: &[&str]) -> bool {
    let Some(kb) = doc.get("mcp_servers").and_then(|s| s.get("kb")) else {
        return false;
    };
    kb.get("command").and_then(Item::as_str) == Some(command)
        && strings(kb.get("args")).as_deref() == Some(args)
}

/// Whether Codex's config declares a `kb` server (jp-kb's to keep).
pub fn codex_has_server(text: &str) -> bool {
    parse(text).is_ok_and(|doc| doc.get("mcp_servers").and_then(|s| s.get("kb")).is_some())
}

/// `text` (Codex's `config.toml`, empty when missing) with
/// `[mcp_servers.kb]` running `command args`; `Ok(None)` when it already
/// does. Other keys of the `kb` table (`env`, timeouts) are kept.
///
/// # Errors
/// `text` is not valid TOML (the message gives line and column).
pub fn codex_server(text: &str, command: &str, args: &[&str]) -> Result<Option<String>, String> {
    let doc = parse(text)?;
    if codex_entry_is(&doc, command, args) {
        return Ok(None);
    }
    let has_kb = doc.get("mcp_servers").and_then(|s| s.get("kb")).is_some();
    if !has_kb {
        let mut out = text.to_owned();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        if !out.is_empty() {
            out.push('\n');
        }
        let _ = write!(
            out,
            "[mcp_servers.kb]\ncommand = {}\nargs = {}\n",
            Value::from(command).decorated("", ""),
            Value::Array(args.iter().copied().collect::<Array>()).decorated("", "")
        );
        // Appending fails when `mcp_servers` is an inline table or a
        // dotted key of the root: then edit the document instead.
        if parse(&out).is_ok_and(|d| codex_entry_is(&d, command, args)) {
            return Ok(Some(out));
        }
    }
    let mut doc = doc;
    let servers = doc.entry("mcp_servers").or_insert_with(|| {
        let mut t = toml_edit::Table::new();
        t.set_implicit(true);
        Item::Table(t)
    });
    let Some(servers) = servers.as_table_like_mut() else {
        return Err("`mcp_servers` is not a table".to_owned());
    };
    let kb = servers
        .entry("kb")
        .or_insert_with(|| Item::Table(toml_edit::Table::new()));
    let Some(kb) = kb.as_table_like_mut() else {
        return Err("`mcp_servers.kb` is not a table".to_owned());
    };
    kb.insert("command", Item::Value(Value::from(command)));
    kb.insert(
        "args",
        Item::Value(Value::Array(args.iter().copied().collect::<Array>())),
    );
    let out = doc.to_string();
    if !parse(&out).is_ok_and(|d| codex_entry_is(&d, command, args)) {
        return Err("internal error: the merged TOML does not mean what was intended".to_owned());
    }
    Ok(Some(out))
}

/// The `extends` entries of a parsed config value (strings, or tables'
/// `path`), whatever the format it came from.
pub fn extends_entries(extends: Option<&serde_json::Value>) -> Vec<String> {
    extends
        .and_then(serde_json::Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|item| {
                    item.as_str()
                        .or_else(|| item.get("path").and_then(serde_json::Value::as_str))
                        .map(str::to_owned)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Does an `extends` entry (relative to the declaring file, globs as JP
/// and jp-kb expand them) name `rel`?
pub fn reaches(entries: &[String], rel: &str) -> bool {
    entries.iter().any(|entry| {
        let entry = entry.strip_prefix("./").unwrap_or(entry);
        entry == rel
            || GlobBuilder::new(entry)
                .literal_separator(true)
                .build()
                .is_ok_and(|g| g.compile_matcher().is_match(rel))
    })
}

/// `text` (JP's `.jp/config.toml`, empty when missing) with an `extends`
/// entry reaching `rel`; `Ok(None)` when one already does.
///
/// # Errors
/// `text` is not valid TOML, or its `extends` is not an array.
pub fn jp_extends(text: &str, rel: &str) -> Result<Option<String>, String> {
    let mut doc = parse(text)?;
    let entries: Vec<String> = match doc.get("extends") {
        None => Vec::new(),
        Some(item) => match item.as_array() {
            Some(array) => array
                .iter()
                .filter_map(|v| {
                    v.as_str().map(str::to_owned).or_else(|| {
                        v.as_inline_table()
                            .and_then(|t| t.get("path"))
                            .and_then(Value::as_str)
                            .map(str::to_owned)
                    })
                })
                .collect(),
            None => return Err("`extends` is not an array".to_owned()),
        },
    };
    if reaches(&entries, rel) {
        return Ok(None);
    }
    if let Some(array) = doc.get_mut("extends").and_then(Item::as_array_mut) {
        array.push(rel);
    } else {
        let array: Array = std::iter::once(rel).collect();
        if doc.iter().next().is_none() && text.trim().is_empty() {
            return Ok(Some(format!(
                "extends = {}\n",
                Value::Array(array).decorated("", "")
            )));
        }
        doc.insert("extends", Item::Value(Value::Array(array)));
    }
    Ok(Some(doc.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_server_is_appended_then_left_alone() {
        let text = "# mine\nmodel = \"o4\"\n\n[mcp_servers.other]\ncommand = \"x\"\n";
        let out = codex_server(text, "jp-kb", &["mcp"]).unwrap().unwrap();
        assert_eq!(
            out,
            format!("{text}\n[mcp_servers.kb]\ncommand = \"jp-kb\"\nargs = [\"mcp\"]\n")
        );
        assert_eq!(codex_server(&out, "jp-kb", &["mcp"]).unwrap(), None);
        let changed = out.replace(
            "args = [\"mcp\"]",
            "args = [\"mcp\", \"-x\"] # old\nenv = { A = \"1\" }",
        );
        let fixed = codex_server(&changed, "jp-kb", &["mcp"]).unwrap().unwrap();
        assert!(fixed.starts_with(text), "{fixed}");
        assert!(fixed.contains("env = { A = \"1\" }"), "{fixed}");
        assert!(codex_has_server(&fixed));
        let inline = "mcp_servers = { other = { command = \"x\" } }\n";
        let out = codex_server(inline, "jp-kb", &["mcp"]).unwrap().unwrap();
        assert!(
            codex_entry_is(&parse(&out).unwrap(), "jp-kb", &["mcp"]),
            "{out}"
        );
        assert!(codex_server("[mcp_servers\n", "jp-kb", &["mcp"]).is_err());
    }

    #[test]
    fn extends_is_added_only_when_nothing_reaches_the_layer() {
        let rel = "config.d/jp-kb.toml";
        assert_eq!(
            jp_extends("", rel).unwrap().unwrap(),
            "extends = [\"config.d/jp-kb.toml\"]\n"
        );
        assert_eq!(
            jp_extends("extends = [\"config.d/**/*\"]\n", rel).unwrap(),
            None
        );
        assert_eq!(
            jp_extends(
                "extends = [{ path = \"config.d/*.toml\", strategy = \"after\" }]\n",
                rel
            )
            .unwrap(),
            None
        );
        let out = jp_extends("# JP\nextends = [\"a.toml\"] # mine\n\n[style]\n", rel)
            .unwrap()
            .unwrap();
        assert_eq!(
            out,
            "# JP\nextends = [\"a.toml\", \"config.d/jp-kb.toml\"] # mine\n\n[style]\n"
        );
        let out = jp_extends("# JP\n[style]\nx = 1\n", rel).unwrap().unwrap();
        assert!(
            out.starts_with("extends = [\"config.d/jp-kb.toml\"]\n"),
            "{out}"
        );
        assert!(out.ends_with("# JP\n[style]\nx = 1\n"), "{out}");
        assert!(jp_extends("extends = 3\n", rel).is_err());
    }
}
