//! What one query costs a process that embeds nothing else (a one-off
//! `jp-kb search`): loading the model, then embedding the query (an
//! encoder whose word table holds the query's pieces only), then a second
//! query by the whole encoder, kept (as the MCP server and the TUI do).
//! `cargo run --release -p jp-kb-embed --example query -- MODEL_DIR "some
//! question"` (docs/perf.md).

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
    model.embed_query(&query)?;
    let first = started.elapsed();
    model.embed(&[&query])?;
    let started = Instant::now();
    model.embed(&[&query])?;
    let second = started.elapsed();
    println!(
        "model {:08x} loaded in {loaded:.2?}; first query in {first:.2?}; second in {second:.2?}",
        model.fingerprint()
    );
    Ok(())
}
