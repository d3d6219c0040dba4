//! Rendering a [`CheckReport`]: compiler-style diagnostics (rendered by
//! miette's graphical handler, quoting the TOML source with a caret under
//! the value) or JSON Lines. Both return strings: whether to use colour is
//! the caller's decision, made from the terminal it writes to. Both are
//! safe to print: names, messages and quoted sources have their control,
//! bidi and zero-width characters escaped ([`crate::display`]).

use std::fmt;

use std::collections::HashMap;
use std::path::Path;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};
use serde_json::{Value, json};

use super::findings::{CheckReport, Finding, Severity};
use super::snippet::Snippet;
use crate::config::spans::LineIndex;
use crate::display::{EscapedSource, escape_json, escape_lines, escape_name};

/// How human output looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct HumanStyle {
    /// ANSI colours (only for a terminal, and never with `NO_COLOR`).
    pub color: bool,
    /// Wrapping width.
    pub width: usize,
}

impl HumanStyle {
    /// With ANSI colours (`true`) or without.
    #[must_use]
    pub fn color(mut self, color: bool) -> Self {
        self.color = color;
        self
    }

    /// Wrapped at `width` columns.
    #[must_use]
    pub fn width(mut self, width: usize) -> Self {
        self.width = width;
        self
    }
}

impl Default for HumanStyle {
    fn default() -> Self {
        Self {
            color: false,
            width: 100,
        }
    }
}

/// One finding as a miette diagnostic.
struct FindingDiagnostic<'a> {
    finding: &'a Finding,
    headline: String,
    /// The hint, escaped.
    hint: Option<String>,
    /// The lines around the finding of its file, escaped, with the
    /// finding's span moved to match.
    source: Option<(Snippet, std::ops::Range<usize>)>,
}

impl fmt::Debug for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.headline)
    }
}

impl fmt::Display for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.headline)
    }
}

impl std::error::Error for FindingDiagnostic<'_> {}

impl Diagnostic for FindingDiagnostic<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.finding.code.as_str()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.finding.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.hint
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|(s, _)| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let (_, span) = self.source.as_ref()?;
        let label = LabeledSpan::new(
            Some(self.finding.code.label().to_owned()),
            span.start,
            span.len(),
        );
        Some(Box::new(std::iter::once(label)))
    }
}

/// The headline of a finding: its message, prefixed by the file (and line
/// and column) when no source snippet will show them — a file that is not
/// quoted (outside the workspace) is still named to the character; escaped.
fn headline(finding: &Finding, has_snippet: bool) -> String {
    let message = escape_lines(&finding.message);
    match (&finding.file, has_snippet) {
        (Some(file), false) => {
            let file = escape_name(&file.display().to_string()).into_owned();
            match (finding.line, finding.column) {
                (Some(line), Some(column)) => format!("{file}:{line}:{column}: {message}"),
                (Some(line), None) => format!("{file}:{line}: {message}"),
                _ => format!("{file}: {message}"),
            }
        }
        _ => message.into_owned(),
    }
}

/// Each quoted file escaped and indexed once, however many findings
/// point into it.
type Escaped<'r> = HashMap<&'r Path, (EscapedSource, LineIndex)>;

/// The lines around a finding of the file it points into, escaped, and
/// its span in the escaped text.
fn quoted_source<'r>(
    report: &'r CheckReport,
    finding: &'r Finding,
    escaped: &mut Escaped<'r>,
) -> Option<(Snippet, std::ops::Range<usize>)> {
    let (file, span) = (finding.file.as_ref()?, finding.span.as_ref()?);
    let source = report.sources.get(file)?;
    let (map, index) = escaped.entry(file.as_path()).or_insert_with(|| {
        let map = EscapedSource::new(source);
        let index = LineIndex::new(&map.text);
        (map, index)
    });
    let span = map.offset(span.start)..map.offset(span.end);
    let name = escape_name(&file.display().to_string()).into_owned();
    Some(Snippet::new(name, &map.text, index, &span))
}

/// Every finding as a compiler-style diagnostic, then a summary line.
pub fn render_human(report: &CheckReport, style: HumanStyle) -> String {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(style.width);
    let mut out = String::new();
    let mut escaped = Escaped::new();
    for finding in &report.findings {
        let source = quoted_source(report, finding, &mut escaped);
        let diagnostic = FindingDiagnostic {
            finding,
            headline: headline(finding, source.is_some()),
            hint: finding
                .hint
                .as_deref()
                .map(|h| escape_lines(h).into_owned()),
            source,
        };
        let mut rendered = String::new();
        if handler.render_report(&mut rendered, &diagnostic).is_err() {
            rendered = format!("{}: {}\n", finding.code, diagnostic.headline);
        }
        out.push_str(&rendered);
        out.push('\n');
    }
    out.push_str(&summary(report));
    out.push('\n');
    out
}

