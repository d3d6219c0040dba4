//! The first-run screen's state: what was found, the person's choices,
//! the plan they make (recomputed, pure, on every change), the cursor.
//! `update` is the only place it changes and does no I/O.

use std::path::PathBuf;

use jp_kb_core::adopt::{Choices, Found, Plan, Preview, State, plan, preview};

/// What a person asks of the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// Move to the previous file.
    Up,
    /// Move to the next file.
    Down,
    /// Move a page up.
    PageUp,
    /// Move a page down.
    PageDown,
    /// The first file.
    First,
    /// The last file.
    Last,
    /// The selected file: pre-loaded, learnable, skipped, in turn.
    Cycle,
    /// Files gated by paths or a directory: learnable or pre-loaded.
    Gated,
    /// Adopt as planned: write `.jp/kb.toml` and the links.
    Accept,
    /// Do not adopt: open the demo, as without this screen.
    Decline,
    /// Leave jp-kb.
    Quit,
}

/// How the screen ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Accept(Plan),
    Decline,
    Quit,
}

/// The screen.
#[derive(Debug, Clone)]
pub struct AdoptScreen {
    pub root: PathBuf,
    found: Found,
    choices: Choices,
    pub plan: Plan,
    pub preview: Preview,
    /// Index into `plan.entries`.
    pub cursor: usize,
    /// Rows the list showed last (for paging).
    pub page: usize,
}

impl AdoptScreen {
    /// The screen for what was found, or `None` when nothing is to adopt.
    pub fn new(root: PathBuf, found: Found) -> Option<Self> {
        let choices = Choices::default();
        let plan = plan(&found, &choices).ok()?;
        plan.adopted().next()?;
        let preview = preview(&plan);
        Some(Self {
            root,
            found,
            choices,
            plan,
            preview,
            cursor: 0,
            page: 10,
        })
    }

    /// What gated files become now.
    pub fn gated(&self) -> State {
        self.choices.gated
    }

    /// Applies `ask`; the outcome when the screen ends.
    pub fn update(&mut self, ask: Ask) -> Option<Outcome> {
        let last = self.plan.entries.len().saturating_sub(1);
        match ask {
            Ask::Up => self.cursor = self.cursor.saturating_sub(1),
            Ask::Down => self.cursor = (self.cursor + 1).min(last),
            Ask::PageUp => self.cursor = self.cursor.saturating_sub(self.page.max(1)),
            Ask::PageDown => self.cursor = (self.cursor + self.page.max(1)).min(last),
            Ask::First => self.cursor = 0,
            Ask::Last => self.cursor = last,
            Ask::Cycle => self.cycle(),
            Ask::Gated => {
                self.choices.gated = match self.choices.gated {
                    State::Learnable => State::Learned,
                    _ => State::Learnable,
                };
                self.replan();
            }
            Ask::Accept if self.plan.adopted().next().is_some() => {
                return Some(Outcome::Accept(self.plan.clone()));
            }
            Ask::Accept => {}
            Ask::Decline => return Some(Outcome::Decline),
            Ask::Quit => return Some(Outcome::Quit),
        }
        None
    }

    fn cycle(&mut self) {
        let Some(entry) = self.plan.entries.get(self.cursor) else {
            return;
        };
        let rel = entry.rel.clone();
        let next = match entry.state {
            State::Learned => State::Learnable,
            State::Learnable => State::Skipped,
            State::Skipped => State::Learned,
        };
        self.choices.files.insert(rel.clone(), next);
        self.replan();
        // A choice equal to what the file gets anyway is no choice.
        if let Some(e) = self.plan.entries.iter().find(|e| e.rel == rel)
            && !e.chosen
        {
            self.choices.files.remove(&rel);
        }
        // The cursor stays on the file (entries keep their order).
        if let Some(at) = self.plan.entries.iter().position(|e| e.rel == rel) {
            self.cursor = at;
        }
    }

    fn replan(&mut self) {
        if let Ok(plan) = plan(&self.found, &self.choices) {
            self.preview = preview(&plan);
            self.plan = plan;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use jp_kb_core::adopt::{FoundFile, classify, gate_of};

    fn screen() -> AdoptScreen {
        let files = [
            ("CLAUDE.md", "# Claude"),
            (".claude/rules/web.md", "---\npaths: web/**\n---\nWeb"),
        ]
        .iter()
        .map(|(rel, text)| {
            let kind = classify(rel).unwrap();
            FoundFile {
                rel: (*rel).into(),
                gate: gate_of(&kind, text),
                kind,
                text: (*text).into(),
                imported_by: None,
            }
        })
        .collect();
        let found = Found {
            files,
            not_adopted: Vec::new(),
        };
        AdoptScreen::new("/ws".into(), found).unwrap()
    }

    fn states(s: &AdoptScreen) -> Vec<State> {
        s.plan.entries.iter().map(|e| e.state).collect()
    }

    #[test]
    fn space_cycles_the_file_and_g_the_gated_ones() {
        let mut s = screen();
        assert_eq!(states(&s), [State::Learned, State::Learnable]);
        s.update(Ask::Cycle);
        assert_eq!(states(&s), [State::Learnable, State::Learnable]);
        assert!(s.plan.entries[0].chosen);
        s.update(Ask::Cycle);
        s.update(Ask::Cycle);
        // Back to what it gets anyway: no longer a choice.
        assert_eq!(states(&s), [State::Learned, State::Learnable]);
        assert!(!s.plan.entries[0].chosen);
        s.update(Ask::Gated);
        assert_eq!(states(&s), [State::Learned, State::Learned]);
        assert!(
            s.preview
                .section
                .unwrap()
                .contains("<subject \"claude/web\">")
        );
    }

    #[test]
    fn the_cursor_stays_in_the_list_and_enter_accepts_the_plan_shown() {
        let mut s = screen();
        s.update(Ask::Up);
        assert_eq!(s.cursor, 0);
        s.update(Ask::PageDown);
        assert_eq!(s.cursor, 1);
        s.update(Ask::Down);
        assert_eq!(s.cursor, 1);
        s.update(Ask::Cycle);
        let Some(Outcome::Accept(plan)) = s.update(Ask::Accept) else {
            panic!("not accepted")
        };
        assert_eq!(plan.entries[1].state, State::Skipped);
        assert_eq!(s.update(Ask::Decline), Some(Outcome::Decline));
        // Nothing left to adopt: Enter does nothing.
        let mut s = screen();
        s.update(Ask::Cycle);
        s.update(Ask::Cycle);
        s.update(Ask::Down);
        s.update(Ask::Cycle);
        assert_eq!(states(&s), [State::Skipped, State::Skipped]);
        assert_eq!(s.update(Ask::Accept), None);
    }
}
