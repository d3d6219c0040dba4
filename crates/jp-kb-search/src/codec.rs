//! Byte-level helpers of the index's and the saved walks' formats: a
//! checksum, varints, length-prefixed strings and a bounds-checked reader
//! (every read of damaged bytes is an error, never a panic).

/// What is wrong with damaged bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Corrupt(pub &'static str);

impl std::fmt::Display for Corrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "damaged ({})", self.0)
    }
}

impl std::error::Error for Corrupt {}

/// The files' checksum: CRC-32 (`crc32fast`, SIMD where the machine has
/// it), which detects every single-bit and every burst error up to 32
/// bits, with the length mixed in so a truncation that happens to keep
/// the CRC is caught too. Stored in the files' 8-byte checksum field. It
/// catches a damaged or truncated file, not an attacker (the cache is the
/// user's own).
pub fn checksum(data: &[u8]) -> u64 {
    (data.len() as u64) << 32 | u64::from(crc32fast::hash(data))
}

/// The CRC-32 of one part of a file (its length is known from the table
/// that points at it, which has its own checksum).
pub fn crc(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

/// Appends `v` as a LEB128 varint.
#[allow(clippy::cast_possible_truncation)] // masked to 7 bits first
pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v & 0x7F) as u8 | 0x80);
        v >>= 7;
    }
    out.push((v & 0x7F) as u8);
}

/// A varint and the bytes after it; `None` when truncated or overlong.
pub fn read_varint(data: &[u8]) -> Option<(u64, &[u8])> {
    let mut v = 0u64;
    for (i, &b) in data.iter().enumerate().take(10) {
        v |= u64::from(b & 0x7F) << (7 * i);
        if b & 0x80 == 0 {
            return Some((v, &data[i + 1..]));
        }
    }
    None
}

/// Appends `s` as a varint length and its bytes.
pub fn put_string(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// Reads `data` from `at` on, each read bounds-checked.
pub struct Reader<'a> {
    pub data: &'a [u8],
    pub at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, at: 0 }
    }
    /// True when every byte was read.
    pub fn is_done(&self) -> bool {
        self.at == self.data.len()
    }
    /// The next varint.
    pub fn varint(&mut self) -> Result<u64, Corrupt> {
        let rest = self.data.get(self.at..).ok_or(Corrupt("truncated"))?;
        let (v, after) = read_varint(rest).ok_or(Corrupt("number"))?;
        self.at += rest.len() - after.len();
        Ok(v)
    }
    /// The next varint as a count of items of at least `min` bytes each
    /// still to come: a larger count is damage (and no allocation is made
    /// for it).
    pub fn count(&mut self, min: usize) -> Result<usize, Corrupt> {
        let v = usize::try_from(self.varint()?).map_err(|_| Corrupt("count"))?;
        let left = self.data.len().saturating_sub(self.at);
        if v.saturating_mul(min.max(1)) > left {
            return Err(Corrupt("count"));
        }
        Ok(v)
    }
    /// The next length-prefixed string, borrowed.
    pub fn str(&mut self) -> Result<&'a str, Corrupt> {
        let len = usize::try_from(self.varint()?).map_err(|_| Corrupt("length"))?;
        let end = self.at.checked_add(len).ok_or(Corrupt("length"))?;
        let bytes = self.data.get(self.at..end).ok_or(Corrupt("truncated"))?;
        self.at = end;
        std::str::from_utf8(bytes).map_err(|_| Corrupt("text"))
    }
    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], Corrupt> {
        let end = self.at.checked_add(n).ok_or(Corrupt("length"))?;
        let out = self.data.get(self.at..end).ok_or(Corrupt("truncated"))?;
        self.at = end;
        Ok(out)
    }
    /// The next little-endian `u32`.
    pub fn u32(&mut self) -> Result<u32, Corrupt> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    /// The next little-endian `u64`.
    pub fn u64(&mut self) -> Result<u64, Corrupt> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes([
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
        ]))
    }
    /// The next length-prefixed string, owned.
    pub fn string(&mut self) -> Result<String, Corrupt> {
        self.str().map(str::to_owned)
    }
}
