//! `jp-kb check` on screen: the Findings tab (every finding, errors first,
//! the selected topic's marked), the topics pane's per-topic counts and the
//! status line's total. Severity is a glyph and a color, never color alone.

use ratatui::style::Style;
use ratatui::text::{Line, Span, Text};

use crate::tui::app::App;
use crate::tui::command::Command;
use crate::tui::keymap::key_for;
use crate::tui::keymap::scope::Scope;
use crate::tui::keymap::table::bindings;
use crate::tui::pane::Focus;
use crate::tui::pane::Tab;
use jp_kb_core::check::{Finding, Severity, summary};
use jp_kb_core::display::clean_name;

/// The glyph of a severity (the same in the tab, the topics pane and help).
pub fn glyph(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "✗",
        Severity::Warning => "⚠",
        // A severity newer than this TUI: a neutral mark (the line's code
        // and message still say what it is).
        _ => "•",
    }
}

fn style(app: &App, severity: Severity) -> Style {
    match severity {
        Severity::Error => app.screen.theme.error(),
        Severity::Warning => app.screen.theme.warning(),
        _ => Style::default(),
    }
}

/// `file:line:column`, as much of it as is known.
pub fn location(finding: &Finding) -> Option<String> {
    let file = clean_name(&finding.file.as_ref()?.display().to_string()).into_owned();
    Some(match (finding.line, finding.column) {
        (Some(line), Some(column)) => format!("{file}:{line}:{column}"),
        (Some(line), None) => format!("{file}:{line}"),
        (None, _) => file,
    })
}

/// One finding: `▸✗ KB006 message`, its location, its hint. `mine`: about
/// the selected topic (marked with `▸` and bold); `cursor`: the one
/// `Enter`, `o` and `x` act on (`❯` and the selection's colours, which
/// keep without colour).
fn finding_lines(app: &App, f: &Finding, mine: bool, cursor: bool) -> Vec<Line<'static>> {
    let t = app.screen.theme;
    let sev = style(app, f.severity);
    let message = Span::styled(
        clean_name(&f.message).into_owned(),
        if mine { t.title() } else { Style::new() },
    );
    let marker = match (cursor, mine) {
        (true, _) => "❯",
        (false, true) => "▸",
        (false, false) => " ",
    };
    let mut first = Line::from(vec![
        Span::styled(marker, t.key()),
        Span::styled(glyph(f.severity), sev),
        Span::raw(" "),
        Span::styled(f.code.as_str(), sev),
        Span::raw(" "),
        message,
    ]);
    if cursor {
        first = first.style(t.selected(app.focus == Focus::Preview));
    }
    let mut lines = vec![first];
    let place = location(f).unwrap_or_else(|| "(command line or whole workspace)".to_owned());
    lines.push(Line::from(vec![
        Span::raw("   "),
        Span::styled(place, t.key()),
    ]));
    if let Some(hint) = &f.hint {
        lines.push(Line::styled(
            format!("   hint: {}", clean_name(hint)),
            t.muted(),
        ));
    }
    lines
}

