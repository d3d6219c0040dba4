//! A headless TUI for tests and benchmarks: the real `update`, driver and
//! views on a `TestBackend`, with an isolated environment (no user config
//! leaks in). Built only for tests (feature `harness`, which the package's
//! dev-dependency on itself turns on): a normal build has none of it.
//! Tests read the state through its accessors ([`reads`]) or the screen,
//! never through `App`'s fields.

pub mod reads;

use std::path::Path;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};

use super::app::App;
use super::command::Command;
use super::driver::Driver;
use super::effect::Effect;
use super::event::{Event, Msg};
use super::keymap::resolve_in;
use super::keymap::table::bindings;
use super::theme::Theme;
use super::view;
use super::worker::outbox;
use jp_kb_core::{Environment, LoadOptions};

/// The app, its driver, and the effects the terminal would have run.
pub struct Harness {
    app: App,
    pub driver: Driver,
    pub outside: Vec<Effect>,
}

impl Harness {
    /// Opens the workspace at `root` on a `width`×`height` screen.
    pub fn open(root: &Path, width: u16, height: u16, color: bool) -> Self {
        Self::start(driver_for(root), width, height, color)
    }

    /// Like [`Harness::open`], with the prompt rendered and the check run in
    /// the background as in the terminal: their results arrive on the
    /// channel, to be passed to [`Harness::action`] (benchmarks; findings
    /// are not awaited).
    pub fn open_background(
        root: &Path,
        width: u16,
        height: u16,
        color: bool,
    ) -> (Self, std::sync::mpsc::Receiver<Event>) {
        let mut driver = driver_for(root);
        let (tx, rx) = std::sync::mpsc::channel();
        let reports = outbox(tx);
        driver.spawn_prompt_worker(&reports);
        // As in the terminal; without a worker the check runs inline.
        let _ = driver.check_in_background(&reports);
        (Self::start(driver, width, height, color), rx)
    }

    /// Like [`Harness::open_background`], with the first load's walks on
    /// a worker as in the terminal: the harness starts on the pre-load
    /// screen; the load, then the prompt, arrive on the channel, to be
    /// passed to [`Harness::action`] in order (benchmarks, tests).
    pub fn open_loading(
        root: &Path,
        width: u16,
        height: u16,
        color: bool,
        prompt_worker: bool,
    ) -> (Self, std::sync::mpsc::Receiver<Event>) {
        let mut driver = driver_for(root);
        let (tx, rx) = std::sync::mpsc::channel();
        let reports = outbox(tx);
        if prompt_worker {
            driver.spawn_prompt_worker(&reports);
            // Background mode, as the terminal: the check on its worker too
            // (inline, it would add a whole check to every key).
            let _ = driver.check_in_background(&reports);
        }
        let mut app = App::new(Theme { color }, (width, height));
        // One channel: the load's prompt is asked for only after it.
        driver.start_load(&mut app, &reports);
        let harness = Self {
            app,
            driver,
            outside: Vec::new(),
        };
        (harness, rx)
    }

    /// Like [`Harness::open_loading`], with every worker the terminal
    /// starts (token counts, slow reads, search, plan counts too): what a
    /// key costs in the real loop (benchmarks).
    pub fn open_like_terminal(
        root: &Path,
        width: u16,
        height: u16,
    ) -> (Self, std::sync::mpsc::Receiver<Event>) {
        let mut driver = driver_for(root);
        let (tx, rx) = std::sync::mpsc::channel();
        let reports = outbox(tx);
        driver.start_workers(&reports);
        let mut app = App::new(Theme { color: true }, (width, height));
        driver.start_load(&mut app, &reports);
        let harness = Self {
            app,
            driver,
            outside: Vec::new(),
        };
        (harness, rx)
    }

    fn start(mut driver: Driver, width: u16, height: u16, color: bool) -> Self {
        let mut app = App::new(Theme { color }, (width, height));
        let first = driver.load(Vec::new());
        let outside = driver.dispatch(&mut app, first);
        Self {
            app,
            driver,
            outside,
        }
    }

    /// Dispatches a command or an event.
    pub fn action(&mut self, msg: impl Into<Msg>) {
        let out = self.driver.dispatch(&mut self.app, msg);
        self.outside.extend(out);
    }

    /// A mouse event at (column, row), mapped as the terminal maps it:
    /// through the layout of a frame drawn first.
    pub fn mouse(&mut self, kind: MouseEventKind, column: u16, row: u16) {
        self.draw();
        let event = MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        };
        if let Some(command) = super::mouse::command(&event, &self.app.screen.drawn) {
            self.action(command);
        }
    }

    /// A left click at (column, row).
    pub fn click(&mut self, column: u16, row: u16) {
        self.mouse(MouseEventKind::Down(MouseButton::Left), column, row);
    }

    /// Draws a frame and records its layout in the state, as the terminal
    /// does after each frame.
    pub fn draw(&mut self) -> Buffer {
        let (w, h) = self.app.screen.size;
        let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("test backend");
        self.draw_on(&mut terminal);
        terminal.backend().buffer().clone()
    }

    /// Draws a frame on `terminal` (a benchmark's, kept between frames)
    /// and records its layout, as the terminal does.
    pub fn draw_on(&mut self, terminal: &mut Terminal<TestBackend>) {
        let mut drawn = None;
        terminal
            .draw(|frame| drawn = Some(view::render(&self.app, frame)))
            .expect("draw");
        if let Some(drawn) = drawn {
            self.app.screen.drawn = drawn;
        }
    }

    /// The command a key maps to in the current state (`None`: unbound).
    pub fn command_for(&self, key: &KeyEvent) -> Option<Command> {
        resolve_in(&bindings(), &self.app, key)
    }

    /// Presses one key through the key map, then draws the frame and
    /// records its layout, as the terminal does after each key (the next
    /// key may depend on what was drawn: where a click lands, how far the
    /// preview can scroll).
    pub fn press(&mut self, code: KeyCode, mods: KeyModifiers) {
        let key = KeyEvent::new(code, mods);
        if let Some(command) = self.command_for(&key) {
            self.action(command);
        }
        self.draw();
    }

    /// Presses the keys of `keys`, one character each.
    pub fn keys(&mut self, keys: &str) {
        for ch in keys.chars() {
            let code = match ch {
                '\n' => KeyCode::Enter,
                '\t' => KeyCode::Tab,
                '\u{1b}' => KeyCode::Esc,
                c => KeyCode::Char(c),
            };
            self.press(code, KeyModifiers::NONE);
        }
    }

    pub fn render(&self) -> Buffer {
        let (w, h) = self.app.screen.size;
        let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("test backend");
        terminal
            .draw(|frame| {
                view::render(&self.app, frame);
            })
            .expect("draw");
        terminal.backend().buffer().clone()
    }

    /// The screen as text, one line per row, trailing spaces removed.
    pub fn screen(&self) -> String {
        buffer_text(&self.render())
    }
}

/// A driver for the workspace at `root`, with no user configuration.
fn driver_for(root: &Path) -> Driver {
    let env = Environment::workspace_only(root);
    let options = LoadOptions::default().workspace(root);
    Driver::new(env, options)
}

/// A buffer's symbols as lines.
pub fn buffer_text(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        let mut skip = 0;
        for x in 0..area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let symbol = buffer[(x, y)].symbol();
            line.push_str(symbol);
            skip = unicode_width(symbol).saturating_sub(1);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn unicode_width(s: &str) -> usize {
    use ratatui::text::Span;
    Span::raw(s).width()
}
