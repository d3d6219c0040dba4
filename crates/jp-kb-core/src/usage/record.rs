//! One line of the ledger. Two shapes share one struct, so a reader
//! parses every line the same way (no untagged enum, which buffers each
//! line first):
//!
//! - a **record**: one answered request (`session`, `client`, `version`
//!   set; `day` absent);
//! - a **day count**: what compaction left of one subject's records of one
//!   UTC day (`day` set; one slug; `loads`, `sessions`, `clients`).
//!
//! Short of subject text by construction: the fields are names, counts
//! and times. Unknown fields are ignored, so a newer jp-kb's lines still
//! read.

use serde::{Deserialize, Serialize};

use super::text::Text;

/// What kind of request a record answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A `learn` call that loaded subjects.
    Learn,
    /// A `learn` call without subjects: the topic's listing.
    List,
    /// A `resources/read` of a subject.
    Resource,
    /// A `prompts/get` of the `knowledge` prompt (the pre-loaded subjects).
    Prompt,
    /// A kind a newer jp-kb wrote.
    #[serde(other)]
    Other,
}

/// One ledger line (see the module docs for its two shapes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry<'a> {
    /// UTC seconds since the epoch: the request's time (a record) or the
    /// day's last load (a day count).
    pub t: u64,
    /// Present on a day count only: `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none", borrow)]
    pub day: Option<Text<'a>>,
    /// What was served.
    pub kind: Kind,
    /// The topic's id.
    #[serde(borrow)]
    pub topic: Text<'a>,
    /// The subjects served (hidden ones included); learned subjects that
    /// a `learn` call asked for are in `preloaded` instead.
    #[serde(default, skip_serializing_if = "Vec::is_empty", borrow)]
    pub slugs: Vec<Text<'a>>,
    /// How they were asked for (the call's patterns); records only.
    /// Absent when the patterns are exactly the slugs served (the common
    /// exact-slug call): a fifth of a typical record, and of reading it.
    #[serde(default, skip_serializing_if = "Vec::is_empty", borrow)]
    pub patterns: Vec<Text<'a>>,
    /// Pre-loaded (learned) subjects a `learn` call asked for anyway: the
    /// assistant did not notice they were in its system prompt.
    #[serde(default, skip_serializing_if = "Vec::is_empty", borrow)]
    pub preloaded: Vec<Text<'a>>,
    /// Tokens (`o200k_base`) of the answer; of a day count, the tokens
    /// attributed to its subject that day.
    #[serde(default)]
    pub tokens: u64,
    /// Records: the session (one per server process) and the client, as
    /// its `initialize` named itself.
    #[serde(default, skip_serializing_if = "Option::is_none", borrow)]
    pub session: Option<Text<'a>>,
    /// The client's name (records).
    #[serde(default, skip_serializing_if = "Option::is_none", borrow)]
    pub client: Option<Text<'a>>,
    /// The client's version (records).
    #[serde(default, skip_serializing_if = "Option::is_none", borrow)]
    pub version: Option<Text<'a>>,
    /// Day counts: loads, distinct sessions that day, and `"name version"`
    /// of each client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loads: Option<u64>,
    /// Day counts: distinct sessions that day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessions: Option<u64>,
    /// Day counts: `"name version"` of each client.
    #[serde(default, skip_serializing_if = "Vec::is_empty", borrow)]
    pub clients: Vec<Text<'a>>,
}

impl Entry<'_> {
    /// A record of one request (no tokens yet: the recorder counts them
    /// off the answer's path).
    pub fn record(
        t: u64,
        kind: Kind,
        topic: String,
        session: String,
        client: (String, String),
    ) -> Entry<'static> {
        Entry {
            t,
            day: None,
            kind,
            topic: topic.into(),
            slugs: Vec::new(),
            patterns: Vec::new(),
            preloaded: Vec::new(),
            tokens: 0,
            session: Some(session.into()),
            client: Some(client.0.into()),
            version: Some(client.1.into()),
            loads: None,
            sessions: None,
            clients: Vec::new(),
        }
    }

    /// Sets the patterns of a `learn` call, left out when they are the
    /// slugs served, in order.
    pub fn set_patterns(&mut self, patterns: Vec<String>) {
        let same = patterns.len() == self.slugs.len()
            && patterns
                .iter()
                .zip(&self.slugs)
                .all(|(p, s)| p == s.as_str());
        self.patterns = if same {
            Vec::new()
        } else {
            patterns.into_iter().map(Text::from).collect()
        };
    }

    /// The patterns of a `learn` call (the slugs when none were written).
    pub fn asked(&self) -> &[Text<'_>] {
        if self.patterns.is_empty() {
            &self.slugs
        } else {
            &self.patterns
        }
    }

    /// Whether this line is a compacted day count.
    pub fn is_day_count(&self) -> bool {
        self.day.is_some()
    }

    /// `"name version"` of a record's client (`None` on a day count).
    pub fn client_label(&self) -> Option<String> {
        let name = self.client.as_ref()?.as_str();
        Some(match self.version.as_ref().map(Text::as_str) {
            Some(v) if !v.is_empty() => format!("{name} {v}"),
            _ => name.to_owned(),
        })
    }

    /// The line written to the ledger, `\n` included.
    pub fn to_line(&self) -> String {
        // Serialising plain strings and integers cannot fail.
        let mut line = serde_json::to_string(self).unwrap_or_default();
        line.push('\n');
        line
    }

    /// Parses one line; `None` for a torn or foreign line.
    pub fn parse(line: &[u8]) -> Option<Entry<'_>> {
        serde_json::from_slice(line).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_round_trips_and_holds_only_names() {
        let mut e = Entry::record(
            1_800_000_000,
            Kind::Learn,
            "project".into(),
            "s1".into(),
            ("claude-code".into(), "2.0".into()),
        );
        e.slugs = vec!["internal-notes".to_owned().into()];
        e.set_patterns(vec![".internal-notes".to_owned()]);
        e.tokens = 12;
        let line = e.to_line();
        assert_eq!(
            line,
            "{\"t\":1800000000,\"kind\":\"learn\",\"topic\":\"project\",\"slugs\":[\"internal-notes\"],\"patterns\":[\".internal-notes\"],\"tokens\":12,\"session\":\"s1\",\"client\":\"claude-code\",\"version\":\"2.0\"}\n"
        );
        let back = Entry::parse(line.trim_end().as_bytes()).unwrap();
        assert_eq!(back, e);
        assert_eq!(back.client_label().as_deref(), Some("claude-code 2.0"));
        // Asked by exactly the slugs served: no patterns written.
        e.set_patterns(vec!["internal-notes".to_owned()]);
        assert!(e.patterns.is_empty());
        assert_eq!(e.asked(), &e.slugs[..]);
    }

    #[test]
    fn unknown_kinds_and_fields_still_read() {
        let e = Entry::parse(br#"{"t":1,"kind":"search","topic":"p","new":[1]}"#).unwrap();
        assert_eq!(e.kind, Kind::Other);
        assert!(Entry::parse(b"{\"t\":1,\"kind\"").is_none());
    }
}
