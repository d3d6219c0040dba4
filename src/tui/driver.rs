//! The driver: carries out the effects `update` returns (edits through
//! the edit bridge, undo/redo, reloads, checks) and reads what the screen
//! needs, feeding the results back as events. The terminal loop and the
//! test harness share it, so tests exercise the same path as the real
//! app. Off the loop, its work runs on [`Worker`]s that report to one
//! [`Outbox`]; without them (the test harness) it runs inline.

use std::path::PathBuf;
use std::sync::Arc;

use super::app::App;
use super::edit_bridge::{self, Journal};
use super::effect::Effect;
use super::effect_reports::{done, error};
use super::event::{Event, Msg};
use super::listing::state::Listed;
use super::listing::state::Loading;
use super::loader::{Loader, PromptJob, Reload, merge_reloads};
use super::model::{Fetched, LoadOutcome, Model, Need, fetch, next_load};
use super::plan_counts::PlanCounts;
use super::prompt::{PromptCount, RenderedPrompt};
use super::read_worker::Reads;
use super::shown_path;
use super::token_worker::TokenCounts;
use super::update::update;
use super::worker::{Outbox, Worker, newest};
use crate::tui::search::worker::Searches;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::internal::section_tokens::SectionCounter;
use jp_kb_core::subjects::{TopicState, WatchedWalks};
use jp_kb_core::{Environment, LoadOptions};

/// A check to run: the loaded knowledge base, or `None` for the
/// workspace from scratch (see [`crate::tui::findings::state::compute`]).
type CheckJob = Option<Arc<KnowledgeBase>>;

/// What the driver needs to reload and write.
#[derive(Debug)]
pub struct Driver {
    pub env: Environment,
    pub options: LoadOptions,
    pub journal: Journal,
    /// Walks and resolutions kept between loads: a directory is walked
    /// again only when a change under it is reported (an edit, the
    /// watcher) or on a full reload.
    pub walks: Arc<WatchedWalks>,
    /// Where checks run (None: inline, as tests want).
    checks: Option<Worker<CheckJob>>,
    /// Where loads send their prompt to be rendered (None: rendered
    /// during the load).
    prompts: Option<Worker<PromptJob>>,
    /// Where reloads for file changes run (None: during the dispatch):
    /// see [`Driver::reload_in_background`].
    reloads: Option<Worker<Reload>>,
    /// Where token counts of rows coming into view are made (None: during
    /// the key, as the harness wants): see [`Driver::count_in_background`].
    tokens: Option<TokenCounts>,
    /// Where the preview's slow reads run (inline until a worker is
    /// started: the harness).
    reads: Option<Reads>,
    /// Where the search mode's queries run (inline until a worker is
    /// started): see [`crate::tui::search::worker`].
    searches: Searches,
    /// Where planned sections are counted (inline until a worker is
    /// started): see [`super::plan_counts`].
    plan_counts: PlanCounts,
    /// Where subjects' ages and the prune view's list are read (inline
    /// until a worker is started): see [`crate::tui::prune::worker`].
    prunes: crate::tui::prune::worker::Prunes,
    /// The one section counter (its memo shared by every clone): a
    /// planned section's count is the prompt's after the change is made.
    counter: SectionCounter,
}

/// The loaded workspace's root (empty before a load: nothing is
/// shortened).
fn workspace_root(app: &App) -> PathBuf {
    app.model()
        .map(|m| m.kb.root().to_path_buf())
        .unwrap_or_default()
}

impl Driver {
    pub fn new(env: Environment, options: LoadOptions) -> Self {
        let counter = SectionCounter::new();
        Self {
            env,
            options,
            // Bounds are set from each loaded model before a write.
            journal: Journal::new(jp_kb_core::edit::Boundaries::default()),
            walks: Arc::new(WatchedWalks::new()),
            checks: None,
            prompts: None,
            reloads: None,
            tokens: None,
            reads: None,
            searches: Searches::default(),
            plan_counts: PlanCounts::new(&counter),
            prunes: crate::tui::prune::worker::Prunes::default(),
            counter,
        }
    }

    fn loader(&self) -> Loader {
        Loader {
            env: self.env.clone(),
            options: self.options.clone(),
            walks: Arc::clone(&self.walks),
            prompts: self.prompts.clone(),
            counter: self.counter.clone(),
        }
    }

