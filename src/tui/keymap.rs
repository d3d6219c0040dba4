//! The key map as data: one table `(scope, key) → command` with its help
//! text. The loop resolves keys through it and the `?` overlay and footer
//! hints are generated from it, so they cannot disagree. Commands have
//! names ([`Command::name`]), so the table could later be read from a
//! configuration; adding a command is a variant, a row here, and an arm
//! in `update`.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{App, Focus, Mode};
use super::command::{Command, Tab};

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Normal,
    Help,
    /// The filter and the pattern tester (one-line inputs).
    Line,
    Choice,
    Form,
    /// The layer picker.
    Picker,
    /// The main screen while a search shows in the focused preview: its
    /// keys come before the main screen's.
    Found,
    /// The search mode's query line.
    Search,
    /// The search mode's hit list.
    SearchHits,
}

impl Scope {
    pub fn of(mode: &Mode) -> Self {
        match mode {
            Mode::Normal => Scope::Normal,
            Mode::Help | Mode::Messages => Scope::Help,
            Mode::Filter(_) | Mode::Pattern(_) | Mode::HelpSearch(..) | Mode::PreviewSearch(_) => {
                Scope::Line
            }
            Mode::Choice(_) => Scope::Choice,
            Mode::Form(_) => Scope::Form,
            Mode::Picker(_) => Scope::Picker,
            Mode::Search(false) => Scope::Search,
            Mode::Search(true) => Scope::SearchHits,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Scope::Normal => "Main screen",
            Scope::Help => "Help and message log",
            Scope::Line => "Filter, pattern tester and searches",
            Scope::Choice => "Choice dialogs",
            Scope::Form => "Forms",
            Scope::Picker => "Edit file picker",
            Scope::Found => "Search in the preview (/ with the preview focused)",
            Scope::Search => "Search: the query line",
            Scope::SearchHits => "Search: the hits",
        }
    }

    /// Text scopes pass unbound keys to the input.
    fn is_text(self) -> bool {
        matches!(
            self,
            Scope::Line | Scope::Form | Scope::Search | Scope::Picker
        )
    }
}

/// One binding.
#[derive(Debug, Clone)]
pub struct Binding {
    pub scope: Scope,
    pub code: KeyCode,
    pub mods: KeyModifiers,
    pub command: Command,
    pub help: &'static str,
}

const NONE: KeyModifiers = KeyModifiers::NONE;
const CTRL: KeyModifiers = KeyModifiers::CONTROL;

fn b(
    scope: Scope,
    code: KeyCode,
    mods: KeyModifiers,
    command: Command,
    help: &'static str,
) -> Binding {
    Binding {
        scope,
        code,
        mods,
        command,
        help,
    }
}

fn c(ch: char) -> KeyCode {
    KeyCode::Char(ch)
}

