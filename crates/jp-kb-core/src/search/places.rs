//! Which subjects a file of the index is (a file in two topics is two),
//! found by the file's index key, and kept between searches while the
//! knowledge base holds the same walks.
//!
//! Built for every query, the map of every subject was a third of a warm
//! query on the tldr tree (38k paths hashed and inserted), and the digest
//! of the walk that told whether the index was up to date another third
//! (`perf record` of a loop of warm queries, 6.8 ms a query; 1.3 ms
//! kept). Both depend only on the walks and the `disabled`
//! states of the enabled topics, which a [`KnowledgeBase`] shares as
//! `Arc`s that a reload reuses when nothing changed: holding weak
//! references to them (so their addresses cannot be reused) and
//! comparing pointers says "the same subjects" without looking at one.

use std::path::Path;
use std::sync::{Arc, Weak};

use crate::KnowledgeBase;
use crate::subjects::{DisabledStates, Resolution, WalkResult};
use crate::topic::TopicState;
use std::borrow::Cow;

use jp_kb_search::hash::{FastMap, FastSet};

/// Where a file shows up in the results: one topic's subject.
#[derive(Clone)]
pub(super) struct Place<'a> {
    pub topic: &'a str,
    pub slug: &'a str,
    pub path: &'a Path,
    /// The workspace root, for the guarded open.
    pub root: &'a Path,
    /// The file's last extension (worked out for a hit only: for every
    /// subject it was an eighth of a warm query).
    pub extension: Option<&'a str>,
    pub hidden: bool,
    pub learned: bool,
}

/// The walks of a knowledge base's enabled topics, by identity: each
/// topic's id, its walk and its `disabled` states, held weakly. A weak
/// reference keeps the allocation's address from being reused, so an
/// equal pointer is the same, unchanged value; it does not keep the
/// values alive, so an old knowledge base's walks are freed with it (by
/// its owner, not by the next refresh).
#[derive(Debug)]
pub(super) struct Walks(Vec<(String, Weak<WalkResult>, Weak<DisabledStates>)>);

impl Walks {
    pub fn of(kb: &KnowledgeBase) -> Self {
        Self(
            kb.enabled_topics()
                .filter_map(|t| {
                    let r = t.resolution()?;
                    Some((
                        t.id().to_owned(),
                        Arc::downgrade(&r.walk),
                        Arc::downgrade(&r.disabled_by),
                    ))
                })
                .collect(),
        )
    }

    /// `kb`'s enabled topics hold exactly these walks and states.
    pub fn same(&self, kb: &KnowledgeBase) -> bool {
        self.pairs(kb).is_some_and(|pairs| {
            pairs.iter().all(|((_, walk, disabled), r)| {
                std::ptr::eq(walk.as_ptr(), Arc::as_ptr(&r.walk))
                    && std::ptr::eq(disabled.as_ptr(), Arc::as_ptr(&r.disabled_by))
            })
        })
    }

    /// `kb` indexes the same files as these walks, which are still held
    /// elsewhere (a reload that walked again while the old knowledge base
    /// lives): every file's path, size and modification time, topic by
    /// topic (no file is touched). Then an index up to date with one is
    /// up to date with the other by the rule the index's comparison
    /// applies. Walks no longer held say nothing: the index compares.
    pub fn same_files(&self, kb: &KnowledgeBase) -> bool {
        self.pairs(kb).is_some_and(|pairs| {
            pairs.iter().all(|((_, walk, disabled), r)| {
                match (walk.upgrade(), disabled.upgrade()) {
                    (Some(walk), Some(disabled)) => {
                        indexed(&walk, &disabled).eq(indexed(&r.walk, &r.disabled_by))
                    }
                    _ => false,
                }
            })
        })
    }

    /// These walks beside `kb`'s enabled topics' resolutions, when both
    /// name the same topics in the same order.
    #[allow(clippy::type_complexity)]
    fn pairs<'a, 'k>(
        &'a self,
        kb: &'k KnowledgeBase,
    ) -> Option<
        Vec<(
            &'a (String, Weak<WalkResult>, Weak<DisabledStates>),
            &'k Resolution,
        )>,
    > {
        let mut out = Vec::with_capacity(self.0.len());
        let mut mine = self.0.iter();
        for t in kb.enabled_topics() {
            let Some(r) = t.resolution() else {
                continue;
            };
            let held = mine.next().filter(|held| held.0 == t.id())?;
            out.push((held, r));
        }
        mine.next().is_none().then_some(out)
    }
}

