//! The Prompt tab's client views: what one client's model receives of
//! jp-kb's texts, channel by channel, as `jp-kb prompt --client NAME`
//! prints it (computed by [`jp_kb_core::internal::clients::arrival`], not here), plus
//! the lines the TUI adds around it: notes about the setup and a marker
//! where the client cuts or drops a channel.
//!
//! Computed when the view is selected, once per load (a client view
//! holds the whole section: it is what the client gets); the RFD view
//! keeps its laid-out, unheld section (see [`super::prompt`]).

use std::fmt::Write as _;
use std::sync::{Arc, Weak};

use jp_kb_core::KnowledgeBase;
use jp_kb_core::check::{Code, Severity, setup_findings};
use jp_kb_core::clients::{
    Arrival, Client, Delivery, Loss, Profile, Section, arrivals_of, client_ids, losses_of,
    not_needed, profile, read_setup,
};
use jp_kb_core::internal::plural::thousands;

/// The view after `current` in the cycle RFD → each client → RFD
/// (`None` is the RFD's `<knowledge>` section).
pub fn next_view(current: Option<&str>) -> Option<String> {
    let ids = client_ids();
    let next = match current.and_then(|c| ids.iter().position(|id| *id == c)) {
        None if current.is_none() => ids.first(),
        None => None,
        Some(i) => ids.get(i + 1),
    };
    next.map(|id| (*id).to_owned())
}

/// One client's view for one load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientPrompt {
    /// The load it was computed for (see `Model::generation`).
    pub generation: u64,
    pub client: String,
    /// The profile or the client setup could not be read: why.
    pub result: Result<ClientView, String>,
}

/// What the client's model receives, and what the TUI says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientView {
    pub profile: Profile,
    pub arrivals: Vec<Arrival>,
    pub losses: Vec<Loss>,
    /// What `prompt --client` says on stderr about the setup.
    pub notes: Vec<String>,
    /// The client's configuration was found in the workspace.
    pub configured: bool,
    /// The view's lines, made once per load (see [`ClientView::rows`]).
    rows: Vec<Row>,
}

/// One line of a client view, by kind (the view styles each kind).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// About the setup (not part of what arrives).
    Note(String),
    /// A channel's header, as `prompt --client` prints it.
    Header(String),
    /// A line of text as it arrives.
    Text(String),
    /// Where the client cuts or drops the channel's text.
    Cut(String),
}

impl Row {
    /// The line's text, whatever its kind.
    pub fn text(&self) -> &str {
        match self {
            Self::Note(s) | Self::Header(s) | Self::Text(s) | Self::Cut(s) => s,
        }
    }
}

/// The section of the load whose client views are being looked at,
/// rendered once for all of them: rendering reads every pre-loaded subject
/// (~315 ms of a ~400 ms view on a 23.6 MiB section of 45,829 subjects,
/// `cargo bench --bench tui -- big`), and a person cycles through the
/// clients with `c`. Held by the read worker only while its load is the
/// one shown: a newer load, or the old one dropped, lets it go.
#[derive(Debug, Default)]
pub struct SectionMemo {
    held: Option<(Weak<KnowledgeBase>, Arc<Section>)>,
}

impl SectionMemo {
    /// `kb`'s section, rendered now unless it was for this load.
    pub fn section(&mut self, kb: &Arc<KnowledgeBase>) -> Arc<Section> {
        if let Some((load, section)) = &self.held
            && load.upgrade().is_some_and(|held| Arc::ptr_eq(&held, kb))
        {
            return Arc::clone(section);
        }
        let section = Arc::new(Section::render(kb));
        self.held = Some((Arc::downgrade(kb), Arc::clone(&section)));
        section
    }

    /// Lets the section go when its load is gone (no other view of it
    /// can be asked for).
    pub fn forget_gone(&mut self) {
        if self
            .held
            .as_ref()
            .is_some_and(|(load, _)| load.strong_count() == 0)
        {
            self.held = None;
        }
    }
}

impl ClientPrompt {
    /// Reads the client's setup in `kb`'s workspace and computes what its
    /// model receives.
    pub fn compute(kb: &KnowledgeBase, client: &str, generation: u64) -> Self {
        Self::compute_with(kb, client, generation, &Section::render(kb))
    }

    /// [`Self::compute`] with `kb`'s section rendered already.
    pub fn compute_with(
        kb: &KnowledgeBase,
        client: &str,
        generation: u64,
        section: &Section,
    ) -> Self {
        let result = profile(client)
            .and_then(|profile| {
                let setup = read_setup(kb.root(), &profile)?;
                let inside = Client::named(client).ok().and_then(|c| not_needed(c, kb));
                let mut notes: Vec<String> = match &inside {
                    // What it sends is built at each query, not its setup.
                    Some(why) => vec![format!("note: {why}")],
                    None => setup
                        .notes(&profile)
                        .iter()
                        .map(crate::hints::setup_note)
                        .collect(),
                };
                // A stale generated file, an earlier setup that overrides the
                // generated one, a JP conversation that keeps an older
                // section: what `check --client` reports, said here too (its
                // warning about `PATH` is the shell's business, not the
                // workspace's).
                let errors = setup_findings(kb, &profile).into_iter().filter(|f| {
                    f.severity == Severity::Error || f.code == Code::ConversationKeepsOlder
                });
                for finding in errors {
                    let place = finding
                        .file
                        .as_ref()
                        .map(|f| format!(" ({})", f.display()))
                        .unwrap_or_default();
                    let hint = crate::hints::finding_hint(&finding)
                        .map(|h| format!("; {h}"))
                        .unwrap_or_default();
                    notes.push(format!("warning: {}{place}{hint}", finding.message));
                }
                let list = arrivals_of(kb, &profile, &setup, section);
                let gone = losses_of(kb, &list, section);
                let mut view = ClientView {
                    profile,
                    arrivals: list,
                    losses: gone,
                    notes,
                    configured: setup.configured,
                    rows: Vec::new(),
                };
                view.rows = view.lay_out();
                Ok(view)
            })
            .map_err(|e| e.to_string());
        Self {
            generation,
            client: client.to_owned(),
            result,
        }
    }
}