/// The default key table.
pub fn bindings() -> Vec<Binding> {
    use Command as A;
    use KeyCode as K;
    use Scope::{Choice, Normal};
    let mut v = vec![
        b(Normal, K::Down, NONE, A::MoveDown, "down"),
        b(Normal, c('j'), NONE, A::MoveDown, "down"),
        b(Normal, K::Up, NONE, A::MoveUp, "up"),
        b(Normal, c('k'), NONE, A::MoveUp, "up"),
        b(Normal, K::PageDown, NONE, A::PageDown, "page down"),
        b(Normal, c('d'), CTRL, A::PageDown, "page down"),
        b(Normal, K::PageUp, NONE, A::PageUp, "page up"),
        b(Normal, c('u'), CTRL, A::PageUp, "page up"),
        b(Normal, K::Home, NONE, A::Top, "first row"),
        b(Normal, c('G'), NONE, A::Bottom, "last row"),
        b(Normal, K::End, NONE, A::Bottom, "last row"),
        b(Normal, K::Tab, NONE, A::FocusNext, "next pane"),
        b(
            Normal,
            K::BackTab,
            KeyModifiers::SHIFT,
            A::FocusPrev,
            "previous pane",
        ),
        b(Normal, K::Enter, NONE, A::Activate, "open/close directory"),
        b(Normal, K::Left, NONE, A::Collapse, "close directory"),
        b(Normal, K::Right, NONE, A::Expand, "open directory"),
        b(Normal, c('l'), NONE, A::ToggleLearned, "toggle learned"),
        b(Normal, c('d'), NONE, A::ToggleDisabled, "toggle disabled"),
        b(Normal, c('e'), NONE, A::ToggleEnable, "toggle topic enable"),
        b(Normal, c('u'), NONE, A::Undo, "undo"),
        b(Normal, c('r'), CTRL, A::Redo, "redo"),
        b(Normal, c('i'), NONE, A::EditTopic, "edit topic texts"),
        b(Normal, c('n'), NONE, A::NewTopic, "new topic"),
        b(Normal, c('g'), NONE, A::OpenPatternTester, "pattern tester"),
        b(Normal, c('/'), NONE, A::OpenFilter, "filter subjects"),
        b(
            Normal,
            c('S'),
            NONE,
            A::OpenSearch,
            "search all topics by words",
        ),
        b(
            Normal,
            c('.'),
            NONE,
            A::ToggleShowHidden,
            "show/hide hidden+disabled",
        ),
        b(
            Normal,
            c('U'),
            NONE,
            A::CycleUsageOrder,
            "usage: all / never loaded / most loaded",
        ),
        b(Normal, c('o'), NONE, A::OpenEditor, "open in $EDITOR"),
        b(Normal, c('f'), NONE, A::PickLayer, "choose the edit file"),
        b(Normal, c('R'), NONE, A::Reload, "reload"),
        b(
            Normal,
            c('t'),
            NONE,
            A::ToggleFindingsScope,
            "findings: all topics / this topic",
        ),
        b(
            Normal,
            c('c'),
            NONE,
            A::CyclePromptView,
            "prompt as: RFD / JP / Claude Code / Codex",
        ),
        b(Normal, c(']'), NONE, A::NextTab, "next tab"),
        b(Normal, c('['), NONE, A::PrevTab, "previous tab"),
        b(Normal, c('?'), NONE, A::ToggleHelp, "help"),
        b(Normal, c('q'), NONE, A::Quit, "quit"),
        b(Normal, c('c'), CTRL, A::Quit, "quit"),
    ];
    v.extend(selection_bindings());
    v.extend(preview_bindings());
    v.extend(dialog_bindings());
    v.extend(search_bindings());
    for (i, tab) in Tab::ALL.iter().enumerate() {
        let digit = char::from_digit(u32::try_from(i + 1).unwrap_or(1), 10).unwrap_or('1');
        v.push(b(Normal, c(digit), NONE, A::SelectTab(*tab), tab.label()));
    }
    for n in 1..=9 {
        let digit = char::from_digit(n, 10).unwrap_or('1');
        v.push(b(
            Choice,
            c(digit),
            NONE,
            A::Choose(n as usize),
            "choose option",
        ));
    }
    v
}

/// Marking subjects for `l`/`d` (issue 16 item 3).
fn selection_bindings() -> Vec<Binding> {
    use Command as A;
    use Scope::Normal;
    vec![
        b(
            Normal,
            c(' '),
            NONE,
            A::ToggleMark,
            "mark / unmark (l/d act on marks)",
        ),
        b(
            Normal,
            c('v'),
            NONE,
            A::MarkRange,
            "mark from the last mark to here",
        ),
        b(
            Normal,
            c('a'),
            CTRL,
            A::MarkShown,
            "mark every row shown (filtered)",
        ),
    ]
}

/// Backing out, copying, wrapping and the message log (issue 16).
fn preview_bindings() -> Vec<Binding> {
    use Command as A;
    use KeyCode as K;
    use Scope::Normal;
    vec![
        b(
            Normal,
            K::Esc,
            NONE,
            A::Cancel,
            "back out: clear the filter, then leave the preview",
        ),
        b(
            Normal,
            c('y'),
            NONE,
            A::Copy,
            "copy slug / prompt / learn output / finding (OSC 52)",
        ),
        b(
            Normal,
            c('w'),
            NONE,
            A::ToggleWrap,
            "preview: wrap / cut long lines",
        ),
        b(Normal, c('M'), NONE, A::ShowMessages, "message log"),
        b(Scope::Found, c('n'), NONE, A::SearchNext, "next match"),
        b(Scope::Found, c('N'), NONE, A::SearchPrev, "previous match"),
        b(Scope::Found, K::Esc, NONE, A::Cancel, "clear the search"),
        b(
            Normal,
            c('x'),
            NONE,
            A::FixFinding,
            "Findings tab: apply the finding's fix (Enter goes to it)",
        ),
    ]
}

