//! `jp-kb check` in the TUI: the last report (errors first), which topic's
//! findings the Findings tab shows, and [`compute`], which runs the
//! library's check (it reads subject files, so only the driver calls it,
//! after each load: a frame never runs a check; the terminal runs it on a
//! worker thread).

use jp_kb_core::KnowledgeBase;
use jp_kb_core::check::{CheckReport, Finding, Severity, Thresholds, check, check_knowledge_base};
use jp_kb_core::{Environment, LoadOptions};

/// The findings of the last check, kept until the next load.
#[derive(Debug, Default)]
pub struct Findings {
    /// `None` until the first check ran.
    pub report: Option<CheckReport>,
    /// Show only the selected topic's findings (else all, the selected
    /// topic's highlighted).
    pub only_topic: bool,
    /// A check was asked for and has not answered yet (the report shown
    /// is the previous one).
    pub pending: bool,
    /// The finding `Enter`, `o` and `x` act on, among those the tab
    /// lists (see `finding_actions::shown`).
    pub cursor: usize,
}

impl Findings {
    /// Stores a new report, errors first (the library's order otherwise).
    pub fn set(&mut self, mut report: CheckReport) {
        report.findings.sort_by_key(|f| f.severity);
        self.report = Some(report);
        self.pending = false;
    }

    /// Every finding, errors first.
    pub fn all(&self) -> &[Finding] {
        self.report.as_ref().map_or(&[], |r| r.findings.as_slice())
    }

    /// (errors, warnings) about topic `id`.
    pub fn topic_counts(&self, id: &str) -> (usize, usize) {
        self.all()
            .iter()
            .filter(|f| f.topic.as_deref() == Some(id))
            .fold((0, 0), |(e, w), f| match f.severity {
                Severity::Error => (e + 1, w),
                Severity::Warning => (e, w + 1),
                // A kind of finding this version does not count (neither
                // an error nor a warning) changes neither total.
                _ => (e, w),
            })
    }
}

/// Topics above this many subjects get no content checks in the TUI: the
/// check runs after every load and edit, and reading every file of a
/// 100k-subject topic each time would cost seconds of CPU and hundreds of
/// megabytes. `jp-kb check` has no such limit; the Findings tab says which
/// topics were skipped.
pub const CONTENT_SCAN_LIMIT: usize = 5_000;

/// The thresholds the TUI checks with.
pub fn tui_thresholds() -> Thresholds {
    Thresholds::default()
        .content_scan_limit(Some(CONTENT_SCAN_LIMIT))
        .today(Some(crate::today::today()))
}

/// Runs the check on what the app shows: the loaded knowledge base
/// (shared, not loaded again: a second copy of a 100k-subject walk would
/// double the TUI's memory), or, when the configuration does not load
/// (`None`), the workspace from scratch (so the parse error is a finding
/// with its file and line). Does I/O.
pub fn compute(
    kb: Option<&KnowledgeBase>,
    env: &Environment,
    options: &LoadOptions,
) -> CheckReport {
    let thresholds = tui_thresholds();
    let mut report = match kb {
        Some(kb) => check_knowledge_base(kb, &thresholds),
        None => check(env, options, &thresholds),
    };
    // The hints `jp-kb check` prints, commands included.
    crate::hints::with_commands(&mut report);
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::App;
    use crate::tui::command::Command;
    use crate::tui::effect::Effect;
    use crate::tui::event::Event;
    use crate::tui::model::LoadOutcome;
    use crate::tui::pane::Tab;
    use crate::tui::theme::Theme;
    use crate::tui::update::update;
    use jp_kb_core::check::Code;

    fn report(codes: &[(Code, &str)]) -> CheckReport {
        let mut report = CheckReport::default();
        report.findings = codes
            .iter()
            .map(|(c, topic)| Finding::new(*c, c.label()).topic(topic))
            .collect();
        report
    }

    #[test]
    fn every_load_asks_for_a_check_and_the_result_replaces_the_last() {
        let mut app = App::new(Theme { color: true }, (100, 30));
        // A reload (from a key, a file change or a saved edit) reloads...
        assert_eq!(
            update(&mut app, Command::Reload),
            [Effect::Reload { paths: Vec::new() }]
        );
        // ...and every load, good or bad, is followed by a check.
        let outcome = LoadOutcome {
            result: Err("bad".into()),
            changed: Vec::new(),
            started: 0,
        };
        assert_eq!(
            update(&mut app, Event::Loaded(Box::new(outcome))),
            [Effect::Check]
        );
        let first = report(&[
            (Code::HiddenUnreachable, "p"),
            (Code::SubjectsNotFound, "q"),
            (Code::BinarySubject, "p"),
        ]);
        assert!(update(&mut app, Event::Checked(Box::new(first))).is_empty());
        let codes: Vec<Code> = app.features.findings.all().iter().map(|f| f.code).collect();
        // Errors first, the library's order otherwise.
        assert_eq!(
            codes,
            [
                Code::SubjectsNotFound,
                Code::HiddenUnreachable,
                Code::BinarySubject
            ]
        );
        assert_eq!(app.features.findings.topic_counts("p"), (0, 2));
        assert_eq!(app.features.findings.topic_counts("q"), (1, 0));
        // The next check replaces the cached result.
        update(
            &mut app,
            Event::Checked(Box::new(report(&[(Code::TopicEmpty, "p")]))),
        );
        assert_eq!(app.features.findings.all().len(), 1);
        assert_eq!(app.features.findings.topic_counts("q"), (0, 0));
    }

    #[test]
    fn t_shows_the_tab_then_toggles_the_scope() {
        let mut app = App::new(Theme { color: true }, (100, 30));
        assert!(update(&mut app, Command::ToggleFindingsScope).is_empty());
        assert_eq!(app.preview.tab, Tab::Findings);
        assert!(!app.features.findings.only_topic);
        update(&mut app, Command::ToggleFindingsScope);
        assert!(app.features.findings.only_topic);
        update(&mut app, Command::ToggleFindingsScope);
        assert!(!app.features.findings.only_topic);
    }
}
