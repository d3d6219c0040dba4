//! Embeds the files given on the command line as chunks and prints the
//! throughput beside the floor of the same run: `cargo run --release -p
//! jp-kb-embed --example throughput -- [--floor] MODEL_DIR FILE...` (the
//! figures in docs/perf.md). With `--floor` it prints the floor and the
//! work without embedding.
//!
//! The floor is the encoder's floating-point work ([`Model::cost`]) at
//! the rate candle's matrix products reach on this machine, measured
//! first: a product of the feed-forward's shape on every core, each core
//! on its own, as a build runs them. Nothing a build does beside the
//! products (the element-wise steps, the allocations) is in it.

use std::time::{Duration, Instant};

use candle_core::{Device, Tensor};
use jp_kb_embed::Model;

/// The allocator of the `jp-kb` binary, which runs the builds.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Rows of the product that measures the machine's rate: a batch of 16
/// texts of 64 word pieces, against the feed-forward's 384 × 1536.
const ROWS: usize = 1024;
const INNER: usize = 384;
const COLS: usize = 1536;
/// How long the rate is measured for.
const MEASURE: Duration = Duration::from_secs(3);

#[allow(clippy::cast_precision_loss)] // rates for a person to read
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let usage = "usage: throughput [--floor] MODEL_DIR FILE...";
    let mut args = std::env::args_os().skip(1).peekable();
    let floor_only = args.next_if(|a| a == "--floor").is_some();
    let dir = args.next().ok_or(usage)?;
    let rate = product_rate()?;
    let started = Instant::now();
    let model = Model::load(std::path::Path::new(&dir))?;
    let loaded = started.elapsed();
    let mut chunks = Vec::new();
    for file in args {
        let text = std::fs::read_to_string(&file)?;
        let slug = std::path::Path::new(&file).display().to_string();
        chunks.extend(jp_kb_embed::chunks(&slug, &text, true));
    }
    let texts: Vec<&str> = chunks.iter().map(String::as_str).collect();
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    let cost = model.cost(&texts)?;
    if floor_only {
        println!(
            "candle's products on this machine: {:.1} GFLOP/s on all cores\n\
             {} chunks ({bytes} bytes, {} word pieces, {} with padding)\n\
             work: {:.2} TFLOP ({:.2} with padding); floor at that rate {:.2} s",
            rate / 1e9,
            texts.len(),
            cost.pieces,
            cost.padded,
            cost.flops / 1e12,
            cost.padded_flops / 1e12,
            cost.flops / rate,
        );
        return Ok(());
    }
    let started = Instant::now();
    let vectors = model.embed(&texts)?;
    let took = started.elapsed().as_secs_f64();
    let floor = cost.flops / rate;
    println!(
        "candle's products on this machine: {:.1} GFLOP/s on all cores\n\
         model loaded in {loaded:.2?}; {} chunks ({bytes} bytes, {} word pieces, {} with padding) in {took:.2} s: {:.0} chunks/s\n\
         work: {:.2} TFLOP ({:.2} with padding); floor at that rate {floor:.2} s; this build {:.2}x the floor",
        rate / 1e9,
        vectors.len(),
        cost.pieces,
        cost.padded,
        vectors.len() as f64 / took,
        cost.flops / 1e12,
        cost.padded_flops / 1e12,
        took / floor,
    );
    Ok(())
}

/// Floating-point operations a second of candle's matrix products on
/// every core at once, each core on its own product (as a build runs).
#[allow(clippy::cast_precision_loss)] // a rate
fn product_rate() -> Result<f64, Box<dyn std::error::Error>> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let counts = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..cores)
            .map(|_| {
                scope.spawn(|| -> Result<usize, candle_core::Error> {
                    let a = Tensor::ones((ROWS, INNER), candle_core::DType::F32, &Device::Cpu)?;
                    let b = Tensor::ones((INNER, COLS), candle_core::DType::F32, &Device::Cpu)?;
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(1)
                        .build()
                        .map_err(candle_core::Error::wrap)?;
                    pool.install(|| {
                        let started = Instant::now();
                        let mut done = 0;
                        while started.elapsed() < MEASURE {
                            a.matmul(&b)?;
                            done += 1;
                        }
                        Ok(done)
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Ok(0)))
            .collect::<Result<Vec<_>, _>>()
    })?;
    let products: usize = counts.iter().sum();
    let per_product = 2.0 * (ROWS * INNER * COLS) as f64;
    Ok(products as f64 * per_product / MEASURE.as_secs_f64())
}
