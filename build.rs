//! Writes the `o200k_base` vocabulary, in rank order, as a compact table
//! the token counter reads in place (`src/tokens/vocab.rs`): a `u32`
//! count, the `u32` end offset of every token, then the tokens' bytes.
//!
//! The vocabulary comes from the `bpe-openai` crate (its token ids are
//! tiktoken's ranks). Loading that crate's tokenizer at run time would
//! cost the TUI ~70 MB (its search automata and the serialized tables in
//! the binary); this table is ~2 MB.

use std::error::Error;
use std::io::Write as _;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo::rerun-if-changed=build.rs");
    let bpe = &bpe_openai::o200k_base().bpe;
    let count = u32::try_from(bpe.num_tokens())?;
    let mut ends = Vec::with_capacity(bpe.num_tokens());
    let mut bytes = Vec::new();
    for id in 0..count {
        bytes.extend_from_slice(bpe.token_bytes(id));
        ends.push(u32::try_from(bytes.len())?);
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("cargo sets OUT_DIR")?);
    let mut file = std::io::BufWriter::new(std::fs::File::create(out.join("o200k_base.tokens"))?);
    file.write_all(&count.to_le_bytes())?;
    for end in ends {
        file.write_all(&end.to_le_bytes())?;
    }
    file.write_all(&bytes)?;
    file.flush()?;
    Ok(())
}
