//! The real terminal: one blocking event loop, and suspending for
//! `$VISUAL`/`$EDITOR`. Entering, leaving, signals and panics are
//! [`lifecycle`]'s: this loop draws only through it.
//!
//! Everything the loop reacts to arrives on one channel ([`Incoming`]):
//! terminal events from an input thread, results from the workers and
//! the first load, changed paths from the watcher, and wake-ups from the
//! signal thread and the panic hook. The loop blocks on it: no fixed
//! poll, so an idle TUI uses no CPU. Nothing on screen animates and the
//! watcher debounces on its own thread, so the loop has no tick at all;
//! a future spinner or debounce would send its ticks into the same
//! channel only while it runs.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Sender};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event as TermEvent, KeyEventKind};

use super::app::App;
use super::driver::Driver;
use super::effect::Effect;
use super::event::{Event, Msg};
use super::keymap::resolve_in;
use super::keymap::scope::Binding;
use super::lifecycle;
use super::view;
use super::watch;
use super::worker::{Outbox, outbox};

/// What the event loop receives, from every source, on one channel.
#[derive(Debug)]
pub enum Incoming {
    /// A terminal event (key, mouse, resize), from the input thread.
    Terminal(io::Result<TermEvent>),
    /// A report from a worker, the first load or the watcher.
    Event(Event),
    /// The screen's state changed behind the loop (SIGCONT, a panic).
    Wake,
}

impl From<Event> for Incoming {
    fn from(event: Event) -> Self {
        Incoming::Event(event)
    }
}

/// Turns a terminal event into a command (a key through the key table, a
/// mouse event through the layout last drawn) or an event (a resize).
pub fn map_event(table: &[Binding], app: &App, event: &TermEvent) -> Option<Msg> {
    match event {
        TermEvent::Key(key) if key.kind != KeyEventKind::Release => {
            resolve_in(table, app, key).map(Msg::Command)
        }
        TermEvent::Mouse(m) => super::mouse::command(m, &app.screen.drawn).map(Msg::Command),
        TermEvent::Resize(w, h) => Some(Msg::Event(Event::Resize(*w, *h))),
        _ => None,
    }
}

/// Starts the input thread: it reads one terminal event, sends it, and
/// waits for the loop's permit before reading the next. So while the
/// loop runs `$EDITOR` (before it gives the permit back) nothing here
/// reads the terminal, and every key goes to the editor.
fn spawn_input(tx: Sender<Incoming>) -> io::Result<Sender<()>> {
    let (permits, permit) = mpsc::channel::<()>();
    std::thread::Builder::new()
        .name("jp-kb-input".into())
        .spawn(move || {
            while permit.recv().is_ok() {
                let read = event::read();
                let failed = read.is_err();
                if tx.send(Incoming::Terminal(read)).is_err() || failed {
                    break;
                }
            }
        })?;
    // The first read needs no permit.
    let _ = permits.send(());
    Ok(permits)
}

/// Suspends the TUI, runs the editor on `path` (at `line` when given),
/// restores the TUI.
fn edit_file(path: &Path, line: Option<u32>) -> Result<String, String> {
    lifecycle::lend();
    let editor = ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_else(|| "vi".to_owned());
    let outcome = run_editor(&editor, path, line);
    lifecycle::take_back().map_err(|e| e.to_string())?;
    outcome
}

