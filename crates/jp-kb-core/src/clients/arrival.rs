//! What a client's model receives of jp-kb's texts, channel by channel:
//! the text jp-kb sends through each route the client's configuration
//! sets up, as the client delivers it (whole, dropped, cut and marked),
//! and which parts of the `<knowledge>` section and the tool's topic list
//! reach the model through no channel at all.

use std::borrow::Cow;
use std::ops::Range;

use crate::KnowledgeBase;
use crate::content::Root;
use crate::mcp::{self, InstructionsMode};
use crate::render::Piece;
use crate::render::knowledge::{AVAILABLE_FOOTER, AvailableTopic, render_menu_line};

use super::profile::{Channel, Delivery, Profile};
use super::setup::Setup;

/// One channel's text as it reaches the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrival {
    /// The channel it arrives through.
    pub channel: Channel,
    /// Exactly what arrives (empty when nothing does), including the
    /// client's cut marker.
    pub text: String,
    /// Whether the client cut or dropped what jp-kb sent.
    pub cut: bool,
    /// A line for a person: how it arrives, and why.
    pub note: String,
}

/// The `<knowledge>` section rendered once, and where each pre-loaded
/// subject lies in it: what the channels carry and what they lose are
/// read from this one render (a large section is tens of megabytes read
/// from thousands of files, and was rendered up to three times for one
/// client's view).
#[derive(Debug, Clone, Default)]
pub struct Section {
    /// The section (`None`: absent).
    text: Option<String>,
    /// Each pre-loaded subject's name and its bytes in `text`.
    subjects: Vec<(String, Range<usize>)>,
}

impl Section {
    /// Renders `kb`'s section, reading each pre-loaded subject once.
    pub fn render(kb: &KnowledgeBase) -> Self {
        let Some(pieces) = kb.knowledge_pieces() else {
            return Self::default();
        };
        let root = Root::new(kb.root());
        let mut text = String::new();
        let mut subjects = Vec::new();
        for piece in &pieces {
            let start = text.len();
            kb.push_piece_in(&root, piece, &mut text);
            if let Piece::Subject(at) = piece
                && let Some(subject) = kb.subject_at(*at)
            {
                let topic = kb.topics.get(at.topic).map_or("", |t| t.id());
                subjects.push((
                    format!("pre-loaded subject {topic}/{}", subject.slug()),
                    start..text.len(),
                ));
            }
        }
        Self {
            text: Some(text),
            subjects,
        }
    }

    /// The section's text (`None`: absent).
    pub fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }
}

/// Every channel carrying jp-kb text for this client and setup, in
/// [`Channel::ALL`] order.
pub fn arrivals(kb: &KnowledgeBase, profile: &Profile, setup: &Setup) -> Vec<Arrival> {
    arrivals_of(kb, profile, setup, &Section::render(kb))
}

/// [`arrivals`], with the section rendered already.
pub fn arrivals_of(
    kb: &KnowledgeBase,
    profile: &Profile,
    setup: &Setup,
    section: &Section,
) -> Vec<Arrival> {
    if profile.id == super::connect::Client::JP.name() && kb.loaded.jp.reads_kb() {
        return inside_jp(kb, section);
    }
    let mut out = Vec::new();
    for facts in &profile.channels {
        let arrival = match facts.channel {
            Channel::SystemPromptSection => setup
                .sections
                .iter()
                .map(|text| {
                    whole(
                        facts.channel,
                        text,
                        "arrives whole, as its own system message",
                    )
                })
                .collect(),
            Channel::ProjectMemory => setup
                .memory
                .iter()
                .map(|text| memory(facts.strips_front_matter, text))
                .collect(),
            Channel::McpInstructions => {
                mcp_instructions(kb, profile, setup, &facts.delivery, section)
            }
            Channel::ToolDescription => tool_description(kb, profile, setup, &facts.delivery),
        };
        out.extend(arrival);
    }
    out
}

/// What a JP with the knowledge base inside sends, whatever the setup
/// files say: the section it builds at each query from its own `kb`
/// tables, as its own system message, and its built-in `learn` with the
/// description whole (`tests/it/jp_inside_found.rs` checks both against that JP).
fn inside_jp(kb: &KnowledgeBase, section: &Section) -> Vec<Arrival> {
    let mut out = Vec::new();
    if let Some(text) = section.text() {
        out.push(whole(
            Channel::SystemPromptSection,
            text,
            "built by JP at each query, arrives whole, as its own system message",
        ));
    }
    if let Some(tool) = mcp::learn_tool(kb) {
        out.push(whole(
            Channel::ToolDescription,
            &tool.description,
            "JP's built-in `learn`: its description arrives whole",
        ));
    }
    out
}

