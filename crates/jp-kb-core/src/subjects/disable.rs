//! What adding `disabled` entries does, counted the way the engine
//! resolves them: a disabled glob reaches hidden subjects too (contract
//! §1), an exact slug reaches its subject. The TUI's disable dialogs and
//! the pattern tester in disabled mode show this, so the count they show
//! is the count the edit then makes.

use super::pattern::PatternList;
use super::resolve::Resolution;
use crate::plural::count;

/// The subjects a set of new `disabled` entries reaches, split the way a
/// person needs to see them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DisableEffect {
    /// Subjects not disabled now that the entries disable, in slug order.
    pub newly: Vec<usize>,
    /// How many of `newly` are hidden.
    pub hidden: usize,
    /// Subjects the entries reach that are already disabled.
    pub already: usize,
    /// Slugs of pre-loaded (learned) subjects among `newly`: they leave
    /// the prompt.
    pub leaves_prompt: Vec<String>,
}

impl DisableEffect {
    /// The effect of adding `entries` to `disabled`.
    pub fn of_entries(res: &Resolution, entries: &[String]) -> Self {
        let reached: Vec<usize> = PatternList::new(entries)
            .first_match_any(res.subjects())
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.map(|_| i))
            .collect();
        Self::of_subjects(res, &reached)
    }

    /// The effect of disabling the subjects `reached` (indices).
    pub fn of_subjects(res: &Resolution, reached: &[usize]) -> Self {
        let mut effect = Self::default();
        for &i in reached {
            if res.is_disabled(i) {
                effect.already += 1;
                continue;
            }
            effect.newly.push(i);
            if res.subjects()[i].hidden {
                effect.hidden += 1;
            }
            if res.is_learned(i) {
                effect
                    .leaves_prompt
                    .push(res.subjects()[i].slug().to_owned());
            }
        }
        effect
    }

    /// One line: `disables 6 subjects and 2 hidden ones; 1 already
    /// disabled; removes from the prompt: ast-grep/rules` (the count in
    /// the words of the planner's effect lines, [`disables`]).
    pub fn summary(&self) -> String {
        let visible = self.newly.len() - self.hidden;
        let mut parts =
            vec![disables(visible, self.hidden).unwrap_or_else(|| "disables 0 subjects".into())];
        if self.already > 0 {
            parts.push(format!("{} already disabled", self.already));
        }
        if !self.leaves_prompt.is_empty() {
            parts.push(format!(
                "removes from the prompt: {}",
                self.leaves_prompt.join(", ")
            ));
        }
        parts.join("; ")
    }
}

/// How many subjects a change disables, hidden ones apart: `disables 6
/// subjects and 2 hidden ones`, `disables 2 hidden subjects`, `disables 6
/// subjects`; `None` for none. The one wording of this count: the pattern
/// tester, the dialogs and the planner's effect lines all say it so.
pub(crate) fn disables(visible: usize, hidden: usize) -> Option<String> {
    match (visible, hidden) {
        (0, 0) => None,
        (n, 0) => Some(format!("disables {}", count(n, "subject", "subjects"))),
        (0, h) => Some(format!(
            "disables {}",
            count(h, "hidden subject", "hidden subjects")
        )),
        (n, h) => Some(format!(
            "disables {} and {}",
            count(n, "subject", "subjects"),
            count(h, "hidden one", "hidden ones")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::DisableEffect;

    #[test]
    fn summary_keeps_hidden_and_already_disabled_apart_and_names_what_leaves() {
        let effect = DisableEffect {
            newly: (0..8).collect(),
            hidden: 2,
            already: 1,
            leaves_prompt: vec!["ast-grep/rules".into()],
        };
        assert_eq!(
            effect.summary(),
            "disables 6 subjects and 2 hidden ones; 1 already disabled; removes from the prompt: ast-grep/rules"
        );
        let one = DisableEffect {
            newly: vec![3],
            ..DisableEffect::default()
        };
        assert_eq!(one.summary(), "disables 1 subject");
    }
}
