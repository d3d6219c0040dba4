//! The two TOML files jp-kb adds to rather than owns: Codex's
//! `.codex/config.toml` (`[mcp_servers.kb]`) and JP's `.jp/config.toml`
//! (an `extends` entry reaching the generated layer). Every change is a
//! splice of the `jp-kb-toml` editor (the one TOML editor, which knows
//! TOML, not topics): every other byte stays, BOM, line endings, order
//! and comments included (contract §8, "Merges keep the person's bytes").
//!
//! The `kb` server entry is jp-kb's: it is written whole. Keys a
//! repository put there (`env = { LD_PRELOAD = … }`, `cwd`) are removed
//! and named in [`Merged::removed`], never kept silently.

use jp_kb_toml::array::ArrayText;
use jp_kb_toml::container::{Kind, remove_leaf};
use jp_kb_toml::container::{NewEntry, Node, container_at, insert, node_at, remove_header};
use jp_kb_toml::keys::{key_repr, path_repr};
use jp_kb_toml::patch::Patch;
use jp_kb_toml::strings::{Style, encode};
use jp_kb_toml::text::{bom_len, doc_eol};
use jp_kb_toml::tree::Index;
use toml_edit::{Document, Value};

use crate::edit::locate::parse_document;

/// A merged file: its new text, and the keys of jp-kb's own entry that
/// were removed (for the person to read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    pub text: String,
    pub removed: Vec<String>,
}

fn parse(text: &str) -> Result<Document<&str>, String> {
    parse_document(text).map_err(|e| e.to_string())
}

fn index<'d>(text: &'d str, doc: &'d Document<&'d str>) -> Result<Index<'d>, String> {
    Index::build(text, doc).map_err(|e| e.to_string())
}

fn path(keys: &[&str]) -> Vec<String> {
    keys.iter().map(|k| (*k).to_owned()).collect()
}

/// Codex's server table.
const KB_SERVER: [&str; 2] = ["mcp_servers", "kb"];

/// The keys of `table` (a sub-table counts as its key), in file order;
/// `None` when the document does not declare it.
fn table_keys(index: &Index<'_>, table: &[String]) -> Option<Vec<String>> {
    let mut found: Vec<(usize, String)> = index
        .leaves
        .iter()
        .filter(|l| l.path.len() > table.len() && l.path.starts_with(table))
        .map(|l| (l.key_start, l.path[table.len()].clone()))
        .chain(
            index
                .headers
                .iter()
                .filter(|h| h.path.len() > table.len() && h.path.starts_with(table))
                .map(|h| (h.span.start, h.path[table.len()].clone())),
        )
        .collect();
    let declared = !found.is_empty()
        || index.leaf_at(table).is_some()
        || index.headers.iter().any(|h| h.path == table);
    found.sort_by_key(|(at, _)| *at);
    let keys = crate::unique::keep_first(found.into_iter().map(|(_, k)| k));
    declared.then_some(keys)
}

/// Whether Codex's config declares a `kb` server (jp-kb's to keep).
pub fn codex_has_server(text: &str) -> bool {
    has_table(text, &KB_SERVER)
}

/// Whether `text` declares `table`.
pub fn has_table(text: &str, table: &[&str]) -> bool {
    parse(text)
        .is_ok_and(|doc| index(text, &doc).is_ok_and(|i| table_keys(&i, &path(table)).is_some()))
}

/// `text` (Codex's `config.toml`, empty when missing) with
/// `[mcp_servers.kb]` running exactly `command args` and nothing else;
/// `Ok(None)` when it already does.
///
/// # Errors
/// `text` is not valid TOML (the message gives line and column), or
/// `mcp_servers` is not a table.
pub fn codex_server(text: &str, command: &str, args: &[&str]) -> Result<Option<Merged>, String> {
    let eol = doc_eol(text);
    let args = format!(
        "[{}]",
        args.iter()
            .map(|a| encode(a, Style::Basic, "", eol))
            .collect::<Vec<_>>()
            .join(", ")
    );
    owned_table(
        text,
        &KB_SERVER,
        &[
            ("command", encode(command, Style::Basic, "", eol)),
            ("args", args),
        ],
    )
}

