//! What [`super::semantic::Semantic`] loads: the model, the query's
//! vector (from the model's server when one is up), and the saved vectors
//! (read when first needed: a one-off search whose vectors are known to
//! be up to date scores the saved file as it reads it instead).

use std::path::Path;

use jp_kb_embed::{Model, ModelError, Scored, Vectors, VectorsError};

#[cfg(unix)]
pub use jp_kb_embed::resident::Resident;

/// Stands for the model servers where there are none (not Unix).
#[cfg(not(unix))]
#[derive(Debug, Clone)]
pub enum Resident {}

#[derive(Debug)]
pub struct Loaded {
    pub model: Model,
    /// The saved vectors, once read (see [`Loaded::vectors`]).
    pub vectors: Option<Vectors>,
    pub notes: Vec<String>,
    /// A query embedded while loading, and its vector.
    query: Option<(String, Vec<f32>)>,
    /// No model server was up to embed that query (starting one would
    /// make the next one-off search faster).
    pub server_missed: bool,
    /// The saved vectors file the vectors are (as read, or as last
    /// written); `None` when they are not a saved file's.
    pub file: Option<std::fs::Metadata>,
    /// The last refresh left the vectors as the files are, and saved.
    pub refreshed: bool,
    /// The vectors file's identity and the digest last recorded as
    /// synced (`embeddings.synced`).
    pub marked: Option<([u64; 5], u64)>,
    /// A one-off search's saved vectors file, its bytes read whole while
    /// the server embeds the query, and the file's metadata.
    saved: Option<(Vec<u8>, std::fs::Metadata)>,
    /// The saved vectors file ranked by the model's server for the query
    /// (the file it ranked, its best files, whether all are there).
    ranked: Option<(std::fs::Metadata, Vec<Scored>, bool)>,
}

/// Files a server's ranking gives a one-off search: enough for the
/// fusion's 100 candidates in all but a narrow `--topic` of a large
/// workspace (then the search reads the vectors itself).
const SERVER_TOP: usize = 400;

/// The model in `model_dir`, `query` embedded (by the model's server in
/// `resident` when one answers), and with `vectors`, the vectors saved at
/// `path` (else read when first needed).
pub fn load(
    model_dir: &Path,
    path: Option<&Path>,
    query: Option<String>,
    resident: Option<&Resident>,
    vectors: bool,
) -> Result<Loaded, ModelError> {
    let model = Model::load(model_dir)?;
    let mut loaded = Loaded {
        model,
        vectors: None,
        notes: Vec::new(),
        query: None,
        server_missed: false,
        file: None,
        refreshed: false,
        marked: None,
        saved: None,
        ranked: None,
    };
    if vectors {
        loaded.vectors(path);
    }
    let Some(query) = query else {
        return Ok(loaded);
    };
    // The saved vectors ranked by the server, which keeps them; else the
    // server embeds the query while the vectors are read here.
    let saved = path.and_then(|p| {
        Some((
            p,
            std::fs::metadata(p)
                .ok()
                .filter(std::fs::Metadata::is_file)?,
        ))
    });
    if !vectors && let Some((path, file)) = &saved {
        match ask_ranked(resident, &loaded.model, &query, path, file) {
            Ok(ranked) => {
                loaded.query = Some((query, ranked.vector));
                loaded.ranked = Some((file.clone(), ranked.scored, ranked.complete));
                return Ok(loaded);
            }
            Err(not_up) => loaded.server_missed = not_up,
        }
    }
    let asked = match (&saved, loaded.server_missed) {
        // Asked already: none is up.
        (Some(_), true) => Err(true),
        _ => ask_server(resident, &loaded.model, &query),
    };
    if !vectors {
        loaded.saved = path.and_then(read_whole);
    }
    let vector = match asked.and_then(answer) {
        Ok(vector) => vector,
        Err(not_up) => {
            loaded.server_missed |= not_up;
            loaded.model.embed_query(&query)?
        }
    };
    loaded.query = Some((query, vector));
    Ok(loaded)
}

impl Loaded {
    /// The vectors, read from `path` at the first call (damaged ones: a
    /// note, and none).
    pub fn vectors(&mut self, path: Option<&Path>) -> &mut Vectors {
        if self.vectors.is_none() {
            let (vectors, file) = read_saved(&self.model, path, self.saved.take(), &mut self.notes);
            self.file = file;
            self.vectors = Some(vectors);
        }
        self.vectors
            .get_or_insert_with(|| Vectors::empty(&self.model))
    }

    /// `query`'s vector: the one embedded while loading, or embedded now
    /// (a one-off process reads only the weights it uses).
    pub fn query_vector(&self, query: &str, one_off: bool) -> Result<Vec<f32>, ModelError> {
        match &self.query {
            Some((embedded, vector)) if embedded == query => Ok(vector.clone()),
            _ if one_off => self.model.embed_query(query),
            _ => Ok(self.model.embed(&[query])?.pop().unwrap_or_default()),
        }
    }

