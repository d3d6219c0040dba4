//! What each change on screen costs, exactly (issue 26 item 1): the
//! section's token count after the plan, counted on the planned state
//! ([`jp_kb_core::edit::plan::planned`]) off the key path, and kept here by
//! the plan's steps for the load it was counted on.
//!
//! The plans shown before a change — a dialog's options, the pattern
//! tester's Enter, what `l` does to the selection (the subject header) —
//! are listed by [`wanted`] when their count is missing; the driver
//! counts them (on a worker in the terminal, inline in the harness) and
//! the counts come back as [`Counted`]. Until then the token line says
//! it is counting, and the budget question is asked on a bound
//! (`TokenChange::budget_confirm`).

use super::app::{App, Mode};
use super::plans;
use jp_kb_core::edit::plan::{Answer, List, Plan, Step};

use super::cost_store::{Counted, Header, HeaderKey, HeaderWhat};

fn generation(app: &App) -> Option<u64> {
    app.loaded.model.as_ref().map(|m| m.generation)
}

/// The steps of every plan on screen whose count is missing.
pub fn wanted(app: &App) -> Vec<Vec<Step>> {
    let Some(generation) = generation(app) else {
        return Vec::new();
    };
    let mut plans: Vec<&Plan> = Vec::new();
    if let Mode::Choice(c) = &app.mode {
        plans.extend(c.options.iter().map(|(_, p)| p));
    }
    if let Mode::Pattern(t) = &app.mode
        && let Some(p) = &t.plan
    {
        plans.push(p);
    }
    if let (Mode::Prune, Some(p)) = (&app.mode, &app.features.prune.plan) {
        plans.push(p);
    }
    if let Some(Header {
        what: HeaderWhat::Plan(p),
        ..
    }) = &app.features.costs.header
    {
        plans.push(p);
    }
    let mut out: Vec<Vec<Step>> = Vec::new();
    for plan in plans {
        if plan.effect.tokens.after.is_none()
            && !plan.steps.is_empty()
            && app.features.costs.get(generation, &plan.steps).is_none()
            && !out.contains(&plan.steps)
        {
            out.push(plan.steps.clone());
        }
    }
    out
}

/// Counts arrived: kept, and every plan on screen they answer becomes
/// exact (its budget question too).
pub fn arrived(app: &mut App, counted: Counted) -> Option<Plan> {
    if generation(app) != Some(counted.generation) {
        // Counted on a load the state no longer shows.
        return None;
    }
    app.features.costs.insert(counted);
    settle(app)
}

/// Every plan on screen takes what is known now: the section's count (a
/// plan made while it was still being counted gets it when the prompt
/// arrives) and its own count after the change. Returns the plan of a
/// confirmation that was only waiting for the count and now has no
/// reason to ask: the caller carries it out.
pub fn settle(app: &mut App) -> Option<Plan> {
    let model = app.loaded.model.as_ref()?;
    let generation = model.generation;
    let section = model.section_tokens();
    let costs = app.features.costs.clone();
    let settle = |plan: &mut Plan| {
        let after = costs.get(generation, &plan.steps);
        plan.settle(section, after, super::cost::BUDGET);
    };
    let mut ready = None;
    if let Mode::Choice(c) = &mut app.mode {
        for (_, plan) in &mut c.options {
            settle(plan);
        }
        if c.waiting
            && let Some((_, plan)) = c.options.first()
            && plan.effect.tokens.before.is_some()
        {
            c.waiting = false;
            if plan.confirm.is_empty() {
                ready = Some(plan.clone());
            }
        }
        if c.confirming {
            plans::reconfirm(c);
        }
    }
    if ready.is_some() {
        app.mode = Mode::Normal;
    }
    if let Some(Header {
        what: HeaderWhat::Plan(plan),
        ..
    }) = &mut app.features.costs.header
    {
        settle(plan);
    }
    if matches!(app.mode, Mode::Pattern(_)) {
        plans::refresh_tester_cost(app);
    }
    if let Some(plan) = app.features.prune.plan.as_deref_mut() {
        settle(plan);
    }
    ready
}

/// Keeps the header's plan current: asked of the planner again when the
/// selection, the marks, the load, the picked layer or the section's
/// count changed (not per frame).
pub fn refresh_header(app: &mut App) {
    let key = header_key(app);
    if app.features.costs.header.as_ref().map(|h| &h.key) == key.as_ref() {
        return;
    }
    app.features.costs.header = key.and_then(|key| header(app, key));
}

fn header_key(app: &App) -> Option<HeaderKey> {
    let model = app.loaded.model.as_ref()?;
    let topic = app.topic_state()?;
    Some(HeaderKey {
        generation: model.generation,
        topic: topic.id().to_owned(),
        subject: app.selected_subject()?,
        marks: app.features.marks.of(topic.id()),
        target: app.preview.config.target.clone(),
        section: model.section_tokens(),
    })
}

fn header(app: &App, key: HeaderKey) -> Option<Header> {
    let topic = app.topic_state()?;
    let res = app.resolution()?;
    let marked = app.features.marks.count(topic.id());
    let (intent, label) = if let Some(intent) = super::selection::intent(app, List::Learned) {
        (intent, format!("l (the {marked} marked)"))
    } else {
        let i = key.subject;
        // `l` changes nothing the assistant sees on a disabled
        // subject or topic: no line.
        if res.is_disabled(i) || !topic.enabled() {
            return None;
        }
        let verb = if res.is_learned(i) {
            "un-learn"
        } else {
            "learn"
        };
        let intent =
            super::selection::toggle_intent(res, topic.id().to_owned(), &[i], List::Learned);
        (intent, format!("l ({verb})"))
    };
    let what = match plans::ask(app, &intent)? {
        Answer::Do(plan) => HeaderWhat::Plan(Box::new(plan)),
        Answer::Choose(_) => HeaderWhat::Asks,
        // Nothing, a refusal, or an answer newer than this TUI: no cost
        // to show.
        _ => return None,
    };
    Some(Header { key, label, what })
}

/// The header's line: `l (learn): +312 tok → 5,312 tok, budget 20,000`.
pub fn header_line(app: &App) -> Option<String> {
    // `--read-only` offers no edit, so no key's cost either.
    if app.screen.read_only {
        return None;
    }
    let h = app.features.costs.header.as_ref()?;
    Some(match &h.what {
        HeaderWhat::Plan(plan) => format!(
            "{}: {}",
            h.label,
            plan.effect.tokens.line(super::cost::BUDGET)
        ),
        HeaderWhat::Asks => format!("{}: asks how (each way shows its cost)", h.label),
    })
}
