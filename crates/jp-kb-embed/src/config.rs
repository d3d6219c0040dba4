//! A model's `config.json`, read as input from a stranger: every count
//! and shape is checked against sane limits and against the tensors the
//! weights file holds before anything is allocated from it.
//!
//! A repository may name a model it ships (`kb.search.model`), so none
//! of these numbers is trusted: a layer count of 10^12, a width of 0 or
//! a position table of 65,536 would otherwise size allocations or divide
//! by zero inside the encoder. Errors name the file and the field, never
//! the value found (it is the stranger's text).

use candle_transformers::models::bert::{Config, HiddenAct, PositionEmbeddingType};
use serde_json::{Map, Value};

use crate::weights::Weights;

/// The most of each count accepted: above every BERT-style sentence
/// encoder published (bge-large: 24 layers, 1024 wide, 16 heads, 4096
/// intermediate, 30,522 pieces, 512 positions).
const MAX_LAYERS: u64 = 48;
const MAX_HIDDEN: u64 = 2048;
const MAX_HEADS: u64 = 64;
const MAX_INTERMEDIATE: u64 = 8192;
const MAX_VOCAB: u64 = 1 << 20;
const MAX_POSITIONS: u64 = 1 << 16;
const MAX_TYPES: u64 = 16;
/// The most floats the encoder's tensors may hold in all (2 GiB as f32).
const MAX_PARAMETERS: u64 = 512 << 20;

/// The longest text, in word pieces, the encoder ever reads, whatever the
/// configuration says: attention costs the square of it.
pub(crate) const MAX_TOKENS: usize = 512;

/// An encoder's shape from `config.json`, checked.
#[derive(Debug, Clone)]
pub(crate) struct Shape {
    pub vocab: usize,
    pub hidden: usize,
    pub layers: usize,
    pub heads: usize,
    pub intermediate: usize,
    pub positions: usize,
    pub types: usize,
    pub act: HiddenAct,
    pub eps: f64,
    pub pad: u32,
    /// The tensors' names start with this (`bert.`), or nothing.
    pub prefix: String,
}

