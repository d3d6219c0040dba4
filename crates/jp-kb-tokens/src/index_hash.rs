//! The table's parts and the hash of the vocabulary's index, shared by
//! `build.rs` (which lays the index out) and [`crate::vocab`] (which
//! probes it): both must agree bit for bit.

/// The checked-in table's parts: the token count, the tokens' end
/// offsets (`u32` each) and their bytes. A table too short for its count
/// has no tokens.
pub fn table_parts(table: &[u8]) -> (u32, &[u8], &[u8]) {
    let count = table
        .get(..4)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes);
    let split = 4 + count as usize * 4;
    match (table.get(4..split), table.get(split..)) {
        (Some(ends), Some(bytes)) if !ends.is_empty() => (count, ends, bytes),
        _ => (0, &[], &[]),
    }
}

/// A fast hash of short byte strings (tokens average 7 bytes).
pub fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    let mut last = [0u8; 8];
    let rest = chunks.remainder();
    last[..rest.len()].copy_from_slice(rest);
    h = (h.rotate_left(5) ^ u64::from_le_bytes(last)).wrapping_mul(K);
    // Fold the well-mixed high bits into the low ones (the slot index);
    // the high half stays as the fingerprint.
    h ^ (h >> 29)
}

/// Where a hash starts probing (its low bits).
#[allow(clippy::cast_possible_truncation)]
pub fn slot_of(h: u64, mask: usize) -> usize {
    (h as usize) & mask
}
