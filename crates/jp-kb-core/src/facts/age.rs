//! What a subject's file says of its age and certainty, for display
//! (`list --json`, `search --json`, `usage --stale`, the TUI's marks):
//! its front matter's `expires`, `last_confirmed` and `confidence`, and
//! for a Facts file how many facts it holds, how many have expired and
//! how many are low-confidence. Read through the guarded open: the head
//! of a Markdown file, the whole of a (bounded) Facts candidate.

use serde_json::{Map, Value, json};

use super::aging::{Aging, Confidence, Dated, LOW_CONFIDENCE};
use super::date::Day;
use super::file::FactsFile;
use super::read::read_facts;
use crate::content::{Content, Root, read_content, read_content_prefix};
use crate::frontmatter;
use crate::subjects::Subject;

/// A Facts file's facts, counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FactsSummary {
    /// Fact entries.
    pub count: usize,
    /// Facts whose `expires` is before today.
    pub expired: usize,
    /// Facts whose confidence is below [`LOW_CONFIDENCE`].
    pub low_confidence: usize,
}

impl FactsSummary {
    /// `file`'s facts as of `today`.
    pub fn of(file: &FactsFile, today: Day) -> Self {
        let mut summary = Self {
            count: file.facts.len(),
            ..Self::default()
        };
        for fact in &file.facts {
            let fields = Value::Object(fact.fields.clone());
            let aging = Aging {
                expires: Dated::field(&fields, "expires"),
                last_confirmed: None,
                confidence: Confidence::field(&fields),
            };
            summary.expired += usize::from(aging.expired(today).is_some());
            summary.low_confidence += usize::from(aging.low_confidence().is_some());
        }
        summary
    }
}

/// A subject's age, as its file states it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SubjectAge {
    /// Its front matter's fields.
    pub aging: Aging,
    /// For a Facts file: its facts, counted.
    pub facts: Option<FactsSummary>,
    /// The day it is judged on.
    pub today: Option<Day>,
}

impl SubjectAge {
    /// Reads what `subject`'s file says (nothing for a file that cannot
    /// carry it or cannot be read), judged as of `today`.
    pub fn read(root: &Root<'_>, subject: &Subject, today: Day) -> Self {
        let ext = subject.extension();
        let markdown = frontmatter::is_markdown(ext);
        let facts_candidate = subject.rel_path().rsplit('/').next() == Some("index.json")
            || ext.is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"));
        let text = if facts_candidate {
            read_content(root, subject.path())
        } else if markdown {
            // The head is enough: a longer block is not front matter.
            read_content_prefix(root, subject.path(), frontmatter::MAX_FRONTMATTER_BYTES + 8).0
        } else {
            return Self::default();
        };
        let Content::Text(text) = text else {
            return Self::default();
        };
        Self::of_text(subject.rel_path(), ext, &text, today)
    }

    /// [`SubjectAge::read`] of a text already read.
    pub fn of_text(rel_path: &str, extension: Option<&str>, text: &str, today: Day) -> Self {
        let aging = match frontmatter::parse(text) {
            Some(Ok(front)) => Aging::of_front_matter(&front),
            _ => Aging::default(),
        };
        let facts = read_facts(rel_path, extension, text).map(|f| FactsSummary::of(&f, today));
        Self {
            aging,
            facts,
            today: Some(today),
        }
    }

    /// Whether the subject, or a fact of it, has expired.
    pub fn is_stale(&self) -> bool {
        self.expired().is_some() || self.facts.is_some_and(|f| f.expired > 0)
    }

    /// The day the subject expired on, when it has.
    pub fn expired(&self) -> Option<Day> {
        self.today.and_then(|today| self.aging.expired(today))
    }

    /// Whether the subject, or a fact of it, is below [`LOW_CONFIDENCE`].
    pub fn is_low_confidence(&self) -> bool {
        self.aging.low_confidence().is_some() || self.facts.is_some_and(|f| f.low_confidence > 0)
    }

    /// Whether there is anything to show.
    pub fn is_empty(&self) -> bool {
        self.aging.is_empty() && self.facts.is_none()
    }

    /// The keys `list --json` and `search --json` add for it (none when
    /// its file states nothing): `expires`, `last_confirmed` (as written
    /// when not a date), `confidence`, `expired` (when `expires` is a
    /// date), `low_confidence`, and `facts` (`count`, `expired`,
    /// `low_confidence`) for a Facts file.
    pub fn json_fields(&self) -> Map<String, Value> {
        let mut out = Map::new();
        let dated = |d: &Dated| match d {
            Dated::Day(day) => Value::String(day.to_string()),
            Dated::Invalid(text) => Value::String(text.clone()),
        };
        if let Some(expires) = &self.aging.expires {
            out.insert("expires".into(), dated(expires));
            if expires.day().is_some() {
                out.insert("expired".into(), Value::Bool(self.expired().is_some()));
            }
        }
        if let Some(confirmed) = &self.aging.last_confirmed {
            out.insert("last_confirmed".into(), dated(confirmed));
        }
        match &self.aging.confidence {
            Some(Confidence::Value(v)) => {
                out.insert("confidence".into(), json!(v));
                out.insert("low_confidence".into(), Value::Bool(*v < LOW_CONFIDENCE));
            }
            Some(Confidence::Invalid(text)) => {
                out.insert("confidence".into(), Value::String(text.clone()));
            }
            None => {}
        }
        if let Some(f) = self.facts {
            out.insert(
                "facts".into(),
                json!({"count": f.count, "expired": f.expired, "low_confidence": f.low_confidence}),
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_and_facts_are_read_and_judged() {
        let today = Day::parse("2026-05-01").unwrap();
        let md = "---\nexpires: 2026-04-01\nconfidence: 0.3\n---\n# Old\n";
        let age = SubjectAge::of_text("old.md", Some("md"), md, today);
        assert!(age.is_stale() && age.is_low_confidence());
        assert_eq!(
            Value::Object(age.json_fields()),
            json!({"expires": "2026-04-01", "expired": true, "confidence": 0.3, "low_confidence": true})
        );

        let yaml = "---\ndomain: global\ncategory: fact\nversion: 1\n---\n- id: global:fact:001\n  fact: a\n  confidence: 0.9\n  expires: \"2026-01-01\"\n- id: global:fact:002\n  fact: b\n  confidence: 0.2\n";
        let age = SubjectAge::of_text("global/facts.yaml", Some("yaml"), yaml, today);
        assert_eq!(
            age.facts,
            Some(FactsSummary {
                count: 2,
                expired: 1,
                low_confidence: 1
            })
        );
        assert!(age.is_stale() && age.is_low_confidence() && age.expired().is_none());

        let plain = SubjectAge::of_text("a.md", Some("md"), "# A\n", today);
        assert!(plain.is_empty() && plain.json_fields().is_empty());
    }
}
