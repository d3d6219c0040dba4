//! The workspace's load as the driver runs it off its thread: what a
//! load needs ([`Loader`]), the reloads queued for the background loader
//! ([`Reload`]) and the prompt jobs it hands to the prompt worker.

use std::path::PathBuf;
use std::sync::Arc;

use super::event::Event;
use super::model::{LoadOutcome, Model};
use super::prompt::RenderedPrompt;
use super::shown_path;
use super::worker::Worker;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::internal::section_tokens::SectionCounter;
use jp_kb_core::subjects::WatchedWalks;
use jp_kb_core::{Environment, LoadOptions};

/// A prompt to render: a load's knowledge base and its generation.
pub type PromptJob = (Arc<KnowledgeBase>, u64);

/// A reload asked of the background loader: what changed, and when it
/// was asked ([`super::model::next_load`]).
#[derive(Debug)]
pub struct Reload {
    pub changed: Vec<PathBuf>,
    pub started: u64,
}

/// Reloads queued while one runs become one: the changes add up (empty
/// means "everything" and stays empty), the newest start time wins.
pub fn merge_reloads(mut older: Reload, newer: Reload) -> Reload {
    if older.changed.is_empty() || newer.changed.is_empty() {
        older.changed.clear();
    } else {
        older.changed.extend(newer.changed);
    }
    older.started = newer.started;
    older
}

/// What a load off the driver's thread needs.
#[derive(Debug, Clone)]
pub struct Loader {
    pub env: Environment,
    pub options: LoadOptions,
    pub walks: Arc<WatchedWalks>,
    pub prompts: Option<Worker<PromptJob>>,
    pub counter: SectionCounter,
}

impl Loader {
    /// Loads the workspace (walking what `walks` no longer holds). With a
    /// prompt worker, the prompt is asked for once the state takes the
    /// load ([`super::effect::Effect::RenderPrompt`]); without one it is
    /// rendered here.
    pub fn load(&self, changed: Vec<PathBuf>, started: u64) -> Event {
        let result = match Model::load(&self.env, &self.options, &self.walks) {
            Ok(mut model) => {
                if self.prompts.is_none() {
                    model.set_prompt(RenderedPrompt::render(
                        &model.kb,
                        model.generation,
                        &self.counter,
                    ));
                }
                Ok(model)
            }
            Err(e) => Err(shown_path::load_error(&self.env, &self.options, e)),
        };
        Event::Loaded(Box::new(LoadOutcome {
            result,
            changed,
            started,
        }))
    }
}