/// The search mode's keys: the query line takes text, the hit list
/// acts on the hit as the subjects pane on a row.
fn search_bindings() -> Vec<Binding> {
    use Command as A;
    use KeyCode as K;
    use Scope::{Search, SearchHits};
    let mut v = vec![
        b(
            Search,
            K::Enter,
            NONE,
            A::Confirm,
            "go to the hit's subject",
        ),
        b(Search, K::Down, NONE, A::MoveDown, "next hit"),
        b(Search, K::Up, NONE, A::MoveUp, "previous hit"),
        b(
            Search,
            K::Tab,
            NONE,
            A::NextField,
            "to the hits (l/d act there)",
        ),
        b(Search, K::Esc, NONE, A::Cancel, "leave the search"),
        b(Search, c('c'), CTRL, A::Quit, "quit"),
        b(
            SearchHits,
            K::Enter,
            NONE,
            A::Confirm,
            "go to the hit's subject",
        ),
        b(SearchHits, K::Down, NONE, A::MoveDown, "next hit"),
        b(SearchHits, c('j'), NONE, A::MoveDown, "next hit"),
        b(SearchHits, K::Up, NONE, A::MoveUp, "previous hit"),
        b(SearchHits, c('k'), NONE, A::MoveUp, "previous hit"),
        b(SearchHits, K::PageDown, NONE, A::PageDown, "page down"),
        b(SearchHits, K::PageUp, NONE, A::PageUp, "page up"),
        b(SearchHits, K::Home, NONE, A::Top, "first hit"),
        b(SearchHits, K::End, NONE, A::Bottom, "last hit"),
        b(SearchHits, c('l'), NONE, A::ToggleLearned, "toggle learned"),
        b(
            SearchHits,
            c('d'),
            NONE,
            A::ToggleDisabled,
            "toggle disabled",
        ),
        b(
            SearchHits,
            c(' '),
            NONE,
            A::ToggleMark,
            "mark or unmark (l/d act on the marks)",
        ),
        b(SearchHits, c('u'), NONE, A::Undo, "undo"),
        b(SearchHits, K::Tab, NONE, A::NextField, "edit the query"),
        b(SearchHits, c('/'), NONE, A::NextField, "edit the query"),
        b(SearchHits, K::Esc, NONE, A::Cancel, "leave the search"),
    ];
    v.push(b(SearchHits, c('c'), CTRL, A::Quit, "quit"));
    v
}

/// Bindings of the overlays and inputs.
fn dialog_bindings() -> Vec<Binding> {
    use Command as A;
    use KeyCode as K;
    use Scope::{Choice, Form, Help, Line, Picker};
    vec![
        // Letters filter the list (JP's own configuration has 60-odd
        // files), so the picker moves with the arrows and page keys only.
        b(Picker, K::Down, NONE, A::MoveDown, "next file"),
        b(Picker, K::Up, NONE, A::MoveUp, "previous file"),
        b(Picker, K::PageDown, NONE, A::PageDown, "page down"),
        b(Picker, K::PageUp, NONE, A::PageUp, "page up"),
        b(Picker, K::Home, NONE, A::Top, "first file"),
        b(Picker, K::End, NONE, A::Bottom, "last file"),
        b(
            Picker,
            K::Enter,
            NONE,
            A::Confirm,
            "edits go to this file (on the fold row: show the files)",
        ),
        b(Picker, K::Esc, NONE, A::Cancel, "keep the current file"),
        b(Picker, c('c'), CTRL, A::Quit, "quit"),
        b(Help, K::Esc, NONE, A::Cancel, "close help"),
        b(Help, c('?'), NONE, A::Cancel, "close help"),
        b(Help, c('q'), NONE, A::Cancel, "close help"),
        b(Help, c('c'), CTRL, A::Quit, "quit"),
        b(Help, K::Down, NONE, A::MoveDown, "scroll down"),
        b(Help, c('j'), NONE, A::MoveDown, "scroll down"),
        b(Help, K::Up, NONE, A::MoveUp, "scroll up"),
        b(Help, c('k'), NONE, A::MoveUp, "scroll up"),
        b(Help, K::PageDown, NONE, A::PageDown, "page down"),
        b(Help, c('d'), CTRL, A::PageDown, "page down"),
        b(Help, K::PageUp, NONE, A::PageUp, "page up"),
        b(Help, c('u'), CTRL, A::PageUp, "page up"),
        b(Help, K::Home, NONE, A::Top, "top"),
        b(Help, c('g'), NONE, A::Top, "top"),
        b(Help, K::End, NONE, A::Bottom, "end"),
        b(Help, c('G'), NONE, A::Bottom, "end"),
        b(Help, c('/'), NONE, A::OpenFilter, "search"),
        b(Help, c('n'), NONE, A::SearchNext, "next match"),
        b(Help, c('N'), NONE, A::SearchPrev, "previous match"),
        b(Line, K::Esc, NONE, A::Cancel, "close"),
        b(Line, K::Enter, NONE, A::Confirm, "apply / add pattern"),
        b(
            Line,
            K::Tab,
            NONE,
            A::NextField,
            "learned ↔ disabled (tester)",
        ),
        b(Line, c('c'), CTRL, A::Quit, "quit"),
        b(Choice, K::Esc, NONE, A::Cancel, "cancel"),
        b(Choice, K::Enter, NONE, A::Confirm, "confirm (one option)"),
        b(Choice, c('q'), NONE, A::Cancel, "cancel"),
        b(Choice, c('c'), CTRL, A::Quit, "quit"),
        b(Form, K::Esc, NONE, A::Cancel, "cancel"),
        b(
            Form,
            K::Enter,
            NONE,
            A::Confirm,
            "save (new line in a multi-line field)",
        ),
        b(Form, c('s'), CTRL, A::Save, "save"),
        b(Form, K::Tab, NONE, A::NextField, "next field"),
        b(
            Form,
            K::BackTab,
            KeyModifiers::SHIFT,
            A::PrevField,
            "previous field",
        ),
        b(Form, c('c'), CTRL, A::Quit, "quit"),
    ]
}