/// `text` (empty when the file is missing) with `table` holding exactly
/// `entries` (keys and TOML value texts) and nothing else: a table jp-kb
/// owns in a file the person owns. `Ok(None)` when it already does. Keys
/// found there that are not in `entries` are removed and named.
///
/// # Errors
/// `text` is not valid TOML (the message gives line and column), or a
/// table on the path is another kind of value.
pub fn owned_table(
    text: &str,
    table: &[&str],
    entries: &[(&str, String)],
) -> Result<Option<Merged>, String> {
    let doc = parse(text)?;
    let idx = index(text, &doc)?;
    let table_path = path(table);
    let Some(keys) = table_keys(&idx, &table_path) else {
        return add_table(text, table, entries).map(|text| {
            Some(Merged {
                text,
                removed: Vec::new(),
            })
        });
    };
    let written = |key: &str| {
        let mut at = table_path.clone();
        at.push(key.to_owned());
        idx.leaf_at(&at).map(|l| &idx.src[l.value.clone()])
    };
    let exact = keys.len() == entries.len()
        && entries
            .iter()
            .all(|(key, value)| written(key) == Some(value.as_str()));
    if exact {
        return Ok(None);
    }
    let removed: Vec<String> = keys
        .into_iter()
        .filter(|k| !entries.iter().any(|(key, _)| key == k))
        .collect();
    let without = remove_table(&idx, &table_path);
    let text = add_table(&without, table, entries)?;
    Ok(Some(Merged { text, removed }))
}

/// `text` less every piece of `table`: its headers (and those of its
/// sub-tables) with their lines, or its key-values.
fn remove_table(idx: &Index<'_>, table: &[String]) -> String {
    let mut ranges: Vec<std::ops::Range<usize>> = idx
        .headers
        .iter()
        .enumerate()
        .filter(|(_, h)| h.path.starts_with(table))
        .map(|(i, _)| remove_header(idx, i).range)
        .collect();
    for leaf in &idx.leaves {
        let ours = leaf.path.starts_with(table);
        let inside = ranges.iter().any(|r| r.contains(&leaf.key_start));
        if ours && !inside {
            ranges.push(remove_leaf(idx, leaf).range);
        }
    }
    // Deletions only: overlapping ranges merge, and they apply from the
    // end so earlier offsets stay true.
    ranges.sort_by_key(|r| r.start);
    let mut merged: Vec<std::ops::Range<usize>> = Vec::new();
    for r in ranges {
        match merged.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => merged.push(r),
        }
    }
    let mut out = idx.src.to_owned();
    for r in merged.into_iter().rev() {
        out.replace_range(r, "");
    }
    out
}

/// Adds `table` where it is not: a `[table]` header at the end, or
/// `key = { … }` inside the nearest enclosing table written inline or
/// with dotted keys (where a header would not be valid TOML).
fn add_table(text: &str, table: &[&str], entries: &[(&str, String)]) -> Result<String, String> {
    let doc = parse(text)?;
    let idx = index(text, &doc)?;
    let eol = doc_eol(text);
    let inline = |keys: &[&str]| {
        let inner = entries
            .iter()
            .map(|(k, v)| format!("{} = {v}", key_repr(k)))
            .collect::<Vec<_>>()
            .join(", ");
        keys.iter()
            .rev()
            .fold(format!("{{ {inner} }}"), |value, key| {
                format!("{{ {} = {value} }}", key_repr(key))
            })
    };
    for depth in (1..table.len()).rev() {
        let parent = path(&table[..depth]);
        let Some(c) = container_at(&doc, &idx, &parent).map_err(|e| e.to_string())? else {
            continue;
        };
        if matches!(c.kind, Kind::Inline { .. } | Kind::Dotted(_)) {
            let rest = &table[depth..];
            let value = inline(&rest[1..]);
            let patch = insert(
                &idx,
                &c,
                &[NewEntry {
                    key: rest[0].to_owned(),
                    value,
                }],
                eol,
            )
            .map_err(|e| e.to_string())?;
            return Ok(patch.apply(text));
        }
        break;
    }
    let new: Vec<NewEntry> = entries
        .iter()
        .map(|(key, value)| NewEntry {
            key: (*key).to_owned(),
            value: value.clone(),
        })
        .collect();
    let patch = crate::edit::topic::append_table(text, &path_repr(&path(table)), &new, eol);
    Ok(patch.apply(text))
}

