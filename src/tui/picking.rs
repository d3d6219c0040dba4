//! The layer picker on the app: opening it on the current target and
//! applying what a key did (the picker itself is plain state,
//! [`super::picker`]).

use super::action::Action;
use super::app::{App, Mode};
use super::picker::{Outcome, Picker, chosen_message};

/// `f`: the picker over the loaded workspace's layers.
pub fn open(app: &mut App) {
    if let Some(model) = &app.model {
        let topic = app.topic_state().map(|t| t.id().to_owned());
        let picker = Picker::open(&model.kb, topic.as_deref(), app.shown_target());
        app.mode = Mode::Picker(picker);
    }
}

/// A key in the picker: Enter makes the highlighted layer the target.
pub fn key(app: &mut App, action: &Action) {
    let Mode::Picker(p) = &mut app.mode else {
        return;
    };
    let topic = p.topic.clone();
    match p.key(action) {
        Outcome::Stay => {}
        Outcome::Cancel => {
            app.mode = Mode::Normal;
            app.set_status("edit file unchanged", false);
        }
        Outcome::Chosen(layer) => {
            app.mode = Mode::Normal;
            app.set_status(chosen_message(&layer, topic.as_deref()), false);
            app.target = Some(layer.path);
        }
    }
}
