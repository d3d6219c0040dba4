//! The TUI asks the curation planner (`jp_kb_core::internal::edit::plan`) and shows its
//! answer: what a toggle, the pattern tester's Enter or a form means is
//! decided there, for the CLI and the TUI alike. Here the selection
//! becomes an intent, the answer becomes a proposal (apply, a dialog, a
//! confirmation, a refusal), and token counts come from the cache — no
//! file is read on the UI thread.

use super::app::{App, Mode};
use super::cost::{BUDGET, Cached};
use super::dialog::Choice;
use super::forms::{Form, FormField, FormKind};
use super::tree::RowKind;
use jp_kb_core::edit::plan::{
    Answer, Chosen, Confirm, FieldValue, Intent, List, Plan, Refusal, TopicField,
};
use jp_kb_core::internal::edit::plan;

/// What a key proposes.
#[derive(Debug, Clone)]
pub enum Proposal {
    Apply(Plan),
    Ask(Choice),
    /// Nothing to change: said in the status line, not as an error.
    Note(String),
    Refuse(String),
}

/// Asks the planner; `None` before the first load.
pub fn ask(app: &App, intent: &Intent) -> Option<Answer> {
    let model = app.loaded.model.as_ref()?;
    let tokens = Cached {
        model,
        costs: &app.features.costs,
    };
    let mut ws = plan::Workspace::new(&model.kb)
        .tokens(&tokens)
        .budget(BUDGET);
    // The picked layer takes additions and new keys; removals go to the
    // files holding the entry.
    if let Some(path) = app.preview.config.target.clone() {
        ws = ws.chosen(Chosen::additions(path));
    }
    Some(plan::plan(&ws, intent))
}

/// The planner's answer as what the TUI does with it. A plan with reasons
/// to confirm asks first.
pub fn propose(answer: Option<Answer>) -> Proposal {
    match answer {
        None => Proposal::Refuse("no workspace loaded".into()),
        Some(Answer::Do(plan)) if !plan.confirm.is_empty() => Proposal::Ask(confirm(plan)),
        Some(Answer::Do(plan)) => Proposal::Apply(plan),
        Some(Answer::Choose(q)) => Proposal::Ask(Choice {
            title: q.title,
            lines: q.lines,
            options: q.options.into_iter().map(|a| (a.label, a.plan)).collect(),
            confirming: false,
            waiting: false,
        }),
        Some(Answer::Nothing(why)) => Proposal::Note(format!("nothing changed: {why}")),
        Some(Answer::Refuse(why)) => Proposal::Refuse(refusal(&why)),
        // An answer newer than this TUI: named, never guessed at.
        Some(other) => Proposal::Refuse(format!(
            "the planner gave an answer this TUI cannot carry out: {other:?}"
        )),
    }
}

/// A refusal in the TUI's words: the planner's sentence, and where a key
/// fixes it, that key.
fn refusal(why: &Refusal) -> String {
    match why {
        Refusal::UnknownTopic { .. } => format!("{why} (`n` adds a topic)"),
        other => other.to_string(),
    }
}

/// The confirmation of a plan: its reasons, then one option carrying the
/// plan out (choosing it does not ask again).
pub fn confirm(plan: Plan) -> Choice {
    // Nothing known yet but that the section is being counted: wait for
    // it rather than ask a question the count will answer in a moment.
    let waiting = !plan.confirm.is_empty()
        && plan
            .confirm
            .iter()
            .all(|c| matches!(c, Confirm::MayCrossBudget { bound: None, .. }));
    let mut choice = Choice {
        title: "Confirm".into(),
        lines: Vec::new(),
        options: vec![("yes, make the change".into(), plan)],
        confirming: true,
        waiting,
    };
    reconfirm(&mut choice);
    choice
}

/// The plan would ask about the budget while the section is still being
/// counted: only the count can say whether it crosses it.
pub fn still_uncounted(plan: &Plan) -> bool {
    plan.confirm
        .iter()
        .any(|c| matches!(c, Confirm::MayCrossBudget { .. }))
}

/// A confirmation's lines from its plan's reasons: again when the count
/// arrives (a bound's "may" becomes the exact figure, or goes).
pub fn reconfirm(choice: &mut Choice) {
    let Some((_, plan)) = choice.options.first() else {
        return;
    };
    choice.lines = if choice.waiting {
        vec![
            "Counting the prompt's tokens first: the change is made once they are, unless it \
             would cross the budget (Esc cancels)."
                .to_owned(),
        ]
    } else if plan.confirm.is_empty() {
        vec!["Counted: no reason to ask any more.".to_owned()]
    } else {
        plan.confirm
            .iter()
            .map(|c| format!("This change {}.", crate::hints::confirm(c)))
            .collect()
    };
}

