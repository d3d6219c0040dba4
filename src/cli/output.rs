//! Shared output helpers: errors with exit codes, warnings on stderr,
//! human-readable sizes. Human-facing text goes out through
//! [`print_human`]/[`warn`], escaped by `jp_kb_core::internal::display` (names from
//! files must never drive the terminal); assistant-facing text through
//! [`print_text`], byte for byte.

use std::io::Write;

use jp_kb_core::KnowledgeBase;
use jp_kb_core::display::{escape_lines, escape_name};
use jp_kb_core::subjects::TopicState;

/// An error to print on stderr with the exit status it maps to.
#[derive(Debug)]
pub struct CliError {
    pub code: u8,
    pub message: String,
}

impl CliError {
    /// A runtime error: exit status 1. The core's typed errors become
    /// their message here, at the edge.
    pub fn runtime(message: impl std::fmt::Display) -> Self {
        Self {
            code: 1,
            message: message.to_string(),
        }
    }

    /// A usage error: exit status 2.
    pub fn usage(message: impl std::fmt::Display) -> Self {
        Self {
            code: 2,
            message: message.to_string(),
        }
    }
}

/// Prints config warnings (unknown keys) on stderr, paths relative to the
/// workspace root.
pub fn print_config_warnings(kb: &KnowledgeBase) {
    for w in kb.warnings() {
        match &w.origin {
            Some(origin) => warn(&format!(
                "{}: {}",
                escape_name(&origin.display_relative(kb.root())),
                w.message
            )),
            None => warn(&w.message),
        }
    }
}

/// Prints why a topic contributes nothing or less than expected: a
/// directory error, or files skipped during the walk.
pub fn print_topic_warnings(kb: &KnowledgeBase, state: &TopicState) {
    let id = escape_name(state.id());
    if let Err(e) = &state.dir {
        let origin = state
            .config
            .subjects
            .as_ref()
            .map_or_else(|| state.config.origin.clone(), |s| s.origin.clone());
        warn(&format!(
            "{}: topic `{id}` is skipped: {e}",
            escape_name(&origin.display_relative(kb.root())),
        ));
        return;
    }
    if let Some(resolution) = state.resolution() {
        for w in &resolution.walk.warnings {
            warn(&format!("topic `{id}`: {w}"));
        }
        for c in &resolution.walk.collisions {
            let (kept, dropped) = (escape_name(&c.kept), escape_name(&c.dropped));
            warn(&format!(
                "topic `{id}`: `{kept}` and `{dropped}` both have the slug `{}`; `{kept}` is used, `{dropped}` is ignored",
                escape_name(&c.slug),
            ));
        }
    }
}

/// `warning: TEXT` on stderr, escaped: a name in it that holds a control,
/// bidi or zero-width character is shown, not obeyed.
pub fn warn(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "warning: {}", escape_lines(text));
}

/// Human-facing text and one newline on stdout, escaped (newlines and
/// tabs kept); a closed pipe is not an error.
pub fn print_human(text: &str) {
    write_human(text);
    print_text("");
}

/// [`print_human`] without the newline.
pub fn write_human(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(escape_lines(text).as_bytes());
    let _ = out.flush();
}

/// Writes `text` and one newline to stdout as it is (assistant-facing
/// texts, JSON); a closed pipe is not an error.
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