fn whole(channel: Channel, text: &str, note: &str) -> Arrival {
    Arrival {
        channel,
        text: text.to_owned(),
        cut: false,
        note: note.to_owned(),
    }
}

fn memory(strips_front_matter: bool, text: &str) -> Arrival {
    let body = text
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n"))
        .map(|(_, body)| body)
        .filter(|_| strips_front_matter);
    match body {
        Some(body) => Arrival {
            channel: Channel::ProjectMemory,
            text: body.to_owned(),
            cut: true,
            note: "its leading `---` block is taken as front-matter and stripped".to_owned(),
        },
        None => whole(
            Channel::ProjectMemory,
            text,
            "arrives whole, in the first user message, from the next session on",
        ),
    }
}

fn mcp_instructions(
    kb: &KnowledgeBase,
    profile: &Profile,
    setup: &Setup,
    delivery: &Delivery,
    section: &Section,
) -> Vec<Arrival> {
    let Some(server) = &setup.server else {
        return Vec::new();
    };
    let Ok(mode) = server.mode else {
        return Vec::new();
    };
    // `Full` sends the section (`mcp::instructions`): the render made.
    let sent = match mode {
        InstructionsMode::Full => section.text.clone(),
        _ => mcp::instructions(kb, mode),
    };
    let Some(sent) = sent else {
        return Vec::new();
    };
    let what = match mode {
        InstructionsMode::Menu => " (`--instructions menu`: the topic menu)",
        _ => "",
    };
    vec![deliver(
        Channel::McpInstructions,
        &sent,
        delivery,
        profile,
        what,
    )]
}

fn tool_description(
    kb: &KnowledgeBase,
    profile: &Profile,
    setup: &Setup,
    delivery: &Delivery,
) -> Vec<Arrival> {
    if setup.server.as_ref().is_none_or(|s| s.mode.is_err()) {
        return Vec::new();
    }
    let Some(tool) = mcp::learn_tool(kb) else {
        return Vec::new();
    };
    if let Some(summary) = &setup.summary {
        return vec![Arrival {
            channel: Channel::ToolDescription,
            text: summary.clone(),
            cut: false,
            note: format!(
                "{} sends the configured `summary` instead of the description",
                profile.name
            ),
        }];
    }
    vec![deliver(
        Channel::ToolDescription,
        &tool.description,
        delivery,
        profile,
        "",
    )]
}

/// `sent` as the client delivers it.
fn deliver(
    channel: Channel,
    sent: &str,
    delivery: &Delivery,
    profile: &Profile,
    what: &str,
) -> Arrival {
    let (text, note) = match delivery {
        Delivery::Whole => (sent.to_owned(), format!("arrives whole{what}")),
        Delivery::Dropped => (
            String::new(),
            format!("{} drops it{what}: nothing arrives", profile.name),
        ),
        Delivery::Truncated { max, unit, marker } => {
            let total = unit.count(sent);
            if total <= *max {
                (
                    sent.to_owned(),
                    format!("arrives whole{what} ({total} of at most {max} {unit})"),
                )
            } else {
                let kept = unit.cut(sent, *max);
                let split = if kept.split_pair {
                    " (the last character's first UTF-16 half arrives alone, shown as U+FFFD)"
                } else {
                    ""
                };
                (
                    format!("{}{marker}", kept.text),
                    format!(
                        "{} cuts it{what} to its first {max} of {total} {unit}, marked `{marker}`{split}",
                        profile.name
                    ),
                )
            }
        }
        Delivery::FirstSentence => {
            let first = first_sentence(sent);
            let total = sent.chars().count();
            (
                first.to_owned(),
                format!(
                    "{} sends only the first sentence ({} of {total} characters)",
                    profile.name,
                    first.chars().count()
                ),
            )
        }
    };
    Arrival {
        channel,
        cut: text != sent,
        text,
        note,
    }
}

/// Up to and including the first `.`, `!` or `?` followed by white space
/// or the end; the whole text when there is none.
pub fn first_sentence(text: &str) -> &str {
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if matches!(b, b'.' | b'!' | b'?') && bytes.get(i + 1).is_none_or(u8::is_ascii_whitespace) {
            return &text[..=i];
        }
    }
    text
}

/// A part of jp-kb's text that reaches the model through no channel whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loss {
    /// Where it should have arrived.
    pub channel: Channel,
    /// What is lost, for a person: "pre-loaded subject project/a", "topic
    /// `skills` in the topic menu", "the note on hidden subjects".
    pub lost: Vec<String>,
}

/// What of the `<knowledge>` section arrives through no channel, and which
/// learnable topics the tool description the client sends leaves out.
pub fn losses(kb: &KnowledgeBase, arrivals: &[Arrival]) -> Vec<Loss> {
    losses_of(kb, arrivals, &Section::render(kb))
}

