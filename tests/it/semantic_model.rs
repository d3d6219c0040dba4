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

/// The largest difference between a vector and its reference.
fn off_by(vector: &[f32], reference: &[f64]) -> f64 {
    vector
        .iter()
        .zip(reference)
        .map(|(a, b)| (f64::from(*a) - b).abs())
        .fold(0.0, f64::max)
}

/// The largest difference between two vectors.
fn apart(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f32, f32::max)
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
        let worst = off_by(vector, &case.embedding);
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
    let drift = apart(&alone[0], &got[0]);
    assert!(drift < 1e-5, "padding changed a vector by {drift}");
}

/// Many texts at once run in batches on every core, each core's products
/// on its own: every vector is still the reference's.
#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn many_batches_on_every_core_equal_the_reference() {
    let dir = require(Need::Model);
    let model = Model::load(&dir).expect("the model loads");
    let cases = reference(&dir);
    // Eight copies of each sentence: several batches of 16, so more than
    // one thread embeds.
    let texts: Vec<&str> = (0..8)
        .flat_map(|_| cases.iter().map(|c| c.text.as_str()))
        .collect();
    let got = model.embed(&texts).expect("embeds");
    assert_eq!(got.len(), texts.len());
    for (text, vector) in texts.iter().zip(&got) {
        let case = cases.iter().find(|c| c.text == *text).expect("a case");
        let worst = off_by(vector, &case.embedding);
        assert!(worst < 1e-4, "{text:?}: off by {worst}");
    }
}

/// What a build costs is counted on the pieces the reference made, and
/// batches are formed by word pieces, not bytes: texts whose byte lengths
/// say the opposite of their pieces are batched without padding.
#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn the_cost_counts_the_pieces_and_batches_pad_little() {
    let dir = require(Need::Model);
    let model = Model::load(&dir).expect("the model loads");
    let cases = reference(&dir);
    let case = &cases[0];
    let cost = model.cost(&[case.text.as_str()]).expect("counts");
    assert_eq!(cost.pieces, case.ids.len());
    assert_eq!(cost.padded, case.ids.len());
    // all-MiniLM-L6-v2: 6 layers 384 wide, 1,536 in the feed-forward.
    let n = f64::from(u32::try_from(case.ids.len()).unwrap_or(u32::MAX));
    let want =
        2.0 * 6.0 * (4.0 * 384.0 * 384.0 + 2.0 * 384.0 * 1536.0) * n + 4.0 * 6.0 * 384.0 * n * n;
    assert!((cost.flops - want).abs() < 1.0, "{} != {want}", cost.flops);
    // Pairs of texts of the same bytes: one of 40 pieces (each `!` is
    // one), one of ten (`the ` is one in four bytes; spaces are none). In
    // byte order each batch of 16 mixes them, and the short ones are
    // padded to 40; by pieces, nothing is padded.
    let mut texts = Vec::new();
    for i in 0..16 {
        texts.push(format!("{}{}", "!".repeat(40 - i), " !".repeat(i)));
        texts.push(format!("{}{}", "the ".repeat(10), " ".repeat(i)));
    }
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let cost = model.cost(&texts).expect("counts");
    let own: usize = texts
        .iter()
        .map(|t| model.cost(&[t]).expect("counts").pieces)
        .sum();
    assert_eq!(cost.pieces, own);
    assert_eq!(cost.padded, cost.pieces);
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
        let off = off_by(&alone, &case.embedding);
        assert!(off < 1e-4, "{:?}: off by {off}", case.text);
        let gap = apart(&alone, &whole);
        assert!(
            gap < 1e-6,
            "{:?}: the two encoders differ by {gap}",
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
