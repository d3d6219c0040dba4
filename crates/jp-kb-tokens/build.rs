//! Lays out the vocabulary's index at build time (`OUT_DIR/o200k_index.bin`)
//! from the checked-in table, so that no process builds it: building it
//! was ~18 ms of CPU at the first count of every process (`jp-kb search`
//! counts its hits' tokens; `docs/perf.md`, "Search", "Speed").
//!
//! Layout (little-endian): the open-addressing slots (`u64` each: the
//! high half of the token's hash above `rank + 1`, 0 for a free slot),
//! then the rank of every two-byte token by its two bytes (`u32` each,
//! `u32::MAX`: none). `src/vocab.rs` reads it in place.

#[path = "src/index_hash.rs"]
mod index_hash;

use std::path::Path;

fn main() {
    let table_path = Path::new("data/o200k_base.tokens");
    println!("cargo:rerun-if-changed={}", table_path.display());
    println!("cargo:rerun-if-changed=src/index_hash.rs");
    let table = std::fs::read(table_path).unwrap_or_default();
    let (count, ends, bytes) = index_hash::table_parts(&table);
    let end_of = |r: u32| -> usize {
        let at = r as usize * 4;
        ends.get(at..at + 4)
            .and_then(|b| b.try_into().ok())
            .map_or(0, |b| u32::from_le_bytes(b) as usize)
    };
    let mut slots = vec![0u64; (count as usize * 2).next_power_of_two().max(2)];
    let mut pairs = vec![u32::MAX; 1 << 16];
    let mask = slots.len() - 1;
    for rank in 0..count {
        let start = if rank == 0 { 0 } else { end_of(rank - 1) };
        let token = bytes.get(start..end_of(rank)).unwrap_or(&[]);
        if let [a, b] = token {
            pairs[usize::from(*a) << 8 | usize::from(*b)] = rank;
        }
        let h = index_hash::hash(token);
        let mut at = index_hash::slot_of(h, mask);
        while slots[at] != 0 {
            at = (at + 1) & mask;
        }
        slots[at] = (h & !0xffff_ffff) | u64::from(rank + 1);
    }
    let mut out = Vec::with_capacity(slots.len() * 8 + pairs.len() * 4);
    for slot in slots {
        out.extend_from_slice(&slot.to_le_bytes());
    }
    for pair in pairs {
        out.extend_from_slice(&pair.to_le_bytes());
    }
    let dir = std::env::var_os("OUT_DIR").unwrap_or_default();
    if let Err(e) = std::fs::write(Path::new(&dir).join("o200k_index.bin"), out) {
        println!("cargo:warning=cannot write the vocabulary index: {e}");
        std::process::exit(1);
    }
}
