//! Who may touch the terminal, and when: the drawing loop, the signal
//! thread and the panic hook share one lock around the screen's state, so
//! nothing draws over a terminal that was handed back to the shell.
//!
//! SIGTERM, SIGHUP, SIGINT and SIGQUIT restore the terminal, then end the
//! process through the signal's default action (the shell sees 128+n);
//! SIGTSTP (and Ctrl-z, a key in raw mode) restores and stops, SIGCONT
//! enters again and redraws everything. A panic on any thread restores
//! the terminal once, before its message prints, and closes the screen
//! for good: the loop sees [`Screen::Closed`] and ends with the message.

use std::io::{self, stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, Once, OnceLock, PoisonError};
use std::thread::ThreadId;

use ratatui::backend::{Backend, ClearType, CrosstermBackend};
use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::{DefaultTerminal, Frame, Terminal};

/// Whose the terminal is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Screen {
    /// Not entered yet, or left when the TUI quit.
    Off,
    /// The TUI draws.
    On,
    /// Lent to `$EDITOR`: signals leave the terminal alone, and Ctrl-c
    /// (SIGINT, SIGQUIT) belongs to the editor, as `system()` does it.
    Lent,
    /// Restored and stopped (SIGTSTP); SIGCONT enters again.
    Stopped,
    /// Given up for good (a panic, a fatal signal): nothing draws again.
    Closed,
}

#[derive(Debug)]
struct Shared {
    screen: Screen,
    /// Why the screen was closed: the panic message.
    failure: Option<String>,
}

static SHARED: Mutex<Shared> = Mutex::new(Shared {
    screen: Screen::Off,
    failure: None,
});
/// Set on SIGCONT (and when the editor returns): the next frame is drawn
/// in full, not as a diff against what the terminal no longer shows.
static REDRAW: AtomicBool = AtomicBool::new(false);
/// The terminal was restored after a panic: never again.
static RESTORED_FOR_GOOD: AtomicBool = AtomicBool::new(false);
static UI_THREAD: OnceLock<ThreadId> = OnceLock::new();
/// Wakes the event loop, which blocks until something arrives: the
/// signal thread and the panic hook change the screen's state behind its
/// back (a full redraw after SIGCONT, the screen closed by a panic).
type Waker = Box<dyn Fn() + Send>;
static WAKER: Mutex<Option<Waker>> = Mutex::new(None);

/// Sets what wakes the event loop (see [`WAKER`]).
pub fn set_waker(wake: impl Fn() + Send + 'static) {
    *WAKER.lock().unwrap_or_else(PoisonError::into_inner) = Some(Box::new(wake));
}

/// Wakes the loop. `try_lock`: called from the panic hook, which must
/// never wait (the waker is only replaced at start).
fn wake() {
    if let Ok(waker) = WAKER.try_lock()
        && let Some(wake) = waker.as_ref()
    {
        wake();
    }
}

/// The lock, waiting at most `limit`: a panic hook must never wait for
/// good (the panicking thread may hold the lock itself).
fn lock_within(limit: std::time::Duration) -> Option<MutexGuard<'static, Shared>> {
    let start = std::time::Instant::now();
    loop {
        match SHARED.try_lock() {
            Ok(state) => return Some(state),
            Err(std::sync::TryLockError::Poisoned(p)) => return Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) if start.elapsed() < limit => {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            Err(std::sync::TryLockError::WouldBlock) => return None,
        }
    }
}

/// A poisoned lock only means a thread panicked while holding it; the
/// state it guards is one enum, always whole.
fn shared() -> MutexGuard<'static, Shared> {
    SHARED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Raw mode, alternate screen, mouse capture, hidden cursor.
fn enter() -> io::Result<()> {
    enable_raw_mode()?;
    execute!(stdout(), EnterAlternateScreen, EnableMouseCapture, Hide)
}