/// [`losses`], with the section rendered already.
pub fn losses_of(kb: &KnowledgeBase, arrivals: &[Arrival], section: &Section) -> Vec<Loss> {
    let mut out = Vec::new();
    let carriers: Vec<&Arrival> = arrivals
        .iter()
        .filter(|a| a.channel != Channel::ToolDescription)
        .collect();
    // The usual case, a channel carrying the whole section, needs no
    // search part by part (a large section has thousands of parts).
    let whole = section
        .text()
        .is_none_or(|text| carriers.iter().any(|a| a.text.contains(text)));
    let parts = if whole {
        Vec::new()
    } else {
        section_parts(kb, section)
    };
    // A part longer than a channel's text cannot be in it: most of a
    // large section's parts, against a channel cut to a few kilobytes.
    let mut lost: Vec<String> = parts
        .into_iter()
        .filter(|(_, text)| {
            !carriers
                .iter()
                .any(|a| a.text.len() >= text.len() && a.text.contains(&**text))
        })
        .map(|(name, _)| name)
        .collect();
    if lost.is_empty() && !whole && carriers.iter().any(|a| a.cut) {
        // Every named part arrives, yet the section does not: the cut fell
        // after the last one (a section one unit too long loses its
        // closing tag). Still a loss, never "no problems".
        lost.push("the end of the section (its closing `</knowledge>` tag)".to_owned());
    }
    if !lost.is_empty() {
        let channel = carriers
            .iter()
            .find(|a| a.cut)
            .map_or(Channel::McpInstructions, |a| a.channel);
        out.push(Loss { channel, lost });
    }
    for arrival in arrivals
        .iter()
        .filter(|a| a.channel == Channel::ToolDescription)
    {
        let lost: Vec<String> = kb
            .learnable_topics()
            .into_iter()
            .filter(|(id, _)| !arrival.text.lines().any(|l| topic_line(l, id)))
            .map(|(id, _)| format!("topic `{id}` in the tool's topic list"))
            .collect();
        if !lost.is_empty() && arrival.cut {
            out.push(Loss {
                channel: Channel::ToolDescription,
                lost,
            });
        }
    }
    out
}

fn topic_line(line: &str, id: &str) -> bool {
    line.strip_prefix("- ")
        .and_then(|rest| rest.strip_prefix(id))
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(" ("))
}

/// The parts of the section, each named and as it appears in it: every
/// pre-loaded subject (cut from the one render), every menu line, and the
/// hidden-subject note.
/// The subjects' parts are borrowed from the render (tens of megabytes).
fn section_parts<'a>(kb: &KnowledgeBase, section: &'a Section) -> Vec<(String, Cow<'a, str>)> {
    let text = section.text().unwrap_or_default();
    let mut parts: Vec<(String, Cow<'a, str>)> = section
        .subjects
        .iter()
        .map(|(name, range)| {
            (
                name.clone(),
                Cow::Borrowed(text.get(range.clone()).unwrap_or_default()),
            )
        })
        .collect();
    let mut menu = false;
    for state in kb.enabled_topics() {
        if !state
            .resolution()
            .is_some_and(crate::subjects::Resolution::has_available)
        {
            continue;
        }
        menu = true;
        let line = render_menu_line(&AvailableTopic {
            id: state.id(),
            title: state.config.title(),
            introduction: state.config.introduction(),
        });
        parts.push((
            format!("topic `{}` in the topic menu", state.id()),
            Cow::Owned(format!("{line}\n")),
        ));
    }
    if menu {
        parts.push((
            "the note on hidden subjects".to_owned(),
            Cow::Borrowed(AVAILABLE_FOOTER),
        ));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clients::cut::Unit;
    use crate::clients::profile::profile;

    #[test]
    fn first_sentence_ends_at_a_stop_before_white_space() {
        assert_eq!(
            first_sentence("Learn about knowledge base topics and subjects.\n\nTopics:\n- a"),
            "Learn about knowledge base topics and subjects."
        );
        assert_eq!(first_sentence("v1.2 is out. Next"), "v1.2 is out.");
        assert_eq!(first_sentence("no stop"), "no stop");
    }

    #[test]
    fn truncation_counts_characters_and_appends_the_marker() {
        let Ok(claude) = profile("claude-code") else {
            panic!("claude-code profile")
        };
        let delivery = Delivery::Truncated {
            max: 3,
            unit: Unit::Chars,
            marker: "… [truncated]".into(),
        };
        let cut = deliver(Channel::McpInstructions, "éàü!x", &delivery, &claude, "");
        assert_eq!(cut.text, "éàü… [truncated]");
        assert!(cut.cut);
        let whole = deliver(Channel::McpInstructions, "éàü", &delivery, &claude, "");
        assert_eq!(whole.text, "éàü");
        assert!(!whole.cut);
    }
}