impl Shape {
    /// The shape `config` (the bytes of `config.json`) describes, each
    /// field in its limits; `Err` says which field and what it must be.
    pub(crate) fn parse(config: &[u8]) -> Result<Self, String> {
        let value: Value = serde_json::from_slice(config)
            .map_err(|e| format!("not JSON (line {}, column {})", e.line(), e.column()))?;
        let Value::Object(fields) = value else {
            return Err("not a JSON object".to_owned());
        };
        let count = |name: &str, most: u64| whole(&fields, name, 1, most, None);
        let hidden = count("hidden_size", MAX_HIDDEN)?;
        let heads = count("num_attention_heads", MAX_HEADS)?;
        if hidden % heads != 0 {
            return Err("`hidden_size` must be a multiple of `num_attention_heads`".to_owned());
        }
        let vocab = count("vocab_size", MAX_VOCAB)?;
        let act = match fields.get("hidden_act") {
            None => HiddenAct::Gelu,
            Some(Value::String(s)) if s == "gelu" => HiddenAct::Gelu,
            Some(Value::String(s)) if s == "relu" => HiddenAct::Relu,
            Some(Value::String(s))
                if matches!(
                    s.as_str(),
                    "gelu_new" | "gelu_pytorch_tanh" | "gelu_approximate"
                ) =>
            {
                HiddenAct::GeluApproximate
            }
            Some(_) => {
                return Err("`hidden_act` must be \"gelu\", \"gelu_new\" or \"relu\"".to_owned());
            }
        };
        let eps = match fields.get("layer_norm_eps") {
            None => 1e-12,
            Some(v) => v
                .as_f64()
                .filter(|e| e.is_finite() && *e > 0.0 && *e < 1.0)
                .ok_or("`layer_norm_eps` must be a number between 0 and 1")?,
        };
        match fields.get("position_embedding_type") {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) if s == "absolute" => {}
            Some(_) => return Err("`position_embedding_type` must be \"absolute\"".to_owned()),
        }
        let shape = Self {
            vocab: to_usize(vocab),
            hidden: to_usize(hidden),
            layers: to_usize(count("num_hidden_layers", MAX_LAYERS)?),
            heads: to_usize(heads),
            intermediate: to_usize(count("intermediate_size", MAX_INTERMEDIATE)?),
            positions: to_usize(whole(
                &fields,
                "max_position_embeddings",
                2,
                MAX_POSITIONS,
                None,
            )?),
            types: to_usize(whole(&fields, "type_vocab_size", 1, MAX_TYPES, Some(2))?),
            act,
            eps,
            pad: u32::try_from(whole(&fields, "pad_token_id", 0, vocab - 1, Some(0))?).unwrap_or(0),
            prefix: prefix(&fields),
        };
        if shape.parameters() > MAX_PARAMETERS {
            return Err(format!(
                "its sizes make more than {MAX_PARAMETERS} parameters (at most 2 GiB of weights)"
            ));
        }
        Ok(shape)
    }

    /// The floats of every tensor the encoder reads.
    fn parameters(&self) -> u64 {
        self.tensors("")
            .iter()
            .map(|(_, shape)| shape.iter().map(|&d| d as u64).product::<u64>())
            .sum()
    }

    /// Every tensor the encoder reads, named with `prefix`, and its shape.
    fn tensors(&self, prefix: &str) -> Vec<(String, Vec<usize>)> {
        let (h, i) = (self.hidden, self.intermediate);
        let mut out = Vec::new();
        let mut add = |name: String, shape: &[usize]| out.push((name, shape.to_vec()));
        let e = format!("{prefix}embeddings");
        add(format!("{e}.word_embeddings.weight"), &[self.vocab, h]);
        add(
            format!("{e}.position_embeddings.weight"),
            &[self.positions, h],
        );
        add(
            format!("{e}.token_type_embeddings.weight"),
            &[self.types, h],
        );
        for part in ["weight", "bias"] {
            add(format!("{e}.LayerNorm.{part}"), &[h]);
        }
        for layer in 0..self.layers {
            let l = format!("{prefix}encoder.layer.{layer}");
            let linears = [
                ("attention.self.query", h, h),
                ("attention.self.key", h, h),
                ("attention.self.value", h, h),
                ("attention.output.dense", h, h),
                ("intermediate.dense", i, h),
                ("output.dense", h, i),
            ];
            for (name, rows, cols) in linears {
                add(format!("{l}.{name}.weight"), &[rows, cols]);
                add(format!("{l}.{name}.bias"), &[rows]);
            }
            for norm in ["attention.output.LayerNorm", "output.LayerNorm"] {
                for part in ["weight", "bias"] {
                    add(format!("{l}.{norm}.{part}"), &[h]);
                }
            }
        }
        out
    }

    /// Checks that `weights` holds every tensor of this shape, a float of
    /// exactly its size, under its names with or without the model
    /// type's prefix; returns the prefix they have.
    pub(crate) fn check_tensors(&mut self, weights: &Weights) -> Result<(), String> {
        let plain = "embeddings.word_embeddings.weight";
        if weights.shape(plain).is_some() || self.prefix.is_empty() {
            self.prefix.clear();
        } else if weights.shape(&format!("{}{plain}", self.prefix)).is_none() {
            return Err(format!("it has no tensor {plain}"));
        }
        for (name, shape) in self.tensors(&self.prefix) {
            match weights.shape(&name) {
                None => return Err(format!("it has no tensor {name}")),
                Some(got) if got != shape.as_slice() => {
                    return Err(format!(
                        "tensor {name} is {got:?}, where config.json says {shape:?}"
                    ));
                }
                Some(_) => weights.check_float(&name)?,
            }
        }
        Ok(())
    }

    /// candle's configuration of this shape.
    pub(crate) fn candle(&self) -> Config {
        Config {
            vocab_size: self.vocab,
            hidden_size: self.hidden,
            num_hidden_layers: self.layers,
            num_attention_heads: self.heads,
            intermediate_size: self.intermediate,
            hidden_act: self.act,
            hidden_dropout_prob: 0.0,
            max_position_embeddings: self.positions,
            type_vocab_size: self.types,
            initializer_range: 0.02,
            layer_norm_eps: self.eps,
            pad_token_id: self.pad as usize,
            position_embedding_type: PositionEmbeddingType::Absolute,
            use_cache: false,
            classifier_dropout: None,
            model_type: (!self.prefix.is_empty())
                .then(|| self.prefix.trim_end_matches('.').to_owned()),
        }
    }
}

