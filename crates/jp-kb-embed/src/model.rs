//! A sentence-embedding model from a local directory in the Hugging Face
//! layout, run with candle's BERT on the CPU.
//!
//! What sentence-transformers does for all-MiniLM-L6-v2, and so what this
//! does: the `WordPiece` ids of the text (truncated to the model's
//! `max_seq_length`), the encoder's last hidden states, their mean over the
//! tokens the attention mask keeps, divided by its L2 norm. Checked against
//! an independent numpy forward pass (tests/semantic/reference.py) to 1e-4.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use serde::Deserialize;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

use crate::error::ModelError;
use crate::read::read_bounded;
use crate::weights::Weights;

/// The files of a model directory, and the most of each that is read.
const CONFIG: (&str, u64) = ("config.json", 1 << 20);
const TOKENIZER: (&str, u64) = ("tokenizer.json", 64 << 20);
/// Read tensor by tensor, as its checked header places them (`weights.rs`).
const WEIGHTS: &str = "model.safetensors";
const POOLING: (&str, u64) = ("1_Pooling/config.json", 1 << 20);
const SENTENCE: (&str, u64) = ("sentence_bert_config.json", 1 << 20);

/// Texts embedded in one forward pass: larger batches pad more (a batch is
/// as long as its longest text) for little gain on two cores.
const BATCH: usize = 16;
/// What one embedding thread made: (text's place, its vector).
type Embedded = Result<Vec<(usize, Vec<f32>)>, ModelError>;

/// Threads that embed batches at once.
const MAX_THREADS: usize = 4;

/// The sentence-transformers pooling config (`1_Pooling/config.json`),
/// its own field names.
#[derive(Deserialize)]
#[allow(clippy::struct_field_names, clippy::struct_excessive_bools)]
struct Pooling {
    #[serde(default)]
    pooling_mode_mean_tokens: bool,
    #[serde(default)]
    pooling_mode_cls_token: bool,
    #[serde(default)]
    pooling_mode_max_tokens: bool,
    #[serde(default)]
    pooling_mode_mean_sqrt_len_tokens: bool,
}

/// `sentence_bert_config.json`: the length the model was trained with.
#[derive(Deserialize)]
struct SentenceConfig {
    max_seq_length: Option<usize>,
}

/// An embedding model: its tokenizer and configuration, loaded; its
/// weights read when a text is first embedded.
pub struct Model {
    dir: PathBuf,
    config: Config,
    weights: Weights,
    /// The whole encoder, once a batch was embedded ([`Model::embed`]).
    full: OnceLock<BertModel>,
    /// Parsed at the first text embedded.
    tokenizer: OnceLock<Tokenizer>,
    tokenizer_bytes: Vec<u8>,
    max_tokens: usize,
    dims: usize,
    fingerprint: u32,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("dir", &self.dir)
            .field("dims", &self.dims)
            .finish_non_exhaustive()
    }
}