    /// The saved vectors' ranking for `vector`, when they are known to be
    /// up to date with an index whose digest is `digest`, and whether
    /// every file is in it (a server gives its best ones); `None` when not
    /// known (or the saved file cannot be read: the caller's refresh reads
    /// it again and says why).
    pub fn rank_synced(
        &mut self,
        path: Option<&Path>,
        vector: &[f32],
        digest: u64,
    ) -> Option<(Vec<Scored>, bool)> {
        let path = path?;
        let dir = path.parent()?;
        if let Some(vectors) = &self.vectors {
            return synced(dir, self.file.as_ref()?, digest)
                .then(|| (vectors.search(vector), true));
        }
        if let Some((file, scored, complete)) = self.ranked.take() {
            return synced(dir, &file, digest).then_some((scored, complete));
        }
        let (bytes, file) = self.saved.as_ref()?;
        if !synced(dir, file, digest) {
            return None;
        }
        let scored = Vectors::search_saved(bytes.as_slice(), &self.model, vector).ok()?;
        Some((scored, true))
    }
}

/// A saved vectors file's bytes, read whole, and its metadata (`None`
/// when there is none, or it cannot be read: then it is read again when
/// needed, and the error said).
fn read_whole(path: &Path) -> Option<(Vec<u8>, std::fs::Metadata)> {
    use std::io::Read;
    // Opened as the index's files are: never blocking on a FIFO.
    let mut file = jp_kb_search::open_regular(path).ok()?;
    let metadata = file.metadata().ok()?;
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).ok()?.saturating_add(1));
    file.read_to_end(&mut bytes).ok()?;
    Some((bytes, metadata))
}

#[cfg(unix)]
fn synced(dir: &Path, file: &std::fs::Metadata, digest: u64) -> bool {
    super::vectors_synced::holds(dir, file, digest)
}

#[cfg(not(unix))]
fn synced(_: &Path, _: &std::fs::Metadata, _: u64) -> bool {
    false
}

/// The vectors saved at `path` (from its bytes in `read` when they were
/// read already) and the file read (damaged ones: a note, and none).
fn read_saved(
    model: &Model,
    path: Option<&Path>,
    read: Option<(Vec<u8>, std::fs::Metadata)>,
    notes: &mut Vec<String>,
) -> (Vectors, Option<std::fs::Metadata>) {
    let Some(path) = path else {
        return (Vectors::empty(model), None);
    };
    let vectors = match read {
        Some((bytes, file)) => Vectors::read(bytes.as_slice(), model).map(|v| (v, file)),
        None => Vectors::load_with_metadata(path, model),
    };
    match vectors {
        Ok((vectors, file)) => (vectors, Some(file)),
        Err(VectorsError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            (Vectors::empty(model), None)
        }
        Err(why) => {
            notes.push(format!(
                "the embeddings {} were {why}; embedding every subject again",
                path.display()
            ));
            (Vectors::empty(model), None)
        }
    }
}

/// `query` sent to the model's server; `Err(true)` when none is up (one
/// could be started), `Err(false)` when none can be used here.
#[cfg(unix)]
fn ask_server(
    resident: Option<&Resident>,
    model: &Model,
    query: &str,
) -> Result<jp_kb_embed::resident::Pending, bool> {
    let resident = resident.ok_or(false)?;
    resident.ask(model, query).map_err(|e| e.not_up())
}

/// The saved vectors at `path` (the file `file`) ranked by the model's
/// server for `query`; `Err(true)` when none is up, `Err(false)` when it
/// gave no usable answer or none can be used here.
#[cfg(unix)]
fn ask_ranked(
    resident: Option<&Resident>,
    model: &Model,
    query: &str,
    path: &Path,
    file: &std::fs::Metadata,
) -> Result<jp_kb_embed::resident::Ranked, bool> {
    let resident = resident.ok_or(false)?;
    let pending = resident
        .ask_ranked(model, query, path, file, SERVER_TOP)
        .map_err(|e| e.not_up())?;
    pending.ranked().map_err(|_| false)
}

#[cfg(not(unix))]
fn ask_ranked(
    _: Option<&Resident>,
    _: &Model,
    _: &str,
    _: &Path,
    _: &std::fs::Metadata,
) -> Result<Ranked, bool> {
    Err(false)
}

/// Stands for a server's ranking where there are none (not Unix).
#[cfg(not(unix))]
struct Ranked {
    vector: Vec<f32>,
    scored: Vec<Scored>,
    complete: bool,
}

/// The server's vector; `Err(false)`: it gave no usable answer.
#[cfg(unix)]
fn answer(pending: jp_kb_embed::resident::Pending) -> Result<Vec<f32>, bool> {
    pending.answer().map_err(|_| false)
}

#[cfg(not(unix))]
fn ask_server(
    resident: Option<&Resident>,
    _: &Model,
    _: &str,
) -> Result<std::convert::Infallible, bool> {
    match resident {
        Some(never) => match *never {},
        None => Err(false),
    }
}

#[cfg(not(unix))]
fn answer(never: std::convert::Infallible) -> Result<Vec<f32>, bool> {
    match never {}
}
