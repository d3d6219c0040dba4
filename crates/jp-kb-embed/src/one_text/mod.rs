//! The BERT encoder for one short text (a query), written out for that
//! case: no batch, no padding, a dozen tokens. The same computation as
//! candle's `BertModel` (embeddings and their layer norm; per layer the
//! self-attention, its output and layer norm, the activation of the
//! intermediate layer, the output and layer norm), then the mean over the
//! tokens and the L2 norm, as [`crate::Model`] pools. Checked against
//! candle's encoder on small random models (`tests.rs`) and against the
//! numpy reference on all-MiniLM-L6-v2 (`tests/it/semantic_model.rs`).
//!
//! Why: a query's forward pass through candle took ~10 ms, most of it in
//! the matrix products' packing of the weights ([`linear`]); a model
//! server answers a one-off search only as fast as this pass.

mod helper;
mod linear;
mod ops;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use candle_transformers::models::bert::{Config, HiddenAct};
use pulp::Arch;

use self::helper::Helper;
use self::linear::Linear;
use self::ops::{LayerNorm, activate, add_in_place, attend, mean_unit};
use crate::error::ModelError;
use crate::weights::Weights;

/// The encoder's weights, read whole except the word table, whose rows a
/// text's word pieces pick are read at each text.
#[derive(Debug)]
pub(crate) struct OneText {
    arch: Arch,
    /// A second thread for the products (`helper.rs`), when asked for.
    helper: Option<Helper>,
    /// The word table's name in the file, and its width.
    word_table: String,
    hidden: usize,
    heads: usize,
    act: HiddenAct,
    positions: Vec<f32>,
    /// The first token type's row (one text: every token is of type 0).
    token_type: Vec<f32>,
    embeddings_norm: LayerNorm,
    layers: Vec<Layer>,
}

#[derive(Debug)]
struct Layer {
    /// Query, key and value in one product: rows `3 × hidden`.
    qkv: Arc<Linear>,
    attention_out: Arc<Linear>,
    attention_norm: LayerNorm,
    intermediate: Arc<Linear>,
    output: Arc<Linear>,
    output_norm: LayerNorm,
}

impl OneText {
    /// Reads the encoder `config` describes from `weights`, every tensor's
    /// shape checked against it; with `two_threads`, each product is
    /// shared with a second thread when there is a second core.
    pub fn load(weights: &Weights, config: &Config, two_threads: bool) -> Result<Self, ModelError> {
        let tensors = Tensors::new(weights, config)?;
        let hidden = config.hidden_size;
        if config.num_attention_heads == 0 || !hidden.is_multiple_of(config.num_attention_heads) {
            return Err(tensors.invalid(format!(
                "config.json's hidden_size {hidden} is not a multiple of num_attention_heads {}",
                config.num_attention_heads
            )));
        }
        let eps = config.layer_norm_eps;
        let inter = config.intermediate_size;
        let word_table = tensors.name("embeddings.word_embeddings.weight");
        tensors.expect(&word_table, &[config.vocab_size, hidden])?;
        let positions = tensors.table(
            "embeddings.position_embeddings.weight",
            config.max_position_embeddings,
        )?;
        let mut token_type = tensors.table(
            "embeddings.token_type_embeddings.weight",
            config.type_vocab_size,
        )?;
        token_type.truncate(hidden);
        if token_type.len() != hidden {
            return Err(tensors.invalid("it has no token type 0".to_owned()));
        }
        let mut layers = Vec::with_capacity(config.num_hidden_layers);
        for i in 0..config.num_hidden_layers {
            let at = |part: &str| format!("encoder.layer.{i}.{part}");
            let (q, k, v) = (
                tensors.linear(&at("attention.self.query"), hidden, hidden)?,
                tensors.linear(&at("attention.self.key"), hidden, hidden)?,
                tensors.linear(&at("attention.self.value"), hidden, hidden)?,
            );
            layers.push(Layer {
                qkv: Arc::new(Linear {
                    weight: [q.weight, k.weight, v.weight].concat(),
                    bias: [q.bias, k.bias, v.bias].concat(),
                    cols: hidden,
                }),
                attention_out: Arc::new(tensors.linear(
                    &at("attention.output.dense"),
                    hidden,
                    hidden,
                )?),
                attention_norm: tensors.norm(&at("attention.output.LayerNorm"), eps)?,
                intermediate: Arc::new(tensors.linear(&at("intermediate.dense"), inter, hidden)?),
                output: Arc::new(tensors.linear(&at("output.dense"), hidden, inter)?),
                output_norm: tensors.norm(&at("output.LayerNorm"), eps)?,
            });
        }
        let arch = Arch::new();
        Ok(Self {
            arch,
            helper: two_threads.then(|| Helper::start(arch)).flatten(),
            word_table,
            hidden,
            heads: config.num_attention_heads,
            act: config.hidden_act,
            positions,
            token_type,
            embeddings_norm: tensors.norm("embeddings.LayerNorm", eps)?,
            layers,
        })
    }

