//! Shared output helpers: errors with exit codes, warnings on stderr,
//! human-readable sizes.

use std::io::Write;

use jp_kb::KnowledgeBase;
use jp_kb::topic::TopicState;

/// An error to print on stderr with the exit status it maps to.
#[derive(Debug)]
pub struct CliError {
    pub code: u8,
    pub message: String,
}

impl CliError {
    /// A runtime error: exit status 1.
    pub fn runtime(message: impl Into<String>) -> Self {
        Self {
            code: 1,
            message: message.into(),
        }
    }

    /// A usage error: exit status 2.
    pub fn usage(message: impl Into<String>) -> Self {
        Self {
            code: 2,
            message: message.into(),
        }
    }
}

/// Prints config warnings (unknown keys) on stderr, paths relative to the
/// workspace root.
pub fn print_config_warnings(kb: &KnowledgeBase) {
    let mut err = std::io::stderr().lock();
    for w in kb.warnings() {
        let _ = match &w.origin {
            Some(origin) => writeln!(
                err,
                "warning: {}: {}",
                origin.display_relative(kb.root()),
                w.message
            ),
            None => writeln!(err, "warning: {}", w.message),
        };
    }
}

/// Prints why a topic contributes nothing or less than expected: a
/// directory error, or files skipped during the walk.
pub fn print_topic_warnings(kb: &KnowledgeBase, state: &TopicState) {
    let mut err = std::io::stderr().lock();
    if let Err(e) = &state.dir {
        let origin = state
            .config
            .subjects
            .as_ref()
            .map_or_else(|| state.config.origin.clone(), |s| s.origin.clone());
        let _ = writeln!(
            err,
            "warning: {}: topic `{}` is skipped: {e}",
            origin.display_relative(kb.root()),
            state.id()
        );
        return;
    }
    if let Some(resolution) = state.resolution() {
        for w in &resolution.walk.warnings {
            let _ = writeln!(err, "warning: topic `{}`: {w}", state.id());
        }
        for c in &resolution.walk.collisions {
            let _ = writeln!(
                err,
                "warning: topic `{}`: `{}` and `{}` both have the slug `{}`; `{}` is used, `{}` is ignored",
                state.id(),
                c.kept,
                c.dropped,
                c.slug,
                c.kept,
                c.dropped
            );
        }
    }
}

/// Writes `text` and one newline to stdout; a closed pipe is not an error.
pub fn print_text(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.write_all(b"\n");
    let _ = out.flush();
}

/// `1234` → `1.2 KiB`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    #[allow(clippy::cast_precision_loss)]
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}
