//! `jp-kb search --mode lexical|semantic|hybrid [--model DIR]`: which
//! rankings run (contract §10). Hybrid is the default whenever a model is
//! available (`--model`, `kb.search.model`, or the default model fetched
//! with `jp-kb model fetch`), lexical otherwise; the output names the mode
//! that ran. While subjects are embedded, progress goes to stderr (a live
//! line on a terminal, a line every few seconds otherwise).

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use jp_kb_core::KnowledgeBase;
use jp_kb_core::search::semantic::{ModelChoice, Semantic, choose_model};
use jp_kb_core::search::{
    Mode, SearchError, SearchOutcome, SearchRequest, index_dir, search_in_mode_with_walks,
    search_with_walks,
};
use jp_kb_core::subjects::WalkCache;

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
            jp_kb_core::search::semantic::DEFAULT_MODEL
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

/// The progress of a build of the embeddings, on stderr: a live line on a
/// terminal; otherwise (a script, an assistant) a line when it starts and
/// one every few seconds, so that a long first build never looks hung.
/// Each says the time left once a batch is done.
struct Progress {
    terminal: bool,
    started: Instant,
    /// When a line was last written (`None`: none yet).
    said: Option<Instant>,
    live: bool,
}

/// Fewer chunks than this take a second or two: not worth a line.
const QUIET_BELOW: usize = 64;
/// How often a line is written when stderr is not a terminal.
const LINE_EVERY: Duration = Duration::from_secs(5);

impl Progress {
    fn new() -> Self {
        Self {
            terminal: std::io::stderr().is_terminal(),
            started: Instant::now(),
            said: None,
            live: false,
        }
    }

    #[allow(clippy::cast_precision_loss)] // an estimate for a person
    fn show(&mut self, done: usize, total: usize) {
        if total < QUIET_BELOW {
            return;
        }
        if done == 0 {
            self.started = Instant::now();
        }
        let due = self.said.is_none_or(|at| at.elapsed() >= LINE_EVERY) || done == total;
        if !self.terminal && !due {
            return;
        }
        let elapsed = self.started.elapsed();
        let left = if done == 0 {
            String::new()
        } else {
            let rate = elapsed.as_secs_f64() / done as f64;
            format!(", {} left", duration((total - done) as f64 * rate))
        };
        let line = format!(
            "embedding subjects for search by meaning: {done}/{total} chunks{left} (saved as they are made; an interrupted build continues at the next search)"
        );
        let mut err = std::io::stderr().lock();
        let _ = if self.terminal {
            self.live = true;
            write!(err, "\r\x1b[2K{line}")
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
        self.said = Some(Instant::now());
    }

    fn finish(&mut self) {
        if self.live {
            let _ = writeln!(std::io::stderr());
        }
    }
}

/// `secs` as a person reads a wait: "40 s", "3 min", "1 h 5 min".
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn duration(secs: f64) -> String {
    let secs = secs.max(0.0).round() as u64;
    match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} min", secs.div_ceil(60)),
        _ => format!("{} h {} min", secs / 3600, (secs % 3600) / 60),
    }
}
