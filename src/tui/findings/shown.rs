//! What the Findings tab lists and what is under its cursor: the
//! findings shown (every topic's, or the selected topic's), the current
//! one, where `o` opens it and the one fix it may have. Read-only queries
//! of the state: the tab's text, the footer and the keys all ask them.

use std::path::PathBuf;

use crate::tui::app::App;
use jp_kb_core::check::{Code, Finding};
use jp_kb_core::edit::plan::{Intent, List};
use jp_kb_core::subjects::TopicState;

/// The findings the tab lists, in its order (every topic's, or the
/// selected topic's when `t` narrowed it).
pub fn shown(app: &App) -> Vec<&Finding> {
    let topic = app.topic_state().map(TopicState::id);
    let only = app.features.findings.only_topic && topic.is_some();
    app.features
        .findings
        .all()
        .iter()
        .filter(|f| !only || f.topic.as_deref() == topic)
        .collect()
}

/// The cursor's index among [`shown`] (clamped: a new check may list
/// fewer findings).
pub fn cursor(app: &App, shown: usize) -> usize {
    app.features.findings.cursor.min(shown.saturating_sub(1))
}

/// The finding under the cursor.
pub fn current(app: &App) -> Option<&Finding> {
    let shown = shown(app);
    shown.get(cursor(app, shown.len())).copied()
}

/// A finding's file as a path on disk (findings name files relative to
/// the workspace root when inside it).
pub fn absolute(app: &App, finding: &Finding) -> Option<PathBuf> {
    let file = finding.file.as_ref()?;
    if file.is_absolute() {
        return Some(file.clone());
    }
    Some(app.loaded.model.as_ref()?.kb.root().join(file))
}

/// The index of topic `id` among the loaded topics.
pub fn topic_index(app: &App, id: &str) -> Option<usize> {
    app.loaded
        .model
        .as_ref()?
        .kb
        .topics
        .iter()
        .position(|t| t.id() == id)
}

pub fn topic_of<'a>(app: &'a App, finding: &Finding) -> Option<&'a TopicState> {
    let t = topic_index(app, finding.topic.as_deref()?)?;
    app.loaded.model.as_ref()?.kb.topics.get(t)
}

/// Where `o` opens the editor for the current finding: its file and line,
/// else its subject's file.
pub fn editor_target(app: &App) -> Option<(PathBuf, Option<u32>)> {
    let finding = current(app)?;
    if let Some(path) = absolute(app, finding) {
        return Some((path, finding.line));
    }
    let slug = finding.subject.as_deref()?;
    let subject = topic_of(app, finding)?
        .resolution()?
        .subjects()
        .iter()
        .find(|s| s.slug() == slug)?;
    Some((subject.path().to_path_buf(), None))
}

/// A finding's fix, as the footer and the status name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fix {
    /// Add the subject's slug to `disabled`.
    Disable { topic: String, slug: String },
    /// Remove an entry that selects nothing from `learned` or `disabled`.
    Remove {
        topic: String,
        entry: String,
        list: List,
    },
}

impl Fix {
    /// `disable "logo"`, `remove "p" from learned`.
    pub fn label(&self) -> String {
        self.label_with(self.name())
    }

    /// The slug or entry the fix acts on.
    fn name(&self) -> &str {
        match self {
            Fix::Disable { slug, .. } => slug,
            Fix::Remove { entry, .. } => entry,
        }
    }

    fn label_with(&self, name: &str) -> String {
        match self {
            Fix::Disable { .. } => format!("fix: disable \"{name}\""),
            Fix::Remove { list, .. } => format!("fix: remove \"{name}\" from {}", list.key()),
        }
    }

    /// [`Fix::label`] in at most `room` columns: the slug or entry is cut
    /// (with `…`), never the words around it, so the footer keeps its
    /// other keys whatever the name's length.
    pub fn label_within(&self, room: usize) -> String {
        let width = |s: &str| ratatui::text::Span::raw(s).width();
        let full = self.label();
        if width(&full) <= room {
            return full;
        }
        let keep = room.saturating_sub(width(&self.label_with("")) + 1).max(1);
        let mut cut = String::new();
        for ch in self.name().chars() {
            cut.push(ch);
            if width(&cut) > keep {
                cut.pop();
                break;
            }
        }
        cut.push('…');
        self.label_with(&cut)
    }

    /// The planner's intent carrying the fix out.
    pub fn intent(&self) -> Intent {
        match self.clone() {
            Fix::Disable { topic, slug } => Intent::Add {
                list: List::Disabled,
                topic,
                entries: vec![slug],
            },
            Fix::Remove { topic, entry, list } => Intent::Remove {
                list,
                topic,
                entries: vec![entry],
            },
        }
    }
}

/// The fix of the current finding, when it has one. Cheap (the footer
/// asks each frame): the check already found the entry dead, so the
/// entry is only looked up among the topic's, not matched again.
pub fn fix(app: &App) -> Option<Fix> {
    let finding = current(app)?;
    let state = topic_of(app, finding)?;
    let topic = state.id().to_owned();
    let list = match finding.code {
        // The assistant is told these were skipped: disabling says so in
        // the configuration instead.
        Code::BinarySubject | Code::NotUtf8Subject => {
            return Some(Fix::Disable {
                topic,
                slug: finding.subject.clone()?,
            });
        }
        Code::LearnedSelectsNothing => List::Learned,
        Code::DisabledSelectsNothing | Code::DisabledNotASlug => List::Disabled,
        _ => return None,
    };
    let entries = match list {
        List::Learned => &state.config.learned,
        List::Disabled => &state.config.disabled,
        _ => return None,
    };
    // The message quotes the entry; the longest quoted one wins.
    let entry = entries
        .iter()
        .map(|v| v.value.as_str())
        .filter(|e| finding.message.contains(&format!("\"{e}\"")))
        .max_by_key(|e| e.len())?;
    Some(Fix::Remove {
        topic,
        entry: entry.to_owned(),
        list,
    })
}
