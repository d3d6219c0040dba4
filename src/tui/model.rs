//! The loaded workspace and everything derived from it by reading files:
//! the knowledge base (every topic resolved up front, so drawing never
//! walks a directory), the prompt and tool texts, config file texts, and
//! the per-file data the preview asks for ([`Need`] → [`Fetched`]).
//! Only the driver calls the functions here that do I/O.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use jp_kb_core::KnowledgeBase;
use jp_kb_core::Outcome;
use jp_kb_core::internal::content::{
    Content, Root, SkipReason, format_subject, read_content_prefix,
};
use jp_kb_core::internal::tokens::count_tokens;
use jp_kb_core::subjects::WatchedWalks;
use jp_kb_core::{ConfigError, Environment, LoadOptions};

/// Previews read at most this many bytes of a subject.
pub const PREVIEW_LIMIT: usize = 256 * 1024;

/// The effective configuration and its texts, as of the last good load.
#[derive(Debug)]
pub struct Model {
    /// Shared with the worker that renders the prompt in the background.
    pub kb: Arc<KnowledgeBase>,
    /// Which load this is: a prompt rendered for another load is dropped.
    pub generation: u64,
    /// Where the `<knowledge>` section's pieces start (None: absent, or
    /// not rendered yet); the text itself is not held.
    pub prompt: Option<PromptLayout>,
    /// The leading pieces the Prompt tab has shown, as text.
    pub prompt_head: PromptHead,
    pub prompt_tokens: Option<usize>,
    /// The section's count has arrived (`prompt_tokens` says it): it
    /// comes before the layout (see [`super::prompt`]).
    pub prompt_counted: bool,
    /// False while the prompt is still being rendered in the background.
    pub prompt_ready: bool,
    /// The Prompt tab's client view, computed when selected (see
    /// [`ClientPrompt`]).
    pub client_prompt: Option<ClientPrompt>,
    /// The tool definition JSON (None: not registered).
    pub tool: Option<String>,
    /// Text of every TOML file the TUI may edit (missing files absent).
    pub config_texts: BTreeMap<PathBuf, String>,
    /// Where edits go when nothing else decides: the file holding the
    /// workspace's topics, else `<root>/.jp/kb.toml`.
    pub default_file: PathBuf,
}

use super::client_prompt::{ClientPrompt, SectionMemo};
use super::prompt::{
    HeadPart, LaidPiece, PromptCount, PromptHead, PromptLayout, RenderedPrompt, read_part,
};