/// The terminal as the shell left it: cooked mode, main screen, no mouse
/// reports, a visible cursor. Every error is ignored and nothing is
/// printed: this runs on a hung-up terminal too (SIGHUP), where
/// `ratatui::restore`'s `eprintln!` of the failure panics, and the panic
/// hook, waiting for the lock the signal thread holds, hung the process
/// for good while its input thread spun on end-of-file.
fn leave() {
    let _ = execute!(stdout(), LeaveAlternateScreen, DisableMouseCapture, Show);
    let _ = disable_raw_mode();
}

/// Whether the signal thread runs.
static SIGNALS_SPAWNED: AtomicBool = AtomicBool::new(false);

/// Takes the terminal: installs the panic hook (once per process) and the
/// signal handlers, enters raw mode and the alternate screen. Call it
/// after any other panic hook is installed, so the terminal is restored
/// before the message prints.
pub fn start() -> io::Result<DefaultTerminal> {
    let _ = UI_THREAD.set(std::thread::current().id());
    install_panic_hook();
    {
        let mut state = shared();
        if state.screen == Screen::Closed {
            return Err(io::Error::other(closed_message(&state)));
        }
        if let Err(e) = enter() {
            leave();
            return Err(e);
        }
        state.screen = Screen::On;
    }
    // Once per process: the first-run screen (`tui::adopt`) takes the
    // terminal before the curator does, and two signal threads would
    // each act on one signal (a Ctrl-z stopping twice).
    #[cfg(unix)]
    if !SIGNALS_SPAWNED.swap(true, Ordering::SeqCst) {
        signals::spawn()?;
    }
    #[cfg(debug_assertions)]
    inject_worker_panic();
    Terminal::new(CrosstermBackend::new(stdout()))
}

/// Hands the terminal back for good (the TUI quit).
pub fn finish() {
    let mut state = shared();
    if matches!(state.screen, Screen::On | Screen::Lent | Screen::Stopped) {
        leave();
        state.screen = Screen::Off;
    }
}

/// Draws a frame while the screen is the TUI's; after SIGCONT or the
/// editor, in full. Errors when the screen was closed (a panic on another
/// thread), with its message: the loop must end.
pub fn draw(terminal: &mut DefaultTerminal, render: impl FnOnce(&mut Frame)) -> io::Result<()> {
    let state = shared();
    match state.screen {
        Screen::On => {
            if REDRAW.swap(false, Ordering::SeqCst) {
                full_redraw(terminal)?;
            }
            terminal.draw(render)?;
            Ok(())
        }
        Screen::Closed => Err(io::Error::other(closed_message(&state))),
        Screen::Off | Screen::Lent | Screen::Stopped => Ok(()),
    }
}

/// Makes the next frame draw every cell: clears the screen and forgets
/// the last frame. Not `Terminal::clear`: it asks the terminal for the
/// cursor position, and the answer would go to the input thread's
/// pending read (the query times out and the TUI stops).
fn full_redraw(terminal: &mut DefaultTerminal) -> io::Result<()> {
    terminal.backend_mut().clear_region(ClearType::All)?;
    // After a draw the current buffer is blank and the previous holds the
    // last frame; one swap blanks that one too.
    terminal.swap_buffers();
    Ok(())
}

/// Whether the loop must draw even though nothing changed (SIGCONT), or
/// end (the screen was closed).
pub fn poll() -> io::Result<bool> {
    let state = shared();
    if state.screen == Screen::Closed {
        return Err(io::Error::other(closed_message(&state)));
    }
    Ok(REDRAW.load(Ordering::SeqCst))
}

fn closed_message(state: &Shared) -> String {
    state
        .failure
        .clone()
        .unwrap_or_else(|| "the terminal was given up".to_owned())
}

/// Lends the terminal to a child (`$EDITOR`) until [`take_back`].
pub fn lend() {
    let mut state = shared();
    if state.screen == Screen::On {
        leave();
        state.screen = Screen::Lent;
    }
}

/// Takes the terminal back from the child; the next frame is full.
pub fn take_back() -> io::Result<()> {
    let mut state = shared();
    if state.screen != Screen::Lent {
        return Ok(());
    }
    enter()?;
    state.screen = Screen::On;
    REDRAW.store(true, Ordering::SeqCst);
    Ok(())
}