/// Shift is part of the character itself (`G`, `?`), so it is ignored
/// for character keys.
fn normalize(key: &KeyEvent) -> (KeyCode, KeyModifiers) {
    let mut mods =
        key.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
    if matches!(key.code, KeyCode::Char(_)) {
        mods.remove(KeyModifiers::SHIFT);
    }
    if key.code == KeyCode::BackTab {
        mods.insert(KeyModifiers::SHIFT);
    }
    (key.code, mods)
}

/// The command for a key in a scope; text scopes pass unbound keys on as
/// [`Command::Input`].
pub fn resolve(table: &[Binding], scope: Scope, key: &KeyEvent) -> Option<Command> {
    let (code, mods) = normalize(key);
    table
        .iter()
        .find(|b| b.scope == scope && b.code == code && b.mods == mods)
        .map(|b| b.command.clone())
        .or_else(|| scope.is_text().then_some(Command::Input(*key)))
}

/// The command for a key in the app's state: while a search shows in the
/// focused preview, its keys (`n`, `N`, `Esc`) first.
pub fn resolve_in(table: &[Binding], app: &App, key: &KeyEvent) -> Option<Command> {
    let found = matches!(app.mode, Mode::Normal)
        && app.focus == Focus::Preview
        && app
            .preview
            .search
            .as_ref()
            .is_some_and(|s| s.tab == app.preview.tab);
    found
        .then(|| resolve(table, Scope::Found, key))
        .flatten()
        .or_else(|| resolve(table, Scope::of(&app.mode), key))
}

/// A key as the help shows it (`Ctrl-r`, `PgDn`, `j`).
pub fn key_label(code: KeyCode, mods: KeyModifiers) -> String {
    let name = match code {
        KeyCode::Char(' ') => "Space".to_owned(),
        KeyCode::Char(ch) => ch.to_string(),
        KeyCode::Up => "↑".to_owned(),
        KeyCode::Down => "↓".to_owned(),
        KeyCode::Left => "←".to_owned(),
        KeyCode::Right => "→".to_owned(),
        KeyCode::PageUp => "PgUp".to_owned(),
        KeyCode::PageDown => "PgDn".to_owned(),
        KeyCode::BackTab => return "Shift-Tab".to_owned(),
        other => format!("{other:?}"),
    };
    if mods.contains(KeyModifiers::CONTROL) {
        format!("Ctrl-{name}")
    } else {
        name
    }
}