/// `2 errors, 1 warning` / `no problems found`.
pub fn summary(report: &CheckReport) -> String {
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("1 {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    match (report.errors(), report.warnings()) {
        (0, 0) => "check: no problems found".to_owned(),
        (e, w) => format!("check: {}, {}", plural(e, "error"), plural(w, "warning")),
    }
}

/// One finding as a JSON object with exactly the keys `code`, `severity`,
/// `message`, `file`, `line`, `column`, `topic`, `subject`, `hint` (absent
/// values are `null`; `file` uses `/`).
pub fn finding_json(finding: &Finding) -> Value {
    json!({
        "code": finding.code.as_str(),
        "severity": finding.severity.as_str(),
        "message": finding.message,
        "file": finding.file.as_ref().map(|f| f.to_string_lossy().replace('\\', "/")),
        "line": finding.line,
        "column": finding.column,
        "topic": finding.topic,
        "subject": finding.subject,
        "hint": finding.hint,
    })
}

/// JSON Lines: one object per finding, one per line; nothing when there
/// is no finding. Bidi and invisible characters in strings are `\u`
/// escapes (serde escapes controls): still JSON, safe on a terminal.
pub fn render_json_lines(report: &CheckReport) -> String {
    let mut out = String::new();
    for finding in &report.findings {
        out.push_str(&escape_json(&finding_json(finding).to_string()));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::findings::Code;

    fn sample() -> CheckReport {
        let mut report = CheckReport::default();
        let text = "[kb.topic.x]\nlearnd = []\n";
        report
            .sources
            .insert(".jp/config.toml".into(), text.to_owned());
        let mut finding = Finding::new(
            Code::UnknownKey,
            "unknown key `kb.topic.x.learnd` (ignored)",
        )
        .topic("x")
        .hint("did you mean `learned`?");
        finding.file = Some(".jp/config.toml".into());
        finding.line = Some(2);
        finding.column = Some(1);
        finding.span = Some(13..19);
        report.findings.push(finding);
        report
            .findings
            .push(Finding::new(Code::PromptTooLarge, "too big"));
        report
    }

    #[test]
    fn human_output_points_at_the_source() {
        let text = render_human(&sample(), HumanStyle::default());
        assert!(text.contains("KB101"), "{text}");
        assert!(text.contains("[.jp/config.toml:2:1]"), "{text}");
        assert!(text.contains(" 2 │ learnd = []"), "{text}");
        assert!(text.contains("unknown key"), "{text}");
        assert!(text.contains("did you mean `learned`?"), "{text}");
        assert!(text.ends_with("check: 0 errors, 2 warnings\n"), "{text}");
        assert!(!text.contains('\u{1b}'), "no colour: {text}");
        let colored = render_human(
            &sample(),
            HumanStyle {
                color: true,
                width: 100,
            },
        );
        assert!(colored.contains('\u{1b}'));
    }

    #[test]
    fn snippets_deep_in_a_file_keep_their_line_numbers_and_context() {
        use std::fmt::Write as _;
        let mut report = CheckReport::default();
        let mut text = String::new();
        for i in 1..=5000 {
            let _ = writeln!(text, "k{i} = \"é{i}\"");
        }
        let start = text.find("k4000 ").expect("line");
        report.sources.insert("c.toml".into(), text.clone());
        for (line, span) in [
            (4000, start..start + 5),
            (1, 0..2),
            (5000, text.len() - 12..text.len() - 1),
        ] {
            let mut finding = Finding::new(Code::UnknownKey, "unknown key");
            finding.file = Some("c.toml".into());
            finding.line = Some(line);
            finding.span = Some(span);
            report.findings.push(finding);
        }
        let out = render_human(&report, HumanStyle::default());
        assert!(out.contains("[c.toml:4000:1]"), "{out}");
        for line in [
            " 3999 │ k3999",
            " 4000 │ k4000 = \"é4000\"",
            " 4001 │ k4001",
            " 1 │ k1 = ",
            " 5000 │ k5000",
        ] {
            assert!(out.contains(line), "{line}: {out}");
        }
        assert!(!out.contains("3998 │"), "{out}");
    }

    #[test]
    fn json_lines_have_exactly_the_documented_keys() {
        let out = render_json_lines(&sample());
        let lines: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect();
        assert_eq!(lines.len(), 2);
        let keys: Vec<&str> = lines[0]
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "code", "severity", "message", "file", "line", "column", "topic", "subject", "hint"
            ]
        );
        assert_eq!(lines[0]["file"], ".jp/config.toml");
        assert_eq!(lines[1]["file"], Value::Null);
        assert_eq!(lines[1]["severity"], "warning");
    }
}
