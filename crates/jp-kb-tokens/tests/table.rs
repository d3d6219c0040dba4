#![allow(clippy::expect_used)]
//! The checked-in vocabulary table is exactly `o200k_base` as the
//! `bpe-openai` crate (itself checked against tiktoken) has it.
//!
//! Layout: a little-endian `u32` count, the `u32` end offset of every
//! token's bytes in rank order, then the tokens' bytes. Set
//! `JP_KB_WRITE_TABLE=1` to rewrite the file from the crate (after a
//! `bpe-openai` upgrade), then review the diff of the counts it causes.

use std::path::Path;

fn regenerate() -> Vec<u8> {
    let bpe = &bpe_openai::o200k_base().bpe;
    let count = u32::try_from(bpe.num_tokens()).expect("fewer than 2^32 tokens");
    let mut ends = Vec::with_capacity(bpe.num_tokens());
    let mut bytes = Vec::new();
    for id in 0..count {
        bytes.extend_from_slice(bpe.token_bytes(id));
        ends.push(u32::try_from(bytes.len()).expect("table under 4 GiB"));
    }
    let mut table = count.to_le_bytes().to_vec();
    for end in ends {
        table.extend_from_slice(&end.to_le_bytes());
    }
    table.extend_from_slice(&bytes);
    table
}

#[test]
fn the_checked_in_table_is_o200k_base() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/o200k_base.tokens");
    let fresh = regenerate();
    if std::env::var_os("JP_KB_WRITE_TABLE").is_some() {
        std::fs::write(&path, &fresh).expect("write the table");
    }
    let stored = std::fs::read(&path).expect("read the checked-in table");
    assert_eq!(
        stored.len(),
        fresh.len(),
        "table size differs: regenerate with JP_KB_WRITE_TABLE=1"
    );
    assert!(
        stored == fresh,
        "table bytes differ: regenerate with JP_KB_WRITE_TABLE=1"
    );
}
