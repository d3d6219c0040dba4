//! A topic as a program that merged its own configuration hands it in
//! ([`crate::KnowledgeBase::from_topics`]): JP's `kb.topic.<id>` after
//! JP's loader, the RFD's seven fields and nothing of where they came
//! from.

use crate::config::{KbConfig, Origin, Topic, Valued};

/// One topic of a merged `kb` configuration (the RFD's `TopicConfig`),
/// built with [`TopicConfig::new`] and its fields set after.
///
/// The fields are the values the caller's own loader settled on: layers,
/// `extends`, `--cfg` and `-k` already applied, `learned` and `disabled`
/// already combined across layers. Text fields are taken as written and
/// cleaned the way the loader of the core cleans them (trailing line
/// breaks removed; a blank value counts as unset), so a multi-line TOML
/// string reads the same through either door.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TopicConfig {
    /// The topic's id: its key under `kb.topic`.
    pub id: String,
    /// Whether the topic is offered at all (default `true`).
    pub enable: bool,
    /// The topic's name for the assistant, replacing the id where set.
    pub title: Option<String>,
    /// The one-line summary after the id in the `<knowledge>` section.
    pub introduction: Option<String>,
    /// The text that opens the topic's `learn` listing and its
    /// pre-loaded block.
    pub description: Option<String>,
    /// The directory of the topic's subjects, relative to the workspace
    /// root, `/`-separated, as written. An absolute path, or one leading
    /// out of the root, puts the topic in error (it is left out of the
    /// texts; the others still work).
    pub subjects: String,
    /// Patterns of subjects pre-loaded into the system prompt, in order
    /// (duplicates are harmless).
    pub learned: Vec<String>,
    /// Slugs (or globs) of subjects never shown, in order.
    pub disabled: Vec<String>,
}

impl TopicConfig {
    /// A topic with its required fields: enabled, no metadata, nothing
    /// learned or disabled.
    pub fn new(id: impl Into<String>, subjects: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            enable: true,
            title: None,
            introduction: None,
            description: None,
            subjects: subjects.into(),
            learned: Vec::new(),
            disabled: Vec::new(),
        }
    }

    /// The topic of the core's configuration model, every value's origin
    /// the host's configuration.
    fn into_topic(self) -> Topic {
        let host = |value: String| Valued::new(value, Origin::Host);
        let mut topic = Topic::new(self.id, Origin::Host);
        // `enable` is kept only when it says something: unset and `true`
        // mean the same, and an unset flag has no origin to report.
        topic.enable = (!self.enable).then(|| Valued::new(false, Origin::Host));
        topic.title = self.title.map(host);
        topic.introduction = self.introduction.map(host);
        topic.description = self.description.map(host);
        topic.subjects = Some(host(self.subjects));
        topic.learned = self.learned.into_iter().map(host).collect();
        topic.disabled = self.disabled.into_iter().map(host).collect();
        topic
    }
}

/// The core's configuration of `topics`, in order; a repeated id replaces
/// the earlier topic in its place (as a later layer would). Cleaned once,
/// as a loaded configuration is.
pub(crate) fn kb_config(topics: impl IntoIterator<Item = TopicConfig>) -> KbConfig {
    let mut config = KbConfig::default();
    for topic in topics {
        let topic = topic.into_topic();
        config.topics.insert(topic.id.clone(), topic);
    }
    crate::config::merge::normalise(&mut config);
    config
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_id_replaces_the_earlier_topic_in_its_place() {
        let mut second = TopicConfig::new("a", "late");
        second.title = Some("Late".into());
        let config = kb_config([
            TopicConfig::new("a", "early"),
            TopicConfig::new("b", "b"),
            second,
        ]);
        let ids: Vec<&str> = config.topics.keys().map(String::as_str).collect();
        assert_eq!(ids, ["a", "b"]);
        let a = &config.topics["a"];
        assert_eq!(a.subjects.as_ref().map(|s| s.value.as_str()), Some("late"));
        assert_eq!(a.title(), Some("Late"));
    }

    #[test]
    fn text_is_cleaned_as_the_loader_cleans_it() {
        let mut topic = TopicConfig::new("a", "a");
        topic.title = Some("Title\n".into());
        topic.introduction = Some("  \n".into());
        topic.description = Some("Line one.\nLine two.\r\n".into());
        let config = kb_config([topic]);
        let a = &config.topics["a"];
        assert_eq!(a.title(), Some("Title"));
        assert_eq!(a.introduction(), None);
        assert_eq!(a.description(), Some("Line one.\nLine two."));
    }

    #[test]
    fn enable_true_is_the_default_and_false_is_kept() {
        let mut off = TopicConfig::new("off", "x");
        off.enable = false;
        let config = kb_config([TopicConfig::new("on", "x"), off]);
        assert!(config.topics["on"].enable.is_none());
        assert!(config.topics["on"].enabled());
        assert!(!config.topics["off"].enabled());
    }
}
