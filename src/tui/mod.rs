//! `jp-kb tui`: the knowledge curator. The Elm architecture: [`app`]
//! holds the state, [`action`] names what can happen, [`update`] changes
//! the state and returns effects, [`driver`] carries them out (through
//! [`edit_bridge`], the only module that writes config files), [`view`]
//! draws. The engine computes every marker and text; nothing here
//! re-implements a knowledge-base rule.

pub mod action;
pub mod app;
pub mod checker;
pub mod client_prompt;
pub mod cost;
pub mod demo;
pub mod diff;
pub mod driver;
pub mod edit_bridge;
pub mod findings;
pub mod forms;
pub mod harness;
pub mod keymap;
pub mod lifecycle;
pub mod model;
pub mod mouse;
pub mod picker;
pub mod picking;
pub mod plans;
pub mod prompt;
pub mod terminal;
pub mod theme;
pub mod tree;
pub mod update;
pub mod view;
pub mod watch;

use std::path::PathBuf;

use crate::config::{Environment, LoadOptions, workspace::find_root};

/// How the TUI was asked to start.
#[derive(Debug, Clone, Default)]
pub struct StartOptions {
    pub load: LoadOptions,
    /// `--demo`: open the bundled demo even when a workspace exists.
    pub demo: bool,
}

/// Starts the TUI on the workspace (or the demo) and runs it until quit.
pub fn run(start: StartOptions) -> Result<(), String> {
    terminal::require_terminal()?;
    let env = Environment::from_process()
        .map_err(|e| format!("cannot read the current directory: {e}"))?;
    let no_workspace = start.load.workspace.is_none() && find_root(&env.cwd).is_none();
    let mut demo_dir = None;
    let (env, options, banner) = if start.demo || no_workspace {
        let dir = crate::tui::demo::materialize()
            .map_err(|e| format!("cannot create the demo workspace: {e}"))?;
        let root: PathBuf = dir.path().to_path_buf();
        let banner = crate::tui::demo::banner(start.demo, &env.cwd);
        let env = Environment {
            cwd: root.clone(),
            global_config_dir: None,
            user_data_dir: None,
        };
        let options = LoadOptions {
            workspace: Some(root),
            ..start.load
        };
        demo_dir = Some(dir);
        (env, options, Some(banner))
    } else {
        (env, start.load, None)
    };
    let mut app = app::App::new(theme::Theme::from_env(), (80, 24));
    app.banner = banner;
    let driver = driver::Driver::new(env, options);
    let result = terminal::run(app, driver);
    drop(demo_dir);
    result
}
