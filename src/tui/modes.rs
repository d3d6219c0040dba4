//! `update` for the modes over the main screen: the filter, the pattern
//! tester, choice dialogs and forms; and how a planned edit becomes
//! effects (or a question, or a refusal).

use super::app::{App, FormKind, Mode, Plan};
use super::command::Command;
use super::edits::{self, Proposal};
use super::effect::Effect;
use super::forms;
use super::moves::clamp;
use super::tree::RowKind;

pub fn quit(app: &mut App) -> Vec<Effect> {
    app.quit = true;
    vec![Effect::Quit]
}

pub fn run_plan(app: &mut App, plan: Plan) -> Vec<Effect> {
    if app.read_only_flag {
        app.set_status(super::readonly::REFUSED, true);
        return Vec::new();
    }
    if let Some(err) = &app.load_error {
        app.set_status(
            format!("read-only until the configuration is fixed: {err}"),
            true,
        );
        return Vec::new();
    }
    plan.into_iter()
        .map(|(file, edits)| Effect::ApplyEdit { file, edits })
        .collect()
}

pub fn propose(app: &mut App, proposal: Proposal) -> Vec<Effect> {
    match proposal {
        Proposal::Apply(plan) => run_plan(app, plan),
        Proposal::Ask(choice) => {
            app.mode = Mode::Choice(choice);
            Vec::new()
        }
        Proposal::Refuse(why) => {
            app.set_status(why, true);
            Vec::new()
        }
    }
}

pub fn filter(app: &mut App, command: &Command) -> Vec<Effect> {
    let Mode::Filter(input) = &mut app.mode else {
        return Vec::new();
    };
    match command {
        Command::Quit => return quit(app),
        Command::Cancel => {
            app.subjects.filter.clear();
            app.mode = Mode::Normal;
        }
        Command::Confirm => app.mode = Mode::Normal,
        Command::Input(key) => {
            input.input(*key);
            app.subjects.filter = input.lines().join("");
            // Land on the first matching subject, not its directory.
            app.subjects.row = app
                .rows()
                .iter()
                .position(|r| matches!(r.kind, RowKind::Subject(_)))
                .unwrap_or(0);
        }
        _ => {}
    }
    clamp(app);
    Vec::new()
}

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
            Vec::new()
        }
        Command::Input(key) => {
            t.input.input(*key);
            app.preview.scroll = 0;
            Vec::new()
        }
        Command::Confirm => {
            let (pattern, to_disabled) = (t.pattern(), t.to_disabled);
            let proposal = edits::add_pattern(app, &pattern, to_disabled);
            if matches!(proposal, Proposal::Apply(_)) {
                app.mode = Mode::Normal;
            }
            propose(app, proposal)
        }
        _ => Vec::new(),
    }
}

pub fn choice(app: &mut App, command: &Command) -> Vec<Effect> {
    let Mode::Choice(c) = &app.mode else {
        return Vec::new();
    };
    match command {
        Command::Quit => quit(app),
        Command::Cancel => {
            app.mode = Mode::Normal;
            app.set_status("cancelled", false);
            Vec::new()
        }
        Command::Choose(n) if *n >= 1 && *n <= c.options.len() => {
            let plan = c.options[*n - 1].1.clone();
            app.mode = Mode::Normal;
            run_plan(app, plan)
        }
        _ => Vec::new(),
    }
}

pub fn form(app: &mut App, command: &Command) -> Vec<Effect> {
    let Mode::Form(f) = &mut app.mode else {
        return Vec::new();
    };
    let n = f.fields.len();
    match command {
        Command::Quit => return quit(app),
        Command::Cancel => app.mode = Mode::Normal,
        Command::NextField => f.focus = (f.focus + 1) % n,
        Command::PrevField => f.focus = (f.focus + n - 1) % n,
        Command::Confirm if f.fields[f.focus].multiline => {
            f.fields[f.focus].input.insert_newline();
        }
        Command::Confirm | Command::Save => {
            let f = f.clone();
            match forms::submit(app, &f) {
                Ok(plan) if plan.is_empty() => {
                    app.mode = Mode::Normal;
                    app.set_status("nothing changed", false);
                }
                Ok(plan) => {
                    if let FormKind::NewTopic = f.kind {
                        app.topics.pending = Some(f.fields[0].value().trim().to_owned());
                    }
                    app.mode = Mode::Normal;
                    return run_plan(app, plan);
                }
                Err(why) => {
                    if let Mode::Form(open) = &mut app.mode {
                        open.error = Some(why);
                    }
                }
            }
        }
        Command::Input(key) => {
            f.error = None;
            f.fields[f.focus].input.input(*key);
        }
        _ => {}
    }
    Vec::new()
}
