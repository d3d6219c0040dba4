//! A process that searches once (`jp-kb search`): answered from the saved
//! places ([`saved_places`]) when they hold, which reads no walk and
//! resolves no topic; otherwise with the walks the last search saved
//! ([`walks`]), after which the places are saved for the next process.

use std::path::Path;
use std::time::SystemTime;

use jp_kb_search::Tokenizer;

use super::places::Place;
use super::saved_places::{self, PLACES_FILE, SavedPlace, SavedPlaces};
use super::{SearchError, SearchOutcome, SearchRequest, Searcher, check_query, read, walks};
use crate::KnowledgeBase;
use crate::subjects::WalkCache;

/// [`super::search`] for a process that searches once: from the saved
/// places when they hold for `kb` and the index (see [`saved_places`]);
/// otherwise `kb`'s topics walk through `cache` (see
/// [`crate::KnowledgeBase::load_with`]), which is given the walks the last
/// search saved next to the index before any topic is resolved, and whose
/// walks are saved again when any was taken anew (see [`walks`] for what a
/// saved walk trusts).
pub fn search_with_walks(
    kb: &KnowledgeBase,
    cache: &WalkCache,
    request: &SearchRequest<'_>,
) -> Result<SearchOutcome, SearchError> {
    check_query(request.query)?;
    let mut notes = Vec::new();
    if let Some(dir) = read::index_dir(kb.root())
        && let Some(mut outcome) = from_saved_places(kb, &dir, request, &mut notes)?
    {
        notes.append(&mut outcome.notes);
        outcome.notes = notes;
        return Ok(outcome);
    }
    let mut outcome = with_saved_walks(kb, cache, |searcher, _| searcher.search(kb, request))?;
    notes.append(&mut outcome.notes);
    outcome.notes = notes;
    Ok(outcome)
}

/// Runs `run` with a [`Searcher`] for a process that searches once, over
/// the index saved for `kb`'s workspace (and that index's directory,
/// `None` when there is none), with the walks the last search saved, as
/// [`search_with_walks`] does; then saves the places for the next
/// process when they changed.
pub fn with_saved_walks(
    kb: &KnowledgeBase,
    cache: &WalkCache,
    run: impl FnOnce(&mut Searcher, Option<&Path>) -> Result<SearchOutcome, SearchError>,
) -> Result<SearchOutcome, SearchError> {
    // Counting a hit's tokens first builds the pre-split's regular
    // expression (~3.5 ms): done on the other core while the walks load
    // and the index is asked, it is ready when the hits need it.
    std::thread::spawn(|| crate::tokens::count_tokens("warm"));
    let dir = read::index_dir(kb.root());
    let mut notes = Vec::new();
    if let Some(dir) = &dir
        && let Err(why) = walks::load(dir, cache, SystemTime::now())
    {
        notes.push(format!(
            "the saved walk {} is {why}; walking the topics again",
            dir.join(walks::WALKS_FILE).display()
        ));
    }
    let mut searcher = Searcher::open_in(dir.clone());
    searcher.once = true;
    let mut outcome = run(&mut searcher, dir.as_deref())?;
    if let Some(dir) = dir.filter(|_| searcher.lexical.is_writable()) {
        if cache.take_changed()
            && let Err(e) = walks::save(&dir, cache)
        {
            notes.push(format!(
                "cannot save the topic walks to {} ({e}); the next search walks them again",
                dir.display()
            ));
        }
        // A cache that cannot be written was said above, or by the index.
        save_places(kb, cache, &searcher, &dir);
    }
    notes.append(&mut outcome.notes);
    outcome.notes = notes;
    Ok(outcome)
}

/// Saves the places of `kb`'s files for the next process, unless the
/// saved ones hold already or these would not hold (see
/// [`saved_places::encode`]).
fn save_places(kb: &KnowledgeBase, cache: &WalkCache, searcher: &Searcher, dir: &Path) {
    let synced = searcher.lexical.synced();
    let path = dir.join(PLACES_FILE);
    let holds = SavedPlaces::open(&path)
        .ok()
        .flatten()
        .is_some_and(|saved| saved.digest() == synced && saved.holds_for(kb, SystemTime::now()));
    if !holds && let Some(bytes) = saved_places::encode(kb, cache, synced) {
        let _ = jp_kb_search::write_atomic(&path, &bytes);
    }
}

/// The search answered from the places saved in `dir`, when they hold for
/// `kb` and the index there: `Ok(None)` when they do not (the caller takes
/// the walks), with a note in `notes` when they are damaged.
fn from_saved_places(
    kb: &KnowledgeBase,
    dir: &Path,
    request: &SearchRequest<'_>,
    notes: &mut Vec<String>,
) -> Result<Option<SearchOutcome>, SearchError> {
    let path = dir.join(PLACES_FILE);
    let damaged = |notes: &mut Vec<String>, why: &dyn std::fmt::Display| {
        notes.push(format!(
            "the saved search places {} are {why}; finding the hits' topics from the walks",
            path.display()
        ));
    };
    let saved = match SavedPlaces::open(&path) {
        Ok(Some(saved)) => saved,
        Ok(None) => return Ok(None),
        Err(why) => {
            damaged(notes, &why);
            return Ok(None);
        }
    };
    if !saved.holds_for(kb, SystemTime::now()) {
        return Ok(None);
    }
    let mut searcher = Searcher::open_in(Some(dir.to_path_buf()));
    // A damaged or missing index is the walks' search's to rebuild.
    if !searcher.notes.is_empty() || searcher.lexical.synced() != saved.digest() {
        return Ok(None);
    }
    // No counting started ahead here (as the walks' search does): hits
    // shown before have their counts kept (`memo.bin`), and a count the
    // hits do not need would take a core from a busy machine for ~3.5 ms.
    let terms = super::parse_query(&mut searcher.tokenizer, request.query)?;
    let scope = super::topic_scope(kb, request)?;
    let prefix = Tokenizer::last_word(request.query);
    let Ok(scored) = searcher
        .lexical
        .ranked(&terms, prefix.as_deref(), &searcher.scoring)
    else {
        return Ok(None);
    };
    // The leaders' places, best first, as `Searcher::places` finds them.
    let mut found: Vec<(String, SavedPlace, f32)> = Vec::new();
    for (doc, score) in scored {
        if found.len() >= request.limit {
            break;
        }
        let Ok(key) = searcher.lexical.key(doc) else {
            return Ok(None);
        };
        let places = match saved.places_of(&key) {
            Ok(places) => places,
            Err(why) => {
                damaged(notes, &why);
                return Ok(None);
            }
        };
        for place in places {
            let Some(topic) = saved.topic(place.topic) else {
                continue;
            };
            if found.len() >= request.limit
                || scope.is_some_and(|id| id != topic)
                || (place.hidden && !request.hidden)
            {
                continue;
            }
            found.push((key.clone(), place, score));
        }
    }
    let mut hits = Vec::with_capacity(found.len());
    for (key, place, score) in &found {
        let name = key.rsplit('/').next().unwrap_or(key);
        let place = Place {
            topic: saved.topic(place.topic).unwrap_or_default(),
            slug: &place.slug,
            path: Path::new(key),
            root: kb.root(),
            extension: crate::subjects::slug::split_extension(name).1,
            hidden: place.hidden,
            learned: place.learned,
        };
        hits.push(searcher.hit(&place, *score, &terms));
    }
    searcher.save_memo();
    Ok(Some(SearchOutcome {
        hits,
        notes: std::mem::take(&mut searcher.notes),
        #[cfg(feature = "semantic")]
        mode: super::Mode::Lexical,
    }))
}
