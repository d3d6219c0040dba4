//! Moving the `kb` table out of a file JP loads into the `kb.toml` beside
//! it (`jp-kb migrate`), byte for byte: the text of every `[kb…]` table
//! (with the comment lines right above its header) and of every root-level
//! `kb…` key-value line is cut from the file and put into `kb.toml`
//! unchanged; nothing else in either file changes. Spans come from
//! `toml_edit`'s parse; the results are parsed again before they are
//! returned.

use std::ops::Range;
use std::path::{Path, PathBuf};

use toml_edit::{Document, Item, Table};

use crate::config::origin::is_editable_toml;
use crate::config::{LayerFile, LayerKind, LoadedConfig};
use crate::edit::plan::layers::jp_loads;

/// A file JP loads that holds a `kb` table (JP refuses to start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KbInJpFile {
    /// The file holding the topics.
    pub path: PathBuf,
    /// The line of its first topic, when known.
    pub line: Option<u32>,
    /// The `kb.toml` beside it that `jp-kb migrate` moves the table to;
    /// `None` when it must be moved by hand (a JSON/YAML file, a `.jp.toml`
    /// or `extends` file: no `kb.toml` is read beside those).
    pub target: Option<PathBuf>,
}

/// Every file of `loaded` that JP loads (not a `kb.*` file nor what one
/// extends, not a `--cfg` file) and that declares topics.
pub fn kb_in_jp_files(loaded: &LoadedConfig) -> Vec<KbInJpFile> {
    files_with_topics(
        loaded,
        |file| jp_loads(loaded, &file.path),
        |path| is_editable_toml(path).then(|| path.with_file_name("kb.toml")),
    )
}

/// Every `kb.*` file of `loaded` (or a file one extends) that declares
/// topics: what a JP with the knowledge base inside never reads
/// ([`crate::config::JpKind::Inside`]). Each `target` is the `config.toml`
/// beside a `kb.toml` of a configuration directory, where that JP reads
/// the same tables (`jp-kb migrate` moves them there); `None`: by hand.
pub fn kb_only_files(loaded: &LoadedConfig) -> Vec<KbInJpFile> {
    files_with_topics(
        loaded,
        |file| file.kind != LayerKind::Cfg && !jp_loads(loaded, &file.path),
        |path| {
            (path.file_name().is_some_and(|n| n == "kb.toml"))
                .then(|| path.with_file_name("config.toml"))
        },
    )
}

/// The files `keep` takes that declare topics, once each; a file of a
/// configuration directory moves to `target_of(path)`, any other by hand.
fn files_with_topics(
    loaded: &LoadedConfig,
    keep: impl Fn(&LayerFile) -> bool,
    target_of: impl Fn(&Path) -> Option<PathBuf>,
) -> Vec<KbInJpFile> {
    let mut out: Vec<KbInJpFile> = Vec::new();
    for file in &loaded.files {
        if !keep(file) || file.partial.topics.is_empty() || out.iter().any(|f| f.path == file.path)
        {
            continue;
        }
        let line = file
            .partial
            .topics
            .values()
            .find_map(|t| t.origin.as_ref().and_then(crate::config::Origin::line));
        let in_config_dir = matches!(
            file.kind,
            LayerKind::UserGlobal | LayerKind::Workspace | LayerKind::UserWorkspace
        );
        out.push(KbInJpFile {
            path: file.path.clone(),
            line,
            target: in_config_dir.then(|| target_of(&file.path)).flatten(),
        });
    }
    out
}

/// The two new texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    /// The source file without its `kb` parts.
    pub source: String,
    /// The `kb.toml` with them.
    pub kb_file: String,
    /// The topic ids moved.
    pub topics: Vec<String>,
}

fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

fn line_end(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |i| at + i + 1)
}

/// Header start offsets of every table with a header, and whether the
/// table is under `kb`.
fn headers(table: &Table, under_kb: bool, depth: usize, out: &mut Vec<(usize, bool)>) {
    for (key, item) in table {
        let kb = under_kb || (depth == 0 && key == "kb");
        match item {
            Item::Table(t) => {
                if !t.is_implicit()
                    && !t.is_dotted()
                    && let Some(span) = t.span()
                {
                    out.push((span.start, kb));
                }
                headers(t, kb, depth + 1, out);
            }
            Item::ArrayOfTables(array) => {
                for t in array {
                    if let Some(span) = t.span() {
                        out.push((span.start, kb));
                    }
                    headers(t, kb, depth + 1, out);
                }
            }
            _ => {}
        }
    }
}

