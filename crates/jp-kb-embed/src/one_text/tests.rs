#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use proptest::prelude::*;
use safetensors::tensor::{Dtype, TensorView, serialize};

use super::OneText;
use crate::weights::Weights;

/// Numbers in [-1, 1], the same for the same seed (xorshift).
pub(super) fn random(seed: u64) -> impl FnMut() -> f32 {
    let mut state = seed | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 2001) as f32 / 1000.0 - 1.0
    }
}

/// A small BERT: 2 layers, `hidden` wide in `heads` heads.
fn config(hidden: usize, heads: usize, act: &str) -> Config {
    serde_json::from_value(serde_json::json!({
        "vocab_size": 11, "hidden_size": hidden, "num_hidden_layers": 2,
        "num_attention_heads": heads, "intermediate_size": hidden * 3,
        "hidden_act": act, "hidden_dropout_prob": 0.0,
        "max_position_embeddings": 9, "type_vocab_size": 2,
        "initializer_range": 0.02, "layer_norm_eps": 1e-12,
        "pad_token_id": 0, "classifier_dropout": null, "model_type": "bert",
    }))
    .unwrap()
}

/// Every tensor of `config`'s encoder, random (from `seed`), named with
/// `prefix`; a tensor named `misfit` gets one row too many.
fn model_file(config: &Config, prefix: &str, seed: u64, misfit: &str) -> tempfile::TempDir {
    let (h, i) = (config.hidden_size, config.intermediate_size);
    let mut shapes = vec![
        (
            "embeddings.word_embeddings.weight".to_owned(),
            vec![config.vocab_size, h],
        ),
        (
            "embeddings.position_embeddings.weight".to_owned(),
            vec![config.max_position_embeddings, h],
        ),
        (
            "embeddings.token_type_embeddings.weight".to_owned(),
            vec![config.type_vocab_size, h],
        ),
        ("embeddings.LayerNorm.weight".to_owned(), vec![h]),
        ("embeddings.LayerNorm.bias".to_owned(), vec![h]),
    ];
    for l in 0..config.num_hidden_layers {
        let at = |p: &str| format!("encoder.layer.{l}.{p}");
        for (part, rows, cols) in [
            ("attention.self.query", h, h),
            ("attention.self.key", h, h),
            ("attention.self.value", h, h),
            ("attention.output.dense", h, h),
            ("intermediate.dense", i, h),
            ("output.dense", h, i),
        ] {
            shapes.push((at(&format!("{part}.weight")), vec![rows, cols]));
            shapes.push((at(&format!("{part}.bias")), vec![rows]));
        }
        for norm in ["attention.output.LayerNorm", "output.LayerNorm"] {
            shapes.push((at(&format!("{norm}.weight")), vec![h]));
            shapes.push((at(&format!("{norm}.bias")), vec![h]));
        }
    }
    let mut next = random(seed);
    let data: Vec<(String, Vec<usize>, Vec<u8>)> = shapes
        .into_iter()
        .map(|(name, mut shape)| {
            if name == misfit {
                shape[0] += 1;
            }
            let n: usize = shape.iter().product();
            let bytes = (0..n).flat_map(|_| next().to_le_bytes()).collect();
            (format!("{prefix}{name}"), shape, bytes)
        })
        .collect();
    let views = data.iter().map(|(name, shape, bytes)| {
        (
            name.clone(),
            TensorView::new(Dtype::F32, shape.clone(), bytes).unwrap(),
        )
    });
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("model.safetensors"),
        serialize(views, None).unwrap(),
    )
    .unwrap();
    dir
}

/// What candle's encoder gives for `ids`, pooled as `Model` pools.
fn candle_vector(weights: &Weights, config: &Config, ids: &[u32]) -> Vec<f32> {
    let vb = VarBuilder::from_backend(Box::new(weights.clone()), DType::F32, Device::Cpu);
    let bert = BertModel::load(vb, config).unwrap();
    let ids = Tensor::new(ids, &Device::Cpu)
        .unwrap()
        .unsqueeze(0)
        .unwrap();
    let types = ids.zeros_like().unwrap();
    let hidden = bert.forward(&ids, &types, None).unwrap();
    let mean = hidden.mean(1).unwrap().squeeze(0).unwrap();
    let norm = mean.sqr().unwrap().sum_all().unwrap().sqrt().unwrap();
    mean.broadcast_div(&norm).unwrap().to_vec1().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any text's word pieces, widths that fill no whole vector or tile,
    /// each activation, with and without the model type's prefix.
    #[test]
    fn gives_what_candle_s_encoder_gives(
        ids in proptest::collection::vec(0u32..11, 1..10),
        heads in 1usize..4,
        head_width in 1usize..7,
        act in prop::sample::select(vec!["gelu", "geluapproximate", "relu"]),
        prefixed in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let config = config(heads * head_width, heads, act);
        let dir = model_file(&config, if prefixed { "bert." } else { "" }, seed, "");
        let weights = Weights::open(&dir.path().join("model.safetensors")).unwrap();
        let one = OneText::load(&weights, &config, false).unwrap();
        let got = one.embed(&weights, &ids).unwrap();
        let want = candle_vector(&weights, &config, &ids);
        prop_assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            prop_assert!((g - w).abs() < 1e-4, "{:?} against {:?}", got, want);
        }
    }
}

#[test]
fn a_tensor_that_does_not_fit_the_config_is_an_error_naming_it() {
    let config = config(8, 2, "gelu");
    for misfit in [
        "embeddings.word_embeddings.weight",
        "embeddings.position_embeddings.weight",
        "encoder.layer.1.attention.self.key.weight",
        "encoder.layer.0.output.dense.bias",
        "encoder.layer.1.output.LayerNorm.weight",
    ] {
        let dir = model_file(&config, "bert.", 7, misfit);
        let weights = Weights::open(&dir.path().join("model.safetensors")).unwrap();
        let err = OneText::load(&weights, &config, false)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("do not fit config.json")
                && err.contains(misfit)
                && err.contains("model.safetensors"),
            "{err}"
        );
    }
    let odd = Config {
        num_attention_heads: 3,
        ..config.clone()
    };
    let dir = model_file(&config, "", 7, "");
    let weights = Weights::open(&dir.path().join("model.safetensors")).unwrap();
    let err = OneText::load(&weights, &odd, false)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("not a multiple of num_attention_heads 3"),
        "{err}"
    );
}

#[test]
fn word_pieces_beyond_the_table_or_the_positions_are_errors() {
    let config = config(8, 2, "gelu");
    let dir = model_file(&config, "", 7, "");
    let weights = Weights::open(&dir.path().join("model.safetensors")).unwrap();
    let one = OneText::load(&weights, &config, false).unwrap();
    let err = one.embed(&weights, &[1, 11]).unwrap_err().to_string();
    assert!(err.contains("word piece 11 is beyond"), "{err}");
    let err = one.embed(&weights, &[1; 10]).unwrap_err().to_string();
    assert!(
        err.contains("10 tokens do not fit the model's positions"),
        "{err}"
    );
    let err = one.embed(&weights, &[]).unwrap_err().to_string();
    assert!(err.contains("0 tokens"), "{err}");
    assert_eq!(one.embed(&weights, &[1; 9]).unwrap().len(), 8);
}
