//! A headless TUI for tests: the real `update`, driver and views on a
//! `TestBackend`, with an isolated environment (no user config leaks in).

use std::path::Path;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::{Action, Effect};
use super::app::App;
use super::driver::Driver;
use super::keymap::{Scope, bindings, resolve};
use super::theme::Theme;
use super::view;
use crate::config::{Environment, LoadOptions};

/// The app, its driver, and the effects the terminal would have run.
pub struct Harness {
    pub app: App,
    pub driver: Driver,
    pub outside: Vec<Effect>,
}

impl Harness {
    /// Opens the workspace at `root` on a `width`×`height` screen.
    pub fn open(root: &Path, width: u16, height: u16, color: bool) -> Self {
        Self::start(driver_for(root), width, height, color)
    }

    /// Like [`Harness::open`], with the prompt rendered and the check run in
    /// the background as in the terminal: the prompt arrives on the
    /// channel, to be passed to [`Harness::action`] (benchmarks; findings
    /// are not awaited).
    pub fn open_background(
        root: &Path,
        width: u16,
        height: u16,
        color: bool,
    ) -> (Self, std::sync::mpsc::Receiver<Action>) {
        let mut driver = driver_for(root);
        let rendered = driver.spawn_prompt_worker();
        // As in the terminal; without a worker the check runs inline.
        let _ = driver.check_in_background();
        (Self::start(driver, width, height, color), rendered)
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
    ) -> (Self, std::sync::mpsc::Receiver<Action>) {
        let mut driver = driver_for(root);
        let rendered = prompt_worker.then(|| driver.spawn_prompt_worker());
        if prompt_worker {
            // Background mode, as the terminal: the check on its worker too
            // (inline, it would add a whole check to every key).
            let _ = driver.check_in_background();
        }
        let mut app = App::new(Theme { color }, (width, height));
        let loads = driver.start_load(&mut app);
        let (tx, rx) = std::sync::mpsc::channel();
        // Token counts on their worker too, as in the terminal; they
        // arrive on the same channel, in any order with the rest.
        if prompt_worker && let Ok(counted) = driver.count_in_background() {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for action in counted {
                    if tx.send(action).is_err() {
                        break;
                    }
                }
            });
        }
        // One channel, load first: the prompt is sent only after it.
        std::thread::spawn(move || {
            for action in loads.iter().chain(rendered.iter().flat_map(|r| r.iter())) {
                if tx.send(action).is_err() {
                    break;
                }
            }
        });
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

    pub fn action(&mut self, action: Action) {
        let out = self.driver.dispatch(&mut self.app, action);
        self.outside.extend(out);
    }

    /// Presses one key through the key map.
    pub fn press(&mut self, code: KeyCode, mods: KeyModifiers) {
        let key = KeyEvent::new(code, mods);
        if let Some(action) = resolve(&bindings(), Scope::of(&self.app.mode), &key) {
            self.action(action);
        }
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
        let (w, h) = self.app.size;
        let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("test backend");
        terminal
            .draw(|frame| view::render(&self.app, frame))
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
    let env = Environment {
        cwd: root.to_path_buf(),
        global_config_dir: None,
        user_data_dir: None,
    };
    let options = LoadOptions {
        workspace: Some(root.to_path_buf()),
        ..LoadOptions::default()
    };
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
