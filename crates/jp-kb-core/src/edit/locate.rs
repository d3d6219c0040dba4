//! Finding topic `kb.topic.<id>` in whichever TOML spelling the file uses:
//! a `[kb.topic.x]` header, dotted keys at any level (`kb.topic.x.k = …` at
//! the root, `topic.x.k` under `[kb]`, `x.k` under `[kb.topic]`), an inline
//! table (`x = { … }`, `kb.topic.x = { … }`), or sub-tables only
//! (`[kb.topic.x.learned]`).

use toml_edit::Document;

use crate::edit::error::EditError;
use jp_kb_toml::container::{Container, Kind, Node, container_at, node_at};
use jp_kb_toml::tree::Index;

/// How a topic is spelled in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// `[kb.topic.x]`
    Header,
    /// `kb.topic.x.key = …`, `topic.x.key = …` or `x.key = …`
    Dotted,
    /// `x = { … }`
    Inline,
    /// only `[kb.topic.x.sub]` tables
    Implicit,
}

/// Where a topic is defined in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicInfo {
    pub id: String,
    pub spelling: Spelling,
    /// 1-based position of its header or of its first key.
    pub line: usize,
    pub column: usize,
}

/// Parses `source`, mapping a syntax error to its line and column.
pub(crate) fn parse_document(source: &str) -> Result<Document<&str>, EditError> {
    Document::parse(source).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        let (line, column) = jp_kb_toml::lines::line_col(source, offset);
        EditError::Parse {
            line,
            column,
            message: e.message().trim().to_owned(),
        }
    })
}

pub(crate) fn topic_path(id: &str) -> Vec<String> {
    vec!["kb".to_owned(), "topic".to_owned(), id.to_owned()]
}

/// The topic's container, `None` when the file does not define it.
pub(crate) fn locate(
    doc: &Document<&str>,
    index: &Index<'_>,
    id: &str,
) -> Result<Option<Container>, EditError> {
    Ok(container_at(doc, index, &topic_path(id))?)
}

/// Topic ids defined in this file, in document order of their tables.
pub(crate) fn known_topics(doc: &Document<&str>, index: &Index<'_>) -> Vec<String> {
    let path = ["kb".to_owned(), "topic".to_owned()];
    let mut ids: Vec<String> = match node_at(doc, index, &path) {
        Ok(Node::Table(t)) => t.iter().map(|(k, _)| k.to_owned()).collect(),
        Ok(Node::Inline(t)) => t.iter().map(|(k, _)| k.to_owned()).collect(),
        _ => Vec::new(),
    };
    ids.sort_by_key(|id| {
        let p = topic_path(id);
        let c = Container {
            path: p,
            kind: Kind::Implicit,
        };
        first_offset(index, &c)
    });
    ids
}

/// Byte offset where a container is first written.
pub(crate) fn first_offset(index: &Index<'_>, c: &Container) -> usize {
    let header = index
        .headers
        .iter()
        .filter(|h| h.path.starts_with(&c.path))
        .map(|h| h.span.start);
    let leaf = index
        .leaves
        .iter()
        .filter(|l| l.path.starts_with(&c.path))
        .map(|l| l.key_start);
    header.chain(leaf).min().unwrap_or(0)
}

/// Where topic `id` is defined in `source`, and how it is spelled.
///
/// # Errors
/// `Parse` for invalid TOML; `WrongType` when `kb`, `kb.topic` or the
/// topic itself is not a table.
pub fn find_topic(source: &str, id: &str) -> Result<Option<TopicInfo>, EditError> {
    let doc = parse_document(source)?;
    let index = Index::build(source, &doc)?;
    let Some(c) = locate(&doc, &index, id)? else {
        return Ok(None);
    };
    let spelling = match c.kind {
        Kind::Header(_) => Spelling::Header,
        Kind::Dotted(_) => Spelling::Dotted,
        Kind::Inline { .. } => Spelling::Inline,
        Kind::Implicit => Spelling::Implicit,
    };
    let (line, column) = jp_kb_toml::lines::line_col(source, first_offset(&index, &c));
    Ok(Some(TopicInfo {
        id: id.to_owned(),
        spelling,
        line,
        column,
    }))
}

/// Every topic the file defines, in the order they first appear.
///
/// # Errors
/// `Parse` for invalid TOML.
pub fn list_topics(source: &str) -> Result<Vec<TopicInfo>, EditError> {
    let doc = parse_document(source)?;
    let index = Index::build(source, &doc)?;
    // An entry of `kb.topic` that is not a table is not a topic: listing
    // skips it (editing it reports it).
    Ok(known_topics(&doc, &index)
        .iter()
        .filter_map(|id| find_topic(source, id).ok().flatten())
        .collect())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn spelling(src: &str, id: &str) -> Option<Spelling> {
        find_topic(src, id).unwrap().map(|t| t.spelling)
    }

    #[test]
    fn finds_every_spelling() {
        assert_eq!(
            spelling("[kb.topic.x]\nsubjects = 'd'\n", "x"),
            Some(Spelling::Header)
        );
        assert_eq!(
            spelling("kb.topic.x.subjects = 'd'\n", "x"),
            Some(Spelling::Dotted)
        );
        assert_eq!(
            spelling("[kb]\ntopic.x.subjects = 'd'\n", "x"),
            Some(Spelling::Dotted)
        );
        assert_eq!(
            spelling("[kb.topic]\nx.subjects = 'd'\n", "x"),
            Some(Spelling::Dotted)
        );
        assert_eq!(
            spelling("[kb.topic]\nx = { subjects = 'd' }\n", "x"),
            Some(Spelling::Inline)
        );
        assert_eq!(
            spelling("kb.topic.x = { subjects = 'd' }\n", "x"),
            Some(Spelling::Inline)
        );
        assert_eq!(
            spelling("kb = { topic = { x.subjects = 'd' } }\n", "x"),
            Some(Spelling::Dotted)
        );
        assert_eq!(
            spelling("[kb.topic.x.learned]\nvalue = []\n", "x"),
            Some(Spelling::Implicit)
        );
        assert_eq!(
            spelling("[kb.topic.\"my.t\"]\nsubjects = 'd'\n", "my.t"),
            Some(Spelling::Header)
        );
        assert_eq!(spelling("[kb.topic.y]\n", "x"), None);
        assert_eq!(spelling("a = 1\n", "x"), None);
    }

    #[test]
    fn reports_position_and_wrong_types() {
        let t = find_topic("a = 1\n\n[kb.topic]\n  x.title = 't'\n", "x")
            .unwrap()
            .unwrap();
        assert_eq!((t.line, t.column), (4, 3));
        let e = find_topic("[kb]\ntopic = 3\n", "x").unwrap_err();
        assert!(
            matches!(e, EditError::WrongType { ref key, line: 2, column: 1, .. } if key == "kb.topic"),
            "{e}"
        );
        let e = find_topic("[kb.topic]\nx = 'nope'\n", "x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`kb.topic.x` at line 2, column 1 is a string, expected a table; nothing changed"
        );
    }

    #[test]
    fn lists_topics_in_file_order() {
        let src = "kb.topic.b.subjects = 'd'\n[kb.topic.a]\nsubjects = 'e'\n";
        let ids: Vec<_> = list_topics(src)
            .unwrap()
            .into_iter()
            .map(|t| t.id)
            .collect();
        assert_eq!(ids, ["b", "a"]);
    }
}
