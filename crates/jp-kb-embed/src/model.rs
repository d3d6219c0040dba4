//! A sentence-embedding model from a local directory in the Hugging Face
//! layout, run with candle's BERT on the CPU.
//!
//! What sentence-transformers does for all-MiniLM-L6-v2, and so what this
//! does: the `WordPiece` ids of the text (truncated to the model's
//! `max_seq_length`), the encoder's last hidden states, their mean over the
//! tokens the attention mask keeps, divided by its L2 norm. Checked against
//! an independent numpy forward pass (tests/semantic/reference.py) to 1e-4.
//!
//! A model is input, not code: a repository may ship the one it names.
//! Every file is read bounded, every count and shape is checked before
//! anything is allocated from it (`config.rs`, `tokenizer.rs`), and every
//! failure is a [`ModelError`] naming the file and what is wrong.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::BertModel;
use serde_json::Value;

use crate::config::{MAX_TOKENS, Shape};
use crate::error::ModelError;
use crate::read::read_bounded;
use crate::tokenizer::{Bounded, Pieces};
use crate::weights::Weights;

/// The files of a model directory, and the most of each that is read.
const CONFIG: (&str, u64) = ("config.json", 1 << 20);
const TOKENIZER: (&str, u64) = ("tokenizer.json", 16 << 20);
/// Read tensor by tensor, as its checked header places them (`weights.rs`).
const WEIGHTS: &str = "model.safetensors";
const POOLING: (&str, u64) = ("1_Pooling/config.json", 1 << 20);
const SENTENCE: (&str, u64) = ("sentence_bert_config.json", 1 << 20);

/// Texts embedded in one forward pass. A build's call of 32 chunks is
/// four batches, taken by the threads as they finish: in two batches of
/// 16, the core with the shorter texts waited for the other (a first
/// build of 500 pages: 45.6 s with 16, 37.5 s with 8, and 40 % less
/// memory).
const BATCH: usize = 8;
/// The memory a batch's activations may take, about: a model of large
/// counts (within `config.rs`'s limits) embeds fewer texts at once.
const BATCH_BYTES: usize = 256 << 20;
/// What one embedding thread made: (text's place, its vector).
type Embedded = Result<Vec<(usize, Vec<f32>)>, ModelError>;

/// Threads that embed batches at once.
const MAX_THREADS: usize = 4;

/// An embedding model: its tokenizer, configuration and the weights'
/// header, checked; the encoder read when a text is first embedded.
pub struct Model {
    dir: PathBuf,
    shape: Shape,
    weights: Weights,
    /// The whole encoder, once a batch was embedded ([`Model::embed`]).
    full: OnceLock<BertModel>,
    tokenizer: Bounded,
    /// Texts in one forward pass (at most [`BATCH`], within
    /// [`BATCH_BYTES`] at the longest texts).
    batch: usize,
    fingerprint: u32,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("dir", &self.dir)
            .field("dims", &self.shape.hidden)
            .finish_non_exhaustive()
    }
}