    /// Forgets the walks `changed` makes stale (all of them when empty:
    /// nothing is known).
    fn invalidate(&self, changed: &[PathBuf]) {
        if changed.is_empty() {
            self.walks.clear();
        } else {
            self.walks.invalidate(changed);
        }
    }

    /// Starts every worker the terminal runs (prompt, check, reload, token
    /// counts, search), reporting to `outbox`; a worker that cannot start
    /// leaves its work inline.
    pub fn start_workers(&mut self, outbox: &Outbox) {
        self.spawn_prompt_worker(outbox);
        let _ = self.check_in_background(outbox);
        let _ = self.reload_in_background(outbox);
        let _ = self.count_in_background(outbox);
        self.reads = Reads::spawn(outbox).ok();
        let _ = self.search_in_background(outbox);
        let _ = self.plan_counts.spawn(outbox);
        let _ = self.prunes.spawn(outbox);
    }

    /// Runs the search mode's queries on a worker, on the index in the
    /// user's cache directory, from now on (the harness searches inline
    /// on an index in memory).
    pub fn search_in_background(&mut self, outbox: &Outbox) -> std::io::Result<()> {
        self.searches.spawn(outbox)
    }

    /// Counts the tokens of rows coming into view on a worker from now on
    /// (the terminal does; the harness counts during the key, so its
    /// screens are deterministic), reported as [`Event::Fetched`].
    pub fn count_in_background(&mut self, outbox: &Outbox) -> std::io::Result<()> {
        self.tokens = Some(TokenCounts::spawn(outbox)?);
        Ok(())
    }

    /// Runs checks on a worker thread from now on (the terminal does; the
    /// test harness checks inline, so its screens are deterministic): a
    /// check reads every subject, about a second per thousand. A burst of
    /// edits runs one check; an overtaken report is never shown.
    pub fn check_in_background(&mut self, outbox: &Outbox) -> std::io::Result<()> {
        let (env, options) = (self.env.clone(), self.options.clone());
        let run = move |kb: CheckJob| {
            let report = crate::tui::findings::state::compute(kb.as_deref(), &env, &options);
            Some(Event::Checked(Box::new(report)))
        };
        self.checks = Some(Worker::spawn(
            "jp-kb-check",
            newest,
            run,
            Arc::clone(outbox),
        )?);
        Ok(())
    }

    /// Runs the reloads that file changes cause on a worker thread from
    /// now on, their results reported as [`Event::Loaded`]: re-walking a
    /// topic of 100k subjects after a file in it changed takes half a
    /// second, during which keys must still be answered. Changes that
    /// arrive while a reload runs are merged into the next one. Edits
    /// still reload during their key (they must show what they did); a
    /// background reload they overtake is dropped when it arrives (see
    /// `LoadOutcome::started`).
    pub fn reload_in_background(&mut self, outbox: &Outbox) -> std::io::Result<()> {
        let loader = self.loader();
        let run = move |reload: Reload| Some(loader.load(reload.changed, reload.started));
        self.reloads = Some(Worker::spawn(
            "jp-kb-reload",
            merge_reloads,
            run,
            Arc::clone(outbox),
        )?);
        Ok(())
    }

    /// Renders every load's prompt on a worker thread from now on (it
    /// reads every pre-loaded subject and counts its tokens: seconds on a
    /// large knowledge base), reported as [`Event::Fetched`]; a load's
    /// frames show the prompt as pending until then. Loads that follow
    /// each other quickly render only the latest. Start it before the
    /// other workers: they hand their loads' prompts to it.
    pub fn spawn_prompt_worker(&mut self, outbox: &Outbox) {
        let counter = self.counter.clone();
        let early = Arc::clone(outbox);
        let run = move |(kb, generation): PromptJob| {
            // The count first: the status line and the costs need no
            // more, and the layout reads every pre-loaded file.
            let count = PromptCount::count(&kb, generation, &counter);
            let _ = early(Event::Fetched(Box::new(Fetched::PromptCount(count))));
            let prompt = RenderedPrompt::lay_out(&kb, count);
            Some(Event::Fetched(Box::new(Fetched::Prompt(prompt))))
        };
        // Without the thread, prompts render during their load.
        self.prompts = Worker::spawn("jp-kb-prompt", newest, run, Arc::clone(outbox)).ok();
    }

    /// Loads the workspace as an event. `changed` lists what changed
    /// since the last load (directories holding them are walked again);
    /// empty means unknown: everything is walked again.
    pub fn load(&self, changed: Vec<PathBuf>) -> Event {
        let started = next_load();
        self.invalidate(&changed);
        self.loader().load(changed, started)
    }

