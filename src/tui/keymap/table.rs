//! The default key table: every binding, scope by scope, with its help
//! text (the data [`super::resolve`], the `?` overlay and the footer read).

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::scope::{Binding, Scope};
use crate::tui::command::Command;
use crate::tui::pane::Tab;

pub(super) const NONE: KeyModifiers = KeyModifiers::NONE;
pub(super) const CTRL: KeyModifiers = KeyModifiers::CONTROL;

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

pub(super) fn c(ch: char) -> KeyCode {
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
            "search by words, and meaning with a model",
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
    v.push(suspend_binding());
    v.extend(selection_bindings());
    v.extend(preview_bindings());
    v.extend(dialog_bindings());
    v.extend(search_bindings());
    v.extend(prune_bindings());
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

/// In raw mode Ctrl-z is a key, not SIGTSTP: it suspends in every mode,
/// as in a shell (and `?` lists it, issue 37 item 5).
fn suspend_binding() -> Binding {
    b(
        Scope::Everywhere,
        c('z'),
        CTRL,
        Command::Suspend,
        "suspend to the shell (fg comes back)",
    )
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

/// The subjects' age filter and the prune view (after `usage`'s order).
fn age_bindings() -> Vec<Binding> {
    use Command as A;
    use Scope::Normal;
    vec![
        b(
            Normal,
            c('A'),
            NONE,
            A::CycleAgeFilter,
            "age: all / stale / low confidence",
        ),
        b(
            Normal,
            c('P'),
            NONE,
            A::OpenPrune,
            "prune: expired and unused subjects",
        ),
    ]
}

/// The prune view's keys (`P`).
fn prune_bindings() -> Vec<Binding> {
    use Command as A;
    use KeyCode as K;
    use Scope::Prune;
    let mut v = age_bindings();
    v.extend([
        b(Prune, K::Down, NONE, A::MoveDown, "next subject"),
        b(Prune, c('j'), NONE, A::MoveDown, "next subject"),
        b(Prune, K::Up, NONE, A::MoveUp, "previous subject"),
        b(Prune, c('k'), NONE, A::MoveUp, "previous subject"),
        b(Prune, K::PageDown, NONE, A::PageDown, "page down"),
        b(Prune, K::PageUp, NONE, A::PageUp, "page up"),
        b(Prune, K::Home, NONE, A::Top, "first subject"),
        b(Prune, K::End, NONE, A::Bottom, "last subject"),
        b(Prune, c(' '), NONE, A::ToggleMark, "select / unselect"),
        b(Prune, c('a'), NONE, A::MarkShown, "select all / none"),
        b(
            Prune,
            c('s'),
            NONE,
            A::CyclePruneSince,
            "not loaded for: -, 30, 90, 180 days",
        ),
        b(
            Prune,
            K::Enter,
            NONE,
            A::Confirm,
            "disable the selected subjects (one step: u undoes)",
        ),
        b(Prune, K::Esc, NONE, A::Cancel, "close"),
        b(Prune, c('q'), NONE, A::Cancel, "close"),
        b(Prune, c('c'), CTRL, A::Quit, "quit"),
    ]);
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
        b(
            Line,
            K::PageDown,
            NONE,
            A::PageDown,
            "scroll the result down (tester)",
        ),
        b(
            Line,
            K::PageUp,
            NONE,
            A::PageUp,
            "scroll the result up (tester)",
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
