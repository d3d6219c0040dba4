//! The `kb` configuration: one layer's partial view and the merged result.

use std::path::PathBuf;

use indexmap::IndexMap;

use super::field::TopicField;
use super::origin::{Origin, Valued};

/// How an array of one layer combines with what lower layers gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    Append,
    Prepend,
    Replace,
}

/// An array value of one layer (`learned = [...]` or the table form
/// `{ value = [...], strategy = "...", dedup = true }`).
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayPatch {
    pub items: Vec<Valued<String>>,
    pub strategy: Strategy,
    pub dedup: bool,
}

/// What one layer says about one topic. `None` means "not set here".
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PartialTopic {
    /// Where the warned-about value is set, when known.
    pub origin: Option<Origin>,
    pub enable: Option<Valued<bool>>,
    pub title: Option<Valued<String>>,
    pub introduction: Option<Valued<String>>,
    pub description: Option<Valued<String>>,
    pub subjects: Option<Valued<String>>,
    pub learned: Option<ArrayPatch>,
    pub disabled: Option<ArrayPatch>,
}

/// One `extends` entry of a file.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtendsEntry {
    pub path: String,
    pub after: bool,
    pub origin: Origin,
}

/// Everything jp-kb reads from one configuration layer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PartialConfig {
    pub topics: IndexMap<String, PartialTopic>,
    /// `kb.usage`: whether `jp-kb mcp` records what it serves.
    pub usage: Option<Valued<bool>>,
    /// `kb.search.model`: the embedding model's directory, as written.
    pub search_model: Option<Valued<String>>,
    pub extends: Vec<ExtendsEntry>,
    pub config_load_paths: Vec<Valued<String>>,
}

/// One topic of the effective configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Topic {
    pub id: String,
    /// Where the topic was first declared (lowest layer first).
    pub origin: Origin,
    pub enable: Option<Valued<bool>>,
    pub title: Option<Valued<String>>,
    pub introduction: Option<Valued<String>>,
    pub description: Option<Valued<String>>,
    pub subjects: Option<Valued<String>>,
    /// Duplicates are kept here (they are dropped when resolving subjects)
    /// so every entry can still be traced to its file.
    pub learned: Vec<Valued<String>>,
    pub disabled: Vec<Valued<String>>,
}

impl Topic {
    pub fn new(id: String, origin: Origin) -> Self {
        Self {
            id,
            origin,
            enable: None,
            title: None,
            introduction: None,
            description: None,
            subjects: None,
            learned: Vec::new(),
            disabled: Vec::new(),
        }
    }

    /// `enable` defaults to true.
    pub fn enabled(&self) -> bool {
        self.enable.as_ref().is_none_or(|v| v.value)
    }

    /// The name the assistant sees: the title when set, else the id.
    pub fn name(&self) -> &str {
        self.title.as_ref().map_or(&self.id, |t| &t.value)
    }

    pub fn title(&self) -> Option<&str> {
        self.title.as_ref().map(|t| t.value.as_str())
    }

    pub fn introduction(&self) -> Option<&str> {
        self.introduction.as_ref().map(|t| t.value.as_str())
    }

    pub fn description(&self) -> Option<&str> {
        self.description.as_ref().map(|t| t.value.as_str())
    }

    /// The value of a text field (`title`, `introduction`, `description`,
    /// `subjects`) when set; `None` for the flag and the lists.
    pub fn text(&self, field: TopicField) -> Option<&Valued<String>> {
        match field {
            TopicField::Title => self.title.as_ref(),
            TopicField::Introduction => self.introduction.as_ref(),
            TopicField::Description => self.description.as_ref(),
            TopicField::Subjects => self.subjects.as_ref(),
            TopicField::Enable | TopicField::Learned | TopicField::Disabled => None,
        }
    }

    /// The entries of a list field (`learned`, `disabled`), duplicates
    /// kept; empty for the other fields.
    pub fn list(&self, field: TopicField) -> &[Valued<String>] {
        match field {
            TopicField::Learned => &self.learned,
            TopicField::Disabled => &self.disabled,
            _ => &[],
        }
    }