    /// Starts the first (full) load with the topic walks on a worker
    /// thread, so the first frame need not wait for them: the
    /// configuration is read here (cheap) and `app.loaded.loading` set from it;
    /// the worker reports the selected topic's listing first (its rows
    /// without a `stat`, [`Event::Listed`]), then the loaded state as
    /// [`Event::Loaded`] (its prompt, when a prompt worker runs, is asked
    /// for only after it). A configuration error is dispatched at once
    /// (nothing to walk).
    pub fn start_load(&mut self, app: &mut App, outbox: &Outbox) {
        self.walks.clear();
        let kb = match KnowledgeBase::load_watched(&self.env, &self.options, &self.walks) {
            Ok(kb) => kb,
            Err(e) => {
                let message = shown_path::load_error(&self.env, &self.options, e);
                let outcome = LoadOutcome {
                    result: Err(message),
                    changed: Vec::new(),
                    started: next_load(),
                };
                self.dispatch(app, Event::Loaded(Box::new(outcome)));
                return;
            }
        };
        app.loaded.loading = Some(Loading::of(&kb));
        let started = next_load();
        let has_prompt_worker = self.prompts.is_some();
        let counter = self.counter.clone();
        let selected = app.topics.selected;
        let outbox = Arc::clone(outbox);
        let work = move || {
            // The selected topic's rows first, from its directory
            // listings (no `stat`): the walk below reads the sizes and
            // replaces them (`super::listing`).
            if let Some(listing) = kb.topics.get(selected).and_then(TopicState::listing) {
                let listed = Listed {
                    topic: selected,
                    listing,
                };
                let _ = outbox(Event::Listed(Box::new(listed)));
            }
            let mut model = Model::from_kb(kb);
            if !has_prompt_worker {
                model.set_prompt(RenderedPrompt::render(
                    &model.kb,
                    model.generation,
                    &counter,
                ));
            }
            let outcome = LoadOutcome {
                result: Ok(model),
                changed: Vec::new(),
                started,
            };
            // The state asks for the prompt when it takes the load.
            let _ = outbox(Event::Loaded(Box::new(outcome)));
        };
        if let Err(e) = std::thread::Builder::new()
            .name("jp-kb-load".into())
            .spawn(work)
        {
            // No thread: load here (slow, but the TUI still starts).
            app.loaded.loading = None;
            app.set_status(format!("cannot start the loader: {e}"), true);
            let first = self.load(Vec::new());
            self.dispatch(app, first);
        }
    }

    /// Runs a command or event and everything it causes, then reads what
    /// the next frame needs. Returns the effects only the terminal can
    /// carry out (the editor, quitting).
    pub fn dispatch(&mut self, app: &mut App, msg: impl Into<Msg>) -> Vec<Effect> {
        let msg = msg.into();
        if let Msg::Event(Event::Fetched(fetched)) = &msg {
            if let Some(tokens) = self.tokens.as_mut() {
                tokens.answered(fetched);
            }
            if let Some(reads) = self.reads.as_mut() {
                reads.answered(fetched);
            }
        }
        let mut queue: Vec<Msg> = vec![msg];
        let mut outside = Vec::new();
        while let Some(msg) = queue.pop() {
            let effects = update(app, msg);
            let mut follow = Vec::new();
            for effect in effects {
                match effect {
                    Effect::OpenEditor(_)
                    | Effect::OpenEditorAt(..)
                    | Effect::Quit
                    | Effect::Suspend
                    | Effect::Copy(_) => {
                        outside.push(effect);
                    }
                    // Read here: `update` does no I/O.
                    Effect::CopyPrompt => outside.extend(
                        app.loaded
                            .model
                            .as_ref()
                            .and_then(super::model::Model::full_prompt)
                            .map(Effect::Copy),
                    ),
                    other => follow.extend(self.perform(app, other).into_iter().map(Msg::Event)),
                }
            }
            // Run follow-ups in order (queue is a stack).
            follow.reverse();
            queue.extend(follow);
        }
        self.fulfill(app);
        outside
    }

