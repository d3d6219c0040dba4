//! What the assistant would be shown once a plan is carried out: the
//! `<knowledge>` section and the `learn` tool, rendered by the same
//! functions `jp-kb prompt` and `jp-kb schema` use, from the plan's texts
//! (nothing is written to compute it), and their sizes in tokens.

use crate::render::knowledge::{AvailableTopic, Piece, PreloadedTopic, knowledge_pieces};
use crate::render::tool::render_tool_definition;

use super::plan::{Plan, State};

/// The texts and their sizes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// The `<knowledge>` section, `None` when nothing is adopted.
    pub section: Option<String>,
    /// Its tokens (`o200k_base`).
    pub section_tokens: usize,
    /// Pre-loaded subjects and their tokens.
    pub preloaded: usize,
    /// Their tokens (`o200k_base`).
    pub preloaded_tokens: usize,
    /// The `learn` tool's definition, `None` when nothing is learnable.
    pub tool: Option<String>,
    /// Its tokens (`o200k_base`).
    pub tool_tokens: usize,
}

/// What the assistant would see under `plan`.
pub fn preview(plan: &Plan) -> Preview {
    let preloaded: Vec<PreloadedTopic<'_, (&str, &str)>> = plan
        .topics
        .iter()
        .map(|t| PreloadedTopic {
            name: t.title,
            description: t.description.as_deref(),
            subjects: plan
                .entries_in(t.kind, State::Learned)
                .map(|e| (e.slug.as_str(), e.shown.as_str()))
                .collect(),
        })
        .collect();
    let available: Vec<AvailableTopic<'_>> = plan
        .topics
        .iter()
        .filter(|t| plan.entries_in(t.kind, State::Learnable).next().is_some())
        .map(|t| AvailableTopic {
            id: t.id,
            title: Some(t.title),
            introduction: Some(t.introduction),
        })
        .collect();
    let section = knowledge_pieces(&preloaded, &available).map(|pieces| {
        let mut out = String::new();
        for piece in pieces {
            match piece {
                Piece::Text(text) => out.push_str(&text),
                Piece::Subject((slug, shown)) => {
                    crate::render::knowledge::push_subject(&mut out, slug, shown);
                }
            }
        }
        out
    });
    let learnable: Vec<(&str, Option<&str>)> = available.iter().map(|t| (t.id, t.title)).collect();
    let tool = (!learnable.is_empty()).then(|| render_tool_definition(&learnable));
    let count = |t: &Option<String>| {
        t.as_deref()
            .and_then(jp_kb_tokens::count_tokens)
            .unwrap_or(0)
    };
    let learned: Vec<_> = plan
        .entries
        .iter()
        .filter(|e| e.state == State::Learned)
        .collect();
    Preview {
        section_tokens: count(&section),
        section,
        preloaded: learned.len(),
        preloaded_tokens: learned.iter().map(|e| e.tokens).sum(),
        tool_tokens: count(&tool),
        tool,
    }
}