    /// Where a one-value field is set, when it is; `None` for the lists
    /// (each entry has its own origin: [`Topic::list`]).
    pub fn scalar_origin(&self, field: TopicField) -> Option<&Origin> {
        match field {
            TopicField::Enable => self.enable.as_ref().map(|v| &v.origin),
            other => self.text(other).map(|v| &v.origin),
        }
    }

    /// Every origin of a field's value: the one of a set scalar, each
    /// entry's of a list.
    pub fn origins(&self, field: TopicField) -> impl Iterator<Item = &Origin> {
        self.scalar_origin(field)
            .into_iter()
            .chain(self.list(field).iter().map(|v| &v.origin))
    }

    /// `learned` patterns without duplicates, first occurrence kept.
    pub fn learned_patterns(&self) -> Vec<String> {
        dedup_values(&self.learned)
    }

    /// `disabled` entries without duplicates, first occurrence kept.
    pub fn disabled_entries(&self) -> Vec<String> {
        dedup_values(&self.disabled)
    }
}

fn dedup_values(items: &[Valued<String>]) -> Vec<String> {
    crate::unique::keep_first(items.iter().map(|v| v.value.clone()))
}

/// A non-fatal finding about the configuration (an unknown key, say).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConfigWarning {
    /// Where, when known.
    pub origin: Option<Origin>,
    /// What is wrong.
    pub message: String,
}

impl ConfigWarning {
    /// The key an "unknown key" warning is about (`kb.topic.x.learnd`), as
    /// the engine names it; `None` for other warnings.
    pub fn unknown_key(&self) -> Option<&str> {
        let rest = self.message.strip_prefix(UNKNOWN_KEY_PREFIX)?;
        rest.find('`').map(|end| &rest[..end])
    }
}

/// How every "unknown key" warning message starts, followed by the key and
/// a backtick.
pub(crate) const UNKNOWN_KEY_PREFIX: &str = "unknown key `";

/// The effective `kb` configuration.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct KbConfig {
    pub topics: IndexMap<String, Topic>,
    /// `kb.usage` (contract §9): `false` in any layer turns the usage
    /// ledger off; unset means on. Keeps its origin, like every value.
    pub usage: Option<Valued<bool>>,
    /// `kb.search.model` (contract §10): the directory of the embedding
    /// model semantic search uses, as written (see [`Self::search_model_dir`]).
    pub search_model: Option<Valued<String>>,
}

impl KbConfig {
    /// Whether `jp-kb mcp` records usage (`kb.usage`, default true).
    pub fn usage_enabled(&self) -> bool {
        self.usage.as_ref().is_none_or(|v| v.value)
    }

    /// The embedding model's directory from `kb.search.model`: a relative
    /// path is relative to the directory of the file that declares it (a
    /// `--cfg` value: to the working directory).
    pub fn search_model_dir(&self) -> Option<std::path::PathBuf> {
        let model = self.search_model.as_ref()?;
        let written = std::path::Path::new(&model.value);
        Some(
            match model.origin.path().and_then(std::path::Path::parent) {
                Some(dir) if written.is_relative() => dir.join(written),
                _ => written.to_owned(),
            },
        )
    }
}

/// Which layer of the configuration a file belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayerKind {
    UserGlobal,
    Workspace,
    JpToml,
    UserWorkspace,
    Extends,
    Cfg,
}

impl LayerKind {
    pub fn label(self) -> &'static str {
        match self {
            LayerKind::UserGlobal => "user-global",
            LayerKind::Workspace => "workspace",
            LayerKind::JpToml => ".jp.toml",
            LayerKind::UserWorkspace => "user-workspace",
            LayerKind::Extends => "extends",
            LayerKind::Cfg => "--cfg",
        }
    }
}

/// One file that contributed to the effective configuration, in merge
/// order (lowest precedence first).
#[derive(Debug, Clone, PartialEq)]
pub struct LayerFile {
    pub path: PathBuf,
    pub kind: LayerKind,
    pub partial: PartialConfig,
}
