//! Which files the saved embeddings were last brought up to date with
//! (`embeddings.synced`, beside them): the digest of the lexical index at
//! that moment ([`jp_kb_search::Lexical::synced`]) and which vectors file
//! that refresh left. A one-off search whose index has that digest and
//! whose vectors file is still that one ranks by meaning without
//! comparing every file's stamp with its vectors: the index's digest
//! says the files are those the vectors were made from, exactly as far
//! as the saved places trust it (`saved_places.rs`).
//!
//! Layout (little-endian): magic, the vectors file's length, modification
//! time (seconds, nanoseconds), inode and device, the digest, a CRC of
//! all of it. Anything else (a cut or damaged file, another layout) is
//! "not known to be synced": the search compares the stamps as before.

use std::fs::Metadata;
use std::path::Path;

use jp_kb_embed::resident::file_identity as identity;
use jp_kb_search::codec::crc;

/// The file, in the index's directory.
pub const SYNCED_FILE: &str = "embeddings.synced";
const MAGIC: &[u8; 8] = b"JPKBVSY1";
const LEN: usize = 8 + 8 * 6 + 4;

/// Records that the vectors file `file` holds the files of an index whose
/// digest is `digest`. Failing to is no error: the next search compares
/// the stamps.
pub fn record(dir: &Path, file: &Metadata, digest: u64) {
    let mut bytes = Vec::with_capacity(LEN);
    bytes.extend_from_slice(MAGIC);
    for n in identity(file).into_iter().chain([digest]) {
        bytes.extend_from_slice(&n.to_le_bytes());
    }
    bytes.extend_from_slice(&crc(&bytes).to_le_bytes());
    let _ = jp_kb_search::write_atomic(&dir.join(SYNCED_FILE), &bytes);
}

/// Whether the vectors file `file` was recorded as holding the files of
/// an index whose digest is `digest`.
pub fn holds(dir: &Path, file: &Metadata, digest: u64) -> bool {
    let Ok(bytes) = crate::config::file::read_guarded(&dir.join(SYNCED_FILE)) else {
        return false;
    };
    if bytes.len() != LEN || !bytes.starts_with(MAGIC) {
        return false;
    }
    let (body, sum) = bytes.split_at(LEN - 4);
    if sum != crc(body).to_le_bytes() {
        return false;
    }
    let numbers: Vec<u64> = body[MAGIC.len()..]
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
        .collect();
    numbers[..5] == identity(file) && numbers[5] == digest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_only_for_the_file_and_digest_recorded_and_never_when_damaged() {
        let tmp = tempfile::tempdir().unwrap();
        let vectors = tmp.path().join("embeddings.bin");
        std::fs::write(&vectors, b"one").unwrap();
        let file = std::fs::metadata(&vectors).unwrap();
        assert!(!holds(tmp.path(), &file, 7), "nothing recorded yet");
        record(tmp.path(), &file, 7);
        assert!(holds(tmp.path(), &file, 7));
        assert!(!holds(tmp.path(), &file, 8), "another digest");
        // The vectors file replaced (another inode, or another length).
        let next = tmp.path().join("next.bin");
        std::fs::write(&next, b"two!").unwrap();
        std::fs::rename(&next, &vectors).unwrap();
        let replaced = std::fs::metadata(&vectors).unwrap();
        assert!(!holds(tmp.path(), &replaced, 7));
        // Every byte flipped, and every cut, is "not known".
        let good = std::fs::read(tmp.path().join(SYNCED_FILE)).unwrap();
        for at in 0..good.len() {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            std::fs::write(tmp.path().join(SYNCED_FILE), &bad).unwrap();
            assert!(!holds(tmp.path(), &file, 7), "flip at {at}");
            std::fs::write(tmp.path().join(SYNCED_FILE), &good[..at]).unwrap();
            assert!(!holds(tmp.path(), &file, 7), "cut at {at}");
        }
    }
}
