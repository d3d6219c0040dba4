//! The real terminal: lifecycle through `ratatui::init`/`restore` (panic
//! hook included), the event loop, mouse capture, and suspending for
//! `$VISUAL`/`$EDITOR`.

use std::io::stdout;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyEventKind, MouseButton, MouseEventKind,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{EnterAlternateScreen, enable_raw_mode};

use super::action::{Action, Effect};
use super::app::App;
use super::driver::Driver;
use super::keymap::{Binding, Scope, resolve};
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

fn leave() {
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
}

fn enter(terminal: &mut DefaultTerminal) -> std::io::Result<()> {
    enable_raw_mode()?;
    execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    terminal.clear()
}

/// Suspends the TUI, runs the editor on `path`, restores the TUI.
fn edit_file(terminal: &mut DefaultTerminal, path: &Path) -> Result<String, String> {
    leave();
    let editor = ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_else(|| "vi".to_owned());
    // Through the shell so `EDITOR="code -w"` works; the path is an
    // argument, never part of the command string.
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("jp-kb")
        .arg(path)
        .status();
    enter(terminal).map_err(|e| e.to_string())?;
    match status {
        Ok(s) if s.success() => Ok(format!("edited {} with {editor}", path.display())),
        Ok(s) => Err(format!("{editor} exited with {s}")),
        Err(e) => Err(format!("cannot run {editor}: {e}")),
    }
}

/// Runs the TUI until the user quits.
pub fn run(mut app: App, mut driver: Driver) -> std::io::Result<()> {
    // Installed before ratatui's hook, so on panic the terminal is restored
    // first (ratatui's hook), then mouse capture is turned off here.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(stdout(), DisableMouseCapture);
        previous(info);
    }));
    let mut terminal = ratatui::init();
    let result = event_loop(&mut terminal, &mut app, &mut driver);
    leave();
    result
}

fn event_loop(
    terminal: &mut DefaultTerminal,
    app: &mut App,
    driver: &mut Driver,
) -> std::io::Result<()> {
    execute!(stdout(), EnableMouseCapture)?;
    let size = terminal.size()?;
    app.size = (size.width, size.height);
    let (tx, rx) = mpsc::channel();
    let mut watcher = watch::start(tx).ok();
    let rendered = driver.spawn_prompt_worker();
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
        if dirty {
            terminal.draw(|frame| view::render(app, frame))?;
            dirty = false;
        }
        let mut actions = Vec::new();
        if event::poll(Duration::from_millis(100))? {
            let ev = event::read()?;
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
        for action in actions {
            dirty = true;
            for effect in driver.dispatch(app, action) {
                match effect {
                    Effect::Quit => return Ok(()),
                    Effect::OpenEditor(path) => {
                        let (message, error) = match edit_file(terminal, &path) {
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
