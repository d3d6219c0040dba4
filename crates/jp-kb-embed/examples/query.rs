//! What one query costs a process that embeds nothing else (a one-off
//! `jp-kb search`): loading the model, then embedding the query, which
//! reads only the weights the query uses; then a second query, which
//! reads the whole encoder once; then a third, with the encoder kept. `cargo run --release -p jp-kb-embed
//! --example query -- MODEL_DIR "some question"` (docs/perf.md).

use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1);
    let dir = args.next().ok_or("usage: query MODEL_DIR QUERY")?;
    let query = args.next().ok_or("usage: query MODEL_DIR QUERY")?;
    let query = query.to_string_lossy();
    let started = Instant::now();
    let model = jp_kb_embed::Model::load(std::path::Path::new(&dir))?;
    let loaded = started.elapsed();
    let started = Instant::now();
    let first = model.embed_query(&query)?;
    let first_took = started.elapsed();
    let started = Instant::now();
    let second = model.embed_query(&query)?;
    let second_took = started.elapsed();
    let started = Instant::now();
    let _ = model.embed_query(&query)?;
    let third_took = started.elapsed();
    let apart = first
        .iter()
        .zip(&second)
        .map(|(a, b)| (a - b).abs())
        .fold(0f32, f32::max);
    println!(
        "model {:08x} loaded (tokenizer, header, fingerprint) in {loaded:.2?}; first query in {first_took:.2?}; second (whole encoder read) in {second_took:.2?}; third (encoder kept) in {third_took:.2?}; largest difference {apart:e}",
        model.fingerprint()
    );
    Ok(())
}
