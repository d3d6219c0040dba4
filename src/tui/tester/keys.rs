//! The tester's keys: typing re-plans the pattern (its cost line), Tab
//! switches between `learned` and `disabled`, Enter proposes the entry.

use crate::tui::app::{App, Mode};
use crate::tui::command::Command;
use crate::tui::effect::Effect;
use crate::tui::modes::{propose, quit};
use crate::tui::plans::{self, Proposal};

/// The keys while the tester is open.
pub fn tester(app: &mut App, command: &Command) -> Vec<Effect> {
    let Mode::Pattern(t) = &mut app.mode else {
        return Vec::new();
    };
    match command {
        Command::Quit => quit(app),
        Command::Cancel => {
            app.mode = Mode::Normal;
            Vec::new()
        }
        Command::NextField => {
            t.to_disabled = !t.to_disabled;
            plans::refresh_tester_cost(app);
            Vec::new()
        }
        Command::Input(key) => {
            t.input.input(*key);
            app.preview.scroll = 0;
            plans::refresh_tester_cost(app);
            Vec::new()
        }
        Command::Confirm => {
            let (pattern, to_disabled) = (t.pattern(), t.to_disabled);
            let proposal = plans::add_pattern(app, &pattern, to_disabled);
            if matches!(proposal, Proposal::Apply(_) | Proposal::Ask(_)) {
                app.mode = Mode::Normal;
            }
            propose(app, proposal)
        }
        _ => Vec::new(),
    }
}
