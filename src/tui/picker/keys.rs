//! The layer picker as a mode over the main screen: opening it on the
//! current target and applying what a command did (the picker itself is
//! plain state, [`crate::tui::picker::state`]).

use crate::tui::app::{App, Mode};
use crate::tui::command::Command;
use crate::tui::effect::Effect;
use crate::tui::modes::quit;
use crate::tui::picker::state::{Picker, PickerResult, chosen_message, list_height};

/// `f`: the picker over the loaded workspace's layers.
pub fn open(app: &mut App) {
    // The Config tab goes back to the edit file from a finding's place.
    app.preview.config.jump = None;
    if let Some(model) = &app.loaded.model {
        let topic = app.topic_state().map(|t| t.id().to_owned());
        let picker = Picker::open(&model.kb, topic.as_deref(), app.shown_target());
        app.mode = Mode::Picker(picker);
    }
}

/// A command in the picker: Enter makes the highlighted layer the target.
pub fn key(app: &mut App, command: &Command) -> Vec<Effect> {
    if matches!(command, Command::Quit) {
        return quit(app);
    }
    let Mode::Picker(p) = &mut app.mode else {
        return Vec::new();
    };
    let topic = p.topic.clone();
    let page = list_height(app.screen.size.1, p.rows().len());
    match p.key(command, page) {
        PickerResult::Stay => {}
        PickerResult::Cancel => {
            app.mode = Mode::Normal;
            app.set_status("edit file unchanged", false);
        }
        PickerResult::Chosen(layer) => {
            app.mode = Mode::Normal;
            app.set_status(chosen_message(&layer, topic.as_deref()), false);
            app.preview.config.target = Some(layer.path);
        }
    }
    Vec::new()
}