/// The value spans of the key-values that sit in the root table's text
/// (before any header), through dotted keys.
fn root_values(table: &Table, out: &mut Vec<Range<usize>>) {
    for (_, item) in table {
        match item {
            Item::Value(v) => out.extend(v.span()),
            Item::Table(t) if t.is_dotted() => root_values(t, out),
            _ => {}
        }
    }
}

/// Cuts the `kb` parts out of `source` and adds them to `kb_file` (empty
/// when it does not exist). `Ok(None)`: `source` has no `kb` table.
///
/// # Errors
/// Either text is not valid TOML, `kb_file` already declares a topic being
/// moved, or the result would not parse (say, both files have a `[kb]`
/// header): nothing should be written, the message says why.
pub fn move_kb(source: &str, kb_file: &str) -> Result<Option<Moved>, String> {
    let doc = Document::parse(source).map_err(|e| e.to_string().trim_end().to_owned())?;
    let Some(kb) = doc.get("kb") else {
        return Ok(None);
    };
    let topics: Vec<String> = kb
        .get("topic")
        .and_then(Item::as_table_like)
        .map(|t| t.iter().map(|(k, _)| k.to_owned()).collect())
        .unwrap_or_default();
    let target = Document::parse(kb_file)
        .map_err(|e| format!("the kb file: {}", e.to_string().trim_end()))?;
    let clash: Vec<&String> = topics
        .iter()
        .filter(|id| {
            target
                .get("kb")
                .and_then(|k| k.get("topic"))
                .and_then(|t| t.get(id))
                .is_some()
        })
        .collect();
    if !clash.is_empty() {
        return Err(format!(
            "the kb file already declares topic(s) {}: merge them by hand",
            clash
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }

    let (mut cuts, root_cut, table_cut) = cut(source, &doc);
    cuts.sort_by_key(|r| r.start);
    let rest = without(source, &cuts);
    let new_kb = compose(&root_cut, kb_file, &table_cut);
    verify(&rest, &new_kb, &topics)?;
    Ok(Some(Moved {
        source: rest,
        kb_file: new_kb,
        topics,
    }))
}

/// The line-aligned ranges of `source` that hold `kb` parts, and their
/// texts: root-level key-values, then tables.
fn cut(source: &str, doc: &Document<&str>) -> (Vec<Range<usize>>, String, String) {
    let mut heads = Vec::new();
    headers(doc.as_table(), false, 0, &mut heads);
    heads.sort_unstable();
    let first_header = heads
        .first()
        .map_or(source.len(), |h| line_start(source, h.0));
    // Cut ranges (line-aligned), in order.
    let mut cuts: Vec<Range<usize>> = Vec::new();
    let mut root_cut = String::new();
    // Root-level `kb…` key-values: the whole lines they span.
    if let Some(kb_item) = doc.as_table().get("kb") {
        let mut spans = Vec::new();
        match kb_item {
            Item::Value(v) => spans.extend(v.span()),
            Item::Table(t) if t.is_dotted() => root_values(t, &mut spans),
            _ => {}
        }
        for span in spans.into_iter().filter(|s| s.start < first_header) {
            let range = line_start(source, span.start)
                ..line_end(source, span.end.saturating_sub(1).max(span.start));
            root_cut.push_str(&source[range.clone()]);
            if !root_cut.ends_with('\n') {
                root_cut.push('\n');
            }
            cuts.push(range);
        }
    }
    let mut table_cut = String::new();
    for (i, &(start, is_kb)) in heads.iter().enumerate() {
        if !is_kb {
            continue;
        }
        // Comment lines right above the header go with it.
        let mut from = line_start(source, start);
        while from > 0 {
            let prev = line_start(source, from - 1);
            if source[prev..from].trim_start().starts_with('#')
                && prev >= cuts.last().map_or(0, |c| c.end)
            {
                from = prev;
            } else {
                break;
            }
        }
        let to = heads
            .get(i + 1)
            .map_or(source.len(), |next| line_start(source, next.0));
        let mut to_comments = to;
        // Comment lines above the next header belong to it.
        if i + 1 < heads.len() {
            while to_comments > from {
                let prev = line_start(source, to_comments - 1);
                if source[prev..to_comments].trim_start().starts_with('#') {
                    to_comments = prev;
                } else {
                    break;
                }
            }
        }
        table_cut.push_str(&source[from..to_comments]);
        if !table_cut.ends_with('\n') {
            table_cut.push('\n');
        }
        cuts.push(from..to_comments);
    }
    (cuts, root_cut, table_cut)
}

/// `source` without the (sorted) `cuts`.
fn without(source: &str, cuts: &[Range<usize>]) -> String {
    let mut rest = String::with_capacity(source.len());
    let mut at = 0;
    for cut in cuts {
        if cut.start >= at {
            rest.push_str(&source[at..cut.start]);
            at = cut.end;
        }
    }
    rest.push_str(&source[at..]);

    rest
}

/// The new `kb.toml`: moved root key-values first (they must precede every
/// table), the old content, then the moved tables.
fn compose(root_cut: &str, kb_file: &str, table_cut: &str) -> String {
    let mut new_kb = String::new();
    new_kb.push_str(root_cut);
    if !root_cut.is_empty() && !kb_file.is_empty() && !kb_file.starts_with('\n') {
        new_kb.push('\n');
    }
    new_kb.push_str(kb_file);
    if !table_cut.is_empty() {
        if !new_kb.is_empty() && !new_kb.ends_with('\n') {
            new_kb.push('\n');
        }
        if !new_kb.is_empty() && !new_kb.ends_with("\n\n") {
            new_kb.push('\n');
        }
        new_kb.push_str(table_cut);
    }

    new_kb
}

fn verify(rest: &str, new_kb: &str, topics: &[String]) -> Result<(), String> {
    let check_rest = Document::parse(rest)
        .map_err(|e| format!("internal error: the file would not parse: {e}"))?;
    if check_rest.get("kb").is_some() {
        return Err(
            "a `kb` part could not be separated from the rest (an inline table or a key mixed \
                    with others on one line?): move it by hand"
                .to_owned(),
        );
    }
    let check_kb = Document::parse(new_kb).map_err(|e| {
        format!(
            "the kb file would not parse after the move ({}): merge by hand",
            e.to_string().trim_end()
        )
    })?;
    let moved_all = topics.iter().all(|id| {
        check_kb
            .get("kb")
            .and_then(|k| k.get("topic"))
            .and_then(|t| t.get(id))
            .is_some()
    });
    if !moved_all {
        return Err("internal error: a topic would be lost; nothing moved".to_owned());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_tables_and_root_keys_byte_for_byte() {
        let src = "# JP\nmodel = \"x\"\nkb.topic.a.learned = [\"x\"] # root\n\n[conversation]\nk = 1\n\n# the team's topic\n[kb.topic.b]\ntitle = \"B\" # kept\nsubjects = \"b\"\n\n[style]\nz = 2\n";
        let moved = move_kb(src, "").unwrap().unwrap();
        assert_eq!(
            moved.source,
            "# JP\nmodel = \"x\"\n\n[conversation]\nk = 1\n\n[style]\nz = 2\n"
        );
        assert_eq!(
            moved.kb_file,
            "kb.topic.a.learned = [\"x\"] # root\n\n# the team's topic\n[kb.topic.b]\ntitle = \"B\" # kept\nsubjects = \"b\"\n\n"
        );
        assert_eq!(moved.topics, ["a", "b"]);
        assert_eq!(move_kb(&moved.source, "").unwrap(), None);
    }

    #[test]
    fn appends_to_an_existing_kb_file_and_refuses_clashes() {
        let src = "[kb.topic.b]\nsubjects = \"b\"\n";
        let moved = move_kb(src, "[kb.topic.a]\nsubjects = \"a\"\n")
            .unwrap()
            .unwrap();
        assert_eq!(moved.source, "");
        assert_eq!(
            moved.kb_file,
            "[kb.topic.a]\nsubjects = \"a\"\n\n[kb.topic.b]\nsubjects = \"b\"\n"
        );
        assert!(
            move_kb(src, "[kb.topic.b]\ntitle = \"x\"\n")
                .unwrap_err()
                .contains("`b`")
        );
        assert!(move_kb("[kb]\nx = 1\n", "[kb]\ny = 1\n").is_err());
        assert!(move_kb("[kb\n", "").is_err());
    }
}
