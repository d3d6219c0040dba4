//! The knowledge base of one workspace: the effective configuration plus
//! every topic's subjects, and the three texts the assistant sees.

use std::path::{Path, PathBuf};
#[cfg(feature = "config")]
use std::sync::Arc;

#[cfg(feature = "config")]
use crate::config::{ConfigError, Environment, LoadOptions, load};
use crate::config::{ConfigWarning, LoadedConfig};
use crate::content::{Root, read_formatted};
use crate::learn::{Outcome, execute_resolved};
use crate::learn_arguments::parse_learn_arguments;
use crate::render::knowledge::push_subject;
use crate::render::{
    AvailableTopic, Piece, PreloadedTopic, knowledge_pieces, render_tool_definition,
    tool_description,
};
use crate::subjects::Subject;
#[cfg(feature = "config")]
use crate::subjects::{WalkCache, WatchedWalks};
use crate::topic::{TopicState, WalkSource};
use crate::topic_config::{TopicConfig, kb_config};

/// A pre-loaded subject of the `<knowledge>` section, by position: the
/// topic's index in [`KnowledgeBase::topics`] and the subject's in its
/// resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SubjectAt {
    /// The topic's index in [`KnowledgeBase::topics`].
    pub topic: usize,
    /// The subject's index in its topic's resolution.
    pub subject: usize,
}

/// No enabled topic answers to a name (contract §5.4). Its `Display` is
/// the exact text the `learn` tool answers with.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownTopic {
    /// The name asked for.
    pub name: String,
    /// The enabled topics: id and title.
    pub valid: Vec<(String, Option<String>)>,
}

