//! What [`super::semantic::Semantic`] loads: the model, the query's
//! vector (from the model's server when one is up), and the saved vectors
//! (read when first needed: a one-off search whose vectors are known to
//! be up to date scores the saved file as it reads it instead). A one-off
//! search that the model's server answers loads no model at all: the
//! server is found by its files' stamp ([`jp_kb_embed::files_stamp`]).

use std::path::Path;

use jp_kb_embed::{Model, ModelError, Scored, Vectors, VectorsError};

#[cfg(unix)]
use jp_kb_embed::resident::ModelKey;
#[cfg(unix)]
pub use jp_kb_embed::resident::Resident;

/// Stands for the model servers where there are none (not Unix).
#[cfg(not(unix))]
#[derive(Debug, Clone)]
pub enum Resident {}

#[derive(Debug)]
pub struct Loaded {
    /// Loaded at the first need ([`Loaded::model`]).
    model: Option<Model>,
    model_dir: std::path::PathBuf,
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
    let mut loaded = Loaded {
        model: None,
        model_dir: model_dir.to_owned(),
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
    let Some(query) = query else {
        loaded.model()?;
        if vectors {
            loaded.vectors(path)?;
        }
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
        match ask_ranked(resident, model_dir, &query, path, file) {
            Ok(ranked) => {
                loaded.query = Some((query, ranked.vector));
                loaded.ranked = Some((file.clone(), ranked.scored, ranked.complete));
                return Ok(loaded);
            }
            Err(not_up) => loaded.server_missed = not_up,
        }
    }
    let missed = loaded.server_missed;
    let model = loaded.model()?;
    let asked = match (&saved, missed) {
        // Asked already: none is up.
        (Some(_), true) => Err(true),
        _ => ask_server(resident, model, &query),
    };
    if vectors {
        loaded.vectors(path)?;
    } else {
        loaded.saved = path.and_then(read_whole);
    }
    let vector = match asked.and_then(answer) {
        Ok(vector) => vector,
        Err(not_up) => {
            loaded.server_missed |= not_up;
            loaded.model()?.embed_query(&query)?
        }
    };
    loaded.query = Some((query, vector));
    Ok(loaded)
}

impl Loaded {
    /// The model, loaded at the first call.
    pub fn model(&mut self) -> Result<&Model, ModelError> {
        if self.model.is_none() {
            self.model = Some(Model::load(&self.model_dir)?);
        }
        self.model
            .as_ref()
            .ok_or_else(|| not_loaded(&self.model_dir))
    }

    /// The model and the vectors, read from `path` at the first call
    /// (damaged ones: a note, and none).
    pub fn model_and_vectors(
        &mut self,
        path: Option<&Path>,
    ) -> Result<(&Model, &mut Vectors), ModelError> {
        self.model()?;
        if let (None, Some(model)) = (&self.vectors, &self.model) {
            let (vectors, file) = read_saved(model, path, self.saved.take(), &mut self.notes);
            self.file = file;
            self.vectors = Some(vectors);
        }
        match (&self.model, &mut self.vectors) {
            (Some(model), Some(vectors)) => Ok((model, vectors)),
            // Borrows only the directory: no error made unless needed.
            _ => Err(not_loaded(&self.model_dir)),
        }
    }

    /// The vectors, read from `path` at the first call.
    pub fn vectors(&mut self, path: Option<&Path>) -> Result<&mut Vectors, ModelError> {
        Ok(self.model_and_vectors(path)?.1)
    }

    /// `query`'s vector: the one embedded while loading, or embedded now
    /// (by the query encoder in a one-off process, else by the batch
    /// encoder a process that stays up keeps anyway).
    pub fn query_vector(&mut self, query: &str, one_off: bool) -> Result<Vec<f32>, ModelError> {
        // A server's vector is of the model's length (its files' stamp
        // named it); checked all the same once the model is loaded.
        if let Some((embedded, vector)) = &self.query
            && embedded == query
            && self.model.as_ref().is_none_or(|m| m.dims() == vector.len())
        {
            return Ok(vector.clone());
        }
        let model = self.model()?;
        if one_off {
            model.embed_query(query)
        } else {
            Ok(model.embed(&[query])?.pop().unwrap_or_default())
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
        let scored = Vectors::search_saved(bytes.as_slice(), self.model.as_ref()?, vector).ok()?;
        Some((scored, true))
    }
}

fn not_loaded(model_dir: &Path) -> ModelError {
    ModelError::Run {
        dir: model_dir.to_owned(),
        why: "the model is not loaded".to_owned(),
    }
}

/// A saved vectors file's bytes, read whole, and its metadata (`None`
/// when there is none, or it cannot be read: then it is read again when
/// needed, and the error said).
fn read_whole(path: &Path) -> Option<(Vec<u8>, std::fs::Metadata)> {
    // Never blocking on a FIFO, never more than any vectors saved.
    let opened = jp_kb_fs::open_regular(path).ok()?;
    let metadata = opened.metadata.clone();
    let bytes = opened.read_to_vec(jp_kb_embed::MAX_VECTORS_BYTES).ok()?;
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
    let key = ModelKey::of(model).map_err(|_| false)?;
    resident.ask(&key, query).map_err(|e| e.not_up())
}

/// The saved vectors at `path` (the file `file`) ranked by the model's
/// server for `query`; `Err(true)` when none is up, `Err(false)` when it
/// gave no usable answer or none can be used here.
#[cfg(unix)]
fn ask_ranked(
    resident: Option<&Resident>,
    model_dir: &Path,
    query: &str,
    path: &Path,
    file: &std::fs::Metadata,
) -> Result<jp_kb_embed::resident::Ranked, bool> {
    let resident = resident.ok_or(false)?;
    // The model's files as they are now, not loaded.
    let key = ModelKey::on_disk(model_dir).map_err(|_| false)?;
    let pending = resident
        .ask_ranked(&key, query, path, file, SERVER_TOP)
        .map_err(|e| e.not_up())?;
    pending.ranked().map_err(|_| false)
}

#[cfg(not(unix))]
fn ask_ranked(
    _: Option<&Resident>,
    _: &Path,
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