/// Ctrl-z: stops the process as SIGTSTP does (through the same handler).
pub fn suspend() {
    #[cfg(unix)]
    let _ = signal_hook::low_level::raise(signal_hook::consts::SIGTSTP);
}

/// Debug builds only, for the end-to-end test of a worker's panic:
/// `JP_KB_TEST_WORKER_PANIC=MS` panics a worker thread MS milliseconds
/// after start (no input makes a real worker panic on purpose).
#[cfg(debug_assertions)]
fn inject_worker_panic() {
    let Some(ms) = std::env::var("JP_KB_TEST_WORKER_PANIC")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("jp-kb-test-panic".into())
        .spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(ms));
            panic!("injected");
        });
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            close_for_panic(info);
            previous(info);
        }));
    });
}

/// Restores the terminal once and closes the screen, so the loop ends
/// with `info`'s message instead of drawing over the shell.
fn close_for_panic(info: &std::panic::PanicHookInfo<'_>) {
    let thread = std::thread::current();
    let payload = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned());
    let message = format!(
        "thread '{}' panicked: {payload}",
        thread.name().unwrap_or("<unnamed>")
    );
    let on_ui_thread = UI_THREAD.get() == Some(&thread.id());
    // The UI thread may hold the lock itself (a panic while drawing):
    // waiting for it would wait forever. Any other thread waits for the
    // frame being drawn to end, so no byte of it lands after the restore
    // (at most 2 s: the signal thread may hold the lock itself).
    let state = if on_ui_thread {
        match SHARED.try_lock() {
            Ok(state) => Some(state),
            Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None,
        }
    } else {
        lock_within(std::time::Duration::from_secs(2))
    };
    let ours = state
        .as_ref()
        .is_none_or(|s| matches!(s.screen, Screen::On | Screen::Stopped | Screen::Closed));
    if ours && !RESTORED_FOR_GOOD.swap(true, Ordering::SeqCst) {
        leave();
    }
    if let Some(mut state) = state {
        if state.screen != Screen::Off {
            state.screen = Screen::Closed;
        }
        state.failure.get_or_insert(message);
    }
    // The loop blocks on its channel: it must see the closed screen.
    wake();
}

#[cfg(unix)]
mod signals {
    //! The signal thread: turns each signal into a change of [`Screen`].

    use std::io;

    use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP};
    use signal_hook::iterator::Signals;
    use signal_hook::low_level::emulate_default_handler;

    use super::{REDRAW, Screen, enter, leave, shared};
    use std::sync::atomic::Ordering;

    pub(super) fn spawn() -> io::Result<()> {
        let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP, SIGCONT])?;
        std::thread::Builder::new()
            .name("jp-kb-signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    handle(signal);
                }
            })?;
        Ok(())
    }

    fn handle(signal: i32) {
        let mut state = shared();
        match signal {
            SIGTSTP => {
                let ours = state.screen == Screen::On;
                if ours {
                    leave();
                    state.screen = Screen::Stopped;
                }
                // Stops the whole process here; the lock stays held, so
                // nothing draws before the terminal is entered again.
                let _ = emulate_default_handler(SIGTSTP);
                if ours {
                    resume(&mut state.screen);
                }
            }
            SIGCONT => resume(&mut state.screen),
            SIGINT | SIGQUIT if state.screen == Screen::Lent => {}
            _ => {
                if matches!(state.screen, Screen::On | Screen::Stopped) {
                    leave();
                }
                state.screen = Screen::Closed;
                // Ends the process with the signal itself (the shell
                // sees 128+n); the lock stays held until then.
                let _ = emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        }
    }

    /// Enters the screen again after a stop (or marks it for a full
    /// redraw: a SIGSTOP we did not see may have let the shell draw).
    fn resume(screen: &mut Screen) {
        if *screen == Screen::Stopped {
            if enter().is_err() {
                leave();
                return;
            }
            *screen = Screen::On;
        }
        if *screen == Screen::On {
            REDRAW.store(true, Ordering::SeqCst);
            super::wake();
        }
    }
}