fn next_generation() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Numbers loads in the order they start (from 1): a load that finishes
/// after one that started later is out of date (see [`LoadOutcome`]).
pub fn next_load() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Model {
    /// Loads the workspace. Walks and resolutions come from `walks`
    /// (kept until the driver reports a change under them). The prompt is
    /// not rendered yet ([`Model::set_prompt`]).
    pub fn load(
        env: &Environment,
        options: &LoadOptions,
        walks: &Arc<WatchedWalks>,
    ) -> Result<Self, ConfigError> {
        let kb = KnowledgeBase::load_watched(env, options, walks)?;
        Ok(Self::from_kb(kb))
    }

    /// Resolves every topic (so drawing never walks a directory) and
    /// renders the tool definition; the prompt is left pending.
    pub fn from_kb(kb: KnowledgeBase) -> Self {
        kb.resolve_all();
        let tool = kb.tool_definition();
        let default_file = jp_kb_core::edit::for_new_topic(&kb.loaded).path;
        let mut config_texts = BTreeMap::new();
        let mut files: Vec<PathBuf> = kb
            .loaded
            .toml_files()
            .into_iter()
            .map(Path::to_path_buf)
            .collect();
        files.push(default_file.clone());
        for path in files {
            // The guarded read: a layer that is a FIFO or a device never
            // hangs the Config tab.
            if let Ok(text) = jp_kb_core::internal::config::file::read_guarded(&path)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
            {
                config_texts.insert(path, text);
            }
        }
        Self {
            kb: Arc::new(kb),
            generation: next_generation(),
            prompt: None,
            prompt_head: PromptHead::default(),
            prompt_tokens: None,
            prompt_counted: false,
            prompt_ready: false,
            client_prompt: None,
            tool,
            config_texts,
            default_file,
        }
    }

    /// Takes a rendered prompt; false (and nothing changes) when it was
    /// rendered for another load.
    pub fn set_prompt(&mut self, prompt: RenderedPrompt) -> bool {
        if prompt.generation != self.generation {
            return false;
        }
        self.prompt = prompt.layout;
        self.prompt_head = PromptHead::default();
        self.prompt_tokens = prompt.tokens;
        self.prompt_counted = true;
        self.prompt_ready = true;
        true
    }

    /// Takes the section's count, made before its layout; false when it
    /// was counted for another load.
    pub fn set_prompt_count(&mut self, count: PromptCount) -> bool {
        if count.generation != self.generation {
            return false;
        }
        self.prompt_tokens = count.tokens;
        self.prompt_counted = true;
        true
    }

    /// Takes the count a change's plan was shown with as this load's,
    /// until the prompt worker's own count replaces it (issue 37 item 4):
    /// the load that follows a change has the section the plan counted,
    /// so the status line need not wait for it to be counted again. A
    /// count already taken is kept; the worker's arrives later and wins
    /// (the same figure unless a file changed meanwhile).
    pub fn expect_count(&mut self, planned: Option<usize>) {
        if self.prompt_counted {
            return;
        }
        if let Some(tokens) = planned {
            let generation = self.generation;
            // A present section is never empty: 0 tokens means absent.
            let tokens = Some(tokens).filter(|&n| n > 0);
            self.set_prompt_count(PromptCount { generation, tokens });
        }
    }

    /// The section's tokens once counted (0 when it is absent); `None`
    /// while it is being counted.
    pub fn section_tokens(&self) -> Option<usize> {
        self.prompt_counted.then(|| self.prompt_tokens.unwrap_or(0))
    }

    /// Takes pieces read for the Prompt tab; false when they belong to
    /// another load or do not continue the head.
    pub fn extend_prompt_head(&mut self, part: HeadPart) -> bool {
        part.generation == self.generation && self.prompt_head.extend(part)
    }

    /// What the Prompt tab needs read to show its first `lines` lines.
    pub fn prompt_need(&self, lines: usize) -> Option<Need> {
        let layout = self.prompt.as_ref().filter(|_| self.prompt_ready)?;
        let from = self.prompt_head.pieces;
        let to = layout.pieces_for(lines).max(from);
        (to > from).then(|| Need::PromptHead {
            generation: self.generation,
            from,
            pieces: layout.pieces[from..to].to_vec(),
        })
    }

    /// The view of `client` if computed for this load.
    pub fn client_prompt(&self, client: &str) -> Option<&ClientPrompt> {
        self.client_prompt
            .as_ref()
            .filter(|c| c.client == client && c.generation == self.generation)
    }

    /// What the Prompt tab needs computed to show `client`'s view.
    pub fn client_need(&self, client: &str) -> Option<Need> {
        self.client_prompt(client)
            .is_none()
            .then(|| Need::ClientPrompt {
                generation: self.generation,
                client: client.to_owned(),
            })
    }

    /// Takes a client view; false when it belongs to another load.
    pub fn set_client_prompt(&mut self, view: ClientPrompt) -> bool {
        if view.generation != self.generation {
            return false;
        }
        self.client_prompt = Some(view);
        true
    }

    /// The whole section as laid out, read from disk (tests compare it
    /// with the library's; the TUI itself never holds it).
    pub fn full_prompt(&self) -> Option<String> {
        let layout = self.prompt.as_ref()?;
        Some(read_part(&self.kb, &layout.pieces, self.generation, 0).text)
    }

    /// The TOML files edits may go to: every TOML layer, and the
    /// workspace file even when it does not exist yet.
    pub fn editable_files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = self
            .kb
            .loaded
            .toml_files()
            .into_iter()
            .map(Path::to_path_buf)
            .collect();
        if !files.contains(&self.default_file) {
            files.insert(0, self.default_file.clone());
        }
        files
    }

    /// A path for display: relative to the workspace root when inside.
    pub fn show(&self, path: &Path) -> String {
        self.kb.display_path(path).display().to_string()
    }
}