impl Model {
    /// Loads the model in `dir`: its files read and checked against each
    /// other (the weights' tensors only when first needed).
    pub fn load(dir: &Path) -> Result<Self, ModelError> {
        let read = |(name, limit): (&str, u64)| {
            let path = dir.join(name);
            read_bounded(&path, limit).map_err(|source| ModelError::Read { path, source })
        };
        let invalid = |name: &str, why: String| ModelError::Invalid {
            path: dir.join(name),
            why,
        };
        let config_bytes = read(CONFIG)?;
        let mut shape = Shape::parse(&config_bytes).map_err(|why| invalid(CONFIG.0, why))?;
        check_pooling(dir)?;
        let max_tokens = max_tokens(dir, &shape)?;
        let tokenizer_bytes = read(TOKENIZER)?;
        let tokenizer = Bounded::new(&tokenizer_bytes, max_tokens, shape.vocab, shape.pad)
            .map_err(|why| invalid(TOKENIZER.0, why))?;
        let weights = Weights::open(&dir.join(WEIGHTS))?;
        shape.check_tensors(&weights).map_err(|why| {
            invalid(
                WEIGHTS,
                format!("its tensors do not fit config.json ({why})"),
            )
        })?;
        let mut hasher = crc32fast::Hasher::new();
        for part in [&config_bytes, &tokenizer_bytes] {
            hasher.update(&(part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        hasher.update(&(max_tokens as u64).to_le_bytes());
        weights.fingerprint(&mut hasher)?;
        // A text's activations at the longest: its attention scores
        // (tokens² a head), the intermediate layer and a few of the width.
        let row = max_tokens
            * (max_tokens * shape.heads + 4 * shape.intermediate + 8 * shape.hidden)
            * size_of::<f32>();
        Ok(Self {
            dir: dir.to_owned(),
            batch: (BATCH_BYTES / row.max(1)).clamp(1, BATCH),
            shape,
            weights,
            full: OnceLock::new(),
            tokenizer,
            fingerprint: hasher.finalize(),
        })
    }

    /// The whole encoder, read at the first call.
    fn full(&self) -> Result<&BertModel, ModelError> {
        if let Some(bert) = self.full.get() {
            return Ok(bert);
        }
        let vb = VarBuilder::from_backend(Box::new(self.weights.clone()), DType::F32, Device::Cpu);
        let bert = BertModel::load(vb, &self.shape.candle()).map_err(|e| ModelError::Invalid {
            path: self.dir.join(WEIGHTS),
            why: format!("its tensors do not fit config.json ({e})"),
        })?;
        Ok(self.full.get_or_init(|| bert))
    }

    /// The embedding of one text for a process that embeds nothing else
    /// (a one-off search's query): candle's encoder built for this text,
    /// its word table cut to the text's own pieces (half of
    /// all-MiniLM-L6-v2's file is that table), then dropped. The same
    /// numbers as [`Model::embed`] of the text; once the whole encoder is
    /// loaded, it is used.
    pub fn embed_query(&self, text: &str) -> Result<Vec<f32>, ModelError> {
        if self.full.get().is_some() {
            return Ok(self.embed(&[text])?.pop().unwrap_or_default());
        }
        let Some(Pieces { ids, mask }) = self.pieces(&[text])?.pop() else {
            return Ok(Vec::new());
        };
        let mut rows = ids.clone();
        rows.sort_unstable();
        rows.dedup();
        let local: Vec<u32> = ids
            .iter()
            .map(|id| u32::try_from(rows.binary_search(id).unwrap_or(0)).unwrap_or(0))
            .collect();
        let mut config = self.shape.candle();
        config.vocab_size = rows.len();
        config.pad_token_id = 0;
        let table = format!("{}embeddings.word_embeddings.weight", self.shape.prefix);
        let weights = self.weights.with_rows(table, rows);
        let vb = VarBuilder::from_backend(Box::new(weights), DType::F32, Device::Cpu);
        let bert = BertModel::load(vb, &config).map_err(|e| ModelError::Invalid {
            path: self.dir.join(WEIGHTS),
            why: format!("its tensors do not fit config.json ({e})"),
        })?;
        Ok(self
            .forward(&bert, local, mask, 1)?
            .pop()
            .unwrap_or_default())
    }

    /// The length of every vector.
    pub fn dims(&self) -> usize {
        self.shape.hidden
    }

    /// Says which model made a vector: a checksum of the model's files
    /// (vectors of another model, or another version of it, are not
    /// comparable).
    pub fn fingerprint(&self) -> u32 {
        self.fingerprint
    }

    /// The directory the model was loaded from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The embeddings of `texts`, each L2-normalised, in order; batches
    /// run on every core (candle's matrix products on these shapes use
    /// one: two threads embed tldr's pages 1.9× as fast on two cores).
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, ModelError> {
        let pieces = self.own_pieces(texts)?;
        let order = batch_order(&pieces);
        let batches: Vec<&[usize]> = order.chunks(self.batch).collect();
        let bert = self.full()?;
        let threads = std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .clamp(1, MAX_THREADS)
            .min(batches.len());
        let next = std::sync::atomic::AtomicUsize::new(0);
        let work = || -> Embedded {
            let mut out = Vec::new();
            loop {
                let at = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(batch) = batches.get(at) else {
                    return Ok(out);
                };
                let (ids, mask) = self.padded(&pieces, batch);
                let vectors = self.forward(bert, ids, mask, batch.len())?;
                out.extend(batch.iter().copied().zip(vectors));
            }
        };
        let parts: Vec<Embedded> = if threads > 1 {
            // Each thread's matrix products stay on it: candle would split
            // every product over all cores, and the threads already use
            // them (splitting products this small cost ~10 % of a build).
            let alone = || -> Embedded {
                match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
                    Ok(pool) => pool.install(work),
                    Err(_) => work(),
                }
            };
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads).map(|_| scope.spawn(alone)).collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join().unwrap_or_else(|_| {
                            Err(ModelError::Run {
                                dir: self.dir.clone(),
                                why: "an embedding thread panicked".to_owned(),
                            })
                        })
                    })
                    .collect()
            })
        } else {
            vec![work()]
        };
        let mut vectors = vec![Vec::new(); texts.len()];
        for part in parts {
            for (i, v) in part? {
                vectors[i] = v;
            }
        }
        Ok(vectors)
    }

    /// The word pieces of each of `texts`, without padding (tokenized
    /// once: batches are formed by these counts, then padded).
    fn own_pieces(&self, texts: &[&str]) -> Result<Vec<Pieces>, ModelError> {
        let mut pieces = self.pieces(texts)?;
        for Pieces { ids, mask } in &mut pieces {
            // The tokenizer pads on the right: the kept pieces lead.
            let own = mask.iter().take_while(|&&m| m != 0).count();
            ids.truncate(own);
            mask.truncate(own);
        }
        Ok(pieces)
    }

    /// The ids and attention mask of the texts at `batch`, each padded to
    /// the longest of them, in one row after another.
    fn padded(&self, pieces: &[Pieces], batch: &[usize]) -> (Vec<u32>, Vec<u32>) {
        let width = batch
            .iter()
            .map(|&i| pieces[i].ids.len())
            .max()
            .unwrap_or(0);
        let mut ids = Vec::with_capacity(width * batch.len());
        let mut mask = Vec::with_capacity(width * batch.len());
        for &i in batch {
            let own = &pieces[i];
            ids.extend(&own.ids);
            ids.resize(ids.len() + width - own.ids.len(), self.shape.pad);
            mask.extend(&own.mask);
            mask.resize(mask.len() + width - own.mask.len(), 0);
        }
        (ids, mask)
    }

    /// What [`Model::embed`] of `texts` computes, counted: a build's cost
    /// in the terms of its floor (the `throughput` example prints it).
    #[allow(clippy::cast_precision_loss)] // counts far below 2^52
    pub fn cost(&self, texts: &[&str]) -> Result<Cost, ModelError> {
        let (h, i) = (self.shape.hidden as f64, self.shape.intermediate as f64);
        let layers = self.shape.layers as f64;
        // A word piece's share of each layer's products: the four
        // projections of the attention and the two of the feed-forward;
        // then the attention's own two, which grow with the text's length.
        let per_piece = 2.0 * layers * (4.0 * h * h + 2.0 * h * i);
        let attention = |len: usize| 2.0 * 2.0 * layers * h * (len * len) as f64;
        let mut cost = Cost::default();
        let pieces = self.own_pieces(texts)?;
        for batch in batch_order(&pieces).chunks(self.batch) {
            let width = batch
                .iter()
                .map(|&i| pieces[i].ids.len())
                .max()
                .unwrap_or(0);
            for &i in batch {
                let own = pieces[i].ids.len();
                cost.pieces += own;
                cost.padded += width;
                cost.flops += per_piece * own as f64 + attention(own);
                cost.padded_flops += per_piece * width as f64 + attention(width);
            }
        }
        Ok(cost)
    }

    /// The word pieces of `texts`, padded to the longest.
    fn pieces(&self, texts: &[&str]) -> Result<Vec<Pieces>, ModelError> {
        self.tokenizer
            .encode(texts)
            .map_err(|why| ModelError::Invalid {
                path: self.dir.join(TOKENIZER.0),
                why,
            })
    }

    /// The pooled, normalised vectors of `rows` texts given as word-piece
    /// ids and attention masks of one width.
    fn forward(
        &self,
        bert: &BertModel,
        ids: Vec<u32>,
        mask: Vec<u32>,
        rows: usize,
    ) -> Result<Vec<Vec<f32>>, ModelError> {
        let run = |why: String| ModelError::Run {
            dir: self.dir.clone(),
            why,
        };
        let width = ids.len() / rows.max(1);
        let c = |e: candle_core::Error| run(e.to_string());
        let ids = Tensor::from_vec(ids, (rows, width), &Device::Cpu).map_err(c)?;
        let mask = Tensor::from_vec(mask, (rows, width), &Device::Cpu).map_err(c)?;
        let types = ids.zeros_like().map_err(c)?;
        let hidden = bert.forward(&ids, &types, Some(&mask)).map_err(c)?;
        // Mean over the kept tokens: sum(h · mask) / sum(mask).
        let mask = mask
            .to_dtype(DType::F32)
            .map_err(c)?
            .unsqueeze(2)
            .map_err(c)?;
        let summed = hidden.broadcast_mul(&mask).map_err(c)?.sum(1).map_err(c)?;
        let counts = mask.sum(1).map_err(c)?.clamp(1e-9, f64::MAX).map_err(c)?;
        let mean = summed.broadcast_div(&counts).map_err(c)?;
        let norms = mean
            .sqr()
            .map_err(c)?
            .sum_keepdim(1)
            .map_err(c)?
            .sqrt()
            .map_err(c)?
            .clamp(1e-12, f64::MAX)
            .map_err(c)?;
        let unit = mean.broadcast_div(&norms).map_err(c)?;
        unit.to_vec2::<f32>().map_err(c)
    }
}

