//! `update` for the modes over the main screen: the filter, the pattern
//! tester, choice dialogs and forms; and how the curation planner's
//! answer ([`super::plans`]) becomes effects (or a question, a
//! confirmation, a note or a refusal).

use super::app::{App, Mode};
use super::command::Command;
use super::effect::Effect;
use super::forms::FormKind;
use super::moves::clamp;
use super::plans::{self, Proposal};
use super::tree::RowKind;
use jp_kb_core::edit::plan::Plan;

pub fn quit(app: &mut App) -> Vec<Effect> {
    app.screen.quit = true;
    vec![Effect::Quit]
}

pub fn run_plan(app: &mut App, plan: Plan) -> Vec<Effect> {
    if app.screen.read_only {
        app.set_status(super::readonly::REFUSED, true);
        return Vec::new();
    }
    if let Some(err) = &app.loaded.error {
        app.set_status(
            format!("read-only until the configuration is fixed: {err}"),
            true,
        );
        return Vec::new();
    }
    for note in plan
        .notes
        .iter()
        .chain(&crate::hints::unasked(&plan.confirm))
    {
        // Shown now; the save's summary replaces it when it lands.
        app.set_status(format!("note: {note}"), false);
    }
    if plan.steps.is_empty() {
        return Vec::new();
    }
    vec![Effect::Apply(Box::new(plan))]
}

/// `l`/`d`: on the marked subjects when the topic has marks (they go once
/// the edit is made), else on the selected row.
pub fn toggle_list(app: &mut App, list: jp_kb_core::edit::plan::List) -> Vec<Effect> {
    super::selection::start_acting(app);
    let proposal = plans::toggle(app, list);
    let effects = propose(app, proposal);
    super::selection::after_proposal(app, &effects);
    effects
}

pub fn propose(app: &mut App, proposal: Proposal) -> Vec<Effect> {
    match proposal {
        Proposal::Apply(plan) => run_plan(app, plan),
        Proposal::Ask(choice) => {
            app.mode = Mode::Choice(choice);
            Vec::new()
        }
        Proposal::Note(why) => {
            app.set_status(why, false);
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
            // Land on the best match: the tree ranks files and
            // directories together, so the first subject row is it.
            let best = app
                .rows()
                .iter()
                .position(|r| matches!(r.kind, RowKind::Subject(_)))
                .unwrap_or(0);
            app.select_row(best);
        }
        _ => {}
    }
    clamp(app);
    Vec::new()
}

pub fn choice(app: &mut App, command: &Command) -> Vec<Effect> {
    let effects = choice_inner(app, command);
    super::selection::after_proposal(app, &effects);
    effects
}

fn choice_inner(app: &mut App, command: &Command) -> Vec<Effect> {
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
            let confirming = c.confirming;
            app.mode = Mode::Normal;
            // The option showed what it does and why it would ask (its
            // effect and its reasons, under it): choosing it is the
            // confirmation. Only a budget not counted yet asks (or waits
            // for the count) once more.
            if confirming || !plans::still_uncounted(&plan) {
                run_plan(app, plan)
            } else {
                app.mode = Mode::Choice(plans::confirm(plan));
                Vec::new()
            }
        }
        // Enter confirms a dialog with one option (the confirmation).
        Command::Confirm if c.options.len() == 1 => {
            let plan = c.options[0].1.clone();
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
            match plans::submit(app, &f) {
                Proposal::Refuse(why) => {
                    if let Mode::Form(open) = &mut app.mode {
                        open.error = Some(why);
                    }
                }
                proposal => {
                    if let (FormKind::NewTopic, Proposal::Apply(_)) = (&f.kind, &proposal) {
                        app.topics.pending = Some(f.fields[0].value().trim().to_owned());
                    }
                    app.mode = Mode::Normal;
                    return propose(app, proposal);
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