    /// The pooled, L2-normalised vector of the text whose word pieces are
    /// `ids` (its whole attention mask: one text is never padded).
    pub fn embed(&self, weights: &Weights, ids: &[u32]) -> Result<Vec<f32>, ModelError> {
        let (hidden, tokens) = (self.hidden, ids.len());
        if tokens == 0 || tokens * hidden > self.positions.len() {
            return Err(ModelError::Invalid {
                path: weights.path().to_owned(),
                why: format!("{tokens} tokens do not fit the model's positions"),
            });
        }
        let mut x = weights.row_values(&self.word_table, ids)?;
        for (t, row) in x.chunks_exact_mut(hidden).enumerate() {
            add_in_place(row, &self.token_type);
            add_in_place(row, &self.positions[t * hidden..(t + 1) * hidden]);
        }
        self.embeddings_norm.apply(&mut x);
        let product = |linear: &Arc<Linear>, x: &[f32]| match &self.helper {
            Some(helper) => helper.apply(self.arch, linear, x.to_vec(), tokens),
            None => linear.apply(self.arch, x, tokens),
        };
        for layer in &self.layers {
            let qkv = product(&layer.qkv, &x);
            let context = attend(&qkv, tokens, hidden, self.heads);
            let mut attended = product(&layer.attention_out, &context);
            add_in_place(&mut attended, &x);
            layer.attention_norm.apply(&mut attended);
            let mut inter = product(&layer.intermediate, &attended);
            activate(self.act, &mut inter);
            x = product(&layer.output, &inter);
            add_in_place(&mut x, &attended);
            layer.output_norm.apply(&mut x);
        }
        Ok(mean_unit(&x, hidden))
    }
}

/// The tensors of one model file, named with or without the model type's
/// prefix (`bert.`), as candle's loader finds them.
struct Tensors<'a> {
    weights: &'a Weights,
    prefix: Option<String>,
    hidden: usize,
}

impl<'a> Tensors<'a> {
    fn new(weights: &'a Weights, config: &Config) -> Result<Self, ModelError> {
        let plain = "embeddings.word_embeddings.weight";
        let prefix = match &config.model_type {
            _ if weights.shape(plain).is_some() => None,
            Some(kind) if weights.shape(&format!("{kind}.{plain}")).is_some() => {
                Some(format!("{kind}."))
            }
            _ => {
                return Err(ModelError::Invalid {
                    path: weights.path().to_owned(),
                    why: format!("its tensors do not fit config.json (it has no tensor {plain})"),
                });
            }
        };
        Ok(Self {
            weights,
            prefix,
            hidden: config.hidden_size,
        })
    }

    fn name(&self, name: &str) -> String {
        format!("{}{name}", self.prefix.as_deref().unwrap_or(""))
    }

    fn invalid(&self, why: String) -> ModelError {
        ModelError::Invalid {
            path: self.weights.path().to_owned(),
            why,
        }
    }

    /// Refuses tensor `name` unless its shape is `shape` (config.json's).
    fn expect(&self, name: &str, shape: &[usize]) -> Result<(), ModelError> {
        let why = match self.weights.shape(name) {
            Some(got) if got == shape => return Ok(()),
            Some(got) => format!("tensor {name} is {got:?}, not {shape:?}"),
            None => format!("it has no tensor {name}"),
        };
        Err(self.invalid(format!("its tensors do not fit config.json ({why})")))
    }

    /// The values of tensor `name`, of shape `shape`.
    fn read(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, ModelError> {
        let name = self.name(name);
        self.expect(&name, shape)?;
        Ok(self.weights.values(&name)?.0)
    }

    /// A table of `rows` rows of the hidden width.
    fn table(&self, name: &str, rows: usize) -> Result<Vec<f32>, ModelError> {
        self.read(name, &[rows, self.hidden])
    }

    fn linear(&self, name: &str, rows: usize, cols: usize) -> Result<Linear, ModelError> {
        Ok(Linear {
            weight: self.read(&format!("{name}.weight"), &[rows, cols])?,
            bias: self.read(&format!("{name}.bias"), &[rows])?,
            cols,
        })
    }

    fn norm(&self, name: &str, eps: f64) -> Result<LayerNorm, ModelError> {
        Ok(LayerNorm {
            weight: self.read(&format!("{name}.weight"), &[self.hidden])?,
            bias: self.read(&format!("{name}.bias"), &[self.hidden])?,
            #[allow(clippy::cast_possible_truncation)]
            eps: eps as f32,
        })
    }
}