/// The places of the texts in the order they are batched: similar
/// numbers of word pieces together pad least (a batch is as long as its
/// longest text).
fn batch_order(pieces: &[Pieces]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..pieces.len()).collect();
    order.sort_by_key(|&i| pieces[i].ids.len());
    order
}

/// What embedding some texts costs ([`Model::cost`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Cost {
    /// The texts' word pieces, as the encoder reads them.
    pub pieces: usize,
    /// The same with each batch's padding to its longest text.
    pub padded: usize,
    /// The floating-point operations of the encoder's products over the
    /// texts' own pieces: the work a build cannot avoid.
    pub flops: f64,
    /// The same over the padded batches: the work a build does.
    pub padded_flops: f64,
}

/// The JSON object in the small model file `name` of `dir`, `None` when
/// the file is missing.
fn small_json(
    dir: &Path,
    (name, limit): (&str, u64),
) -> Result<Option<serde_json::Map<String, Value>>, ModelError> {
    let path = dir.join(name);
    let bytes = match read_bounded(&path, limit) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(ModelError::Read { path, source }),
    };
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(fields)) => Ok(Some(fields)),
        Ok(_) => Err(ModelError::Invalid {
            path,
            why: "not a JSON object".to_owned(),
        }),
        Err(e) => Err(ModelError::Invalid {
            path,
            why: format!("not JSON (line {}, column {})", e.line(), e.column()),
        }),
    }
}

