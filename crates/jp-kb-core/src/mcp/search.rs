//! The opt-in `search` tool (`jp-kb mcp --search`): ranked search over the
//! subjects the assistant may `learn`. Hidden subjects (loadable only by
//! exact slug) and disabled ones never appear; each result names its topic
//! and slug so the assistant can pass them to `learn`. The index stays
//! open between calls, so a call reads only the files that changed.

use std::fmt::Write as _;
use std::sync::Mutex;

use serde_json::{Map, Value, json};

use super::tool::MAX_TOPIC_BYTES;
use crate::KnowledgeBase;
use crate::learn::Outcome;
use crate::search::{DEFAULT_LIMIT, Hit, SearchRequest, Searcher};

/// The tool's name.
pub const SEARCH: &str = "search";
/// Most results one call returns.
pub const MAX_LIMIT: usize = 50;

const USAGE: &str = "the `search` tool takes `query` (a string), and optionally `topic` (a string) and `limit` (an integer from 1 to 50)";

/// The `search` tool as MCP lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchTool {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub input_schema: Map<String, Value>,
}

/// The tool definition.
pub fn search_tool() -> SearchTool {
    let schema = json!({
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "description": "Words to look for, in any order (common words such as \"how\" or \"the\" are ignored)."
            },
            "topic": {
                "type": "string",
                "description": "Only search this topic (its id)."
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_LIMIT,
                "description": "Most results to return (default 10)."
            }
        },
        "required": ["query"],
        "additionalProperties": false
    });
    let input_schema = schema.as_object().cloned().unwrap_or_default();
    SearchTool {
        name: SEARCH,
        title: "Search the knowledge base",
        description: "Search the knowledge base by words, across topics. Each result names a topic and a subject: pass them to the `learn` tool (`topic`, `subjects`) to read it.",
        input_schema,
    }
}

/// The search index of a running server, opened on the first call.
#[derive(Debug, Default)]
pub struct SearchService {
    searcher: Mutex<Option<Searcher>>,
    /// Search by meaning too, once the embeddings are built.
    #[cfg(feature = "semantic")]
    meaning: crate::search::background::Meaning,
}

impl SearchService {
    /// A call of the tool.
    pub fn call(&self, kb: &KnowledgeBase, arguments: Option<&Map<String, Value>>) -> Outcome {
        let (query, topic, limit) = match parse_arguments(arguments) {
            Ok(parsed) => parsed,
            Err(message) => return Outcome::Error(message),
        };
        let request = SearchRequest {
            query: &query,
            topic: topic.as_deref(),
            limit,
            hidden: false,
        };
        // A panic in another call cannot leave the index half-updated in a
        // way that matters: refresh replaces it whole.
        let mut guard = match self.searcher.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        let searcher = guard.get_or_insert_with(|| Searcher::open(kb.root()));
        #[cfg(feature = "semantic")]
        let (result, footnote) = {
            use crate::search::background::Ready;
            let mut ready = self.meaning.ready(kb);
            let footnote = match &ready {
                Ready::Building(note) => Some(note.clone()),
                _ => None,
            };
            let result = match ready.semantic() {
                Some(semantic) => searcher.search_in_mode(
                    kb,
                    &request,
                    Some(semantic),
                    crate::search::Mode::Hybrid,
                    &mut |_, _| {},
                ),
                None => searcher.search(kb, &request),
            };
            for note in self.meaning.take_notes() {
                eprintln!("jp-kb mcp: {note}");
            }
            (result, footnote)
        };
        #[cfg(not(feature = "semantic"))]
        let (result, footnote) = (searcher.search(kb, &request), None::<String>);
        match result {
            Ok(outcome) => {
                for note in &outcome.notes {
                    eprintln!("jp-kb mcp: {note}");
                }
                let mut text = render_hits(&query, &outcome.hits);
                if let Some(note) = footnote {
                    text.push_str("\n\n");
                    text.push_str(&note);
                }
                Outcome::Success(text)
            }
            Err(e) => Outcome::Error(format!("Cannot search: {e}.")),
        }
    }
}