/// Runs `editor` on `path` and says what came of it: "edited" only when
/// the file's bytes differ afterwards (quitting without saving is not an
/// edit).
fn run_editor(editor: &str, path: &Path, line: Option<u32>) -> Result<String, String> {
    let before = jp_kb_core::internal::config::file::read_guarded(path).ok();
    // Through the shell so `EDITOR="code -w"` works; the path is an
    // argument, never part of the command string.
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(super::editor_args::command(editor, line))
        .arg("jp-kb")
        .arg(path)
        .status();
    match status {
        Ok(s) if s.success() => {
            if jp_kb_core::internal::config::file::read_guarded(path).ok() == before {
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
) -> io::Result<()> {
    let size = terminal.size()?;
    app.screen.size = (size.width, size.height);
    let (tx, rx) = mpsc::channel::<Incoming>();
    let wake = tx.clone();
    lifecycle::set_waker(move || {
        let _ = wake.send(Incoming::Wake);
    });
    let files = tx.clone();
    let mut watcher = watch::start(move |paths| {
        let _ = files.send(Incoming::Event(Event::FilesChanged(paths)));
    })
    .ok();
    let reports: Outbox = outbox(tx.clone());
    // Prompts, checks and reloads run on workers (inline where a thread
    // cannot start).
    driver.start_workers(&reports);
    // The usage ledger, read (and followed) on its own thread.
    let _ = super::usage_worker::spawn(&driver.env, &driver.options, &reports);
    // The first frame is drawn from the configuration; the walks run on
    // a worker and their result arrives as `Loaded`.
    driver.start_load(app, &reports);
    let permits = spawn_input(tx)?;
    let table = super::keymap::table::bindings();
    let mut dirty = true;
    loop {
        if let (Some(w), Some(model)) = (watcher.as_mut(), app.loaded.model.as_ref())
            && dirty
        {
            w.sync(watch::targets(model));
        }
        // A panic on a worker closed the screen (error), or SIGCONT
        // asks for a full frame.
        dirty |= lifecycle::poll()?;
        if dirty {
            let mut drawn = None;
            lifecycle::draw(terminal, |frame| drawn = Some(view::render(app, frame)))?;
            if let Some(drawn) = drawn {
                app.screen.drawn = drawn;
            }
            dirty = false;
        }
        // Blocks until something arrives; then takes what else is queued
        // (at most one terminal event: each key gets its frame) before
        // drawing once.
        let mut next = Some(
            rx.recv()
                .map_err(|_| io::Error::other("every input closed"))?,
        );
        while let Some(incoming) = next.take() {
            dirty = true;
            let from_terminal = matches!(incoming, Incoming::Terminal(_));
            let quit = handle(incoming, &table, app, driver)?;
            if quit {
                return Ok(());
            }
            if from_terminal {
                // The next read may start (the editor, if any, is done).
                let _ = permits.send(());
                break;
            }
            next = rx.try_recv().ok();
        }
    }
}

/// Handles one incoming item; true when the TUI is to quit.
fn handle(
    incoming: Incoming,
    table: &[Binding],
    app: &mut App,
    driver: &mut Driver,
) -> io::Result<bool> {
    let msg = match incoming {
        Incoming::Terminal(read) => {
            let ev = read?;
            match map_event(table, app, &ev) {
                Some(msg) => msg,
                None => return Ok(false),
            }
        }
        Incoming::Event(event) => Msg::Event(event),
        Incoming::Wake => return Ok(false),
    };
    for effect in driver.dispatch(app, msg) {
        match effect {
            Effect::Quit => return Ok(true),
            Effect::Suspend => lifecycle::suspend(),
            // Between frames, straight to the terminal (which sets the
            // clipboard; see `osc52`).
            Effect::Copy(text) => {
                if let Err(e) = super::osc52::write(&mut std::io::stdout(), &text) {
                    app.set_status(format!("cannot copy: {e}"), true);
                }
            }
            Effect::OpenEditor(path) => open_editor(app, driver, path, None),
            Effect::OpenEditorAt(path, line) => open_editor(app, driver, path, Some(line)),
            _ => {}
        }
    }
    Ok(false)
}

/// Runs the editor between frames, then reports and reloads.
fn open_editor(app: &mut App, driver: &mut Driver, path: PathBuf, line: Option<u32>) {
    let (message, error) = match edit_file(&path, line) {
        Ok(m) => (m, false),
        Err(m) => (m, true),
    };
    driver.dispatch(
        app,
        Event::Done {
            message,
            error,
            changed: None,
        },
    );
    driver.dispatch(app, Event::FilesChanged(vec![path]));
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
        let message = run_editor("true", &file, None).unwrap();
        assert!(message.starts_with("true: no change to "), "{message}");
        assert!(!message.contains("edited"), "{message}");
        let message = run_editor("printf 'y = 2\\n' >>", &file, None).unwrap();
        assert!(message.starts_with("edited "), "{message}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "x = 1\ny = 2\n");
        let err = run_editor("false", &file, None).unwrap_err();
        assert!(err.starts_with("false exited with"), "{err}");
    }
}