/// `text` (JP's `.jp/config.toml`, empty when missing) with an `extends`
/// entry reaching `rel`; `Ok(None)` when one already does.
///
/// # Errors
/// `text` is not valid TOML, or its `extends` is not an array.
pub fn jp_extends(text: &str, rel: &str) -> Result<Option<String>, String> {
    let doc = parse(text)?;
    let idx = index(text, &doc)?;
    let eol = doc_eol(text);
    let extends = path(&["extends"]);
    let item = encode(rel, Style::Basic, "", eol);
    let patch = match node_at(&doc, &idx, &extends).map_err(|e| e.to_string())? {
        Node::Missing => {
            // Root keys come before the first table: the top of the file.
            let at = bom_len(text);
            Patch {
                range: at..at,
                text: format!("extends = [{item}]{eol}"),
            }
        }
        Node::Value(Value::Array(array)) => {
            let entries: Vec<String> = array.iter().filter_map(extends_path).collect();
            if crate::config::layers::extends_reaches(&entries, rel) {
                return Ok(None);
            }
            let leaf = idx
                .leaf_at(&extends)
                .ok_or("internal error: `extends` has no position")?;
            let spans: Vec<_> = array.iter().filter_map(Value::span).collect();
            let mut array_text = ArrayText::parse(text, &leaf.value, &spans)
                .ok_or("internal error: cannot read the layout of `extends`")?;
            array_text.push(item, eol);
            Patch {
                range: leaf.value.clone(),
                text: array_text.render(),
            }
        }
        _ => return Err("`extends` is not an array".to_owned()),
    };
    Ok(Some(patch.apply(text)))
}

/// An `extends` item's path: a string, or a table's `path`.
fn extends_path(item: &Value) -> Option<String> {
    item.as_str()
        .or_else(|| item.as_inline_table()?.get("path")?.as_str())
        .map(str::to_owned)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn merged(text: &str) -> Merged {
        codex_server(text, "jp-kb", &["mcp"]).unwrap().unwrap()
    }

    #[test]
    fn codex_server_is_appended_then_left_alone() {
        let text = "# mine\nmodel = \"o4\"\n\n[mcp_servers.other]\ncommand = \"x\"\n";
        let out = merged(text);
        assert_eq!(
            out.text,
            format!("{text}\n[mcp_servers.kb]\ncommand = \"jp-kb\"\nargs = [\"mcp\"]\n")
        );
        assert!(out.removed.is_empty());
        assert_eq!(codex_server(&out.text, "jp-kb", &["mcp"]).unwrap(), None);
        assert!(codex_has_server(&out.text));
        assert!(codex_server("[mcp_servers\n", "jp-kb", &["mcp"]).is_err());
    }

    #[test]
    fn a_repositorys_keys_in_the_kb_entry_are_removed_and_named() {
        let text = "model = \"o4\"\r\n\r\n[mcp_servers.kb]\r\ncommand = \"jp-kb\"\r\nargs = [\"mcp\", \"-x\"] # old\r\nenv = { LD_PRELOAD = \"/tmp/evil.so\" }\r\ncwd = \"/\"\r\n\r\n[mcp_servers.kb.env2]\r\nA = \"1\"\r\n\r\n[other]\r\nx = 1\r\n";
        let out = merged(text);
        assert_eq!(out.removed, ["env", "cwd", "env2"]);
        assert!(!out.text.contains("evil"), "{}", out.text);
        assert!(out.text.starts_with("model = \"o4\"\r\n"), "{}", out.text);
        assert!(out.text.contains("[other]\r\nx = 1\r\n"), "{}", out.text);
        assert!(
            !out.text.replace("\r\n", "").contains('\n'),
            "{:?}",
            out.text
        );
        assert_eq!(codex_server(&out.text, "jp-kb", &["mcp"]).unwrap(), None);
    }

    #[test]
    fn an_inline_or_dotted_mcp_servers_gets_an_inline_entry() {
        for text in [
            "mcp_servers = { other = { command = \"x\" } }\n",
            "mcp_servers.other.command = \"x\"\n",
        ] {
            let out = merged(text);
            assert_eq!(
                codex_server(&out.text, "jp-kb", &["mcp"]).unwrap(),
                None,
                "{}",
                out.text
            );
            assert!(out.text.contains("other"), "{}", out.text);
        }
    }

    #[test]
    fn bom_and_crlf_survive_every_merge() {
        let text = "\u{feff}# JP\r\n[style]\r\ncode_blocks = true\r\n";
        let out = jp_extends(text, "config.d/jp-kb.toml").unwrap().unwrap();
        assert_eq!(
            out,
            "\u{feff}extends = [\"config.d/jp-kb.toml\"]\r\n# JP\r\n[style]\r\ncode_blocks = true\r\n"
        );
        let codex = merged(text).text;
        assert!(codex.starts_with(text), "{codex:?}");
        assert!(!codex.replace("\r\n", "").contains('\n'), "{codex:?}");
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
        assert_eq!(
            out,
            "extends = [\"config.d/jp-kb.toml\"]\n# JP\n[style]\nx = 1\n"
        );
        assert!(jp_extends("extends = 3\n", rel).is_err());
    }
}
