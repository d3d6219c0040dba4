//! Embeds the files given on the command line as chunks and prints the
//! throughput: `cargo run --release -p jp-kb-embed --example throughput --
//! MODEL_DIR FILE...` (the figure in docs/perf.md).

use std::time::Instant;

#[allow(clippy::cast_precision_loss)] // rates for a person to read
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1);
    let dir = args.next().ok_or("usage: throughput MODEL_DIR FILE...")?;
    let started = Instant::now();
    let model = jp_kb_embed::Model::load(std::path::Path::new(&dir))?;
    let loaded = started.elapsed();
    let mut chunks = Vec::new();
    for file in args {
        let text = std::fs::read_to_string(&file)?;
        let slug = std::path::Path::new(&file).display().to_string();
        chunks.extend(jp_kb_embed::chunks(&slug, &text, true));
    }
    let texts: Vec<&str> = chunks.iter().map(String::as_str).collect();
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    let started = Instant::now();
    let vectors = model.embed(&texts)?;
    let took = started.elapsed();
    println!(
        "model loaded in {loaded:.2?}; {} chunks ({bytes} bytes) in {took:.2?}: {:.0} chunks/s, {:.0} bytes/s",
        vectors.len(),
        vectors.len() as f64 / took.as_secs_f64(),
        bytes as f64 / took.as_secs_f64()
    );
    Ok(())
}