/// The result of a (re)load.
#[derive(Debug)]
pub struct LoadOutcome {
    pub result: Result<Model, String>,
    /// Files that changed since the last load (their caches are dropped).
    pub changed: Vec<PathBuf>,
    /// When the load started ([`next_load`]); 0 for a load that cannot
    /// be overtaken. Loads run in the background may finish after a
    /// later one (an edit's): such an outcome is not shown.
    pub started: u64,
}

/// A subject as the preview shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubjectPreview {
    /// The text the assistant gets (fenced, or the skip notice).
    pub formatted: String,
    /// Render as markdown (pass-through text formats).
    pub markdown: bool,
    pub truncated: bool,
    /// The parsed YAML front-matter of a Markdown subject (`Err`: why it
    /// is not valid YAML), shown in the preview's header.
    pub frontmatter: Option<Result<serde_json::Value, String>>,
}

/// What reading a subject found, for its row's markers and token size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Text,
    Binary,
    Skipped,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenInfo {
    pub kind: FileKind,
    pub tokens: Option<usize>,
    /// Counted over a prefix only: the count is a lower bound.
    pub truncated: bool,
}

/// Data the preview needs that is not cached yet.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Need {
    Subject {
        path: PathBuf,
        slug: String,
        extension: Option<String>,
    },
    /// Token counts of these subjects (path, slug, extension, stamp).
    Tokens(Vec<(PathBuf, String, Option<String>, Stamp)>),
    Learn(LearnKey),
    /// Pieces `from..` of a load's `<knowledge>` section (the Prompt tab).
    PromptHead {
        generation: u64,
        from: usize,
        pieces: Vec<LaidPiece>,
    },
    /// What a client's model receives (the Prompt tab's client view).
    ClientPrompt {
        generation: u64,
        client: String,
    },
}

/// `learn(topic)` or `learn(topic, [pattern])`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LearnKey {
    pub topic: String,
    pub pattern: Option<String>,
}

/// What the driver read for a [`Need`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetched {
    Subject(PathBuf, SubjectPreview),
    Tokens(Vec<(PathBuf, Stamp, TokenInfo)>),
    Learn(LearnKey, Outcome),
    /// The count of a load's section, before its layout.
    PromptCount(PromptCount),
    /// The prompt of a load, rendered in the background.
    Prompt(RenderedPrompt),
    PromptHead(HeadPart),
    ClientPrompt(Box<ClientPrompt>),
}

/// A file's size and modification time as its subject was walked: a
/// token count is kept for a path only while these stay the same, so a
/// change that is reported late (or a re-walk of a whole directory) never
/// shows a stale count, nor drops the counts of the files that did not
/// change.
pub type Stamp = (u64, i64);

/// The stamp of a walked subject.
pub fn stamp(subject: &jp_kb_core::subjects::Subject) -> Stamp {
    (subject.bytes, subject.modified)
}

/// Everything read for previews, dropped when the files change.
#[derive(Debug, Default)]
pub struct Cache {
    pub subjects: HashMap<PathBuf, SubjectPreview>,
    /// Token counts by path, with the stamp they were counted for.
    pub tokens: HashMap<PathBuf, (Stamp, TokenInfo)>,
    pub learn: HashMap<LearnKey, Outcome>,
    /// Counts every change (an insert or an invalidation): what is laid
    /// out from the cached texts is kept under it.
    pub generation: u64,
}

impl Cache {
    pub fn insert(&mut self, fetched: Fetched) {
        self.generation += 1;
        match fetched {
            Fetched::Subject(path, preview) => {
                self.subjects.insert(path, preview);
            }
            Fetched::Tokens(list) => self.tokens.extend(
                list.into_iter()
                    .map(|(path, stamp, info)| (path, (stamp, info))),
            ),
            Fetched::Learn(key, outcome) => {
                self.learn.insert(key, outcome);
            }
            // Belong to the model, not the cache (see `update`).
            Fetched::Prompt(_)
            | Fetched::PromptCount(_)
            | Fetched::PromptHead(_)
            | Fetched::ClientPrompt(_) => {}
        }
    }