impl ClientView {
    /// The view's lines: notes, then per channel its header, its text
    /// line by line and, where the client cuts it, the marker. Header and
    /// text rows are exactly `prompt --client`'s output.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// Makes [`Self::rows`] (once per load: a frame draws a window of
    /// them).
    fn lay_out(&self) -> Vec<Row> {
        let name = self.profile.display_name();
        let mut rows: Vec<Row> = self.notes.iter().cloned().map(Row::Note).collect();
        if self.arrivals.is_empty() {
            rows.push(Row::Note(format!(
                "nothing of jp-kb reaches the model of {name}"
            )));
        }
        for arrival in &self.arrivals {
            rows.push(Row::Header(format!(
                "==> {} ({name}): {} <==",
                arrival.channel.label(),
                arrival.note
            )));
            if !arrival.text.is_empty() {
                let body = arrival.text.strip_suffix('\n').unwrap_or(&arrival.text);
                rows.extend(body.split('\n').map(|l| Row::Text(l.to_owned())));
            }
            if arrival.cut {
                rows.push(Row::Cut(self.cut_line(arrival)));
            }
        }
        rows
    }

    /// The marker drawn where the client cuts (or drops) a channel.
    fn cut_line(&self, arrival: &Arrival) -> String {
        let profile = &self.profile;
        let name = profile.display_name();
        let lost = self.lost_in(arrival);
        let delivery = profile.channel(arrival.channel).map(|f| &f.delivery);
        let what = match delivery {
            _ if arrival.text.is_empty() => {
                let hint = if self.configured {
                    String::new()
                } else {
                    format!(" — run `jp-kb connect {}`", profile.id)
                };
                return format!("✂── dropped by {name}: nothing arrives{lost}{hint} ──");
            }
            Some(Delivery::Truncated { max, unit, .. }) => {
                format!("cuts here, after {} {unit}", thousands(*max))
            }
            Some(Delivery::FirstSentence) => "cuts here: only the first sentence arrives".into(),
            _ => arrival.note.clone(),
        };
        format!("✂── {name} {what}{lost} ──")
    }

    /// "; lost: a, b, c and 4 more" for what the channel fails to carry.
    fn lost_in(&self, arrival: &Arrival) -> String {
        /// Named in the marker; the rest are counted.
        const SHOWN: usize = 3;
        let lost: Vec<&String> = self
            .losses
            .iter()
            .filter(|l| l.channel == arrival.channel)
            .flat_map(|l| &l.lost)
            .collect();
        if lost.is_empty() {
            return String::new();
        }
        let mut out = format!(
            "; lost: {}",
            lost.iter()
                .take(SHOWN)
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        if lost.len() > SHOWN {
            let _ = write!(out, " and {} more", lost.len() - SHOWN);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_cycle_through_every_client_and_back() {
        let mut seen = Vec::new();
        let mut view = next_view(None);
        while let Some(v) = view {
            seen.push(v.clone());
            view = next_view(Some(&v));
        }
        assert_eq!(seen, ["jp", "claude-code", "codex"]);
        assert_eq!(next_view(Some("gone")), None);
    }

    fn load(root: &std::path::Path) -> Arc<KnowledgeBase> {
        let mut topic = jp_kb_core::TopicConfig::new("t", "kb");
        topic.learned = vec!["*".to_owned()];
        Arc::new(KnowledgeBase::from_topics(root, [topic]))
    }

    #[test]
    fn one_render_serves_every_client_view_of_a_load_and_no_other() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("kb")).unwrap();
        std::fs::write(dir.path().join("kb/a.md"), "first\n").unwrap();
        let mut memo = SectionMemo::default();
        let first = load(dir.path());
        let rendered = memo.section(&first);
        assert!(rendered.text().is_some_and(|t| t.contains("first")));
        assert!(Arc::ptr_eq(&rendered, &memo.section(&first)), "reused");
        let views: Vec<ClientPrompt> = ["jp", "claude-code", "codex"]
            .iter()
            .map(|c| ClientPrompt::compute_with(&first, c, 1, &memo.section(&first)))
            .collect();
        for (view, client) in views.iter().zip(["jp", "claude-code", "codex"]) {
            assert_eq!(view, &ClientPrompt::compute(&first, client, 1), "{client}");
        }

        // A new load (a file changed): its own render, never the old one.
        std::fs::write(dir.path().join("kb/a.md"), "second\n").unwrap();
        let second = load(dir.path());
        let again = memo.section(&second);
        assert!(again.text().is_some_and(|t| t.contains("second")));
        // The old load gone, nothing of it is held.
        drop((first, rendered, views));
        drop(second);
        memo.forget_gone();
        assert!(memo.held.is_none());
        drop(again);
    }
}