impl Model {
    /// Loads the model in `dir`.
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
        let config: Config = serde_json::from_slice(&config_bytes)
            .map_err(|e| invalid(CONFIG.0, format!("not a BERT config ({e})")))?;
        check_pooling(dir)?;
        let max_tokens = max_tokens(dir, &config)?;
        let tokenizer_bytes = read(TOKENIZER)?;
        let weights = Weights::open(&dir.join(WEIGHTS))?;
        let mut hasher = crc32fast::Hasher::new();
        for part in [&config_bytes, &tokenizer_bytes] {
            hasher.update(&(part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        hasher.update(&(max_tokens as u64).to_le_bytes());
        weights.fingerprint(&mut hasher)?;
        Ok(Self {
            dir: dir.to_owned(),
            dims: config.hidden_size,
            config,
            weights,
            full: OnceLock::new(),
            tokenizer: OnceLock::new(),
            tokenizer_bytes,
            max_tokens,
            fingerprint: hasher.finalize(),
        })
    }

    /// The tokenizer, parsed at the first call (truncating to the model's
    /// length, padding a batch to its longest text).
    fn tokenizer(&self) -> Result<&Tokenizer, ModelError> {
        if let Some(tokenizer) = self.tokenizer.get() {
            return Ok(tokenizer);
        }
        let invalid = |why: String| ModelError::Invalid {
            path: self.dir.join(TOKENIZER.0),
            why,
        };
        let mut tokenizer = Tokenizer::from_bytes(&self.tokenizer_bytes)
            .map_err(|e| invalid(format!("not a tokenizer ({e})")))?;
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: self.max_tokens,
                ..TruncationParams::default()
            }))
            .map_err(|e| invalid(e.to_string()))?;
        tokenizer.with_padding(Some(PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            pad_id: u32::try_from(self.config.pad_token_id).unwrap_or(0),
            ..PaddingParams::default()
        }));
        Ok(self.tokenizer.get_or_init(|| tokenizer))
    }

    /// The whole encoder, read at the first call.
    fn full(&self) -> Result<&BertModel, ModelError> {
        if let Some(bert) = self.full.get() {
            return Ok(bert);
        }
        let vb = VarBuilder::from_backend(Box::new(self.weights.clone()), DType::F32, Device::Cpu);
        let bert = BertModel::load(vb, &self.config).map_err(|e| ModelError::Invalid {
            path: self.dir.join(WEIGHTS),
            why: format!("its tensors do not fit config.json ({e})"),
        })?;
        Ok(self.full.get_or_init(|| bert))
    }

    /// The length of every vector.
    pub fn dims(&self) -> usize {
        self.dims
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
        // Similar lengths batched together pad least.
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| texts[i].len());
        let batches: Vec<&[usize]> = order.chunks(BATCH).collect();
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
                let inputs: Vec<&str> = batch.iter().map(|&i| texts[i]).collect();
                out.extend(batch.iter().copied().zip(self.embed_batch(bert, &inputs)?));
            }
        };
        let parts: Vec<Embedded> = if threads > 1 {
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
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

    fn embed_batch(&self, bert: &BertModel, texts: &[&str]) -> Result<Vec<Vec<f32>>, ModelError> {
        let encodings = self
            .tokenizer()?
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| ModelError::Run {
                dir: self.dir.clone(),
                why: e.to_string(),
            })?;
        let rows = encodings.len();
        let width = encodings.first().map_or(0, |e| e.get_ids().len());
        let mut ids = Vec::with_capacity(rows * width);
        let mut mask = Vec::with_capacity(rows * width);
        for e in &encodings {
            ids.extend_from_slice(e.get_ids());
            mask.extend_from_slice(e.get_attention_mask());
        }
        self.forward(bert, ids, mask, rows)
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

/// Refuses a pooling other than the mean of the tokens (the only one
/// computed here); no pooling config means the mean.
fn check_pooling(dir: &Path) -> Result<(), ModelError> {
    let path = dir.join(POOLING.0);
    let bytes = match read_bounded(&path, POOLING.1) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(source) => return Err(ModelError::Read { path, source }),
    };
    let pooling: Pooling = serde_json::from_slice(&bytes).map_err(|e| ModelError::Invalid {
        path: path.clone(),
        why: format!("not a pooling config ({e})"),
    })?;
    let others = pooling.pooling_mode_cls_token
        || pooling.pooling_mode_max_tokens
        || pooling.pooling_mode_mean_sqrt_len_tokens;
    if !pooling.pooling_mode_mean_tokens || others {
        return Err(ModelError::Invalid {
            path,
            why: "only mean pooling (pooling_mode_mean_tokens alone) is supported".to_owned(),
        });
    }
    Ok(())
}

/// The most tokens of a text the model sees: sentence-transformers'
/// `max_seq_length` when given, else the model's positions.
fn max_tokens(dir: &Path, config: &Config) -> Result<usize, ModelError> {
    let path = dir.join(SENTENCE.0);
    let given = match read_bounded(&path, SENTENCE.1) {
        Ok(bytes) => {
            serde_json::from_slice::<SentenceConfig>(&bytes)
                .map_err(|e| ModelError::Invalid {
                    path: path.clone(),
                    why: e.to_string(),
                })?
                .max_seq_length
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => return Err(ModelError::Read { path, source }),
    };
    let most = config.max_position_embeddings;
    Ok(given.map_or(most, |n| n.min(most)).max(2))
}