/// Field `name`, a whole number from `least` to `most` (`default` when
/// absent, required when there is none).
fn whole(
    fields: &Map<String, Value>,
    name: &str,
    least: u64,
    most: u64,
    default: Option<u64>,
) -> Result<u64, String> {
    match fields.get(name) {
        None => default.ok_or_else(|| format!("it has no `{name}`")),
        Some(value) => value
            .as_u64()
            .filter(|n| (least..=most).contains(n))
            .ok_or_else(|| format!("`{name}` must be a whole number from {least} to {most}")),
    }
}

/// The tensors' prefix a `model_type` gives (`bert` → `bert.`), when it is
/// a plain name.
fn prefix(fields: &Map<String, Value>) -> String {
    match fields.get("model_type") {
        Some(Value::String(kind))
            if (1..=32).contains(&kind.len())
                && kind
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_') =>
        {
            format!("{kind}.")
        }
        _ => String::new(),
    }
}

fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINILM: &str = r#"{"vocab_size": 30522, "hidden_size": 384, "num_hidden_layers": 6,
        "num_attention_heads": 12, "intermediate_size": 1536, "hidden_act": "gelu",
        "max_position_embeddings": 512, "type_vocab_size": 2, "layer_norm_eps": 1e-12,
        "pad_token_id": 0, "model_type": "bert"}"#;

    fn with(field: &str, value: &str) -> Result<Shape, String> {
        let mut config: Map<String, Value> = serde_json::from_str(MINILM).unwrap();
        config.insert(field.to_owned(), serde_json::from_str(value).unwrap());
        Shape::parse(&serde_json::to_vec(&config).unwrap())
    }

    #[test]
    fn all_minilm_l6_v2_s_config_is_read() {
        let shape = Shape::parse(MINILM.as_bytes()).unwrap();
        assert_eq!((shape.hidden, shape.layers, shape.heads), (384, 6, 12));
        assert_eq!(shape.prefix, "bert.");
        // 22.6 M parameters.
        assert_eq!(shape.parameters(), 22_565_376);
    }

    #[test]
    fn every_count_out_of_its_limits_is_refused_naming_the_field_not_the_value() {
        for (field, value) in [
            ("num_hidden_layers", "1e12"),
            ("num_hidden_layers", "1000000000000"),
            ("hidden_size", "0"),
            ("num_attention_heads", "0"),
            ("num_attention_heads", "7"),
            ("max_position_embeddings", "65537"),
            ("vocab_size", "-1"),
            ("intermediate_size", "\"\\u001b[31mred\""),
            ("hidden_act", "\"\\u202eevil\""),
            ("layer_norm_eps", "0"),
            ("pad_token_id", "30522"),
        ] {
            let err = with(field, value).expect_err(field);
            assert!(
                err.contains(field) || err.contains("multiple"),
                "{field}: {err}"
            );
            assert!(
                !err.contains("1e12") && !err.contains('\u{1b}') && !err.contains('\u{202e}'),
                "{err}"
            );
        }
        let big = r#"{"vocab_size": 1048576, "hidden_size": 2048, "num_hidden_layers": 48,
            "num_attention_heads": 16, "intermediate_size": 8192,
            "max_position_embeddings": 512}"#;
        let err = Shape::parse(big.as_bytes()).unwrap_err();
        assert!(err.contains("parameters"), "{err}");
        assert!(Shape::parse(b"[1]").is_err());
        assert!(Shape::parse(b"{").unwrap_err().starts_with("not JSON"));
    }
}
