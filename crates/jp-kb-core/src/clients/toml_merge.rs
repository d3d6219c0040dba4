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
use jp_kb_toml::keys::path_repr;
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

const KB_SERVER: [&str; 2] = ["mcp_servers", "kb"];

/// The keys of `[mcp_servers.kb]` (`command`, `env`, …; a sub-table
/// counts as its key), in file order; `None` when there is no such entry.
fn kb_server_keys(index: &Index<'_>) -> Option<Vec<String>> {
    let kb = path(&KB_SERVER);
    let mut found: Vec<(usize, String)> = index
        .leaves
        .iter()
        .filter(|l| l.path.len() > kb.len() && l.path.starts_with(&kb))
        .map(|l| (l.key_start, l.path[kb.len()].clone()))
        .chain(
            index
                .headers
                .iter()
                .filter(|h| h.path.len() > kb.len() && h.path.starts_with(&kb))
                .map(|h| (h.span.start, h.path[kb.len()].clone())),
        )
        .collect();
    let declared = !found.is_empty()
        || index.leaf_at(&kb).is_some()
        || index.headers.iter().any(|h| h.path == kb);
    found.sort_by_key(|(at, _)| *at);
    let keys = crate::unique::keep_first(found.into_iter().map(|(_, k)| k));
    declared.then_some(keys)
}

/// The value of `[mcp_servers.kb]`'s `key`, when written as a value.
fn kb_server_value<'d>(index: &Index<'d>, key: &str) -> Option<&'d Value> {
    index
        .leaf_at(&path(&[KB_SERVER[0], KB_SERVER[1], key]))
        .map(|l| l.item)
}

/// Whether Codex's config declares a `kb` server (jp-kb's to keep).
pub fn codex_has_server(text: &str) -> bool {
    parse(text).is_ok_and(|doc| index(text, &doc).is_ok_and(|i| kb_server_keys(&i).is_some()))
}

fn strings(value: &Value) -> Option<Vec<&str>> {
    value.as_array()?.iter().map(Value::as_str).collect()
}

/// `text` (Codex's `config.toml`, empty when missing) with
/// `[mcp_servers.kb]` running exactly `command args` and nothing else;
/// `Ok(None)` when it already does.
///
/// # Errors
/// `text` is not valid TOML (the message gives line and column), or
/// `mcp_servers` is not a table.
pub fn codex_server(text: &str, command: &str, args: &[&str]) -> Result<Option<Merged>, String> {
    let doc = parse(text)?;
    let idx = index(text, &doc)?;
    let Some(keys) = kb_server_keys(&idx) else {
        return add_codex_server(text, command, args).map(|text| {
            Some(Merged {
                text,
                removed: Vec::new(),
            })
        });
    };
    let exact = keys.len() == 2
        && kb_server_value(&idx, "command").and_then(Value::as_str) == Some(command)
        && kb_server_value(&idx, "args").and_then(strings).as_deref() == Some(args);
    if exact {
        return Ok(None);
    }
    let removed: Vec<String> = keys
        .into_iter()
        .filter(|k| k != "command" && k != "args")
        .collect();
    let without = remove_kb_server(&idx);
    let text = add_codex_server(&without, command, args)?;
    Ok(Some(Merged { text, removed }))
}

/// `text` less every piece of `[mcp_servers.kb]`: its headers (and those
/// of its sub-tables) with their lines, or its key-values.
fn remove_kb_server(idx: &Index<'_>) -> String {
    let kb = path(&KB_SERVER);
    let mut ranges: Vec<std::ops::Range<usize>> = idx
        .headers
        .iter()
        .enumerate()
        .filter(|(_, h)| h.path.starts_with(&kb))
        .map(|(i, _)| remove_header(idx, i).range)
        .collect();
    for leaf in &idx.leaves {
        let ours = leaf.path.starts_with(&kb) && leaf.path.len() >= kb.len();
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

/// Adds the server entry where none is: a `[mcp_servers.kb]` table at the
/// end, or `kb = { … }` inside an inline or dotted `mcp_servers`.
fn add_codex_server(text: &str, command: &str, args: &[&str]) -> Result<String, String> {
    let doc = parse(text)?;
    let idx = index(text, &doc)?;
    let eol = doc_eol(text);
    let command = encode(command, Style::Basic, "", eol);
    let args = format!(
        "[{}]",
        args.iter()
            .map(|a| encode(a, Style::Basic, "", eol))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let servers = path(&["mcp_servers"]);
    let entries = [
        NewEntry {
            key: "command".to_owned(),
            value: command.clone(),
        },
        NewEntry {
            key: "args".to_owned(),
            value: args.clone(),
        },
    ];
    let container = container_at(&doc, &idx, &servers).map_err(|e| e.to_string())?;
    let patch = match container {
        Some(c) if matches!(c.kind, Kind::Inline { .. } | Kind::Dotted(_)) => insert(
            &idx,
            &c,
            &[NewEntry {
                key: "kb".to_owned(),
                value: format!("{{ command = {command}, args = {args} }}"),
            }],
            eol,
        )
        .map_err(|e| e.to_string())?,
        _ => crate::edit::topic::append_table(text, &path_repr(&path(&KB_SERVER)), &entries, eol),
    };
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
