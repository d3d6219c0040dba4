//! The Rust embeddings of all-MiniLM-L6-v2 equal an independent numpy
//! forward pass of the same weights (tests/semantic/reference.py, run by
//! tests/semantic/setup.sh) to 1e-4, token ids included.

use std::path::Path;

use jp_kb_embed::Model;

use crate::needs::{Need, require};

#[derive(serde::Deserialize)]
struct Reference {
    text: String,
    ids: Vec<u32>,
    embedding: Vec<f64>,
}

fn reference(model: &Path) -> Vec<Reference> {
    let path = model.with_extension("reference.json");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&bytes).expect("the reference is JSON")
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn embeddings_equal_an_independent_numpy_forward_pass() {
    let dir = require(Need::Model);
    let model = Model::load(&dir).expect("the model loads");
    assert_eq!(model.dims(), 384);
    let cases = reference(&dir);
    assert!(cases.len() >= 7, "the reference covers the sentences");
    // One call, so that texts of different lengths share padded batches.
    let texts: Vec<&str> = cases.iter().map(|c| c.text.as_str()).collect();
    let got = model.embed(&texts).expect("embeds");
    for (case, vector) in cases.iter().zip(&got) {
        assert_eq!(vector.len(), case.embedding.len(), "{:?}", case.text);
        let worst = vector
            .iter()
            .zip(&case.embedding)
            .map(|(a, b)| (f64::from(*a) - b).abs())
            .fold(0.0, f64::max);
        assert!(worst < 1e-4, "{:?}: off by {worst}", case.text);
        let norm: f64 = vector
            .iter()
            .map(|v| f64::from(*v).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "unit length: {norm}");
    }
    // The longest sentence was cut to the model's 256 pieces.
    assert!(cases.iter().any(|c| c.ids.len() == 256));
    // One at a time gives what the padded batch gave.
    let alone = model.embed(&texts[..1]).expect("embeds");
    let drift = alone[0]
        .iter()
        .zip(&got[0])
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(drift < 1e-5, "padding changed a vector by {drift}");
}

/// A one-off query's encoder (candle's, its word table cut to the
/// query's own pieces) gives the reference, and what the whole encoder
/// gives the same text, whatever the text (repeated pieces, the 256-piece
/// cut).
#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn a_one_off_query_equals_the_reference_and_the_whole_encoder() {
    let dir = require(Need::Model);
    for case in reference(&dir) {
        let model = Model::load(&dir).expect("the model loads");
        let alone = model.embed_query(&case.text).expect("embeds");
        let whole = model
            .embed(&[case.text.as_str()])
            .expect("embeds")
            .remove(0);
        let off = alone
            .iter()
            .zip(&case.embedding)
            .map(|(a, b)| (f64::from(*a) - b).abs())
            .fold(0.0, f64::max);
        assert!(off < 1e-4, "{:?}: off by {off}", case.text);
        let apart = alone
            .iter()
            .zip(&whole)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(
            apart < 1e-6,
            "{:?}: the two encoders differ by {apart}",
            case.text
        );
    }
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn closer_meanings_score_higher() {
    let model = Model::load(&require(Need::Model)).expect("the model loads");
    let v = model
        .embed(&[
            "check whether a host is reachable",
            "ping: send ICMP ECHO_REQUEST packets to network hosts",
            "tar: archiving utility, extract files from an archive",
        ])
        .expect("embeds");
    let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
    assert!(dot(&v[0], &v[1]) > dot(&v[0], &v[2]) + 0.1);
}

#[test]
fn a_missing_or_odd_model_directory_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let err = Model::load(dir.path()).expect_err("no files");
    let text = err.to_string();
    assert!(
        text.contains("config.json") && text.contains("jp-kb model fetch"),
        "{text}"
    );
    std::fs::write(dir.path().join("config.json"), "{\"not\": \"bert\"}").expect("write");
    let err = Model::load(dir.path()).expect_err("not a BERT config");
    let text = err.to_string();
    assert!(
        text.contains("config.json") && text.contains("it has no `hidden_size`"),
        "{text}"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_as_a_model_file_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("config.json");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .expect("mkfifo");
    let err = Model::load(dir.path()).expect_err("a FIFO is not a model file");
    assert!(err.to_string().contains("not a regular file"), "{err}");
}