/// `query`, `topic` and `limit`, checked against the schema.
fn parse_arguments(
    arguments: Option<&Map<String, Value>>,
) -> Result<(String, Option<String>, usize), String> {
    let empty = Map::new();
    let arguments = arguments.unwrap_or(&empty);
    if let Some(key) = arguments
        .keys()
        .find(|k| !matches!(k.as_str(), "query" | "topic" | "limit"))
    {
        let shown: String = key.chars().take(64).collect();
        return Err(format!("Unknown argument `{shown}`: {USAGE}."));
    }
    let query = match arguments.get("query") {
        Some(Value::String(q)) => q.clone(),
        Some(_) => return Err(format!("`query` must be a string: {USAGE}.")),
        None => return Err(format!("Missing argument `query`: {USAGE}.")),
    };
    let topic = match arguments.get("topic") {
        None | Some(Value::Null) => None,
        Some(Value::String(t)) if t.len() > MAX_TOPIC_BYTES => {
            return Err(format!(
                "`topic` is {} bytes long; at most {MAX_TOPIC_BYTES} are accepted.",
                t.len()
            ));
        }
        Some(Value::String(t)) => Some(t.clone()),
        Some(_) => return Err(format!("`topic` must be a string: {USAGE}.")),
    };
    let limit = match arguments.get("limit") {
        None | Some(Value::Null) => DEFAULT_LIMIT,
        Some(Value::Number(n)) => match n.as_u64() {
            Some(n @ 1..=50) => usize::try_from(n).unwrap_or(MAX_LIMIT),
            _ => return Err(format!("`limit` must be an integer from 1 to {MAX_LIMIT}.")),
        },
        Some(_) => return Err(format!("`limit` must be an integer from 1 to {MAX_LIMIT}.")),
    };
    Ok((query, topic, limit))
}

/// The text of a call's result.
pub fn render_hits(query: &str, hits: &[Hit]) -> String {
    let shown: String = query.chars().take(200).collect();
    if hits.is_empty() {
        return format!("No subject matches \"{shown}\".");
    }
    let mut out = format!(
        "Subjects matching \"{shown}\", best first. To read one, call `learn` with its topic and the subject's slug in `subjects`.\n"
    );
    for (i, hit) in hits.iter().enumerate() {
        let size = hit
            .tokens
            .map_or_else(|| "content not shown".to_owned(), |t| format!("{t} tokens"));
        let learned = if hit.learned {
            ", already in your system prompt"
        } else {
            ""
        };
        let _ = write!(
            out,
            "\n{}. topic \"{}\", subject \"{}\" ({size}{learned})\n   {}",
            i + 1,
            hit.topic,
            hit.slug,
            hit.snippet.marked()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: Value) -> Map<String, Value> {
        let Value::Object(m) = v else { panic!() };
        m
    }

    #[test]
    fn arguments_are_checked() {
        assert_eq!(
            parse_arguments(Some(&args(json!({"query": "tar"})))).unwrap(),
            ("tar".into(), None, DEFAULT_LIMIT)
        );
        assert_eq!(
            parse_arguments(Some(&args(
                json!({"query": "tar", "topic": "t", "limit": 3})
            )))
            .unwrap(),
            ("tar".into(), Some("t".into()), 3)
        );
        for bad in [
            json!({}),
            json!({"query": 1}),
            json!({"query": "x", "limit": 0}),
            json!({"query": "x", "limit": 51}),
            json!({"query": "x", "limit": "3"}),
            json!({"query": "x", "topic": ["a"]}),
            json!({"query": "x", "subjects": "a"}),
            json!({"query": "x", "topic": "t".repeat(MAX_TOPIC_BYTES + 1)}),
        ] {
            assert!(parse_arguments(Some(&args(bad.clone()))).is_err(), "{bad}");
        }
        assert!(parse_arguments(None).is_err());
    }

    #[test]
    fn schema_requires_query() {
        let tool = search_tool();
        assert_eq!(tool.input_schema["required"], json!(["query"]));
        assert_eq!(tool.name, "search");
    }
}