    /// The token count of a walked subject, if counted for its current
    /// size and modification time.
    pub fn tokens_of(&self, subject: &jp_kb_core::subjects::Subject) -> Option<&TokenInfo> {
        self.tokens
            .get(subject.path())
            .filter(|(counted, _)| *counted == stamp(subject))
            .map(|(_, info)| info)
    }

    /// Drops what depends on `paths` (subject files) and every `learn`
    /// output (they depend on the configuration too). Token counts are
    /// kept: their stamps tell which are stale.
    pub fn invalidate(&mut self, paths: &[PathBuf]) {
        self.generation += 1;
        for p in paths {
            self.subjects.retain(|k, _| !k.starts_with(p));
        }
        self.learn.clear();
    }
}

fn read(
    root: &Root<'_>,
    path: &Path,
    slug: &str,
    extension: Option<&str>,
) -> (Content, String, bool) {
    let (content, truncated) = read_content_prefix(root, path, PREVIEW_LIMIT);
    let formatted = format_subject(slug, extension, &content);
    (content, formatted, truncated)
}

/// Reads what a need asks for, every file through the guarded open
/// relative to `kb`'s root. `kb` answers `learn` needs.
pub fn fetch(kb: &KnowledgeBase, need: &Need) -> Fetched {
    let root = Root::new(kb.root());
    match need {
        Need::Subject {
            path,
            slug,
            extension,
        } => {
            let (content, formatted, truncated) = read(&root, path, slug, extension.as_deref());
            let markdown = matches!(content, Content::Text(_))
                && jp_kb_core::internal::content::fence_language(extension.as_deref()).is_none();
            let frontmatter = match &content {
                Content::Text(text)
                    if jp_kb_core::internal::frontmatter::is_markdown(extension.as_deref()) =>
                {
                    jp_kb_core::internal::frontmatter::parse(text)
                }
                _ => None,
            };
            Fetched::Subject(
                path.clone(),
                SubjectPreview {
                    formatted,
                    markdown,
                    truncated,
                    frontmatter,
                },
            )
        }
        Need::Tokens(list) => Fetched::Tokens(
            list.iter()
                .map(|(path, slug, ext, stamp)| {
                    let (content, formatted, truncated) = read(&root, path, slug, ext.as_deref());
                    let (kind, tokens) = match content {
                        Content::Text(_) => (FileKind::Text, count_tokens(&formatted)),
                        Content::Skipped(SkipReason::Binary) => (FileKind::Binary, None),
                        Content::Skipped(_) => (FileKind::Skipped, None),
                    };
                    (
                        path.clone(),
                        *stamp,
                        TokenInfo {
                            kind,
                            tokens,
                            truncated,
                        },
                    )
                })
                .collect(),
        ),
        Need::Learn(key) => {
            let patterns = key.pattern.clone().map(|p| vec![p]);
            Fetched::Learn(key.clone(), kb.learn(&key.topic, patterns.as_deref()))
        }
        Need::PromptHead {
            generation,
            from,
            pieces,
        } => Fetched::PromptHead(read_part(kb, pieces, *generation, *from)),
        Need::ClientPrompt { generation, client } => {
            Fetched::ClientPrompt(Box::new(ClientPrompt::compute(kb, client, *generation)))
        }
    }
}

/// [`fetch`] on the read worker: a client view takes the section from
/// `memo` (rendered once for every client view of a load).
pub fn fetch_with(kb: &Arc<KnowledgeBase>, need: &Need, memo: &mut SectionMemo) -> Fetched {
    memo.forget_gone();
    match need {
        Need::ClientPrompt { generation, client } => {
            let section = memo.section(kb);
            Fetched::ClientPrompt(Box::new(ClientPrompt::compute_with(
                kb,
                client,
                *generation,
                &section,
            )))
        }
        other => fetch(kb, other),
    }
}
