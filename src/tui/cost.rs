//! The cost line: token counts from the TUI's cache as the planner's
//! [`TokenSource`], and the subject preview's header line. Reads no file:
//! the counts are those the driver already cached for the rows on
//! screen and the section's count of the last rendered prompt.

use super::model::{Cache, Model};
use jp_kb_core::check::Thresholds;
use jp_kb_core::edit::plan::{TokenChange, TokenSource};
use jp_kb_core::topic::TopicState;

/// The budget the cost lines and confirmations use: `check`'s default.
pub const BUDGET: usize = Thresholds::DEFAULT_MAX_PROMPT_TOKENS;

/// Token counts as far as the TUI knows them.
pub struct Cached<'a> {
    pub model: &'a Model,
    pub cache: &'a Cache,
}

impl TokenSource for Cached<'_> {
    fn section(&self) -> Option<usize> {
        // An absent section is 0 tokens; one still rendering is unknown.
        self.model
            .prompt_ready
            .then(|| self.model.prompt_tokens.unwrap_or(0))
    }

    fn subject(&self, topic: &TopicState, index: usize) -> Option<usize> {
        let s = topic.resolution()?.subjects().get(index)?;
        self.cache.tokens_of(s)?.tokens
    }
}

/// What `l` on subject `index` of `topic` does to the prompt:
/// `l (learn): +312 tok → 5,312 tok, budget 20,000`. One subject enters or
/// leaves, so no resolution is needed; `None` for a disabled subject or
/// topic (`l` changes nothing the assistant sees there).
pub fn subject_line(tokens: &Cached<'_>, topic: &TopicState, index: usize) -> Option<String> {
    let res = topic.resolution()?;
    res.subjects().get(index)?;
    if res.is_disabled(index) || !topic.enabled() {
        return None;
    }
    let learned = res.is_learned(index);
    let n = tokens.subject(topic, index);
    let change = TokenChange {
        before: tokens.section(),
        delta: n.map_or(0, |n| {
            let n = i64::try_from(n).unwrap_or(i64::MAX);
            if learned { -n } else { n }
        }),
        uncounted: usize::from(n.is_none()),
    };
    let verb = if learned { "un-learn" } else { "learn" };
    Some(format!("l ({verb}): {}", change.line(BUDGET)))
}