    /// After a saved edit, undo or redo: keeps the connected clients'
    /// generated files current (contract §8), from the load that follows
    /// the edit (`loaded`: no second load of the workspace). Returns what
    /// to add to the status message ("" when no client is connected).
    fn sync_clients(&self, app: &App, loaded: &Event) -> String {
        let Some(before) = app
            .loaded
            .model
            .as_ref()
            .filter(|_| app.loaded.error.is_none())
        else {
            return String::new();
        };
        if jp_kb_core::clients::connected(&before.kb).is_empty() {
            return String::new();
        }
        if !self.options.cfg.is_empty() || !self.options.knowledge.is_empty() {
            return " · client files not synced (--cfg/-k given): run `jp-kb sync`".to_owned();
        }
        let Event::Loaded(outcome) = loaded else {
            return String::new();
        };
        match &outcome.result {
            Ok(after) => jp_kb_core::clients::after_edit(&before.kb, &after.kb)
                .iter()
                .map(|line| format!(" · {}", crate::hints::synced(line)))
                .collect::<Vec<_>>()
                .concat(),
            Err(_) => String::new(),
        }
    }

    /// The journal, its writes bounded to the loaded workspace and the
    /// person's JP directories (contract §8, containment).
    fn bounded_journal(&mut self, app: &App) -> Result<&mut Journal, String> {
        let model = app
            .loaded
            .model
            .as_ref()
            .ok_or_else(|| "no workspace is loaded; nothing written".to_owned())?;
        self.journal.set_bounds(model.kb.boundaries());
        Ok(&mut self.journal)
    }

    fn undo_or_redo(&mut self, app: &App, undo: bool) -> Vec<Event> {
        let root = workspace_root(app);
        let result = self.bounded_journal(app).and_then(|journal| {
            if undo {
                edit_bridge::undo(journal)
            } else {
                edit_bridge::redo(journal)
            }
            .map_err(|e| shown_path::journal_error(&root, e))
        });
        match result {
            Ok(Some(saved)) => {
                let verb = if undo { "undid" } else { "redid" };
                let show = |path: &PathBuf| {
                    app.loaded
                        .model
                        .as_ref()
                        .map_or_else(|| path.display().to_string(), |m| m.show(path))
                };
                let what = saved
                    .iter()
                    .map(|s| format!("{} in {}", s.summary, show(&s.path)))
                    .collect::<Vec<_>>()
                    .join(" · ");
                let mut message = format!("{verb}: {what}");
                let files = saved.iter().map(|s| s.path.clone()).collect();
                let loaded = self.load(files);
                message.push_str(&self.sync_clients(app, &loaded));
                vec![done(&saved, &message, undo), loaded]
            }
            Ok(None) => vec![error(format!(
                "nothing to {}",
                if undo { "undo" } else { "redo" }
            ))],
            Err(e) => vec![error(e)],
        }
    }

    /// Reads subjects' ages, and the prune view's list when `list` says
    /// which (its generation, the idle days chosen), on the worker.
    fn prune(&mut self, app: &App, list: Option<(u64, Option<u64>)>) -> Vec<Event> {
        crate::tui::prune::worker::Job::of(app, &self.env, list)
            .and_then(|job| self.prunes.request(job))
            .into_iter()
            .collect()
    }