/// The help rows of a scope: keys sharing a help text are joined
/// (`j / ↓  down`), in table order.
pub fn help_rows(table: &[Binding], scope: Scope) -> Vec<(String, &'static str)> {
    let mut rows: Vec<(String, &'static str)> = Vec::new();
    for binding in table.iter().filter(|b| b.scope == scope) {
        let label = key_label(binding.code, binding.mods);
        match rows.iter_mut().find(|(_, help)| *help == binding.help) {
            Some((keys, _)) => {
                keys.push_str(" / ");
                keys.push_str(&label);
            }
            None => rows.push((label, binding.help)),
        }
    }
    rows
}

/// The first key bound to a command in a scope (footer hints).
pub fn key_for(table: &[Binding], scope: Scope, command: &Command) -> Option<String> {
    table
        .iter()
        .find(|b| {
            b.scope == scope
                && std::mem::discriminant(&b.command) == std::mem::discriminant(command)
        })
        .map(|b| key_label(b.code, b.mods))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn resolves_by_scope() {
        let t = bindings();
        let cases: &[(Scope, KeyEvent, &str)] = &[
            (Scope::Normal, key(c('j'), NONE), "MoveDown"),
            (Scope::Normal, key(c('l'), NONE), "ToggleLearned"),
            (Scope::Normal, key(c('r'), CTRL), "Redo"),
            (Scope::Normal, key(c('G'), KeyModifiers::SHIFT), "Bottom"),
            (Scope::Normal, key(c('2'), NONE), "SelectTab(Prompt)"),
            (
                Scope::Normal,
                key(KeyCode::BackTab, KeyModifiers::SHIFT),
                "FocusPrev",
            ),
            (Scope::Help, key(KeyCode::Esc, NONE), "Cancel"),
            (Scope::Choice, key(c('2'), NONE), "Choose(2)"),
            (Scope::Line, key(c('j'), NONE), "Input"),
            (Scope::Form, key(KeyCode::Enter, NONE), "Confirm"),
        ];
        for (scope, k, expected) in cases {
            let got = format!("{:?}", resolve(&t, *scope, k).expect("bound"));
            assert!(got.starts_with(expected), "{scope:?} {k:?}: {got}");
        }
        assert!(resolve(&t, Scope::Normal, &key(c('z'), NONE)).is_none());
        // `l` in a text input types an `l`, it does not toggle learned.
        assert!(matches!(
            resolve(&t, Scope::Line, &key(c('l'), NONE)),
            Some(Command::Input(_))
        ));
    }

    #[test]
    fn a_shown_preview_search_takes_n_and_esc_first() {
        use crate::tui::app::App;
        use crate::tui::preview_search::Search;
        let t = bindings();
        let mut app = App::new(crate::tui::theme::Theme { color: true }, (100, 30));
        let n = key(c('n'), NONE);
        let esc = key(KeyCode::Esc, NONE);
        app.focus = Focus::Preview;
        assert_eq!(resolve_in(&t, &app, &n), Some(Command::NewTopic));
        app.preview.search = Some(Search::new("x".into(), app.preview.tab));
        assert_eq!(resolve_in(&t, &app, &n), Some(Command::SearchNext));
        assert_eq!(
            resolve_in(&t, &app, &key(c('N'), KeyModifiers::SHIFT)),
            Some(Command::SearchPrev)
        );
        assert_eq!(resolve_in(&t, &app, &esc), Some(Command::Cancel));
        // Other keys fall through to the main screen's.
        assert_eq!(
            resolve_in(&t, &app, &key(c('l'), NONE)),
            Some(Command::ToggleLearned)
        );
        // Not focused, or on another tab: `n` is "new topic" again.
        app.focus = Focus::Subjects;
        assert_eq!(resolve_in(&t, &app, &n), Some(Command::NewTopic));
        app.focus = Focus::Preview;
        app.preview.tab = Tab::Findings;
        assert_eq!(resolve_in(&t, &app, &n), Some(Command::NewTopic));
    }

    #[test]
    fn no_key_is_bound_twice_in_a_scope() {
        let t = bindings();
        for (i, a) in t.iter().enumerate() {
            for other in &t[i + 1..] {
                assert!(
                    !(a.scope == other.scope && a.code == other.code && a.mods == other.mods),
                    "{:?} {:?} bound twice",
                    a.scope,
                    a.code
                );
            }
        }
    }

    #[test]
    fn help_joins_keys_of_one_action() {
        let rows = help_rows(&bindings(), Scope::Normal);
        assert_eq!(rows[0], ("↓ / j".to_owned(), "down"));
        assert!(rows.iter().any(|(k, h)| k == "Ctrl-r" && *h == "redo"));
        assert_eq!(
            key_for(&bindings(), Scope::Normal, &Command::ToggleHelp).as_deref(),
            Some("?")
        );
    }
}
