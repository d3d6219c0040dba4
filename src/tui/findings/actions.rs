//! Acting on a finding of the Findings tab (what is under the cursor is
//! [`super::shown`]'s): where `Enter` jumps (the subject's row
//! on the Subject tab, or the config file's line on the Config tab),
//! where `o` opens the editor, and the one fix a finding may have
//! (disable a binary subject, remove a `learned`/`disabled` entry that
//! selects nothing). A fix is an intent of the curation planner, as `l`
//! and `d` are: one write, one undo step, its confirmation when it asks
//! for one. Pure: no file is read or written here.

use super::shown::{absolute, current, cursor, editor_target, fix, shown, topic_index};
use crate::tui::app::App;
use crate::tui::command::Command;
use crate::tui::effect::Effect;
use crate::tui::pane::{Focus, Tab};
use crate::tui::plans::{self, Proposal};
use crate::tui::tree::RowKind;

/// Moves the cursor by `delta` findings (clamped to the list).
pub fn move_cursor(app: &mut App, delta: isize) {
    let n = shown(app).len();
    let from = cursor(app, n);
    app.features.findings.cursor = from.saturating_add_signed(delta).min(n.saturating_sub(1));
}

/// `Enter` on a finding: its subject's row (the topic selected, the row
/// made visible: the topic's filter cleared, hidden rows shown, its
/// directories opened) on the Subject tab; else its config line on the
/// Config tab, scrolled to it and marked. Returns what the status line
/// says, or why there is nowhere to go.
pub fn jump(app: &mut App) -> Result<String, String> {
    let finding = current(app).ok_or("no finding selected")?.clone();
    let topic = finding.topic.as_deref().and_then(|id| topic_index(app, id));
    if let (Some(t), Some(slug)) = (topic, finding.subject.as_deref())
        && select_subject(app, t, slug)
    {
        app.preview.tab = Tab::Subject;
        app.preview.scroll = 0;
        app.focus = Focus::Subjects;
        return Ok(format!("at subject `{slug}`"));
    }
    let (Some(path), Some(line)) = (absolute(app, &finding), finding.line) else {
        return Err(format!(
            "{} names no subject and no config line to go to",
            finding.code.as_str()
        ));
    };
    if let Some(t) = topic {
        app.topics.selected = t;
    }
    app.preview.config.jump = Some((path, line));
    app.preview.tab = Tab::Config;
    app.preview.scroll = config_scroll(app, line);
    app.focus = Focus::Preview;
    let shown = finding.file.as_ref().map_or_else(String::new, |f| {
        jp_kb_core::display::clean_name(&f.display().to_string()).into_owned()
    });
    Ok(format!("at {shown}:{line}"))
}

/// The preview scroll that shows config line `line` (1-based): none
/// when it is on the first screen, else with two lines above it. The
/// tab's first row is the file's name; long lines above take the rows
/// they wrap to.
fn config_scroll(app: &App, line: u32) -> usize {
    let Some((path, _)) = &app.preview.config.jump else {
        return 0;
    };
    let line = usize::try_from(line).unwrap_or(usize::MAX);
    let width = crate::tui::text_layout::word_rows::body_width(app);
    let text = app
        .loaded
        .model
        .as_ref()
        .and_then(|m| m.config_texts.get(path))
        .map_or("", String::as_str);
    // Row 0 is the header; file line N starts after the N-1 lines above.
    let above = text
        .lines()
        .take(line.saturating_sub(1))
        .map(|l| {
            crate::tui::text_layout::word_rows::word_rows(
                &format!("{:5}{l}", ""),
                width,
                app.preview.wrap,
            )
        })
        .sum::<usize>();
    let row = 1 + above;
    // On the first screen, the file's name stays in view too.
    if row < crate::tui::text_layout::word_rows::body_height(app) {
        return 0;
    }
    row.saturating_sub(2)
}

/// Selects `slug`'s row in topic `t`, making it visible first.
fn select_subject(app: &mut App, t: usize, slug: &str) -> bool {
    let Some(state) = app.loaded.model.as_ref().and_then(|m| m.kb.topics.get(t)) else {
        return false;
    };
    let Some(res) = state.resolution() else {
        return false;
    };
    let Some(index) = res.subjects().iter().position(|s| s.slug() == slug) else {
        return false;
    };
    let id = state.id().to_owned();
    let rel = res.subjects()[index].rel_path().to_owned();
    app.topics.selected = t;
    // The topic's own filter comes in, then goes: the row must show.
    crate::tui::filter::follow_topic(app);
    app.subjects.filter.clear();
    app.subjects.show_hidden = true;
    app.features.usage.order = crate::tui::usage::Order::All;
    app.subjects
        .collapsed
        .retain(|(topic, dir)| topic != &id || !rel.starts_with(&format!("{dir}/")));
    let rows = app.rows();
    match rows
        .iter()
        .position(|r| matches!(r.kind, RowKind::Subject(i) if i == index))
    {
        Some(row) => {
            app.select_row(row);
            true
        }
        None => false,
    }
}

/// The current finding's fix as the planner answers it, or why there is
/// none.
pub fn fix_proposal(app: &App) -> Proposal {
    match (fix(app), current(app)) {
        (Some(fix), _) => plans::propose(plans::ask(app, &fix.intent())),
        (None, Some(f)) => Proposal::Refuse(format!(
            "{} has no automatic fix; Enter goes to it, o opens it in $EDITOR",
            f.code.as_str()
        )),
        (None, None) => Proposal::Refuse("no finding selected".into()),
    }
}

/// What `x` and `o` on the Findings tab ask of `update`.
pub enum FindingKey {
    /// The planner's answer to carry out (or show).
    Propose(Box<Proposal>),
    Effects(Vec<Effect>),
}

/// `x` anywhere and `o` on the Findings tab; `None` for every other key
/// (and `o` elsewhere), which `update` handles.
pub fn key(app: &mut App, command: &Command) -> Option<FindingKey> {
    let on_tab = app.preview.tab == Tab::Findings;
    match command {
        Command::FixFinding if on_tab => Some(FindingKey::Propose(Box::new(fix_proposal(app)))),
        Command::FixFinding => Some(FindingKey::Propose(Box::new(Proposal::Refuse(
            "x fixes the finding under the cursor on the Findings tab (t shows it)".into(),
        )))),
        Command::OpenEditor if on_tab => Some(FindingKey::Effects(match editor_target(app) {
            Some((path, Some(line))) => vec![Effect::OpenEditorAt(path, line)],
            Some((path, None)) => vec![Effect::OpenEditor(path)],
            None => {
                app.set_status("the finding names no file to open", true);
                Vec::new()
            }
        })),
        _ => None,
    }
}