impl std::fmt::Display for UnknownTopic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Unknown topic \"{}\". Valid topics:", self.name)?;
        for (id, title) in &self.valid {
            write!(f, "\n- {id}")?;
            if let Some(title) = title {
                write!(f, " ({title})")?;
            }
        }
        if self.valid.is_empty() {
            f.write_str("\n(none: no topic is enabled)")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownTopic {}

/// A knowledge base: a workspace's effective configuration and its
/// topics. Built from a configuration the caller merged
/// ([`KnowledgeBase::from_topics`]: JP's own `kb` tables) or, with the
/// feature `config`, by reading the workspace's files
/// ([`KnowledgeBase::load`]). Its texts are computed on demand, from the
/// files as they are when asked.
#[derive(Debug)]
#[non_exhaustive]
pub struct KnowledgeBase {
    // Behind the façade (the binary's): the configuration model and the
    // topics' states are not a stable API.
    #[doc(hidden)]
    pub loaded: LoadedConfig,
    #[doc(hidden)]
    pub topics: Vec<TopicState>,
}

impl KnowledgeBase {
    /// The knowledge base of the workspace at `root` whose `kb`
    /// configuration the caller merged itself: `topics` in configuration
    /// order (JP's `kb.topic` table after JP's loader). Each topic's
    /// `subjects` is relative to `root`; every subject is read inside it.
    ///
    /// Nothing is read here: topic directories are walked when a text is
    /// first asked for. `root` is made canonical when it can be; a root
    /// that does not exist leaves every topic in error ("does not exist"),
    /// never an error here.
    pub fn from_topics(
        root: impl AsRef<Path>,
        topics: impl IntoIterator<Item = TopicConfig>,
    ) -> Self {
        let root = root.as_ref();
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        Self::from_config(LoadedConfig::merged_by_host(root, kb_config(topics)))
    }

    /// Loads the workspace's configuration and prepares its topics (their
    /// directories are walked lazily).
    #[cfg(feature = "config")]
    pub fn load(env: &Environment, options: &LoadOptions) -> Result<Self, ConfigError> {
        Ok(Self::from_config(load(env, options)?))
    }

    #[doc(hidden)]
    pub fn from_config(loaded: LoadedConfig) -> Self {
        Self::from_config_with(loaded, &WalkSource::Fresh)
    }

    /// Like [`KnowledgeBase::load`], with topic directories walked through
    /// `walks`: a long-running process reloads every time and still only
    /// re-walks the directories that changed.
    #[doc(hidden)]
    #[cfg(feature = "config")]
    pub fn load_with(
        env: &Environment,
        options: &LoadOptions,
        walks: &Arc<WalkCache>,
    ) -> Result<Self, ConfigError> {
        Ok(Self::from_config_with(
            load(env, options)?,
            &WalkSource::Cached(Arc::clone(walks)),
        ))
    }

    /// Like [`KnowledgeBase::load`], with walks and resolutions kept in
    /// `walks` until its owner reports a change: for a process that
    /// watches the topic directories (the TUI).
    #[doc(hidden)]
    #[cfg(feature = "config")]
    pub fn load_watched(
        env: &Environment,
        options: &LoadOptions,
        walks: &Arc<WatchedWalks>,
    ) -> Result<Self, ConfigError> {
        Ok(Self::from_config_with(
            load(env, options)?,
            &WalkSource::Watched(Arc::clone(walks)),
        ))
    }

    fn from_config_with(loaded: LoadedConfig, walks: &WalkSource) -> Self {
        let topics = loaded
            .kb
            .topics
            .values()
            .map(|t| TopicState::with_source(t.clone(), &loaded.root, walks.clone()))
            .collect();
        Self { loaded, topics }
    }

    /// Resolves every topic now (walks its directory, once): what the
    /// planner is given, so that it never walks itself. Outer directories
    /// first: a topic whose directory lies under another's can then take
    /// its walk from that one (with [`KnowledgeBase::load_watched`]).
    pub fn resolve_all(&self) {
        let mut topics: Vec<&TopicState> = self.topics.iter().collect();
        // By path, component by component: a directory before those under
        // it; stable, so otherwise in configuration order.
        topics.sort_by(|a, b| match (&a.dir, &b.dir) {
            (Ok(a), Ok(b)) => a.cmp(b),
            (a, b) => b.is_ok().cmp(&a.is_ok()),
        });
        for topic in topics {
            let _ = topic.resolution();
        }
    }

    /// The workspace's root directory (canonical).
    pub fn root(&self) -> &Path {
        &self.loaded.root
    }

    /// Where jp-kb may write for this workspace: inside its root and the
    /// person's own JP directories, nowhere else ([`crate::edit::place`]).
    #[cfg(feature = "config")]
    pub fn boundaries(&self) -> crate::edit::Boundaries {
        crate::edit::Boundaries::of_config(&self.loaded)
    }

    /// What loading the configuration warned about (unknown keys, …).
    pub fn warnings(&self) -> &[ConfigWarning] {
        &self.loaded.warnings
    }

    #[doc(hidden)]
    pub fn topic(&self, id: &str) -> Option<&TopicState> {
        self.topics.iter().find(|t| t.id() == id)
    }

    /// Enabled topics, in configuration order.
    #[doc(hidden)]
    pub fn enabled_topics(&self) -> impl Iterator<Item = &TopicState> + Clone {
        self.topics.iter().filter(|t| t.enabled())
    }

    /// Finds a topic the way the `learn` tool does: exact id, then
    /// case-insensitive title, among enabled topics (contract §5.4).
    #[doc(hidden)]
    pub fn resolve_topic(&self, name: &str) -> Result<&TopicState, UnknownTopic> {
        topic_named(self.enabled_topics(), name).ok_or_else(|| UnknownTopic {
            name: name.to_owned(),
            valid: self
                .enabled_topics()
                .map(|t| (t.id().to_owned(), t.config.title().map(str::to_owned)))
                .collect(),
        })
    }

    /// The `learn` tool's answer to `learn(topic[, subjects])`: without
    /// `subjects` the topic's listing, with them the loaded subjects;
    /// [`Outcome::Error`] with the exact text the tool answers otherwise.
    pub fn learn(&self, topic: &str, subjects: Option<&[String]>) -> Outcome {
        let state = match self.resolve_topic(topic) {
            Ok(state) => state,
            Err(unknown) => return Outcome::Error(unknown.to_string()),
        };
        let Some(resolution) = state.resolution() else {
            let why = state
                .dir
                .as_ref()
                .err()
                .map_or_else(String::new, ToString::to_string);
            return Outcome::Error(format!("Topic \"{}\" cannot be read: {why}", state.id()));
        };
        execute_resolved(
            self.root(),
            resolution,
            state.id(),
            state.config.name(),
            state.config.description(),
            subjects,
        )
    }

    /// The `learn` tool's answer to a call, its arguments as the assistant
    /// sent them (a JSON object: `topic`, optionally `subjects` as a
    /// string, an array of strings or null). Arguments the tool's schema
    /// refuses are an [`Outcome::Error`] saying what it takes; otherwise
    /// [`KnowledgeBase::learn`].
    pub fn call_learn(
        &self,
        arguments: Option<&serde_json::Map<String, serde_json::Value>>,
    ) -> Outcome {
        match parse_learn_arguments(arguments) {
            Ok((topic, patterns)) => self.learn(&topic, patterns.as_deref()),
            Err(why) => Outcome::Error(why.to_string()),
        }
    }

    /// The `<knowledge>` section, or `None` when it is absent. Holds one
    /// pre-loaded subject's text at a time besides the section itself.
    pub fn knowledge_section(&self) -> Option<String> {
        let pieces = self.knowledge_pieces()?;
        let size: usize = pieces
            .iter()
            .map(|p| match p {
                Piece::Text(text) => text.len(),
                // Never more than a subject can inline, whatever the walk
                // says (a sparse 1 GiB file must not reserve 1 GiB).
                Piece::Subject(at) => self.subject_at(*at).map_or(0, |s| {
                    let bytes = s.bytes.min(crate::content::MAX_SUBJECT_BYTES);
                    s.slug().len() + usize::try_from(bytes).unwrap_or(0) + 64
                }),
            })
            .sum();
        let mut out = String::with_capacity(size);
        let root = Root::new(self.root());
        for piece in &pieces {
            self.push_piece_in(&root, piece, &mut out);
        }
        Some(out)
    }

    /// Appends a piece of the section to `out`: template text as it is, a
    /// pre-loaded subject as `<subject "{slug}">\n{content}\n</subject>`
    /// (reads the file). Every renderer of the section goes through here.
    #[doc(hidden)]
    pub fn push_piece(&self, piece: &Piece<SubjectAt>, out: &mut String) {
        self.push_piece_in(&Root::new(self.root()), piece, out);
    }

    /// [`KnowledgeBase::push_piece`] reading through `root`, a handle on
    /// this knowledge base's root kept across the pieces of a batch.
    #[doc(hidden)]
    pub fn push_piece_in(&self, root: &Root<'_>, piece: &Piece<SubjectAt>, out: &mut String) {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Subject(at) => {
                if let Some(s) = self.subject_at(*at) {
                    let text = read_formatted(root, s.slug(), s.extension(), s.path());
                    push_subject(out, s.slug(), &text);
                }
            }
        }
    }

    /// The `<knowledge>` section as pieces, its pre-loaded subjects named
    /// by position rather than read: what a caller that must not hold the
    /// whole section (the TUI) renders from. `None` when it is absent.
    #[doc(hidden)]
    pub fn knowledge_pieces(&self) -> Option<Vec<Piece<SubjectAt>>> {
        let mut preloaded = Vec::new();
        let mut available = Vec::new();
        for (topic, state) in self.topics.iter().enumerate() {
            if !state.enabled() {
                continue;
            }
            let Some(resolution) = state.resolution() else {
                continue;
            };
            if !resolution.learned_order.is_empty() {
                preloaded.push(PreloadedTopic {
                    name: state.config.name(),
                    description: state.config.description(),
                    subjects: resolution
                        .learned_order
                        .iter()
                        .map(|&subject| SubjectAt { topic, subject })
                        .collect(),
                });
            }
            if resolution.has_available() {
                available.push(AvailableTopic {
                    id: state.id(),
                    title: state.config.title(),
                    introduction: state.config.introduction(),
                });
            }
        }
        knowledge_pieces(&preloaded, &available)
    }

    /// The subject a [`SubjectAt`] names.
    #[doc(hidden)]
    pub fn subject_at(&self, at: SubjectAt) -> Option<&Subject> {
        self.topics
            .get(at.topic)?
            .resolution()?
            .subjects()
            .get(at.subject)
    }

    /// Topics the `learn` tool description lists: `(id, title)`.
    #[doc(hidden)]
    pub fn learnable_topics(&self) -> Vec<(&str, Option<&str>)> {
        self.topics
            .iter()
            .filter(|t| t.is_learnable())
            .map(|t| (t.id(), t.config.title()))
            .collect()
    }

    /// The `learn` tool's description (the definition's `description`):
    /// its summary and the learnable topics; `None` when no topic has an
    /// available subject (the tool is not registered). Its parameters never
    /// change: [`crate::learn_tool_parameters`].
    pub fn tool_description(&self) -> Option<String> {
        let topics = self.learnable_topics();
        (!topics.is_empty()).then(|| tool_description(&topics))
    }

    /// The tool definition JSON, or `None` when no topic has an available
    /// subject (the tool is not registered).
    pub fn tool_definition(&self) -> Option<String> {
        let topics = self.learnable_topics();
        if topics.is_empty() {
            return None;
        }
        Some(render_tool_definition(&topics))
    }

    /// A path shown relative to the workspace root when inside it.
    pub fn display_path(&self, path: &Path) -> PathBuf {
        path.strip_prefix(self.root())
            .map_or_else(|_| path.to_path_buf(), Path::to_path_buf)
    }
}
/// The topic `name` names among `topics`: the one whose id is `name`,
/// else the first whose title equals it ignoring case (contract §5.4).
/// The one home of this lookup: `learn` asks it among enabled topics,
/// `list` among all.
pub fn topic_named<'a, I>(topics: I, name: &str) -> Option<&'a TopicState>
where
    I: IntoIterator<Item = &'a TopicState>,
    I::IntoIter: Clone,
{
    let topics = topics.into_iter();
    if let Some(t) = topics.clone().find(|t| t.id() == name) {
        return Some(t);
    }
    let lower = name.to_lowercase();
    topics
        .into_iter()
        .find(|t| t.config.title().is_some_and(|x| x.to_lowercase() == lower))
}
