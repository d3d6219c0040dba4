//! Which subjects a `learn` call serves, named for the ledger: the same
//! topic resolution and pattern rules as [`crate::learn::execute_resolved`]
//! (contract §3, §5.3), without reading a file. Learned subjects are never
//! served (they are in the system prompt); a call that asks for one is
//! noted as such.

use super::record::Kind;
use crate::KnowledgeBase;
use crate::subjects::PatternList;

/// What a `learn` call served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    pub kind: Kind,
    /// The topic's id (the call may have named it by title).
    pub topic: String,
    pub slugs: Vec<String>,
    /// Learned subjects the call asked for anyway.
    pub preloaded: Vec<String>,
}

/// What `learn(topic, patterns)` serves; `None` when the call is an error
/// (unknown topic, nothing selected): no knowledge was read.
pub fn served_by_learn(
    kb: &KnowledgeBase,
    topic: &str,
    patterns: Option<&[String]>,
) -> Option<Served> {
    let state = kb.resolve_topic(topic).ok()?;
    let resolution = state.resolution()?;
    let Some(patterns) = patterns else {
        return Some(Served {
            kind: Kind::List,
            topic: state.id().to_owned(),
            slugs: Vec::new(),
            preloaded: Vec::new(),
        });
    };
    let subjects = resolution.subjects();
    let matched = PatternList::new(patterns).resolve(subjects, &|i| !resolution.is_disabled(i));
    let (learned, selected): (Vec<usize>, Vec<usize>) = matched
        .into_iter()
        .map(|(i, _)| i)
        .partition(|&i| resolution.is_learned(i));
    if selected.is_empty() && learned.is_empty() {
        return None;
    }
    let slugs = |v: Vec<usize>| {
        v.into_iter()
            .map(|i| subjects[i].slug().to_owned())
            .collect()
    };
    Some(Served {
        kind: Kind::Learn,
        topic: state.id().to_owned(),
        slugs: slugs(selected),
        preloaded: slugs(learned),
    })
}