/// Refuses a pooling other than the mean of the tokens (the only one
/// computed here); no pooling config means the mean.
fn check_pooling(dir: &Path) -> Result<(), ModelError> {
    let Some(fields) = small_json(dir, POOLING)? else {
        return Ok(());
    };
    let on = |name: &str| fields.get(name).and_then(Value::as_bool) == Some(true);
    let others = [
        "pooling_mode_cls_token",
        "pooling_mode_max_tokens",
        "pooling_mode_mean_sqrt_len_tokens",
    ];
    if !on("pooling_mode_mean_tokens") || others.iter().any(|o| on(o)) {
        return Err(ModelError::Invalid {
            path: dir.join(POOLING.0),
            why: "only mean pooling (`pooling_mode_mean_tokens` alone) is supported".to_owned(),
        });
    }
    Ok(())
}

/// The most word pieces of a text the model sees: sentence-transformers'
/// `max_seq_length` when given, else the model's positions; never more
/// than [`MAX_TOKENS`], whatever the files say.
fn max_tokens(dir: &Path, shape: &Shape) -> Result<usize, ModelError> {
    let given = match small_json(dir, SENTENCE)?.and_then(|f| f.get("max_seq_length").cloned()) {
        None | Some(Value::Null) => None,
        Some(n) => Some(
            n.as_u64()
                .filter(|n| *n >= 2)
                .ok_or_else(|| ModelError::Invalid {
                    path: dir.join(SENTENCE.0),
                    why: "`max_seq_length` must be a whole number from 2".to_owned(),
                })?,
        ),
    };
    let most = shape.positions.min(MAX_TOKENS);
    Ok(given.map_or(most, |n| usize::try_from(n).unwrap_or(most).min(most)))
}