/// `l` (learned) or `d` (disabled) on the selected subject or directory.
pub fn toggle(app: &App, list: List) -> Proposal {
    if let Some(intent) = super::selection::intent(app, list) {
        return propose(ask(app, &intent));
    }
    let (Some(state), Some(res), Some(row)) =
        (app.topic_state(), app.resolution(), app.selected_row())
    else {
        return Proposal::Refuse("select a subject or a directory first".into());
    };
    let topic = state.id().to_owned();
    let intent = match row.kind {
        RowKind::Dir(dir) => Intent::Directory {
            list,
            topic,
            dir: dir.rel,
        },
        RowKind::Subject(i) => super::selection::toggle_intent(res, topic, &[i], list),
    };
    propose(ask(app, &intent))
}

/// `e` on the selected topic.
pub fn toggle_enable(app: &App) -> Proposal {
    let Some(state) = app.topic_state() else {
        return Proposal::Refuse("no topic selected".into());
    };
    propose(ask(
        app,
        &Intent::Enable {
            topic: state.id().to_owned(),
            enable: !state.enabled(),
        },
    ))
}

/// The intent of the pattern tester's Enter.
fn tester_intent(app: &App, pattern: &str, disabled: bool) -> Option<Intent> {
    Some(Intent::Add {
        list: if disabled {
            List::Disabled
        } else {
            List::Learned
        },
        topic: app.topic_state()?.id().to_owned(),
        entries: vec![pattern.to_owned()],
    })
}

/// Enter in the pattern tester.
pub fn add_pattern(app: &App, pattern: &str, disabled: bool) -> Proposal {
    if pattern.trim().is_empty() {
        return Proposal::Refuse("type a pattern first".into());
    }
    match tester_intent(app, pattern, disabled) {
        Some(intent) => propose(ask(app, &intent)),
        None => Proposal::Refuse("no topic selected".into()),
    }
}

/// What Enter in the pattern tester would change, shown before it is
/// pressed: the token line, then what enters or leaves the prompt.
pub fn tester_cost(app: &App, pattern: &str, disabled: bool) -> (Vec<String>, Option<Box<Plan>>) {
    if pattern.trim().is_empty() {
        return (Vec::new(), None);
    }
    let Some(intent) = tester_intent(app, pattern, disabled) else {
        return (Vec::new(), None);
    };
    match ask(app, &intent) {
        Some(Answer::Do(plan)) => (plan.effect.lines(BUDGET), Some(Box::new(plan))),
        Some(Answer::Refuse(why)) => (vec![format!("✗ {}", refusal(&why))], None),
        _ => (Vec::new(), None),
    }
}

/// The tester's cost lines, asked of the planner once per change of the
/// pattern or the mode (not per frame).
pub fn refresh_tester_cost(app: &mut App) {
    let Some((pattern, disabled)) = app.tester().map(|t| (t.pattern(), t.to_disabled)) else {
        return;
    };
    let (cost, plan) = tester_cost(app, &pattern, disabled);
    if let Mode::Pattern(t) = &mut app.mode {
        t.cost = cost;
        t.plan = plan;
    }
}

/// Validates a form through the planner and returns its proposal.
pub fn submit(app: &App, form: &Form) -> Proposal {
    let values: Vec<String> = form.fields.iter().map(FormField::value).collect();
    let value = |i: usize| values.get(i).cloned().unwrap_or_default();
    let intent = match &form.kind {
        FormKind::EditTopic { topic } => {
            let Some(state) = app.loaded.model.as_ref().and_then(|m| m.kb.topic(topic)) else {
                return Proposal::Refuse(format!("topic `{topic}` no longer exists"));
            };
            let c = &state.config;
            // The form's fields are the metadata, in order (`forms::edit_topic`).
            let fields = TopicField::METADATA
                .into_iter()
                .enumerate()
                .filter(|&(i, field)| c.text(field).map_or("", |v| v.value.as_str()) != value(i))
                .map(|(i, field)| (field, Some(FieldValue::Text(value(i)))))
                .collect::<Vec<_>>();
            if fields.is_empty() {
                return Proposal::Note("nothing changed".into());
            }
            Intent::Fields {
                topic: topic.clone(),
                fields,
            }
        }
        FormKind::NewTopic => Intent::NewTopic {
            id: value(0),
            subjects: value(1),
            title: Some(value(2)),
            introduction: None,
            description: None,
        },
    };
    propose(ask(app, &intent))
}
