//! `jp-kb tui`: the knowledge curator. The Elm architecture: [`app`]
//! holds the state; a person's [`command`]s (from the [`keymap`], or from
//! [`mouse`] events and the drawn [`layout`]) and the outside world's
//! [`event`]s go to [`update`], the only place the state changes, which
//! returns [`effect`]s; the [`driver`] carries them out (through
//! [`edit_bridge`], the only module that writes config files), off the
//! loop on [`worker`]s whose results come back as events; [`view`] draws
//! and records the layout. [`terminal`] runs the one blocking loop. See
//! `ARCHITECTURE.md` ("The TUI loop"). The engine computes every marker and text;
//! nothing here re-implements a knowledge-base rule.

pub mod adopt;
pub mod app;
pub mod client_prompt;
pub mod client_rows;
pub mod command;
pub mod cost;
pub mod cost_store;
pub mod cursor;
pub mod demo;
pub mod dialog;
pub mod driver;
pub mod edit_bridge;
pub mod editor_args;
pub mod effect;
pub mod effect_reports;
pub mod event;
pub mod features;
pub mod filter;
pub mod findings;
pub mod forms;
#[cfg(any(test, feature = "harness"))]
pub mod harness;
pub mod keymap;
pub mod layout;
pub mod lifecycle;
pub mod listing;
pub mod loaded;
pub mod loader;
pub mod marks;
pub mod matcher;
pub mod memo;
pub mod model;
pub mod modes;
pub mod mouse;
pub mod moves;
pub mod nav;
pub mod osc52;
pub mod pager;
pub mod pane;
pub mod panes;
pub mod picker;
pub mod plan_costs;
pub mod plan_counts;
pub mod plans;
pub mod preview_search;
pub mod prompt;
pub mod prune;
pub mod read_worker;
pub mod readonly;
pub mod screen;
pub mod search;
pub mod selection;
pub mod shown_path;
pub mod status_log;
pub mod terminal;
pub mod tester;
pub mod text_layout;
pub mod theme;
pub mod token_worker;
pub mod tree;
pub mod update;
pub mod usage;
pub mod usage_worker;
pub mod view;
pub mod watch;
pub mod worker;

use std::path::{Path, PathBuf};

use jp_kb_core::{Environment, LoadOptions};

use jp_kb_core::internal::config::workspace::find_root;

/// How the TUI was asked to start.
#[derive(Debug, Clone, Default)]
pub struct StartOptions {
    pub load: LoadOptions,
    /// `--demo`: open the bundled demo even when a workspace exists.
    pub demo: bool,
    /// `--read-only`: browse with every edit refused.
    pub read_only: bool,
}

/// Starts the TUI on the workspace (or the demo) and runs it until quit.
pub fn run(start: StartOptions) -> Result<(), String> {
    terminal::require_terminal()?;
    let env = Environment::from_process()
        .map_err(|e| format!("cannot read the current directory: {e}"))?
        .with_jp(crate::jp_found::jp_kind());
    let mut no_workspace = start.load.workspace.is_none() && find_root(&env.cwd).is_none();
    let mut adopted = None;
    if no_workspace && !start.demo && !start.read_only {
        // The first-run screen: what other assistants read here, adopted
        // on Enter (issue 41).
        let root = env.cwd.canonicalize().unwrap_or_else(|_| env.cwd.clone());
        match adopt::screen::offer(&root)? {
            adopt::screen::Choice::Adopted(line) => {
                no_workspace = false;
                adopted = Some(into_jp_files(&env, &root, line));
            }
            adopt::screen::Choice::Quit => return Ok(()),
            adopt::screen::Choice::NothingFound | adopt::screen::Choice::Declined => {}
        }
    }
    let mut demo_dir = None;
    let (env, options, banner) = if start.demo || no_workspace {
        let dir = crate::tui::demo::materialize()
            .map_err(|e| format!("cannot create the demo workspace: {e}"))?;
        let root: PathBuf = dir.path().to_path_buf();
        let banner = crate::tui::demo::banner(start.demo, &env.cwd);
        let env = Environment::workspace_only(root.clone());
        let options = start.load.workspace(root);
        demo_dir = Some(dir);
        (env, options, Some(banner))
    } else {
        (env, start.load, adopted)
    };
    let mut app = app::App::new(theme::Theme::from_env(), (80, 24));
    app.screen.banner = banner;
    if start.read_only {
        app.screen.read_only = true;
        app.screen.banner = Some(match app.screen.banner.take() {
            Some(demo) => format!("{} · {demo}", readonly::BANNER),
            None => readonly::BANNER.to_owned(),
        });
    }
    let driver = driver::Driver::new(env, options);
    let result = terminal::run(app, driver);
    drop(demo_dir);
    result
}

/// With a JP that has the knowledge base inside, the tables the first-run
/// screen just wrote to `.jp/kb.toml` move into `.jp/config.toml`, as
/// `jp-kb init` moves them (`crate::kb_tables::after_init`); the status
/// line says where they went, or why they did not.
fn into_jp_files(env: &Environment, root: &Path, line: String) -> String {
    // What it did is said in one line below; what it could not do is kept
    // for that line.
    let mut by_hand = String::new();
    let mut keep = |text: &str| by_hand.push_str(text);
    let moved = crate::kb_tables::after_init(env, root, &mut |_| {}, &mut keep);
    match moved {
        Ok(None) => line,
        Ok(Some(_)) if by_hand.is_empty() => {
            format!("{line}, moved into .jp/config.toml: the JP here has the knowledge base inside")
        }
        Ok(Some(_)) => format!("{line}; {}", by_hand.trim_end()),
        Err(why) => format!("{line}; not moved into .jp/config.toml: {why}"),
    }
}
