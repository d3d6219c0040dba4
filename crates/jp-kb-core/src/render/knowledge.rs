//! The `<knowledge>` system-prompt section (contract §5.1).

use std::fmt::Write as _;

/// A topic with learned subjects, as shown in the pre-loaded block.
///
/// `S` is a pre-loaded subject: `(slug, formatted content)` for
/// the in-memory reference renderer of the tests, or a handle the caller reads later for
/// [`knowledge_pieces`] (so the section is never held whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreloadedTopic<'a, S = (&'a str, String)> {
    /// The title when set, else the id.
    pub name: &'a str,
    pub description: Option<&'a str>,
    /// In resolution order.
    pub subjects: Vec<S>,
}

/// One piece of the section: template text, or a pre-loaded subject,
/// which renders as `<subject "{slug}">\n{content}\n</subject>` (see
/// [`push_subject`]). Concatenated in order, the pieces are the section.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Piece<S> {
    Text(String),
    Subject(S),
}

/// A topic with at least one available subject, as listed in the menu.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AvailableTopic<'a> {
    pub id: &'a str,
    pub title: Option<&'a str>,
    pub introduction: Option<&'a str>,
}

pub const PRELOADED_HEADER: &str =
    "The following knowledge has been pre-loaded into your system prompt:";
pub const AVAILABLE_HEADER: &str = "The following knowledge topics are available to learn:";
pub const AVAILABLE_FOOTER: &str = "Use the `learn` tool to consume this knowledge.

(note: some topics may contain hidden subjects that are not listed via `learn`
by default, but can be loaded manually if you are made aware of their names via
other means, such as by reading non-hidden subjects first. This prevents
exposing too much irrelevant knowledge upfront)";

/// The topic menu alone: the AVAILABLE block inside `<knowledge>` tags
/// (`jp-kb mcp --instructions menu`), or `None` when no topic is
/// available. It is the section a knowledge base without pre-loaded
/// subjects has, so a client that shows it and the section of such a
/// knowledge base agree byte for byte.
pub fn render_menu(available: &[AvailableTopic<'_>]) -> Option<String> {
    if available.is_empty() {
        return None;
    }
    // With nothing pre-loaded the section is text pieces only.
    let pieces = knowledge_pieces::<()>(&[], available)?;
    Some(
        pieces
            .into_iter()
            .map(|p| match p {
                Piece::Text(text) => text,
                Piece::Subject(()) => String::new(),
            })
            .collect(),
    )
}

/// The section as pieces (template text between the pre-loaded subjects,
/// consecutive text merged), or `None` when there is nothing to show.
/// Every subject piece follows text ending in a newline.
pub fn knowledge_pieces<S: Clone>(
    preloaded: &[PreloadedTopic<'_, S>],
    available: &[AvailableTopic<'_>],
) -> Option<Vec<Piece<S>>> {
    let preloaded: Vec<_> = preloaded
        .iter()
        .filter(|t| !t.subjects.is_empty())
        .collect();
    if preloaded.is_empty() && available.is_empty() {
        return None;
    }
    let mut pieces = Vec::new();
    let mut out = String::from("<knowledge>\n");
    if !preloaded.is_empty() {
        out.push_str(PRELOADED_HEADER);
        out.push_str("\n\n");
        for (i, topic) in preloaded.iter().enumerate() {
            if i > 0 {
                out.push_str("\n\n");
            }
            let _ = write!(out, "<topic \"{}\">\n\n", topic.name);
            if let Some(description) = topic.description {
                out.push_str(description);
                out.push_str("\n\n");
            }
            for (j, subject) in topic.subjects.iter().enumerate() {
                if j > 0 {
                    out.push_str("\n\n");
                }
                pieces.push(Piece::Text(std::mem::take(&mut out)));
                pieces.push(Piece::Subject(subject.clone()));
            }
            out.push_str("\n</topic>");
        }
    }
    if !available.is_empty() {
        if !preloaded.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(AVAILABLE_HEADER);
        out.push_str("\n\n");
        for topic in available {
            out.push_str(&render_menu_line(topic));
            out.push('\n');
        }
        out.push('\n');
        out.push_str(AVAILABLE_FOOTER);
    }
    out.push_str("\n</knowledge>");
    pieces.push(Piece::Text(out));
    Some(pieces)
}

/// Appends `<subject "{slug}">\n{text}\n</subject>`.
pub fn push_subject(out: &mut String, slug: &str, text: &str) {
    out.push_str("<subject \"");
    out.push_str(slug);
    out.push_str("\">\n");
    out.push_str(text);
    out.push_str("\n</subject>");
}

/// `- {id}[ (**{title}**)][: {introduction}]`
pub fn render_menu_line(topic: &AvailableTopic<'_>) -> String {
    let mut line = format!("- {}", topic.id);
    if let Some(title) = topic.title {
        let _ = write!(line, " (**{title}**)");
    }
    if let Some(intro) = topic.introduction {
        let _ = write!(line, ": {intro}");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole section from in-memory subject texts: the reference the
    /// piece-wise renderers (`KnowledgeBase::knowledge_section`) are checked
    /// against.
    fn render_knowledge(
        preloaded: &[PreloadedTopic<'_>],
        available: &[AvailableTopic<'_>],
    ) -> Option<String> {
        let pieces = knowledge_pieces(preloaded, available)?;
        // One buffer, sized up front: pre-loaded content can be large.
        let size: usize = pieces
            .iter()
            .map(|p| match p {
                Piece::Text(text) => text.len(),
                Piece::Subject((slug, text)) => slug.len() + text.len() + 32,
            })
            .sum();
        let mut out = String::with_capacity(size);
        for piece in &pieces {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Subject((slug, text)) => push_subject(&mut out, slug, text),
            }
        }
        Some(out)
    }

    #[test]
    fn empty_is_absent() {
        assert_eq!(render_knowledge(&[], &[]), None);
    }

    #[test]
    fn rfd_first_example() {
        let text = render_knowledge(
            &[],
            &[
                AvailableTopic {
                    id: "project",
                    title: Some("General Project Knowledge"),
                    introduction: Some("foo bar baz..."),
                },
                AvailableTopic {
                    id: "skills",
                    title: Some("Learnable Assistant Skills"),
                    introduction: None,
                },
            ],
        );
        let expected = "<knowledge>
The following knowledge topics are available to learn:

- project (**General Project Knowledge**): foo bar baz...
- skills (**Learnable Assistant Skills**)

Use the `learn` tool to consume this knowledge.

(note: some topics may contain hidden subjects that are not listed via `learn`
by default, but can be loaded manually if you are made aware of their names via
other means, such as by reading non-hidden subjects first. This prevents
exposing too much irrelevant knowledge upfront)
</knowledge>";
        assert_eq!(text.as_deref(), Some(expected));
    }

    #[test]
    fn preloaded_only() {
        let text = render_knowledge(
            &[PreloadedTopic {
                name: "P",
                description: Some("D"),
                subjects: vec![("a", "A".into()), ("b", "B".into())],
            }],
            &[],
        );
        let expected = "<knowledge>
The following knowledge has been pre-loaded into your system prompt:

<topic \"P\">

D

<subject \"a\">
A
</subject>

<subject \"b\">
B
</subject>
</topic>
</knowledge>";
        assert_eq!(text.as_deref(), Some(expected));
    }
}
