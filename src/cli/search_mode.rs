//! `jp-kb search --mode lexical|semantic|hybrid [--model DIR]`: which
//! rankings run (contract §10). Hybrid is the default whenever a model is
//! available (`--model`, `kb.search.model`, or the default model fetched
//! with `jp-kb model fetch`), lexical otherwise; the output names the mode
//! that ran. While subjects are embedded, a progress line goes to stderr
//! when it is a terminal.

use std::io::{IsTerminal, Write};
use std::path::Path;

use jp_kb_core::KnowledgeBase;
use jp_kb_core::internal::search::semantic::{ModelChoice, Semantic, choose_model};
use jp_kb_core::internal::search::{
    Mode, SearchError, SearchOutcome, SearchRequest, index_dir, search_in_mode_with_walks,
    search_with_walks,
};
use jp_kb_core::internal::subjects::WalkCache;

use super::output::CliError;

/// `--mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ModeArg {
    /// Words only (BM25): today's search.
    Lexical,
    /// Meaning only: sentence embeddings of the subjects' chunks.
    Semantic,
    /// Both, fused into one ranking.
    Hybrid,
}

impl ModeArg {
    fn mode(self) -> Mode {
        match self {
            Self::Lexical => Mode::Lexical,
            Self::Semantic => Mode::Semantic,
            Self::Hybrid => Mode::Hybrid,
        }
    }
}

/// Searches `kb` in the mode asked for, or the default one.
pub fn search(
    kb: &KnowledgeBase,
    walks: &WalkCache,
    request: &SearchRequest<'_>,
    mode: Option<ModeArg>,
    model: Option<&Path>,
) -> Result<SearchOutcome, CliError> {
    let (choice, not_used) = match mode {
        Some(ModeArg::Lexical) => (None, None),
        _ => choose_model(kb, model),
    };
    let mode = match (mode, &choice) {
        (Some(m), _) => m.mode(),
        (None, Some(_)) => Mode::Hybrid,
        (None, None) => Mode::Lexical,
    };
    if mode == Mode::Lexical {
        let mut outcome = search_with_walks(kb, walks, request).map_err(search_error)?;
        outcome.notes.extend(not_used);
        return Ok(outcome);
    }
    let Some(choice) = choice else {
        let or_note = not_used.map_or_else(String::new, |n| format!(" ({n})"));
        return Err(CliError::usage(format!(
            "--mode {mode} needs an embedding model: give --model DIR, set kb.search.model, or run `jp-kb model fetch {}`{or_note}",
            jp_kb_core::internal::search::semantic::DEFAULT_MODEL
        )));
    };
    let mut fallback_note = None;
    // The model loads, and embeds the query, while the words are ranked.
    let index = index_dir(kb.root());
    let mut semantic = Semantic::open_in_background(choice.dir(), index.as_deref(), request.query);
    let mut progress = Progress::new();
    let result = search_in_mode_with_walks(
        kb,
        walks,
        request,
        &mut semantic,
        mode,
        &mut |done, total| {
            progress.show(done, total);
        },
    );
    progress.finish();
    let outcome = match result {
        // A model found by default that does not load: say so, search by
        // words. One a person named: an error.
        Err(SearchError::Semantic(e)) if !choice.named() && e.is_loading() => {
            fallback_note = Some(format!("{e}; searching by words only (lexical)"));
            search_with_walks(kb, walks, request)
        }
        other => other,
    };
    let mut outcome = outcome.map_err(|e| match e {
        SearchError::Semantic(e) => CliError::runtime(model_error(&choice, &e.to_string())),
        other => search_error(other),
    })?;
    outcome.notes.extend(not_used);
    if let Some(note) = fallback_note {
        outcome.notes.push(note);
    }
    Ok(outcome)
}

fn model_error(choice: &ModelChoice, error: &str) -> String {
    match choice {
        ModelChoice::Configured(_, origin) => format!("{error} (kb.search.model, set at {origin})"),
        _ => error.to_owned(),
    }
}

fn search_error(e: SearchError) -> CliError {
    match e {
        SearchError::Topic(message) => CliError::runtime(message),
        SearchError::Semantic(e) => CliError::runtime(e.to_string()),
        other => CliError::usage(other.to_string()),
    }
}

/// The progress line of a first build (stderr, a terminal only).
struct Progress {
    shown: bool,
    terminal: bool,
    started: std::time::Instant,
}

impl Progress {
    fn new() -> Self {
        Self {
            shown: false,
            terminal: std::io::stderr().is_terminal(),
            started: std::time::Instant::now(),
        }
    }

    fn show(&mut self, done: usize, total: usize) {
        // Small updates are not worth a line.
        if !self.terminal || total < 64 {
            return;
        }
        self.shown = true;
        let secs = self.started.elapsed().as_secs();
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[2Kembedding subjects: {done}/{total} chunks ({secs} s)"
        );
        let _ = err.flush();
    }

    fn finish(&mut self) {
        if self.shown {
            let _ = writeln!(std::io::stderr());
        }
    }
}