/// The Findings tab, and the line the cursor's finding starts on (the
/// preview scrolls to keep it in view).
pub fn tab(app: &App) -> (Text<'static>, usize) {
    let t = app.screen.theme;
    let Some(report) = &app.features.findings.report else {
        return (Text::styled("(checking…)", t.muted()), 0);
    };
    let topic = app.topic_state().map(|s| s.id().to_owned());
    let toggle =
        key_for(&bindings(), Scope::Normal, &Command::ToggleFindingsScope).unwrap_or_default();
    let only = app.features.findings.only_topic && topic.is_some();
    let scope = match (&topic, only) {
        (Some(id), true) => format!(" · topic `{}` only ({toggle}: all)", clean_name(id)),
        (Some(id), false) => format!(" · all topics ({toggle}: only `{}`)", clean_name(id)),
        (None, _) => String::new(),
    };
    // A partial check never claims "no problems": it says what it skipped.
    let partial = !report.content_skipped.is_empty();
    let head = match (report.findings.is_empty(), partial) {
        (true, false) => Span::styled("✓ check: no problems found", t.ok()),
        (true, true) => Span::styled(
            "check (partial): no problems in what was read — run `jp-kb check` for the full check",
            t.warning(),
        ),
        (false, false) => Span::styled(summary(report), t.title()),
        (false, true) => Span::styled(
            format!("{} (partial — run `jp-kb check`)", summary(report)),
            t.title(),
        ),
    };
    let pending = if app.features.findings.pending {
        " · re-checking…"
    } else {
        ""
    };
    let mut lines = vec![
        Line::from(vec![head, Span::styled(scope + pending, t.muted())]),
        Line::default(),
    ];
    let mut shown = 0;
    let cursor =
        crate::tui::findings::shown::cursor(app, crate::tui::findings::shown::shown(app).len());
    let mut cursor_line = 0;
    for f in &report.findings {
        let mine = topic.is_some() && f.topic == topic;
        if only && !mine {
            continue;
        }
        if shown == cursor {
            cursor_line = lines.len();
        }
        lines.extend(finding_lines(app, f, mine, shown == cursor));
        shown += 1;
    }
    if !report.content_skipped.is_empty() {
        lines.push(Line::default());
        lines.push(Line::styled(
            format!(
                "Not read here (over {} subjects): the contents of {}. Run `jp-kb check` for binary, size and hidden-subject findings there.",
                crate::tui::findings::state::CONTENT_SCAN_LIMIT,
                report
                    .content_skipped
                    .iter()
                    .map(|id| format!("`{}`", clean_name(id)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            t.muted(),
        ));
    }
    if shown == 0 && !report.findings.is_empty() {
        lines.push(Line::styled(
            format!("(no findings about this topic; {toggle} shows all)"),
            t.muted(),
        ));
    }
    (Text::from(lines), cursor_line)
}

/// ` ✗1 ⚠2` after a topic's counts: its check findings.
pub fn topic_marker(app: &App, id: &str) -> Vec<Span<'static>> {
    let (errors, warnings) = app.features.findings.topic_counts(id);
    let mut spans = Vec::new();
    for (n, severity) in [(errors, Severity::Error), (warnings, Severity::Warning)] {
        if n > 0 {
            spans.push(Span::raw(" "));
            spans.push(Span::styled(
                format!("{}{n}", glyph(severity)),
                style(app, severity),
            ));
        }
    }
    spans
}

/// `check: 1 error, 3 warnings` for the status line, colored by the worst;
/// `check ✗1 ⚠3` when that does not fit in `room` cells.
pub fn status_span(app: &App, room: usize) -> Option<Span<'static>> {
    let Some(report) = &app.features.findings.report else {
        return app
            .features
            .findings
            .pending
            .then(|| Span::styled("check …", app.screen.theme.muted()));
    };
    let (errors, warnings) = (report.errors(), report.warnings());
    let style = if errors > 0 {
        app.screen.theme.error()
    } else if warnings > 0 || !report.content_skipped.is_empty() {
        app.screen.theme.warning()
    } else {
        app.screen.theme.ok()
    };
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let full = format!(
        "check: {}, {}",
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    // `partial`: topics were too large to read here (`jp-kb check` reads
    // them), so zero is not "no problems".
    let partial = !report.content_skipped.is_empty();
    let full = if partial {
        format!("{full} (partial: run jp-kb check)")
    } else {
        full
    };
    let mut text = if full.chars().count() <= room {
        full
    } else {
        format!(
            "check {}{errors} {}{warnings}{}",
            glyph(Severity::Error),
            glyph(Severity::Warning),
            if partial { " partial" } else { "" }
        )
    };
    if app.features.findings.pending {
        // The shown counts are the previous check's until this one ends.
        text.push_str(" …");
    }
    Some(Span::styled(text, style))
}

/// The help overlay's legend lines for the topic counts.
pub fn legend(app: &App) -> Vec<Line<'static>> {
    [Severity::Error, Severity::Warning]
        .into_iter()
        .map(|s| {
            Line::from(vec![
                Span::raw("  "),
                Span::styled(format!("{}N", glyph(s)), style(app, s)),
                Span::raw(format!(
                    " N check {}s about the topic (tab {})",
                    s.as_str(),
                    Tab::Findings.index() + 1
                )),
            ])
        })
        .collect()
}