    fn perform(&mut self, app: &App, effect: Effect) -> Vec<Event> {
        let show = |path: &PathBuf| {
            app.loaded
                .model
                .as_ref()
                .map_or_else(|| path.display().to_string(), |m| m.show(path))
        };
        match effect {
            Effect::Apply(plan) => match self.bounded_journal(app).and_then(|journal| {
                edit_bridge::apply(journal, &plan)
                    .map_err(|e| shown_path::apply_error(&workspace_root(app), e))
            }) {
                Ok(saved) => {
                    let changed: Vec<PathBuf> = saved
                        .iter()
                        .filter(|s| s.changed)
                        .map(|s| s.path.clone())
                        .collect();
                    let mut message = saved
                        .iter()
                        .map(|s| format!("{} in {}", s.summary, show(&s.path)))
                        .collect::<Vec<_>>()
                        .join(" · ");
                    if changed.is_empty() {
                        return vec![done(&saved, &message, false)];
                    }
                    let mut loaded = self.load(changed);
                    if let Event::Loaded(outcome) = &mut loaded
                        && let Ok(model) = &mut outcome.result
                    {
                        // The plan's count is the new section's: shown at
                        // once, not after the section is counted again.
                        model.expect_count(plan.effect.tokens.after);
                    }
                    message.push_str(&self.sync_clients(app, &loaded));
                    vec![done(&saved, &message, false), loaded]
                }
                Err(e) => vec![error(e)],
            },
            Effect::Undo | Effect::Redo => self.undo_or_redo(app, effect == Effect::Undo),
            Effect::Reload { paths } => {
                if let Some(reloads) = &self.reloads {
                    // Invalidated here, so a load that starts after this
                    // one (an edit's) walks the changed directories too.
                    let started = next_load();
                    self.invalidate(&paths);
                    let reload = Reload {
                        changed: paths,
                        started,
                    };
                    if let Err(reload) = reloads.request(reload) {
                        // The worker is gone: reload here.
                        self.reloads = None;
                        return vec![self.loader().load(reload.changed, reload.started)];
                    }
                    return Vec::new();
                }
                vec![self.load(paths)]
            }
            Effect::Check => {
                let kb = app
                    .loaded
                    .model
                    .as_ref()
                    .filter(|_| app.loaded.error.is_none())
                    .map(|m| Arc::clone(&m.kb));
                let kb = match &self.checks {
                    Some(checks) => match checks.request(kb) {
                        Ok(()) => return Vec::new(),
                        // The worker is gone: check here.
                        Err(kb) => kb,
                    },
                    None => kb,
                };
                let report =
                    crate::tui::findings::state::compute(kb.as_deref(), &self.env, &self.options);
                vec![Event::Checked(Box::new(report))]
            }
            Effect::RenderPrompt => self.render_prompt(app),
            Effect::Search { query, generation } => {
                let Some(model) = &app.loaded.model else {
                    return Vec::new();
                };
                self.searches
                    .request(&model.kb, query, generation)
                    .into_iter()
                    .collect()
            }
            Effect::Prune { list } => self.prune(app, list),
            Effect::OpenEditor(_)
            | Effect::OpenEditorAt(..)
            | Effect::Quit
            | Effect::Suspend
            | Effect::Copy(_)
            | Effect::CopyPrompt => Vec::new(),
        }
    }

    /// Asks the prompt worker for the shown load's prompt (rendered here
    /// when there is no worker, or it is gone).
    fn render_prompt(&mut self, app: &App) -> Vec<Event> {
        let Some(model) = app.loaded.model.as_ref().filter(|m| !m.prompt_ready) else {
            return Vec::new();
        };
        let job = (Arc::clone(&model.kb), model.generation);
        let (kb, generation) = match self.prompts.as_ref().map(|w| w.request(job)) {
            Some(Ok(())) => return Vec::new(),
            Some(Err(job)) => {
                self.prompts = None;
                job
            }
            None => (Arc::clone(&model.kb), model.generation),
        };
        let count = PromptCount::count(&kb, generation, &self.counter);
        let prompt = RenderedPrompt::lay_out(&kb, count);
        vec![
            Event::Fetched(Box::new(Fetched::PromptCount(count))),
            Event::Fetched(Box::new(Fetched::Prompt(prompt))),
        ]
    }

    /// Reads every preview input the screen needs and is not cached.
    pub fn fulfill(&mut self, app: &mut App) {
        for need in app.needs() {
            let Some(model) = &app.loaded.model else {
                return;
            };
            if let (Some(tokens), Need::Tokens(list)) = (self.tokens.as_mut(), &need) {
                if tokens.request(&model.kb, list) {
                    continue;
                }
                // The worker is gone: count here from now on.
                self.tokens = None;
            }
            if let Some(reads) = self.reads.as_mut().filter(|_| Reads::takes(&need)) {
                if reads.request(&model.kb, &need) {
                    continue;
                }
                // The worker is gone: read here from now on.
                self.reads = None;
            }
            let fetched = fetch(&model.kb, &need);
            update(app, Event::Fetched(Box::new(fetched)));
        }
        self.count_plans(app);
    }

    /// Counts the planned sections the screen shows and lacks (on the
    /// worker, or here).
    fn count_plans(&mut self, app: &mut App) {
        let wanted = super::plan_costs::wanted(app);
        let Some(model) = app.loaded.model.as_ref().filter(|_| !wanted.is_empty()) else {
            return;
        };
        let kb = Arc::clone(&model.kb);
        if let Some(counted) = self.plan_counts.request(&kb, model.generation, wanted) {
            update(app, Event::Counted(Box::new(counted)));
        }
    }
}

#[cfg(test)]
#[path = "driver_tests.rs"]
mod tests;