/// What the index holds of a walk: each subject that is not disabled, as
/// its path, size and modification time.
fn indexed<'a>(
    walk: &'a WalkResult,
    disabled: &'a DisabledStates,
) -> impl Iterator<Item = (&'a Path, u64, i64)> + 'a {
    walk.subjects
        .iter()
        .enumerate()
        .filter(|(i, _)| disabled.get(*i).is_none())
        .map(|(_, s)| (s.path(), s.bytes, s.modified))
}

/// Every subject of the enabled topics that is not disabled, by file key:
/// `(topic's position among the enabled topics with a resolution, index
/// of the subject)`, the first place of each file in a map and a file's
/// further places chained.
#[derive(Debug, Default)]
pub(super) struct PlaceIndex {
    first: FastMap<Box<[u8]>, u32>,
    places: Vec<(u32, u32)>,
    /// For each place, the next place of the same file (`u32::MAX`: none).
    next: Vec<u32>,
}

/// The enabled topics that have a resolution, in order (what a
/// [`PlaceIndex`]'s topic positions count).
fn resolved(kb: &KnowledgeBase) -> impl Iterator<Item = &TopicState> {
    kb.enabled_topics().filter(|t| t.resolution().is_some())
}

impl PlaceIndex {
    /// The places of every file (kept between searches).
    pub fn new(kb: &KnowledgeBase) -> Self {
        Self::new_for(kb, None)
    }

    /// The places of the files whose keys are `keys` only: one pass over
    /// the subjects, for a process that searches once (mapping every
    /// subject was a tenth of such a process on the tldr tree).
    pub fn of_keys(kb: &KnowledgeBase, keys: &[String]) -> Self {
        let only: FastSet<&[u8]> = keys.iter().map(String::as_bytes).collect();
        Self::new_for(kb, Some(&only))
    }

    fn new_for(kb: &KnowledgeBase, only: Option<&FastSet<&[u8]>>) -> Self {
        let root_is_utf8 = kb.root().to_str().is_some();
        // Sized once: growing them step by step was an eighth of a query.
        let size = match only {
            Some(keys) => keys.len() * 2,
            None => resolved(kb)
                .filter_map(|t| t.resolution())
                .map(|r| r.subjects().len())
                .sum(),
        };
        let mut out = Self {
            first: FastMap::with_capacity_and_hasher(
                size,
                jp_kb_search::hash::FastState::default(),
            ),
            places: Vec::with_capacity(size),
            next: Vec::with_capacity(size),
        };
        // The last place of each file, where its next one is chained.
        let mut last: FastMap<u32, u32> = FastMap::default();
        for (t, topic) in resolved(kb).enumerate() {
            let Some(resolution) = topic.resolution() else {
                continue;
            };
            for (i, s) in resolution.subjects().iter().enumerate() {
                if resolution.is_disabled(i) {
                    continue;
                }
                let key = file_key(s.path(), root_is_utf8);
                if only.is_some_and(|keys| !keys.contains(key.as_ref())) {
                    continue;
                }
                let (Ok(t), Ok(i), Ok(at)) = (
                    u32::try_from(t),
                    u32::try_from(i),
                    u32::try_from(out.places.len()),
                ) else {
                    continue;
                };
                out.places.push((t, i));
                out.next.push(u32::MAX);
                let first = *out.first.entry(key.into()).or_insert(at);
                if first != at {
                    let tail = last.get(&first).copied().unwrap_or(first);
                    if let Some(link) = out.next.get_mut(tail as usize) {
                        *link = at;
                    }
                    last.insert(first, at);
                }
            }
        }
        out
    }

    /// The places of the file whose index key is `key` in `kb` (the
    /// knowledge base this was made from, or one holding the same walks),
    /// in topic `scope` when given, hidden subjects only if `hidden`.
    pub fn of<'k>(
        &self,
        kb: &'k KnowledgeBase,
        key: &[u8],
        scope: Option<&str>,
        hidden: bool,
    ) -> Vec<Place<'k>> {
        let mut out = Vec::new();
        let mut at = self.first.get(key).copied().unwrap_or(u32::MAX);
        while let Some(&(t, i)) = self.places.get(at as usize) {
            at = self.next.get(at as usize).copied().unwrap_or(u32::MAX);
            let Some(topic) = resolved(kb).nth(t as usize) else {
                continue;
            };
            if scope.is_some_and(|id| id != topic.id()) {
                continue;
            }
            let Some(resolution) = topic.resolution() else {
                continue;
            };
            let Some(s) = resolution.subjects().get(i as usize) else {
                continue;
            };
            if s.hidden && !hidden {
                continue;
            }
            out.push(Place {
                topic: topic.id(),
                slug: s.slug(),
                path: s.path(),
                root: kb.root(),
                extension: s.extension(),
                hidden: s.hidden,
                learned: resolution.is_learned(i as usize),
            });
        }
        out
    }
}

/// A file's index key as bytes: its path's bytes (the index's key is the
/// same path as a string, and walked names are UTF-8); under a root that
/// is not UTF-8, the lossy string, as [`super::key`] makes it.
fn file_key(path: &Path, root_is_utf8: bool) -> Cow<'_, [u8]> {
    if root_is_utf8 {
        Cow::Borrowed(path.as_os_str().as_encoded_bytes())
    } else {
        Cow::Owned(super::read::key(path).into_owned().into_bytes())
    }
}
