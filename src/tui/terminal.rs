//! The real terminal: the event loop, mouse events, and suspending for
//! `$VISUAL`/`$EDITOR`. Entering, leaving, signals and panics are
//! [`lifecycle`]'s: this loop draws only through it.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{
    self, Event, KeyCode, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};

use super::action::{Action, Effect};
use super::app::App;
use super::driver::Driver;
use super::keymap::{Binding, Scope, resolve};
use super::lifecycle;
use super::view;
use super::watch;

/// Turns a terminal event into an action.
pub fn map_event(table: &[Binding], app: &App, event: &Event) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => {
            resolve(table, Scope::of(&app.mode), key)
        }
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(MouseButton::Left) => Some(Action::Click(m.column, m.row)),
            MouseEventKind::ScrollUp => Some(Action::ScrollUp(m.column, m.row)),
            MouseEventKind::ScrollDown => Some(Action::ScrollDown(m.column, m.row)),
            _ => None,
        },
        Event::Resize(w, h) => Some(Action::Resize(*w, *h)),
        _ => None,
    }
}

/// Ctrl-z: in raw mode the terminal sends it as a key, not as SIGTSTP;
/// it suspends in every mode, as in a shell.
fn is_suspend_key(event: &Event) -> bool {
    matches!(event, Event::Key(key)
        if key.kind != KeyEventKind::Release
            && key.code == KeyCode::Char('z')
            && key.modifiers.contains(KeyModifiers::CONTROL))
}

/// Suspends the TUI, runs the editor on `path`, restores the TUI.
fn edit_file(path: &Path) -> Result<String, String> {
    lifecycle::lend();
    let editor = ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_else(|| "vi".to_owned());
    let outcome = run_editor(&editor, path);
    lifecycle::take_back().map_err(|e| e.to_string())?;
    outcome
}

/// Runs `editor` on `path` and says what came of it: "edited" only when
/// the file's bytes differ afterwards (quitting without saving is not an
/// edit).
fn run_editor(editor: &str, path: &Path) -> Result<String, String> {
    let before = std::fs::read(path).ok();
    // Through the shell so `EDITOR="code -w"` works; the path is an
    // argument, never part of the command string.
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("jp-kb")
        .arg(path)
        .status();
    match status {
        Ok(s) if s.success() => {
            if std::fs::read(path).ok() == before {
                Ok(format!("{editor}: no change to {}", path.display()))
            } else {
                Ok(format!("edited {} with {editor}", path.display()))
            }
        }
        Ok(s) => Err(format!("{editor} exited with {s}")),
        Err(e) => Err(format!("cannot run {editor}: {e}")),
    }
}

/// The TUI reads keys from stdin and draws on stdout: both must be a
/// terminal, else it says so before anything starts.
pub fn require_terminal() -> Result<(), String> {
    let missing: Vec<&str> = [
        ("stdin", std::io::stdin().is_terminal()),
        ("stdout", std::io::stdout().is_terminal()),
    ]
    .into_iter()
    .filter_map(|(name, tty)| (!tty).then_some(name))
    .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "`jp-kb tui` needs a terminal, and {} not one; run it in a terminal \
         (or use `jp-kb list`, `prompt`, `check`, which need none)",
        match missing.as_slice() {
            [one] => format!("{one} is"),
            _ => "stdin and stdout are".to_owned(),
        }
    ))
}

/// Runs the TUI until the user quits.
pub fn run(mut app: App, mut driver: Driver) -> Result<(), String> {
    require_terminal()?;
    let mut terminal = match lifecycle::start() {
        Ok(terminal) => terminal,
        Err(e) => {
            // It may have entered raw mode before failing.
            lifecycle::finish();
            return Err(format!("cannot set up the terminal: {e}"));
        }
    };
    let result = event_loop(&mut terminal, &mut app, &mut driver);
    lifecycle::finish();
    result.map_err(|e| format!("the TUI stopped: {e}"))
}

fn event_loop(
    terminal: &mut DefaultTerminal,
    app: &mut App,
    driver: &mut Driver,
) -> std::io::Result<()> {
    let size = terminal.size()?;
    app.size = (size.width, size.height);
    let (tx, rx) = mpsc::channel();
    let mut watcher = watch::start(tx).ok();
    let rendered = driver.spawn_prompt_worker();
    // Token counts of rows coming into view, off the key path (inline if
    // no thread).
    let counted = driver.count_in_background().ok();
    let table = super::keymap::bindings();
    // Checks read every subject: off the event loop (inline if no thread).
    let _ = driver.check_in_background();
    // File changes reload off the event loop too (a re-walk of a large
    // topic takes a while); without the thread they reload inline.
    let (reloaded, reloads) = mpsc::channel();
    let _ = driver.reload_in_background(reloaded);
    // The first frame is drawn from the configuration; the walks run on
    // a worker and their result arrives as `Loaded`.
    let loads = driver.start_load(app);
    let mut dirty = true;
    loop {
        if let (Some(w), Some(model)) = (watcher.as_mut(), app.model.as_ref())
            && dirty
        {
            w.sync(watch::targets(model));
        }
        // A panic on a worker closed the screen (error), or SIGCONT
        // asks for a full frame.
        dirty |= lifecycle::poll()?;
        if dirty {
            lifecycle::draw(terminal, |frame| view::render(app, frame))?;
            dirty = false;
        }
        let mut actions = Vec::new();
        if event::poll(Duration::from_millis(100))? {
            let ev = event::read()?;
            if is_suspend_key(&ev) {
                lifecycle::suspend();
                continue;
            }
            actions.extend(map_event(&table, app, &ev));
        }
        while let Ok(paths) = rx.try_recv() {
            actions.push(Action::FilesChanged(paths));
        }
        dirty |= driver.poll_checks(app);
        // Loads before prompts: a load's prompt is sent only after it.
        actions.extend(loads.try_iter());
        actions.extend(reloads.try_iter());
        actions.extend(rendered.try_iter());
        actions.extend(counted.iter().flat_map(mpsc::Receiver::try_iter));
        for action in actions {
            dirty = true;
            for effect in driver.dispatch(app, action) {
                match effect {
                    Effect::Quit => return Ok(()),
                    Effect::OpenEditor(path) => {
                        let (message, error) = match edit_file(&path) {
                            Ok(m) => (m, false),
                            Err(m) => (m, true),
                        };
                        driver.dispatch(
                            app,
                            Action::Done {
                                message,
                                error,
                                changed: None,
                            },
                        );
                        driver.dispatch(app, Action::FilesChanged(vec![path]));
                    }
                    _ => {}
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::run_editor;

    #[test]
    fn quitting_the_editor_without_a_change_is_not_called_an_edit() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config.toml");
        std::fs::write(&file, "x = 1\n").unwrap();
        let message = run_editor("true", &file).unwrap();
        assert!(message.starts_with("true: no change to "), "{message}");
        assert!(!message.contains("edited"), "{message}");
        let message = run_editor("printf 'y = 2\\n' >>", &file).unwrap();
        assert!(message.starts_with("edited "), "{message}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "x = 1\ny = 2\n");
        let err = run_editor("false", &file).unwrap_err();
        assert!(err.starts_with("false exited with"), "{err}");
    }
}
