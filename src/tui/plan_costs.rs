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

/// Counts kept per load: more plans than a screen shows at once.
const KEPT: usize = 64;

/// Counts that arrived: the section's tokens after each plan's steps.
#[derive(Debug)]
pub struct Counted {
    pub generation: u64,
    pub counts: Vec<(Vec<Step>, usize)>,
}

/// What `l` does to the selection now (the subject header's line).
#[derive(Debug, Clone)]
pub struct Header {
    key: HeaderKey,
    /// `l (learn)`, `l (the 3 marked)`.
    pub label: String,
    pub what: HeaderWhat,
}

#[derive(Debug, Clone)]
pub enum HeaderWhat {
    Plan(Box<Plan>),
    /// `l` asks which way (each option shows its cost).
    Asks,
}

/// What the header's plan depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct HeaderKey {
    generation: u64,
    topic: String,
    subject: usize,
    marks: Vec<String>,
    target: Option<std::path::PathBuf>,
    section: Option<usize>,
}

/// The counts of the shown load, newest last.
#[derive(Debug, Clone, Default)]
pub struct PlanCosts {
    generation: u64,
    counts: Vec<(Vec<Step>, usize)>,
    pub header: Option<Header>,
}

impl PlanCosts {
    /// The section's tokens after `steps` on load `generation`, if counted.
    pub fn get(&self, generation: u64, steps: &[Step]) -> Option<usize> {
        if generation != self.generation {
            return None;
        }
        self.counts
            .iter()
            .rev()
            .find(|(s, _)| s.as_slice() == steps)
            .map(|(_, n)| *n)
    }

    fn insert(&mut self, counted: Counted) {
        if counted.generation != self.generation {
            self.generation = counted.generation;
            self.counts.clear();
        }
        for (steps, n) in counted.counts {
            self.counts.retain(|(s, _)| *s != steps);
            self.counts.push((steps, n));
        }
        let over = self.counts.len().saturating_sub(KEPT);
        self.counts.drain(..over);
    }
}

fn generation(app: &App) -> Option<u64> {
    app.model.as_ref().map(|m| m.generation)
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
    if let Some(Header {
        what: HeaderWhat::Plan(p),
        ..
    }) = &app.costs.header
    {
        plans.push(p);
    }
    let mut out: Vec<Vec<Step>> = Vec::new();
    for plan in plans {
        if plan.effect.tokens.after.is_none()
            && !plan.steps.is_empty()
            && app.costs.get(generation, &plan.steps).is_none()
            && !out.contains(&plan.steps)
        {
            out.push(plan.steps.clone());
        }
    }
    out
}

/// Counts arrived: kept, and every plan on screen they answer becomes
/// exact (its budget question too).
pub fn arrived(app: &mut App, counted: Counted) {
    if generation(app) != Some(counted.generation) {
        // Counted on a load the state no longer shows.
        return;
    }
    app.costs.insert(counted);
    let Some(generation) = generation(app) else {
        return;
    };
    let costs = app.costs.clone();
    let settle = |plan: &mut Plan| {
        if plan.effect.tokens.after.is_none()
            && let Some(n) = costs.get(generation, &plan.steps)
        {
            plan.counted(n, super::cost::BUDGET);
        }
    };
    if let Mode::Choice(c) = &mut app.mode {
        for (_, plan) in &mut c.options {
            settle(plan);
        }
        if c.confirming {
            plans::reconfirm(c);
        }
    }
    if let Some(Header {
        what: HeaderWhat::Plan(plan),
        ..
    }) = &mut app.costs.header
    {
        settle(plan);
    }
    if matches!(app.mode, Mode::Pattern(_)) {
        plans::refresh_tester_cost(app);
    }
}

/// Keeps the header's plan current: asked of the planner again when the
/// selection, the marks, the load, the picked layer or the section's
/// count changed (not per frame).
pub fn refresh_header(app: &mut App) {
    let key = header_key(app);
    if app.costs.header.as_ref().map(|h| &h.key) == key.as_ref() {
        return;
    }
    app.costs.header = key.and_then(|key| header(app, key));
}

fn header_key(app: &App) -> Option<HeaderKey> {
    let model = app.model.as_ref()?;
    let topic = app.topic_state()?;
    Some(HeaderKey {
        generation: model.generation,
        topic: topic.id().to_owned(),
        subject: app.selected_subject()?,
        marks: app.marks.of(topic.id()),
        target: app.config.target.clone(),
        section: model.prompt_ready.then(|| model.prompt_tokens.unwrap_or(0)),
    })
}

fn header(app: &App, key: HeaderKey) -> Option<Header> {
    let topic = app.topic_state()?;
    let res = app.resolution()?;
    let marked = app.marks.count(topic.id());
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
        Answer::Nothing(_) | Answer::Refuse(_) => return None,
    };
    Some(Header { key, label, what })
}

/// The header's line: `l (learn): +312 tok → 5,312 tok, budget 20,000`.
pub fn header_line(app: &App) -> Option<String> {
    let h = app.costs.header.as_ref()?;
    Some(match &h.what {
        HeaderWhat::Plan(plan) => format!(
            "{}: {}",
            h.label,
            plan.effect.tokens.line(super::cost::BUDGET)
        ),
        HeaderWhat::Asks => format!("{}: asks how (each way shows its cost)", h.label),
    })
}
