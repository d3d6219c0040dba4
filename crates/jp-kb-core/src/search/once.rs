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

/// [`Searcher::search_in_mode`] for a process that searches once, over
/// the walks the last search saved (see [`with_saved_walks`]).
#[cfg(feature = "semantic")]
pub fn search_in_mode_with_walks(
    kb: &KnowledgeBase,
    cache: &WalkCache,
    request: &SearchRequest<'_>,
    semantic: &mut super::semantic::Semantic,
    mode: super::Mode,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<SearchOutcome, SearchError> {
    check_query(request.query)?;
    with_saved_walks(kb, cache, |searcher, _| {
        searcher.search_in_mode(kb, request, Some(semantic), mode, progress)
    })
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

/// The places saved in `dir` and a searcher over the index there, when
/// they hold for `kb` and each other: `None` when they do not (the caller
/// takes the walks), with a note in `notes` when the places are damaged.
fn open_saved(
    kb: &KnowledgeBase,
    dir: &Path,
    notes: &mut Vec<String>,
) -> Option<(SavedPlaces, Searcher)> {
    let path = dir.join(PLACES_FILE);
    let saved = match SavedPlaces::open(&path) {
        Ok(Some(saved)) => saved,
        Ok(None) => return None,
        Err(why) => {
            damaged(notes, &path, &why);
            return None;
        }
    };
    if !saved.holds_for(kb, SystemTime::now()) {
        return None;
    }
    let searcher = Searcher::open_in(Some(dir.to_path_buf()));
    // A damaged or missing index is the walks' search's to rebuild.
    if !searcher.notes.is_empty() || searcher.lexical.synced() != saved.digest() {
        return None;
    }
    Some((saved, searcher))
}

fn damaged(notes: &mut Vec<String>, path: &Path, why: &dyn std::fmt::Display) {
    notes.push(format!(
        "the saved search places {} are {why}; finding the hits' topics from the walks",
        path.display()
    ));
}

/// The first `limit` places of the files `ranked` (index key, score; best
/// first; `None`: the index could not name a file), as `Searcher::places`
/// finds them: in the request's topic, hidden ones only when asked for.
/// Keys are taken lazily: only the leaders' are read. `None` when the
/// saved places or the index are damaged (places: noted in `notes`).
fn saved_places_of(
    saved: &SavedPlaces,
    dir: &Path,
    ranked: impl IntoIterator<Item = Option<(String, f32)>>,
    scope: Option<&str>,
    request: &SearchRequest<'_>,
    limit: usize,
    notes: &mut Vec<String>,
) -> Option<Vec<(String, SavedPlace, f32)>> {
    let mut found = Vec::new();
    for ranked in ranked {
        if found.len() >= limit {
            break;
        }
        let (key, rank_score) = ranked?;
        let places = match saved.places_of(&key) {
            Ok(places) => places,
            Err(why) => {
                damaged(notes, &dir.join(PLACES_FILE), &why);
                return None;
            }
        };
        for place in places {
            let Some(topic) = saved.topic(place.topic) else {
                continue;
            };
            if found.len() >= limit
                || scope.is_some_and(|id| id != topic)
                || (place.hidden && !request.hidden)
            {
                continue;
            }
            found.push((key.clone(), place, rank_score));
        }
    }
    Some(found)
}

/// A hit's place from a saved one.
fn place_of<'a>(
    kb: &'a KnowledgeBase,
    saved: &'a SavedPlaces,
    key: &'a str,
    place: &'a SavedPlace,
) -> Place<'a> {
    let name = key.rsplit('/').next().unwrap_or(key);
    Place {
        topic: saved.topic(place.topic).unwrap_or_default(),
        slug: &place.slug,
        path: Path::new(key),
        root: kb.root(),
        extension: crate::subjects::slug::split_extension(name).1,
        hidden: place.hidden,
        learned: place.learned,
    }
}

/// The words' ranking of the saved index, best first, each file's key
/// read when taken (`None` for one the index cannot name); `None` when the
/// index cannot rank (the walks' search rebuilds it).
fn saved_ranked<'s>(
    searcher: &'s Searcher,
    terms: &[String],
    query: &str,
) -> Option<impl Iterator<Item = Option<(String, f32)>> + 's> {
    let prefix = Tokenizer::last_word(query);
    let scored = searcher
        .lexical
        .ranked(terms, prefix.as_deref(), &searcher.scoring)
        .ok()?;
    Some(
        scored
            .into_iter()
            .map(|(doc, score)| Some((searcher.lexical.key(doc).ok()?, score))),
    )
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
    let Some((saved, mut searcher)) = open_saved(kb, dir, notes) else {
        return Ok(None);
    };
    // No counting started ahead here (as the walks' search does): hits
    // shown before have their counts kept (`memo.bin`), and a count the
    // hits do not need would take a core from a busy machine for ~3.5 ms.
    let terms = super::parse_query(&mut searcher.tokenizer, request.query)?;
    let scope = super::topic_scope(kb, request)?;
    let Some(ranked) = saved_ranked(&searcher, &terms, request.query) else {
        return Ok(None);
    };
    let Some(found) = saved_places_of(&saved, dir, ranked, scope, request, request.limit, notes)
    else {
        return Ok(None);
    };
    let mut hits = Vec::with_capacity(found.len());
    for (key, place, score) in &found {
        hits.push(searcher.hit(&place_of(kb, &saved, key, place), *score, &terms));
    }
    searcher.save_memo();
    Ok(Some(SearchOutcome {
        hits,
        notes: std::mem::take(&mut searcher.notes),
        #[cfg(feature = "semantic")]
        mode: super::Mode::Lexical,
    }))
}
