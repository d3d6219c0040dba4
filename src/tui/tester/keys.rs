//! The tester's keys: typing re-plans the pattern (its cost line), Tab
//! switches between `learned` and `disabled`, Enter proposes the entry.

use crate::tui::app::{App, Mode};
use crate::tui::command::Command;
use crate::tui::effect::Effect;
use crate::tui::modes::{propose, quit};
use crate::tui::plans::{self, Proposal};
use crate::tui::text_layout::word_rows::body_height;

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
        // The result beside the tester (the Learn tab: a `learn` call's
        // output, or its error listing every unknown slug) scrolls by a
        // page while the pattern keeps the keys.
        Command::PageDown | Command::PageUp => {
            scroll_result(app, matches!(command, Command::PageDown));
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

/// Scrolls the preview beside the tester by a page (from the scroll the
/// last frame drew, so a page up after the end moves from the last page).
fn scroll_result(app: &mut App, down: bool) {
    let page = body_height(app).saturating_sub(1).max(1);
    let from = app
        .screen
        .drawn
        .preview_max_scroll
        .map_or(app.preview.scroll, |max| app.preview.scroll.min(max));
    app.preview.scroll = if down {
        from.saturating_add(page)
    } else {
        from.saturating_sub(page)
    };
}
